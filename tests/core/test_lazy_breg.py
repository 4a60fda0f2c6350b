"""LB-NxM (Algorithm 4).

Cache = recomputation, density, smoothness, log-space, slickness (Lemma 25)."""

from __future__ import annotations

import numpy as np
import pytest
from _core_helpers import reference_capped_scaling
from hypothesis import given
from hypothesis import strategies as st

from dpboost.lazy_breg import LazyBregBoost, round_gain
from dpboost.weak_learners import HalfspaceHypothesis


def _random_hypotheses(rng, d, t, scale=3.0):
    return [HalfspaceHypothesis(scale * rng.normal(size=d)) for _ in range(t)]


def test_gain_is_papers_formula_with_clipping():
    h = np.array([-3.0, -1.0, 0.0, 0.4, 1.0, 7.0])
    y = np.array([1, 1, -1, -1, -1, 1])
    expected = 1 - np.abs(np.clip(h, -1, 1) - y) / 2
    np.testing.assert_array_equal(round_gain(h, y), expected)
    assert np.all((round_gain(h, y) >= 0) & (round_gain(h, y) <= 1))


def test_definition_against_direct_formula():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4)) / 2
    y = rng.choice([-1, 1], 300)
    H = _random_hypotheses(rng, 4, 7)
    kappa, lam = 0.3, 0.8
    L = sum(1 - np.abs(np.clip(X @ h.coef, -1, 1) - y) / 2 for h in H)
    ref = reference_capped_scaling(kappa * np.exp(-lam * L), kappa)
    np.testing.assert_allclose(LazyBregBoost(kappa, lam).recompute(X, y, H), ref, rtol=1e-9)


def test_cache_equals_recomputation_after_many_rounds():
    rng = np.random.default_rng(2)
    n, d = 500, 5
    X = rng.normal(size=(n, d)) / 3
    y = rng.choice([-1, 1], n)
    nxm = LazyBregBoost(0.25, 5.0)
    H: list = []
    for t in range(400):
        mu = nxm.measure(X, y, H)
        if t % 50 == 0 or t == 399:
            np.testing.assert_allclose(mu, nxm.recompute(X, y, H), rtol=0, atol=1e-12)
            L = sum((round_gain(h(X), y) for h in H), np.zeros(n))
            np.testing.assert_allclose(nxm.cumulative_gain, L, rtol=1e-13, atol=1e-9)
        H.append(HalfspaceHypothesis(rng.normal(size=d)))
    assert nxm.n_hypotheses_seen == 399
    # a different list (not an extension) triggers recomputation, not a stale cache
    other = _random_hypotheses(rng, d, 3)
    np.testing.assert_allclose(nxm.measure(X, y, other), nxm.recompute(X, y, other), atol=1e-12)
    np.testing.assert_allclose(nxm.measure(X, y, []), np.full(n, 0.25), atol=1e-12)


@pytest.mark.parametrize("kappa", [0.05, 0.25, 0.7])
def test_density_caps_and_smoothness(kappa):
    rng = np.random.default_rng(3)
    n = 400
    X = rng.normal(size=(n, 3)) / 2
    y = rng.choice([-1, 1], n)
    H = _random_hypotheses(rng, 3, 30)
    nxm = LazyBregBoost(kappa, 2.0)
    for t in range(0, 31, 5):
        mu = nxm.measure(X, y, H[:t])
        assert abs(mu.sum() - kappa * n) <= 1e-9 * kappa * n
        assert mu.max() <= 1.0 and mu.min() >= 0.0
        mu_hat = mu / mu.sum()
        assert mu_hat.max() <= (1 + 1e-12) / (kappa * n)


def test_million_round_losses_stay_finite_and_dense():
    # learning_rate 1e5 over 10 rounds = cumulative lambda*L up to 1e6 (a million rounds at 1)
    rng = np.random.default_rng(4)
    n, kappa = 1000, 0.1
    X = rng.normal(size=(n, 3))
    y = rng.choice([-1, 1], n)
    nxm = LazyBregBoost(kappa, 1e5)
    mu = nxm.measure(X, y, _random_hypotheses(rng, 3, 10))
    assert np.all(np.isfinite(mu)) and mu.max() <= 1.0
    assert abs(mu.sum() - kappa * n) <= 1e-9 * kappa * n
    # gain directly at a million rounds
    gain = rng.uniform(0, 1e6, n)
    mu = LazyBregBoost(kappa, 1.0)._project(gain)
    assert np.all(np.isfinite(mu)) and abs(mu.sum() - kappa * n) <= 1e-9 * kappa * n


def _tv(mu, mu2):
    return 0.5 * np.abs(mu / mu.sum() - mu2 / mu2.sum()).sum()


@given(
    n=st.integers(2, 40),
    kappa=st.floats(0.05, 0.95),
    lam=st.floats(0.01, 20.0),
    t=st.integers(0, 8),
    seed=st.integers(0, 2**31),
    which=st.sampled_from(["random", "misclassified", "flip", "well_classified"]),
)
def test_slickness_lemma25(n, kappa, lam, t, seed, which):
    rng = np.random.default_rng(seed)
    d = 3
    X = rng.normal(size=(n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    y = rng.choice([-1, 1], n)
    H = _random_hypotheses(rng, d, t)
    i = int(rng.integers(n))
    X2, y2 = X.copy(), y.copy()
    direction = sum((h.coef for h in H), np.zeros(d))
    if np.linalg.norm(direction) > 0:
        direction = direction / np.linalg.norm(direction)
    if which == "random":
        X2[i] = rng.normal(size=d) / 2
        y2[i] = rng.choice([-1, 1])
    elif which == "flip":
        y2[i] = -y[i]
    elif which == "misclassified":  # hypotheses say -y2: maximal weight, capped
        X2[i] = -y2[i] * direction
    else:
        X2[i] = y2[i] * direction
    nxm = LazyBregBoost(kappa, lam)
    mu, mu2 = nxm.recompute(X, y, H), nxm.recompute(X2, y2, H)
    assert _tv(mu, mu2) <= (1 + 1e-9) / (kappa * n)
