"""Online BBM (BKL15 Algorithm 1): weights, potentials, and the booster."""

from fractions import Fraction
from math import comb, floor

import mpmath
import numpy as np
import pytest
from _oracles import NoisyOracle
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.online import bbm as bbm_module
from dpboost.online.bbm import OnlineBBM, bbm_log_weights, bbm_potential, bbm_weights
from dpboost.online.evaluate import progressive_val_score
from dpboost.online.learners import OnlineStumpLearner


def _exact_weight(N, i, s, gamma: Fraction) -> Fraction:
    n = N - i
    k = floor(Fraction(n - s + 1, 2))
    if k < 0 or k > n:
        return Fraction(0)
    q = Fraction(1, 2) + gamma / 2
    return comb(n, k) * q**k * (1 - q) ** (n - k)


@pytest.mark.parametrize("N", [1, 2, 5, 12])
def test_weights_match_exact_rationals(N):
    gamma = Fraction(1, 5)
    for s_vals in np.random.default_rng(N).integers(-N, N + 1, size=(20, N)):
        s_prev = s_vals.astype(float)
        got = np.exp(bbm_log_weights(N, s_prev, 0.2))
        want = [float(_exact_weight(N, i, int(s_prev[i - 1]), gamma)) for i in range(1, N + 1)]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)


def test_weights_match_mpmath_for_large_N():
    N, gamma = 300, 0.1
    mpmath.mp.dps = 40
    q = mpmath.mpf(1) / 2 + mpmath.mpf(gamma) / 2
    s_prev = np.array([((i * 7) % 41) - 20 for i in range(N)], dtype=float)
    got = bbm_log_weights(N, s_prev, gamma)
    for i in range(1, N + 1, 13):
        n = N - i
        k = floor((n - s_prev[i - 1] + 1) / 2)
        if 0 <= k <= n:
            want = mpmath.log(mpmath.binomial(n, k) * q**k * (1 - q) ** (n - k))
            assert got[i - 1] == pytest.approx(float(want), rel=1e-11, abs=1e-11)


def test_weights_finite_and_bounded_for_N_500():
    N = 500
    rng = np.random.default_rng(0)
    for gamma in (0.01, 0.2, 0.9):
        z = rng.choice([-1.0, 1.0], size=N)
        s_prev = np.concatenate(([0.0], np.cumsum(z[:-1])))
        w, p = bbm_weights(N, s_prev, gamma)
        assert np.all(np.isfinite(w)) and np.all(np.isfinite(p))
        assert np.all((0 <= w) & (w <= p) & (p <= 1))
        # Lemma 4: w^i = O(1/sqrt(N - i)); the mode of Binomial(n, q) is below
        # 1/sqrt(2 pi n q(1-q)) + 1/n
        n = N - np.arange(1, N)
        q = 0.5 + gamma / 2
        assert np.all(w[:-1] <= 1 / np.sqrt(2 * np.pi * n * q * (1 - q)) + 1.0 / n)


def test_weight_is_half_the_potential_difference_and_potentials_recurse():
    """w_t^i = (Phi_i(s-1) - Phi_i(s+1))/2 (Eq. 5 without the 1/2 is 2 w) and Eq. (4) holds
    with equality; Phi_N(s) = 1{s <= 0}; all potentials lie in [0, 1]."""
    N, gamma = 15, 0.3
    for i in range(1, N + 1):
        for s in range(-N, N + 1):
            w = np.exp(bbm_log_weights(N, np.full(N, float(s)), gamma))[i - 1]
            diff = bbm_potential(N, i, s - 1, gamma) - bbm_potential(N, i, s + 1, gamma)
            assert w == pytest.approx(diff, abs=1e-12)
            lhs = bbm_potential(N, i - 1, s, gamma)
            rhs = ((0.5 - gamma / 2) * bbm_potential(N, i, s - 1, gamma)
                   + (0.5 + gamma / 2) * bbm_potential(N, i, s + 1, gamma))
            assert lhs == pytest.approx(rhs, abs=1e-12)
            assert 0.0 <= lhs <= 1.0
    assert [bbm_potential(N, N, s, gamma) for s in (-1, 0, 1)] == [1.0, 1.0, 0.0]


@settings(max_examples=60)
@given(st.integers(1, 70), st.floats(0.01, 0.9), st.data())
def test_table_lookup_equals_direct_formula(N, gamma, data):
    z = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=N, max_size=N)))
    model = OnlineBBM(N, gamma)
    _, p = bbm_weights(N, np.cumsum(z) - z, gamma)
    np.testing.assert_allclose(model._probabilities(z), p, rtol=1e-12, atol=1e-300)
    assert np.all((0 <= p) & (p <= 1))


def test_large_N_without_table(monkeypatch):
    monkeypatch.setattr(bbm_module, "_TABLE_MAX_N", 10)
    X, y = _rotated_halfspace(200)
    a = OnlineBBM(20, 0.2, weak_learner="stump")
    monkeypatch.setattr(bbm_module, "_TABLE_MAX_N", 10_000)
    b = OnlineBBM(20, 0.2, weak_learner="stump")
    assert a._table is None and b._table is not None
    a.partial_fit(X, y)
    b.partial_fit(X, y)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X))


def _rotated_halfspace(n, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    return X, np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["weight", "sample"])
def test_booster_beats_its_weak_learner(mode):
    """Stumps on a rotated halfspace have error ~1/4 (best axis split); boosted stumps do far
    better (measured: stump PV 0.24; BBM N = 20, gamma = 0.3 PV <= 0.13)."""
    X, y = _rotated_halfspace(1500)
    base = progressive_val_score(OnlineStumpLearner(), X, y)
    boosted = progressive_val_score(OnlineBBM(20, 0.3, weak_learner="stump", mode=mode,
                                              random_state=0), X, y)
    assert base > 0.2
    assert boosted < base - 0.06


@pytest.mark.slow
def test_theorem2_rate_with_independent_weak_learners():
    """With N independent learners of edge gamma, the majority errs w.p. <= exp(-N gamma^2/2)."""
    N, gamma, T = 41, 0.4, 1500
    rng = np.random.default_rng(0)
    from dpboost.online.learners import ListBank

    model = OnlineBBM(N, gamma)
    model.bank_ = ListBank([NoisyOracle(gamma, rng) for _ in range(N)])
    y = rng.choice([-1.0, 1.0], size=T)
    err = progressive_val_score(model, y[:, None], y)
    bound = np.exp(-N * gamma**2 / 2)  # 0.0375
    assert err <= bound + 3 * np.sqrt(bound / T)


def test_partial_fit_equals_loop_and_seed_determinism():
    X, y = _rotated_halfspace(300)
    a = OnlineBBM(7, 0.2, weak_learner="linear", mode="sample", random_state=3)
    b = OnlineBBM(7, 0.2, weak_learner="linear", mode="sample", random_state=3)
    a.partial_fit(X, y)
    for xi, yi in zip(X, y):
        b.learn_one(xi, yi)
    np.testing.assert_array_equal(a.bank_.W, b.bank_.W)
    c = OnlineBBM(7, 0.2, weak_learner="linear", mode="sample", random_state=4).partial_fit(X, y)
    assert not np.array_equal(a.bank_.W, c.bank_.W)


def test_importance_weights_non_negative_and_scale_with_example_weight():
    X, y = _rotated_halfspace(50)
    m = OnlineBBM(9, 0.2, weak_learner="perceptron").partial_fit(X, y)
    for x, t in zip(X, y):
        p = m.sampling_probabilities(x, t)
        assert np.all((p >= 0) & (p <= 1)) and p[0] == pytest.approx(
            np.exp(bbm_log_weights(9, np.zeros(9), 0.2))[0] / max(
                np.exp(bbm_log_weights(9, np.full(9, s), 0.2))[0] for s in range(-9, 10)))


@pytest.mark.parametrize("kwargs,exc", [({"n_learners": 0}, ValueError),
                                        ({"gamma": 1.5}, ValueError),
                                        ({"gamma": "a"}, TypeError),
                                        ({"mode": "both"}, ValueError),
                                        ({"weak_learner": "tree"}, ValueError)])
def test_bad_parameters(kwargs, exc):
    with pytest.raises(exc, match="OnlineBBM"):
        OnlineBBM(**kwargs)
