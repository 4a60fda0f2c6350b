"""Session 24: a multiclass fit whose whitening is released pre-scales the rows privately first.

The mean and the second-moment matrix are released on ``clip(s_0 x, R)``, ``s_0`` from a
row-norm histogram of half the norm share (``RunPlan.with_prescale``); the input scale after the
map takes the other half.  These tests check the accounting (the total is the planned one, the
two histograms are named and composed), the public sensitivities (the released statistics only
ever see rows of norm at most ``R``), the fold (``coef_`` over the user's rows) and that fits
without the whitening, and binary fits, are unchanged.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpboost.input_map as input_map
from accounting import SelfComposedEvent, ZCDPAccountant, event_from_dict
from dpboost import PrivateHalfspaceClassifier
from dpboost.budget_plan import plan_run
from dpboost.defaults import norm_histogram_event


def _thin_blobs(n=3000, K=3, scale=0.3, seed=3):
    """Rows that fill the unit ball thinly (norms about 0.1-0.35), like TabularEncoder's."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    u = rng.normal(0, 0.25, (n, 1))
    X = np.hstack([u + 0.08 * np.eye(K)[y] + rng.normal(0, 0.03, (n, K)), np.full((n, 1), 0.3)])
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    return X * scale, y


def _rho(event):
    return ZCDPAccountant().compose(event).rho


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0, 5.0, 20.0])
@pytest.mark.parametrize("learn_kappa", [False, True])
def test_prescale_keeps_the_total_and_names_two_histograms(eps, learn_kappa):
    plan = plan_run(eps, 1e-6, n_rounds=None, learn_kappa=learn_kappa, calibration=True,
                    method="best", learn_scale=True, centre=True, whiten=True)
    two = plan.with_prescale()
    assert two.with_prescale() is two  # idempotent: never three histograms
    assert two.norms_twice and two.rho_norms == plan.rho_norms / 2
    assert two.norms_event() == SelfComposedEvent(norm_histogram_event(plan.rho_norms / 2), 2)
    # the rounds absorb the rounding difference: the total is the plan's to 1e-12 relative,
    # the norm histograms together cost what the one histogram did (up to the grid rounding)
    assert two.rho == pytest.approx(plan.rho, rel=1e-11)
    assert _rho(two.event(100)) <= _rho(plan.event(100)) * (1 + 1e-11)
    # the rounds pay exactly the difference between the two rounded halves and the whole
    halves = 2 * _rho(norm_histogram_event(plan.rho_norms / 2))
    assert _rho(two.norms_event()) == pytest.approx(halves, rel=1e-12)
    assert plan.rho_rounds - two.rho_rounds == pytest.approx(
        halves - _rho(plan.norms_event()), rel=1e-9, abs=1e-15)
    assert ZCDPAccountant().compose(two.event(100)).get_epsilon(1e-6) <= eps * (1 + 1e-9)
    names = [m["name"] for m in two.mechanisms(100)]
    assert sum(n.startswith("row-norm histogram for the input scale (twice") for n in names) == 1
    assert len(names) == len(set(names))
    assert sum(m["share"] for m in two.mechanisms(100)) == pytest.approx(1.0)


def test_no_norm_share_no_prescale():
    plan = plan_run(1.0, 1e-6, n_rounds=None, learn_kappa=False, calibration=True,
                    method="best", centre=True, whiten=True)
    assert plan.with_prescale() is plan


def _spy(monkeypatch):
    """Record the rows the mean and the whitening are released on."""
    seen = {}
    mean, white = input_map.private_mean, __import__("dpboost.whitening").whitening

    def spy_mean(X, norm_bound, rho, *, rng):
        seen["mean_rows"] = np.array(X, copy=True)
        seen["R"] = norm_bound
        return mean(X, norm_bound, rho, rng=rng)

    orig_white = white.private_whitening

    def spy_white(X, m, norm_bound, rho, *, rng):
        seen["white_rows"] = np.array(X, copy=True)
        seen["white_R"] = norm_bound
        return orig_white(X, m, norm_bound, rho, rng=rng)

    monkeypatch.setattr(input_map, "private_mean", spy_mean)
    monkeypatch.setattr(white, "private_whitening", spy_white)
    return seen


@pytest.mark.parametrize("seed", [0, 5])
def test_the_releases_see_prescaled_rows_in_the_ball(monkeypatch, seed):
    X, y = _thin_blobs()
    seen = _spy(monkeypatch)
    # epsilon = 5: each norm histogram has noise s.d. about 15 rows per bin (rho_norms / 2 =
    # 0.0046), against 750 rows above the 75th percentile
    clf = PrivateHalfspaceClassifier(5.0, 1e-6, classes=[0, 1, 2], random_state=seed).fit(X, y)
    assert clf.input_whitening_ is not None
    rows = seen["mean_rows"]
    np.testing.assert_array_equal(rows, seen["white_rows"])
    assert seen["R"] == seen["white_R"] == 1.0  # the public norm bound, not a data statistic
    # the rows are clip(s0 x, R) for one s0 on the histogram's grid 2^(j/4), j >= 1
    s0 = float(np.median(np.linalg.norm(rows, axis=1) / np.linalg.norm(X, axis=1)))
    j = 4 * math.log2(s0)
    assert j >= 1 and abs(j - round(j)) < 1e-9
    s0 = 2.0 ** (round(j) / 4)
    norms = np.linalg.norm(X, axis=1, keepdims=True) * s0
    np.testing.assert_allclose(rows, X * s0 / np.maximum(norms, 1.0), rtol=1e-12, atol=1e-15)
    assert np.linalg.norm(rows, axis=1).max() <= 1.0 + 1e-12
    # the 75th percentile of the norms lands in the top quarter-octave below R (one bin of
    # noise allowed either way)
    q = np.quantile(np.linalg.norm(X, axis=1) * s0, 0.75)
    assert 2 ** -0.5 < q <= 2 ** 0.25


def test_the_fit_spends_the_plan_and_reports_both_histograms():
    X, y = _thin_blobs()
    clf = PrivateHalfspaceClassifier(0.3, 1e-6, classes=[0, 1, 2], random_state=5).fit(X, y)
    planned = _rho(clf.planned_privacy_event())
    assert _rho(clf.privacy_event_) == pytest.approx(planned, rel=1e-9)
    assert _rho(clf.privacy_event_) <= planned * (1 + 1e-11)
    assert clf.privacy_report_["epsilon"]["best"] <= 0.3 * (1 + 1e-9)
    norms = [m for m in clf.privacy_report_["mechanisms"]
             if m["name"].startswith("row-norm histogram")]
    assert len(norms) == 1 and "twice" in norms[0]["name"]
    event = event_from_dict(norms[0]["event"])
    assert isinstance(event, SelfComposedEvent) and event.count == 2
    assert event in clf.privacy_event_.events


def test_coef_is_the_boosted_halfspace_over_the_users_rows():
    """``X @ coef_ + intercept_`` is ``score_scale_`` times the boosted scores of the rows as
    the booster saw them, on rows that no clip touched (the fold carries ``s_0``)."""
    X, y = _thin_blobs()
    clf = PrivateHalfspaceClassifier(0.3, 1e-6, classes=[0, 1, 2], random_state=5).fit(X, y)
    s, W = clf.input_scale_, clf.input_whitening_
    white = W.matrix if W.applied else 0.5 * np.eye(X.shape[1])
    m = clf.input_centre_
    c0 = 1.0 / (2.0 * math.sqrt(X.shape[1] + 1))
    # recover s0 from coef_: the linear part is s0 s (v_x M) (up to the temperature factor)
    v = clf.boosted_coef_
    factor = clf.score_scale_ / s
    base = (v[:, :-1] @ white) * s * factor
    s0 = float(np.linalg.norm(clf.coef_) / np.linalg.norm(base))
    assert abs(4 * math.log2(s0) - round(4 * math.log2(s0))) < 1e-9 and s0 > 1
    small = X[np.linalg.norm(X, axis=1) * s0 < 0.9]  # untouched by the pre-scale's clip
    mapped = np.hstack([(small * s0 - m) @ white, np.full((len(small), 1), c0)])
    expect = clf.score_scale_ * (mapped @ v.T)
    got = small @ clf.coef_.T + clf.intercept_
    prior = clf.intercept_ - clf.score_scale_ * (-(v[:, :-1] @ white) @ m + v[:, -1] * c0)
    np.testing.assert_allclose(got - prior, expect, rtol=1e-8, atol=1e-10)


def test_small_data_and_binary_fits_do_not_prescale(monkeypatch):
    """No whitening (n too small), or a binary fit: one norm histogram, as before."""
    calls = []
    orig = input_map._prescale
    monkeypatch.setattr(input_map, "_prescale",
                        lambda *a, **k: calls.append(1) or orig(*a, **k))
    X, y = _thin_blobs(n=400)
    small = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    assert small.input_whitening_ is None and not calls
    X, y = _thin_blobs()
    yb = (y == 0).astype(int)
    binary = PrivateHalfspaceClassifier(20.0, 1e-6, classes=[0, 1], random_state=0).fit(X, yb)
    assert binary.input_whitening_ is not None and not calls
    for clf in (small, binary):
        names = [m["name"] for m in clf.privacy_report_["mechanisms"]]
        assert not any("twice" in n for n in names)

