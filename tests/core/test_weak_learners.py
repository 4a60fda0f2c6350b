"""Weak learners: the centering sum, float32 handling, the 2R/(kappa n) sensitivity, the noise."""

from __future__ import annotations

import numpy as np
import pytest

from accounting import DiscreteGaussianEvent, NonPrivateEvent
from dpboost.lazy_breg import LazyBregBoost
from dpboost.weak_learners import (
    CenteringHalfspace,
    GaussianCenteringHalfspace,
    HalfspaceHypothesis,
    centering_sum,
)


def test_centering_sum_is_the_weighted_sum():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    y = rng.choice([-1, 1], 50)
    mu_hat = rng.dirichlet(np.ones(50))
    expected = sum(mu_hat[i] * y[i] * X[i] for i in range(50))
    np.testing.assert_allclose(centering_sum(X, y, mu_hat), expected, rtol=1e-12)


def test_float32_is_not_upcast_and_agrees():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 8))
    y = rng.choice([-1, 1], 2000)
    mu_hat = np.full(2000, 1 / 2000)
    X32 = X.astype(np.float32)
    z32 = centering_sum(X32, y, mu_hat)
    assert z32.dtype == np.float64
    np.testing.assert_allclose(z32, centering_sum(X, y, mu_hat), atol=1e-6)
    h = HalfspaceHypothesis(z32)
    assert h(X32).dtype == np.float32
    np.testing.assert_allclose(h(X32), h(X), atol=1e-5)


def test_hypothesis_clips():
    h = HalfspaceHypothesis(np.array([10.0]))
    np.testing.assert_array_equal(h(np.array([[1.0], [-1.0], [0.05]])), [1.0, -1.0, 0.5])


def test_sensitivity_sigma_and_events():
    wl = GaussianCenteringHalfspace(3.0, 0.25, norm_bound=2.0)
    assert wl.sensitivity(1000) == pytest.approx(2 * 2.0 / (0.25 * 1000))
    # the safe release calibrates to Delta' = Delta + 2E + g sqrt(d) <= Delta (1 + 1/1024 + tiny)
    delta = 2 * 2.0 / (0.25 * 1000)
    for d in (1, 7, 300):
        eff = wl.effective_sensitivity(1000, d)
        assert delta < eff <= delta * (1 + 1 / 1024 + 1e-9)
        assert 3.0 * eff <= wl.sigma(1000, d) <= 3.0 * eff * (1 + 1e-3)
    paper = GaussianCenteringHalfspace(3.0, 0.25, norm_bound=2.0, sensitivity="paper")
    assert paper.sensitivity(1000) == pytest.approx(2 * wl.sensitivity(1000))
    assert wl.privacy_event(10) == DiscreteGaussianEvent(noise_multiplier=3.0)
    assert CenteringHalfspace().privacy_event(10) == NonPrivateEvent()


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"noise_multiplier": 0.0, "kappa": 0.5}, ValueError),
        ({"noise_multiplier": 1.0, "kappa": 1.0}, ValueError),
        ({"noise_multiplier": 1.0, "kappa": 0.5, "sensitivity": "loose"}, ValueError),
        ({"noise_multiplier": "1", "kappa": 0.5}, TypeError),
    ],
)
def test_bad_parameters(kwargs, exc):
    with pytest.raises(exc):
        GaussianCenteringHalfspace(**kwargs)


def test_noise_has_the_stated_sigma():
    rng = np.random.default_rng(5)
    n, d = 200, 3
    X = rng.normal(size=(n, d)) / 3
    y = rng.choice([-1, 1], n)
    mu_hat = np.full(n, 1 / n)
    wl = GaussianCenteringHalfspace(2.0, 0.5)
    z0 = centering_sum(X, y, mu_hat)
    draws = np.array([wl.fit(X, y, mu_hat, rng=rng).coef - z0 for _ in range(4000)])
    sigma = wl.sigma(n)
    # sample sd of 12,000 normals is within 3% of sigma with overwhelming probability
    assert np.std(draws) == pytest.approx(sigma, rel=0.03)
    assert abs(draws.mean()) < 4 * sigma / np.sqrt(draws.size)


def _z(X, y, H, kappa, lam, R):
    mu = LazyBregBoost(kappa, lam).recompute(X, y, H)
    return centering_sum(X, y, mu / mu.sum())


def _neighbour_gaps(R, seed, n_pairs=250):
    """||z(S) - z(S')|| over random and adversarial neighbours, for the same hypotheses."""
    rng = np.random.default_rng(seed)
    gaps, bounds = [], []
    for p in range(n_pairs):
        n = int(rng.integers(5, 60))
        d = int(rng.integers(1, 5))
        kappa = float(rng.uniform(0.05, 0.9))
        lam = float(rng.uniform(0.1, 30.0))
        kind = p % 5
        if kind == 4:  # the attaining construction: every y_j x_j = v, replaced by -v
            v = rng.normal(size=d)
            v *= R / np.linalg.norm(v)
            y = rng.choice([-1, 1], n)
            X = y[:, None] * v
            H = [HalfspaceHypothesis(v / R**2) for _ in range(int(rng.integers(1, 6)))]
        else:
            X = rng.normal(size=(n, d))
            X *= R / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
            X *= rng.uniform(0, 1, (n, 1)) ** (kind == 0)
            y = rng.choice([-1, 1], n)
            H = [HalfspaceHypothesis(rng.normal(size=d) * 3 / R)
                 for _ in range(int(rng.integers(0, 6)))]
        i = int(rng.integers(n))
        X2, y2 = X.copy(), y.copy()
        direction = sum((h.coef for h in H), np.zeros(d))
        norm = np.linalg.norm(direction)
        u = direction / norm if norm > 0 else np.eye(d)[0]
        if kind in (0, 1):  # random replacement at the norm bound
            g = rng.normal(size=d)
            X2[i] = R * g / np.linalg.norm(g)
            y2[i] = rng.choice([-1, 1])
        elif kind == 2:  # flipped label
            y2[i] = -y[i]
        else:  # replaced point misclassified by H: capped weight, norm at the bound
            y2[i] = -y[i] if kind == 4 else rng.choice([-1, 1])
            X2[i] = -y2[i] * R * u if kind == 3 else -X[i]
        gap = np.linalg.norm(_z(X, y, H, kappa, lam, R) - _z(X2, y2, H, kappa, lam, R))
        gaps.append(gap)
        bounds.append(2 * R / (kappa * n))
    return np.array(gaps), np.array(bounds)


@pytest.mark.parametrize("R", [1.0, 2.5])
def test_tight_sensitivity_holds_and_is_nearly_attained(R):
    gaps, bounds = _neighbour_gaps(R, seed=11)
    ratio = gaps / bounds
    assert ratio.max() <= 1 + 1e-9
    assert ratio.max() >= 0.95  # some pair comes within 5% of 2R/(kappa n)
