"""Round-4 mutation gaps in dpboost/distributed.py (the dask backend's checks, clip, norm-scale
release and scoring hooks).  Every test runs on dask's local threaded scheduler (no cluster)
and compares with a definition that does not use the code under test."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpboost.defaults as defaults
import dpboost.distributed as dist
from dpboost import PrivateHalfspaceClassifier
from dpboost.clipping import clip_rows

da = pytest.importorskip("dask.array")


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_check_dask_X_refuses_infinity_as_well_as_nan(bad):
    """sklearn's check_array refuses NaN and +-inf; an infinite row has no finite norm, so
    clipping it to the ball is undefined: the dask check must refuse it too, naming the first
    bad row (row 3 here, the second row of the second chunk of 2 rows)."""
    X = np.zeros((5, 2))
    X[3, 1] = bad
    with pytest.raises(ValueError, match="first at row 3"):
        dist.check_dask_X(da.from_array(X, chunks=(2, 2)))


def test_float32_chunk_clip_keeps_every_row_in_the_ball():
    """Privacy needs ||x_i|| <= R for every clipped row (the sensitivity 2R/(kappa n)).  Rows a
    hair above R (relative 1e-8 to 2e-7) in float32 are exactly the case where a float32 sum
    of squares can round to at most R^2: the fast path must then not skip the clip.  The
    norm is checked in float64 on the float32 values (exact squares of floats up to 2^-48
    relative error: far below the 1e-8 margins tested).  The case list is deterministic."""
    rng = np.random.default_rng(0)
    above = 0
    for _ in range(3000):
        d = int(rng.integers(2, 400))
        A = rng.standard_normal((1, d))
        A /= np.linalg.norm(A)
        A = (A * (1.0 + rng.uniform(0.0, 2e-7))).astype(np.float32)
        A64 = A.astype(np.float64)
        above += float(np.sqrt(A64 @ A64.T)[0, 0]) > 1.0
        with np.errstate(all="ignore"):
            out = np.asarray(dist._clip_chunk(A, 1.0), dtype=np.float64)
        assert math.sqrt(float(out[0] @ out[0])) <= 1.0
    assert above > 100  # the cases above the ball were really drawn


@pytest.mark.parametrize("rho", [0.05, 0.3])
def test_dask_norm_scale_noise_matches_its_budget(monkeypatch, rho):
    """Replacing a row moves one unit between two bins of the norm histogram: L2 sensitivity
    sqrt(2); the discrete Gaussian of variance s^2 is then (sqrt 2)^2 / (2 s^2) = 1/s^2 zCDP
    (Canonne, Kamath & Steinke 2020, Thm 14), so rho-zCDP needs s^2 >= 1/rho, on dask as in
    memory (the release is charged as norm_histogram_event(rho) either way)."""
    seen = []
    draw = defaults.sample_discrete_gaussian

    def recording(variance, size, **kw):
        seen.append(float(variance))
        return draw(variance, size, **kw)

    monkeypatch.setattr(defaults, "sample_discrete_gaussian", recording)
    X = np.full((300, 3), 0.1)
    dist.private_norm_scale_dask(da.from_array(X, chunks=(100, 3)), 1.0, rho,
                                 rng=np.random.default_rng(0))
    defaults.private_norm_scale(X, 1.0, rho, rng=np.random.default_rng(0))
    assert len(seen) == 2
    assert all(v >= 1.0 / rho * (1 - 1e-12) for v in seen)
    assert seen[0] == seen[1]


def _fitted():
    rng = np.random.default_rng(0)
    X = rng.normal(0.0, 0.3, (200, 3))
    y = np.where(X[:, 0] + 0.1 * rng.normal(size=200) > 0, 1, 0)
    est = PrivateHalfspaceClassifier(2.0, 1e-6, n_rounds=3, classes=[0, 1],
                                     random_state=0).fit(X, y)
    return est, X


def test_dask_predict_proba_equals_in_memory():
    """predict_proba is [1 - p, p] with p = P(classes_[1]) (sklearn's column order = classes_);
    the dask hook must give the in-memory columns in the same order."""
    est, X = _fitted()
    got = est.predict_proba(da.from_array(X, chunks=(64, 3))).compute()
    np.testing.assert_allclose(got, est.predict_proba(X), rtol=1e-12, atol=1e-15)


def test_dask_staged_scores_equal_in_memory():
    """Stage t is the running mean over the first t hypotheses (t = 1..T): the last stage
    equals decision_function, and every stage equals the in-memory one."""
    est, X = _fitted()
    got = [s.compute() for s in est.staged_decision_function(da.from_array(X, chunks=(64, 3)))]
    ref = list(est.staged_decision_function(X))
    assert len(got) == len(ref) == 3
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got[-1], est.decision_function(X), rtol=1e-9, atol=1e-12)


def test_predict_labels_of_class_scores_is_the_argmax():
    """Without rows, (n, K) scores give the class of the largest score in each row."""
    rng = np.random.default_rng(1)
    S = rng.normal(size=(30, 4))
    classes = np.array(["a", "b", "c", "d"])
    got = dist.predict_labels(da.from_array(S, chunks=(7, 4)), classes).compute()
    assert got.tolist() == classes[S.argmax(axis=1)].tolist()


@pytest.mark.parametrize("intercept", [0.7, -2.5])
def test_dask_decision_scores_add_the_intercept(intercept):
    """decision_scores is X @ coef + intercept by definition (docstring); checked against
    numpy's product on the same float64 rows."""
    rng = np.random.default_rng(2)
    X, w = rng.normal(size=(40, 3)), rng.normal(size=3)
    got = dist.decision_scores(da.from_array(X, chunks=(16, 3)), w, intercept).compute()
    np.testing.assert_allclose(got, X @ w + intercept, rtol=1e-12, atol=1e-12)


def test_inferring_classes_on_dask_warns_of_the_leak():
    """Reading the label set from y releases it (it is not private): the in-memory fit warns
    with PrivacyLeakWarning, and so must the dask fit, which infers it the same way."""
    from dpboost.exceptions import PrivacyLeakWarning

    rng = np.random.default_rng(3)
    X = rng.normal(0.0, 0.3, (120, 2))
    y = (X[:, 0] > 0).astype(int)
    est = PrivateHalfspaceClassifier(2.0, 1e-6, n_rounds=2, random_state=0)
    with pytest.warns(PrivacyLeakWarning):
        est.fit(da.from_array(X, chunks=(60, 2)), da.from_array(y, chunks=60))


def test_positive_count_counts_the_plus_one_labels():
    """positive_count(y_pm) is the number of +1 labels (docstring); 7 of 10 here."""
    y = np.array([1, 1, -1, 1, 1, -1, 1, -1, 1, 1], dtype=np.int8)
    assert dist.positive_count(da.from_array(y, chunks=4)) == 7
