"""The joint multiclass booster: gain, measure, K-free sensitivity (proof attained), release."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import DiscreteGaussianEvent
from dpboost.audit import audit_multiclass_round, grid_output_possible
from dpboost.multiclass import (
    JointGaussianCentering,
    MulticlassHypothesis,
    MulticlassLazyBregBoost,
    boost_joint,
    boost_one_vs_rest,
    class_sums,
    multiclass_gain,
    multiclass_round_pair,
)
from dpboost.weak_learners import GaussianCenteringHalfspace


def test_gain_formula_against_a_loop():
    rng = np.random.default_rng(0)
    S = np.clip(rng.normal(size=(200, 5)), -1, 1)
    y = rng.integers(0, 5, 200)
    got = multiclass_gain(S, y)
    for i in range(200):
        others = max(S[i, k] for k in range(5) if k != y[i])
        assert got[i] == pytest.approx((1 + np.clip(S[i, y[i]] - others, -1, 1)) / 2)
    assert got.min() >= 0 and got.max() <= 1


def test_cached_measure_equals_recompute():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3)) / 3
    y = rng.integers(0, 4, 60)
    nxm = MulticlassLazyBregBoost(0.3, 2.0)
    H = []
    for _ in range(12):
        H.append(MulticlassHypothesis(rng.normal(size=(4, 3))))
        mu = nxm.measure(X, y, H)
        np.testing.assert_allclose(mu, nxm.recompute(X, y, H), rtol=1e-12, atol=1e-15)
        assert mu.sum() == pytest.approx(0.3 * 60) and mu.max() <= 1.0


@pytest.mark.parametrize("K", [2, 10, 26])
def test_worst_case_pair_attains_2R_over_kappa_n_for_every_K(K):
    n, kappa, R = 40, 0.3, 1.5
    X, Xp, y, H = multiclass_round_pair(n, kappa, K, R)
    nxm = MulticlassLazyBregBoost(kappa, 1.0)
    mu, mup = nxm.recompute(X, y, H), nxm.recompute(Xp, y, H)
    assert mu[0] == mup[0] == 1.0
    gap = np.linalg.norm(class_sums(X, y, mu / mu.sum(), K) - class_sums(Xp, y, mup / mup.sum(), K))
    assert gap == pytest.approx(JointGaussianCentering(1.0, kappa, K, R).sensitivity(n), rel=1e-12)


@settings(max_examples=200)
@given(n=st.integers(4, 50), K=st.integers(2, 8), d=st.integers(1, 4),
       seed=st.integers(0, 2**32 - 1), flip=st.booleans(), relabel=st.booleans())
def test_joint_sensitivity_never_exceeds_the_bound(n, K, d, seed, flip, relabel):
    rng = np.random.default_rng(seed)
    kappa = float(rng.uniform(1.2 / n, 0.95))
    X = rng.normal(size=(n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = rng.integers(0, K, n)
    Xp, yp = X.copy(), y.copy()
    i = int(rng.integers(n))
    if flip:
        Xp[i] = -X[i]
    else:
        v = rng.normal(size=d)
        Xp[i] = v / max(1.0, np.linalg.norm(v))
    if relabel:
        yp[i] = rng.integers(0, K)
    H = [MulticlassHypothesis(rng.normal(size=(K, d)) * rng.uniform(0, 3))
         for _ in range(int(rng.integers(0, 6)))]
    nxm = MulticlassLazyBregBoost(kappa, float(rng.uniform(0.1, 5)))
    mu, mup = nxm.recompute(X, y, H), nxm.recompute(Xp, yp, H)
    gap = np.linalg.norm(class_sums(X, y, mu / mu.sum(), K)
                         - class_sums(Xp, yp, mup / mup.sum(), K))
    assert gap <= 2.0 / (kappa * n) * (1 + 1e-9)


def test_class_sums_any_row_order():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 4))
    y = rng.integers(0, 6, 300)
    w = rng.dirichlet(np.ones(300))
    order = np.argsort(y, kind="stable")
    a = class_sums(X, y, w, 6)
    b = class_sums(X[order], y[order], w[order], 6)
    expected = np.array([(w[y == k, None] * X[y == k]).sum(axis=0) for k in range(6)])
    np.testing.assert_allclose(a, expected, atol=1e-14)
    np.testing.assert_allclose(b, expected, atol=1e-14)


def test_release_is_one_discrete_gaussian_event_on_the_grid():
    wl = JointGaussianCentering(3.0, 0.5, n_classes=26)
    assert wl.privacy_event(100) == DiscreteGaussianEvent(3.0)
    assert wl.sensitivity(100) == GaussianCenteringHalfspace(3.0, 0.5).sensitivity(100)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(100, 5)) / 3
    y = np.sort(rng.integers(0, 26, 100))
    h = wl.fit(X, y, np.full(100, 0.01), rng=rng)
    assert h.coef.shape == (26, 5)
    assert grid_output_possible(h.coef, wl.mechanism(100, 5).granularity).all()


def test_joint_and_one_vs_rest_learn_a_separable_problem():
    rng = np.random.default_rng(4)
    centres = np.eye(4)[:, :3] * 0.8
    y = rng.integers(0, 3, 3000)
    X = np.hstack([centres[y] + rng.normal(0, 0.05, (3000, 3)), np.full((3000, 1), 0.1)])
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    from dpboost.multiclass import JointCentering

    W = boost_joint(X, y, 3, n_rounds=20, kappa=0.5, learning_rate=2.0,
                    weak_learner=JointCentering(3), rng=rng).mean(axis=0)
    assert np.mean((X @ W.T).argmax(axis=1) == y) > 0.99
    W = boost_one_vs_rest(X, y, 3, n_rounds=20, kappa=0.5, learning_rate=2.0,
                          make_learner=lambda: GaussianCenteringHalfspace(1.0, 0.5),
                          rng=rng).mean(axis=0)
    assert np.mean((X @ W.T).argmax(axis=1) == y) > 0.9


@pytest.mark.slow
def test_multiclass_release_passes_its_audit_and_a_sqrt_K_short_one_fails(monkeypatch):
    result = audit_multiclass_round(runs=6000, n_classes=10, random_state=5)
    assert result.passed and result.distance_over_sensitivity == pytest.approx(1.0, rel=1e-9)
    # a learner that charged only half the sensitivity leaks twice the mu: flagged
    monkeypatch.setattr(JointGaussianCentering, "sensitivity",
                        lambda self, n: self.norm_bound / (self.kappa * n))
    broken = audit_multiclass_round(runs=20000, n_classes=10, random_state=6)
    assert not broken.passed
