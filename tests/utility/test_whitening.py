"""The private shrinkage whitening of the input map (dpboost.whitening)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import ComposedEvent, ZCDPAccountant
from dpboost import whitening
from dpboost.estimator import PrivateHalfspaceClassifier as P
from dpboost.input_map import InputMap


def _upper(x: np.ndarray) -> np.ndarray:
    return np.outer(x, x)[np.triu_indices(len(x))]


def _in_ball(v: np.ndarray, radius: float) -> np.ndarray:
    norm = np.linalg.norm(v)
    return v if norm <= radius else v * (radius / norm)


@settings(max_examples=300, deadline=None)
@given(d=st.integers(1, 12), seed=st.integers(0, 2**32 - 1),
       radius=st.floats(0.1, 10.0), scale=st.floats(0.01, 3.0))
def test_replacing_a_row_moves_the_upper_triangle_by_at_most_sqrt2_r2(d, seed, radius, scale):
    rng = np.random.default_rng(seed)
    x = _in_ball(rng.normal(size=d) * scale, radius)
    x2 = _in_ball(rng.normal(size=d) * scale, radius)
    moved = np.linalg.norm(_upper(x) - _upper(x2))
    assert moved <= math.sqrt(2.0) * radius**2 * (1 + 1e-12)


def test_the_sensitivity_is_attained_by_orthogonal_rows():
    e1, e2 = np.eye(3)[0], np.eye(3)[1]
    assert np.linalg.norm(_upper(e1) - _upper(e2)) == pytest.approx(math.sqrt(2.0))


@pytest.mark.parametrize("seed", range(5))
def test_the_computed_second_moment_is_within_its_error_bound(seed):
    rng = np.random.default_rng(seed)
    n, d = 300, 4
    X = rng.normal(size=(n, d))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    computed = whitening.gram(X)[np.triu_indices(d)]
    exact = [sum(Fraction(float(X[i, j])) * Fraction(float(X[i, k])) for i in range(n))
             for j, k in zip(*np.triu_indices(d))]
    err = math.sqrt(sum(float(Fraction(float(c)) - e) ** 2 for c, e in zip(computed, exact)))
    assert err <= whitening.gram_error_bound(n, 1.0)


def test_the_dask_second_moment_is_within_the_same_bound():
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5000, 6)) / 4
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    gap = whitening.gram(da.from_array(X, chunks=(700, 6))) - whitening.gram(X)
    assert np.linalg.norm(gap[np.triu_indices(6)]) <= 2 * whitening.gram_error_bound(5000, 1.0)


def test_the_release_is_made_only_where_its_noise_is_below_the_largest_mean_eigenvalue():
    rho = 0.001
    sizes = [10**k for k in range(2, 8)]
    flags = [whitening.worthwhile(n, 20, 1.0, rho) for n in sizes]
    assert flags == sorted(flags) and flags[0] is False and flags[-1] is True  # monotone in n
    first = sizes[flags.index(True)]
    sigma_e = whitening.mechanism(first, 20, 1.0, rho).sigma / first
    assert 2 * sigma_e * math.sqrt(20) <= 1.0 / 20  # the documented rule
    assert not whitening.worthwhile(10**9, whitening.MAX_DIMENSION + 1, 1.0, 1.0)
    assert not whitening.worthwhile(10**9, 5, 1.0, 0.0)


def _anisotropic(n, spreads, seed=0):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.normal(size=(len(spreads), len(spreads))))
    return (rng.normal(size=(n, len(spreads))) * spreads) @ Q.T, Q


def test_the_matrix_is_symmetric_with_largest_eigenvalue_one_half():
    X, _ = _anisotropic(40_000, [0.3, 0.1, 0.03, 0.01])
    W = whitening.private_whitening(X, X.mean(axis=0), 1.0, 0.05,
                                    rng=np.random.default_rng(1))
    assert np.array_equal(W.matrix, W.matrix.T)
    assert np.linalg.eigvalsh(W.matrix).max() == pytest.approx(0.5, rel=1e-12)
    rows = InputMap.for_mean(X.mean(axis=0), 1.0, W.matrix).transform(X)[:, :-1]
    assert np.linalg.norm(rows, axis=1).max() <= 1.0 + 1e-12  # ||M (x - m)|| <= R


def test_whitening_equalises_the_spread_as_far_as_the_ridge_allows():
    # With the exact-arithmetic covariance C, M C M has eigenvalues c (w / (w + lambda)), so its
    # condition number is at most (w_max / (w_max + lambda)) / (w_min / (w_min + lambda)).
    spreads = np.array([0.3, 0.1, 0.03, 0.01])
    X, _ = _anisotropic(200_000, spreads)
    W = whitening.private_whitening(X, X.mean(axis=0), 1.0, 0.5, rng=np.random.default_rng(2))
    cov = np.cov(X.T)
    before = np.linalg.cond(cov)
    after = np.linalg.cond(W.matrix @ cov @ W.matrix)
    w = spreads**2
    bound = (w.max() / (w.max() + W.ridge)) / (w.min() / (w.min() + W.ridge))
    assert before > 800 and after <= 1.05 * bound and after < before / 10


def test_a_noisy_release_leaves_the_map_nearly_isotropic():
    # Where the noise dominates, the ridge (twice the noise's expected spectral norm) does:
    # eig(C_hat) lies in [0, w_max + lambda / 2], so cond(M) <= sqrt((w_max + 1.5 lambda) / lambda),
    # against 30 (= 0.3 / 0.01) for the exact whitening of these rows.
    X, _ = _anisotropic(20_000, [0.3, 0.1, 0.03, 0.01])
    W = whitening.private_whitening(X, X.mean(axis=0), 1.0, 1e-6,
                                    rng=np.random.default_rng(3))
    assert W.ridge_over_mean_eigenvalue > 5
    bound = math.sqrt((0.3**2 + 1.5 * W.ridge) / W.ridge)
    assert np.linalg.cond(W.matrix) <= bound < 1.4


def test_fold_with_a_matrix_keeps_one_halfspace():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(3, 3))
    M = 0.5 * (A + A.T)
    imap = InputMap.for_mean(np.array([0.1, -0.2, 0.05]), 1.0, M)
    X, V = rng.normal(size=(7, 3)), rng.normal(size=(5, 4))
    w, b = imap.fold(V)
    assert np.allclose(X @ w.T + b, imap.transform(X) @ V.T)


def _big(n=30_000, d=6, seed=0):
    X, _ = _anisotropic(n, np.geomspace(0.3, 0.01, d), seed)
    y = (X @ np.linspace(1, -1, d) > 0).astype(int)
    return X, y


def test_a_large_fit_spends_the_share_and_reports_it():
    X, y = _big()
    est = P(1.0, 1e-6, classes=[0, 1], random_state=0)
    planned = est.planned_privacy_event()
    est.fit(X, y)
    rep = est.privacy_report_
    assert rep["input_whitening"]["applied"] is True and est.input_whitening_.applied
    shares = {m["name"].split(" (")[0]: m["share"] for m in rep["mechanisms"]}
    assert shares["second-moment matrix for the input whitening"] == pytest.approx(0.05, rel=1e-6)
    assert isinstance(planned, ComposedEvent) and len(planned.events) == 6
    assert ZCDPAccountant().compose(planned).rho == pytest.approx(rep["rho"], rel=1e-9)
    assert rep["epsilon"]["best"] <= 1.0
    # prediction stays one halfspace over the user's features
    assert np.allclose(est.decision_function(X[:50]), X[:50] @ est.coef_ + est.intercept_)


def test_a_small_fit_gives_the_share_to_the_rounds():
    X, y = _big(n=800)
    est = P(1.0, 1e-6, classes=[0, 1], random_state=0)
    planned = est.planned_privacy_event()
    est.fit(X, y)
    rep = est.privacy_report_
    assert rep["input_whitening"]["applied"] is False and est.input_whitening_ is None
    names = [m["name"] for m in rep["mechanisms"]]
    assert not any("second-moment" in name for name in names)
    assert ZCDPAccountant().compose(est.privacy_event_).rho == pytest.approx(
        ZCDPAccountant().compose(planned).rho, rel=1e-9)
    assert ZCDPAccountant().compose(est.privacy_event_).rho <= (
        ZCDPAccountant().compose(planned).rho)
    assert rep["epsilon"]["best"] <= 1.0


def test_a_release_swamped_by_its_ridge_is_not_used():
    # Rows that fill the ball thinly (d = 5, divided by 4 sqrt(d)) pass the public rule at
    # n = 500, epsilon = 4, but the ridge is over 5x their mean eigenvalue: the map keeps I / 2,
    # and the release is still accounted for.
    rng = np.random.default_rng(0)
    X = np.clip(rng.normal(size=(500, 5)), -4, 4) / (4 * math.sqrt(5))
    y = (X[:, 0] + 0.05 * rng.normal(size=500) > 0).astype(int)
    est = P(4.0, 1e-6, classes=[0, 1], random_state=0).fit(X, y)
    rep = est.privacy_report_
    assert est.input_whitening_ is not None and not est.input_whitening_.applied
    assert rep["input_whitening"]["applied"] is False
    assert rep["input_whitening"]["ridge_over_mean_eigenvalue"] > whitening.MAX_RIDGE_RATIO
    assert any("second-moment" in m["name"] for m in rep["mechanisms"])
    assert rep["epsilon"]["best"] <= 4.0
    w, b = InputMap.for_mean(est.input_centre_, 1.0).fold(est.released_centres_.mean(axis=0))
    assert np.allclose(est.coef_, w * est.score_scale_)  # the plain map (x - m) / 2


def test_given_kappa_and_rounds_keep_the_historical_map():
    X, y = _big(n=5000)
    est = P(1.0, 1e-6, classes=[0, 1], kappa=0.25, n_rounds=20, calibration=None,
            random_state=0).fit(X, y)
    assert est.input_whitening_ is None and est.privacy_report_["input_whitening"] is None
