"""Round-6 mutation gaps of the calibration wiring of a joint multiclass fit
(:mod:`dpboost.multiclass` -> :func:`dpboost.multiclass_discriminant.calibrate_scores`).

Spies on the post-processing steps check what the fit hands them (the release itself, not the
prior's balanced centres; the whitening it used; the input scale and the temperature's planned
budget), and that the model folds the drawn family's own offsets and hypotheses."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpboost.multiclass_discriminant as md
import dpboost.multiclass_prior as mp
from dpboost import PrivateHalfspaceClassifier
from dpboost.private_temperature import temperature_event


def _task(n: int, seed: int, p=(0.7, 0.22, 0.08)):
    """Three classes (default 70/22/8%) told apart along x_1 - x_3, x_2 - x_4, with a nuisance."""
    rng = np.random.default_rng(seed)
    y = rng.choice(3, n, p=list(p))
    means = np.array([[0.08, 0.0], [-0.04, 0.07], [-0.04, -0.07]])
    u = rng.normal(0, 0.25, (n, 1))
    X = np.hstack([u + means[y] + rng.normal(0, 0.03, (n, 2)), u + rng.normal(0, 0.03, (n, 2)),
                   np.full((n, 1), 0.3)])
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None], y


BALANCED = (1 / 3, 1 / 3, 1 / 3)


@pytest.fixture(scope="module", params=["imbalanced", "balanced"])
def spied(request):
    p = BALANCED if request.param == "balanced" else (0.7, 0.22, 0.08)
    seen = {}
    mpatch = pytest.MonkeyPatch()
    real_prior, real_cal = mp.fit_prior, md.calibrate_scores

    def prior_spy(coefs, *a, **k):
        seen["release"] = np.array(coefs, copy=True)
        out = real_prior(coefs, *a, **k)
        seen["prior_out"] = out
        return out

    def cal_spy(*a, **k):
        seen["args"], seen["kwargs"] = a, k
        seen["out"] = real_cal(*a, **k)
        return seen["out"]

    mpatch.setattr(mp, "fit_prior", prior_spy)
    mpatch.setattr(md, "calibrate_scores", cal_spy)
    try:
        X, y = _task(12_000, 0, p)
        clf = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2], random_state=0)
        clf.fit(X, y)
    finally:
        mpatch.undo()
    seen["X"] = X
    return clf, seen


def test_the_discriminants_are_built_from_the_release_and_the_whitening_used(spied):
    clf, seen = spied
    k = seen["kwargs"]
    np.testing.assert_array_equal(k["released"], seen["release"])
    assert seen["args"][2] is seen["prior_out"][0]
    assert k["white"] is clf.input_whitening_ and k["white"].applied
    assert k["scale"] == clf.input_scale_ and k["constant"] > 0.0


def test_the_temperature_is_drawn_with_its_planned_budget(spied):
    clf, seen = spied
    planned = [m for m in clf.privacy_report_["mechanisms"] if "temperature" in m["name"]]
    assert len(planned) == 1
    rho = seen["kwargs"]["rho"]
    assert rho == pytest.approx(planned[0]["rho"], rel=1e-9)
    assert clf.calibration_.epsilon_0 == temperature_event(rho).epsilon
    assert clf.calibration_.epsilon_0 <= math.sqrt(8 * planned[0]["rho"]) * (1 + 1e-12)


def test_the_model_folds_the_drawn_familys_hypotheses_and_offsets(spied):
    """On training rows far inside the ball (the 30% of smallest norm, before and after the
    map: clipped at no stage of the fit, so mapped alike at fit and predict time) the model's
    logits are ``tau / B`` times the drawn family's scores plus its own offsets."""
    clf, seen = spied
    out = seen["out"]
    assert clf.privacy_report_["calibration"]["scores"] == out.scores
    assert out.scores.startswith("discriminant")  # with its own offsets, log pi
    np.testing.assert_array_equal(clf.boosted_coef_, out.coefs.mean(axis=0))
    mapped = seen["args"][0]
    X = seen["X"]
    nz, nx = np.linalg.norm(mapped, axis=1), np.linalg.norm(X, axis=1)
    inside = np.flatnonzero((nz < np.quantile(nz, 0.3)) & (nx < np.quantile(nx, 0.3)))[:300]
    assert inside.size == 300
    offsets = 0.0 if out.offsets is None else out.offsets
    expect = out.temperature.factor * (mapped[inside] @ out.coefs.mean(axis=0).T) + offsets
    np.testing.assert_allclose(clf.decision_function(X[inside]), expect, rtol=1e-7, atol=1e-9)


def test_the_imbalanced_fit_applies_the_prior(spied):
    clf, seen = spied
    imbalanced = np.bincount(clf.predict(seen["X"][:2000]), minlength=3)[0] > 1000
    assert (seen["prior_out"][1] is not None) == imbalanced
