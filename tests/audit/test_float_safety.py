"""The released centres are safe under floating-point arithmetic (issue: Mironov's attack).

* the attack: on the worst-case pair (coordinate 0 of the centre is 0 under D, 1/n under D'),
  a value released under D that no double could have produced under D' gives D away.  It finds
  such values in ~15% of the naive ``centre + numpy normal`` releases, and in none of 2,000
  real fits of the estimator;
* the discrete Gaussian sampler against the exact pmf, the grid, summation-order independence,
  and the floating-point error bounds the sensitivity includes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lattice_cases import chi_square_passes

from accounting import calibrate_noise
from dpboost import mechanisms
from dpboost.audit import continuous_output_possible, grid_output_possible
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.input_map import InputMap
from dpboost.lazy_breg import LazyBregBoost
from dpboost.mechanisms import (
    LatticeGaussian,
    bernoulli_exp_neg,
    blocked_centre,
    centre_error_bound,
    lattice_variance,
    sample_discrete_gaussian,
)

N, EPS, DELTA = 1000, 1.0, 1e-5


def _attack_pair():
    """D: row 0 is the zero vector; D': row 0 is e_1 (label +1).  T = 1: the measure is uniform,
    so coordinate 0 of the centre is 0 under D and 1/n under D'."""
    rng = np.random.default_rng(5)
    X = np.zeros((N, 2))
    X[1:, 1] = rng.uniform(0.1, 0.9, N - 1)
    y = np.where(rng.uniform(size=N) < 0.5, -1.0, 1.0)
    y[0] = 1.0
    X_prime = X.copy()
    X_prime[0, 0] = 1.0
    return X, X_prime, y


@pytest.mark.slow
def test_attack_finds_the_naive_release_and_never_the_safe_one():
    # the naive release the issue attacked: fl(z + fl(sigma N)), sigma from the exact accountant
    z = calibrate_noise(EPS, DELTA, 1, method="exact").noise_multiplier
    sigma = z * 2.0 / (0.25 * N)
    rng = np.random.default_rng(0)
    naive = [0.0 + rng.normal(0.0, sigma) for _ in range(2000)]
    ruled_out = sum(not continuous_output_possible(v, 1.0 / N, sigma) for v in naive)
    assert ruled_out > 100  # 300 of 2,000 here (the review measured 255): the attack works

    X, X_prime, y = _attack_pair()
    rng = np.random.default_rng(1)
    impossible = 0
    grids = set()
    for _ in range(2000):
        clf = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=1, classes=[-1.0, 1.0],
                                         random_state=rng).fit(X, y)
        g = clf.privacy_report_["grid_granularity"]
        grids.add(g)
        # under D' the same public grid applies, and every grid point is in the support
        # the round's release as drawn (coef_ and hypothesis_coefs_ fold the private centre in)
        impossible += int(not grid_output_possible(clf.released_centres_[0], g).all())
    assert impossible == 0
    assert len(grids) == 1  # the grid is public: the same for every fit at this n, d
    clf_prime = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=1, classes=[-1.0, 1.0],
                                           random_state=0).fit(X_prime, y)
    assert clf_prime.privacy_report_["grid_granularity"] in grids
    assert clf_prime.privacy_report_["sigma"] == clf.privacy_report_["sigma"]


def test_model_file_and_staged_outputs_stay_on_the_grid():
    X, _, y = _attack_pair()
    clf = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=5, classes=[-1.0, 1.0],
                                     random_state=3).fit(X, y)
    g = clf.privacy_report_["grid_granularity"]
    assert grid_output_possible(clf.released_centres_, g).all()
    # coef_ is the mean of grid values, folded through the private centre (dpboost.input_map):
    # post-processing of the releases, exactly reproducible from them
    # (and the private whitening, when n allowed it: dpboost.whitening)
    white = clf.input_whitening_
    matrix = white.matrix if white is not None and white.applied else None
    imap = InputMap.for_mean(clf.input_centre_, 1.0, matrix)
    w, _ = imap.fold(clf.released_centres_.mean(axis=0))
    np.testing.assert_array_equal(clf.coef_, w * clf.score_scale_)


def test_two_unseeded_fits_draw_different_noise():
    X, _, y = _attack_pair()
    a = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=3, classes=[-1.0, 1.0]).fit(X, y)
    b = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=3, classes=[-1.0, 1.0]).fit(X, y)
    assert not np.array_equal(a.hypothesis_coefs_, b.hypothesis_coefs_)
    c = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=3, classes=[-1.0, 1.0],
                                   random_state=7).fit(X, y)
    d = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=3, classes=[-1.0, 1.0],
                                   random_state=7).fit(X, y)
    np.testing.assert_array_equal(c.hypothesis_coefs_, d.hypothesis_coefs_)


# ---------------------------------------------------------------------------------------------
# the sampler
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sigma", [0.3, 1.0, 3.7, 40.0])
def test_discrete_gaussian_matches_its_pmf(sigma):
    t, m = lattice_variance(sigma)
    rng = np.random.default_rng(int(sigma * 10))
    draws = sample_discrete_gaussian(t * m, 60_000, rng=rng)
    # the tails pooled so every cell expects >= 5, then a chi-square test at level 1e-4
    assert chi_square_passes(draws, t * m)


def test_scalar_path_for_any_rational_variance():
    rng = np.random.default_rng(2)
    draws = sample_discrete_gaussian(Fraction(7, 3), 4000, rng=rng)  # not of the form t m
    assert draws.dtype == np.int64
    var = float(draws.astype(float).var())
    assert abs(var - 7 / 3) < 0.25  # sd of the variance estimate ~ 0.05
    assert isinstance(sample_discrete_gaussian(2, rng=rng), int)
    with pytest.raises(ValueError, match="sigma_squared"):
        sample_discrete_gaussian(0, 3, rng=rng)


def test_bernoulli_exp_neg_is_exact_in_mean():
    rng = np.random.default_rng(4)
    for num, den in ((0, 1), (1, 1), (5, 2), (7, 3), (3, 40)):
        draws = bernoulli_exp_neg(np.full(50_000, num), den, rng=rng)
        p = math.exp(-num / den)
        assert abs(draws.mean() - p) < 5 * math.sqrt(p * (1 - p) / 50_000) + 1e-12


def test_lattice_variance_never_lowers_the_variance():
    for sigma in (1e-3, 0.5, 1.0, 2.0**20 + 0.3, 12345.678):
        t, m = lattice_variance(sigma)
        assert Fraction(t * m) >= Fraction(sigma) ** 2
        assert t == math.floor(sigma) + 1 or t == math.floor(math.nextafter(sigma, 9e9)) + 1
        assert t * m < (sigma + 1) ** 2 + t


# ---------------------------------------------------------------------------------------------
# the grid and the floating-point error
# ---------------------------------------------------------------------------------------------
@settings(max_examples=60)
@given(n=st.integers(2, 400), d=st.integers(1, 6), seed=st.integers(0, 10**6),
       block=st.sampled_from([1, 3, 64, 1 << 14]))
def test_centre_error_within_the_public_bound(n, d, seed, block):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]  # rows in the unit ball
    w = rng.dirichlet(np.full(n, 0.3)) * rng.choice([-1.0, 1.0], size=n)
    old = mechanisms.CENTRE_BLOCK_ROWS
    mechanisms.CENTRE_BLOCK_ROWS = block
    try:
        got = blocked_centre(X, w)
        bound = centre_error_bound(n, 1.0)
    finally:
        mechanisms.CENTRE_BLOCK_ROWS = old
    exact = np.array([float(sum(Fraction(float(w[i])) * Fraction(float(X[i, j]))
                                for i in range(n))) for j in range(d)])
    assert np.linalg.norm(got - exact) <= bound


def test_two_summation_orders_release_on_the_same_grid():
    rng = np.random.default_rng(11)
    n, d = 5000, 8
    X = rng.normal(size=(n, d)) / 4
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    w = rng.dirichlet(np.ones(n)) * rng.choice([-1.0, 1.0], size=n)
    perm = rng.permutation(n)
    a = blocked_centre(X, w)
    b = blocked_centre(X[perm], w[perm])          # another order, as a worker split would give
    c = X.T[:, ::-1] @ w[::-1]                      # plain BLAS, reversed
    mech = LatticeGaussian(sensitivity=2 / (0.25 * n), noise_multiplier=3.0, dimension=d,
                           error_bound=centre_error_bound(n, 1.0))
    assert np.linalg.norm(a - b) <= 2 * mech.error_bound
    outs = [mech.release(v, rng=np.random.default_rng(0)) for v in (a, b, c)]
    g = mech.granularity
    for out in outs:
        assert grid_output_possible(out, g).all()
    # the same noise draw moves each coordinate by at most one grid step between the orders
    for out in outs[1:]:
        assert np.max(np.abs(out - outs[0])) <= g


def test_grid_and_effective_sensitivity_are_public_and_small():
    for n, d in ((100, 1), (10**6, 100), (10**8, 10**4)):
        delta = 2.0 / (0.25 * n)
        mech = LatticeGaussian(sensitivity=delta, noise_multiplier=45.3, dimension=d,
                               error_bound=centre_error_bound(n, 1.0))
        g = mech.granularity
        assert g == 2.0 ** round(math.log2(g))
        assert mech.effective_sensitivity <= delta * (1 + 1 / 1024 + 2e-4)
        t, _ = mech.grid_variance
        assert t <= mechanisms.MAX_GRID_SIGMA + 2
        assert mech.sigma >= 45.3 * mech.effective_sensitivity


def _exact_projection_l1(log_weights: np.ndarray, kappa: float, mu_hat: np.ndarray) -> float:
    """L1 distance between mu_hat and the exact capped scaling of exp(log_weights) (mpmath)."""
    mpmath.mp.dps = 50
    n = log_weights.size
    a = [mpmath.mpf(float(v)) for v in log_weights]
    order = sorted(range(n), key=lambda i: -a[i])
    target = mpmath.mpf(kappa) * n
    for k in range(n):
        rest = mpmath.fsum(mpmath.exp(a[i]) for i in order[k:])
        c = (target - k) / rest
        if c * mpmath.exp(a[order[k]]) <= 1:
            break
    mu = [mpmath.mpf(1) if rank < k else c * mpmath.exp(a[i]) for rank, i in enumerate(order)]
    mu_sorted = [None] * n
    for rank, i in enumerate(order):
        mu_sorted[i] = mu[rank]
    total = mpmath.fsum(mu_sorted)
    return float(mpmath.fsum(abs(mpmath.mpf(float(mu_hat[i])) - mu_sorted[i] / total)
                             for i in range(n)))


@pytest.mark.slow
def test_measure_error_within_the_declared_bound():
    rng = np.random.default_rng(8)
    worst = 0.0
    for trial in range(40):
        n = int(rng.integers(5, 400))
        kappa = float(rng.uniform(0.02, 0.9))
        if kappa * n < 1:
            continue
        gains = rng.uniform(0, 1, size=(int(rng.integers(1, 300)), n)).sum(axis=0)
        if trial % 4 == 0:  # adversarial: a few points far ahead, many tied
            gains[: n // 3] = gains[0]
        lr = float(rng.choice([0.01, 1.0, 5.0, 40.0]))
        nxm = LazyBregBoost(kappa, lr)
        mu = nxm._project(gains)
        mu_hat = mu / mu.sum()
        worst = max(worst, _exact_projection_l1(math.log(kappa) - lr * gains, kappa, mu_hat))
    assert worst <= mechanisms.MEASURE_L1_ERROR / 100  # 2^-38 holds with a 100x margin


@pytest.mark.parametrize("n, d, eps", [(1000, 2, 1.0), (600, 5, 0.5), (3000, 8, 2.0),
                                       (1500, 3, 5.0)])
def test_report_describes_the_mechanism_the_rounds_used(n, d, eps):
    """The report's grid, sigma and sensitivity are those of the release as drawn: over the
    d + 1 mapped coordinates when the rows were centred (dpboost.input_map), not over d.

    The grid ``g`` is a power of two that depends on sqrt(dimension); at n = 1000, d = 2 (the
    attack pair, kappa = 0.3) the d-dimensional grid is twice the one used, and the released
    constant coordinate sat half-way between its points.
    """
    from dpboost.weak_learners import GaussianCenteringHalfspace

    rng = np.random.default_rng(n + d)
    X = rng.normal(size=(n, d)) / (2 * math.sqrt(d))
    y = np.where(X[:, 0] + 0.1 * rng.normal(size=n) > 0, 1.0, -1.0)
    clf = PrivateHalfspaceClassifier(eps, DELTA, classes=[-1.0, 1.0], random_state=0).fit(X, y)
    rep = clf.privacy_report_
    dim = clf.released_centres_.shape[1]
    assert dim == d + 1  # learned settings centre the rows and add a constant coordinate
    learner = GaussianCenteringHalfspace(rep["noise_multiplier"], rep["kappa"], 1.0, "tight")
    mech = learner.mechanism(n, dim)
    assert rep["grid_granularity"] == mech.granularity
    assert rep["sigma"] == mech.sigma and rep["sensitivity"] == mech.effective_sensitivity
    assert grid_output_possible(clf.released_centres_, rep["grid_granularity"]).all()


def test_the_mapped_dimension_can_change_the_grid():
    """Why the test above can fail: the attack pair's grid over d and over d + 1 differ."""
    from dpboost.weak_learners import GaussianCenteringHalfspace

    X, _, y = _attack_pair()
    clf = PrivateHalfspaceClassifier(EPS, DELTA, n_rounds=1, classes=[-1.0, 1.0],
                                     random_state=0).fit(X, y)
    rep = clf.privacy_report_
    learner = GaussianCenteringHalfspace(rep["noise_multiplier"], rep["kappa"], 1.0, "tight")
    assert learner.mechanism(N, 2).granularity == 2 * learner.mechanism(N, 3).granularity
    assert rep["grid_granularity"] == learner.mechanism(N, 3).granularity
