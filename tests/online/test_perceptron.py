"""The Perceptron: SSBD Theorem 21.16 on random and adversarial separable sequences."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.online.base import OnlineClassifier
from dpboost.online.ogd import OnlineGradientDescent
from dpboost.online.perceptron import Perceptron, perceptron_mistake_bound


def separable(rng, n, dim, margin):
    """Points with |<u, x>| >= margin for a unit u, labelled by sign(<u, x>).

    Returns X, y and the margin-normalised comparator w* = u / gamma with
    gamma = min_t y_t <u, x_t>, so that y_t <w*, x_t> >= 1 for every t.
    """
    u = rng.normal(size=dim)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(4 * n, dim)) * rng.uniform(0.2, 3.0, size=(4 * n, 1))
    X = X[np.abs(X @ u) >= margin][:n]
    y = np.sign(X @ u)
    gamma = float(np.min(y * (X @ u)))
    return X, y, u / gamma


@pytest.mark.parametrize("dim", [2, 5, 30])
@pytest.mark.parametrize("margin", [0.05, 0.3])
def test_theorem_21_16_random_separable(dim, margin):
    for seed in range(8):
        rng = np.random.default_rng(seed)
        X, y, w_star = separable(rng, 300, dim, margin)
        assert np.all(y * (X @ w_star) >= 1 - 1e-12)
        R = np.max(np.linalg.norm(X, axis=1))
        p = Perceptron()
        bound = (R * np.linalg.norm(w_star)) ** 2
        while True:  # pass until error-free: the bound covers every pass
            before = p.n_updates_
            p.partial_fit(X, y)
            assert p.n_updates_ <= bound
            if p.n_updates_ == before:
                break
        assert perceptron_mistake_bound(X, y, w_star) == pytest.approx(
            (R * np.linalg.norm(w_star)) ** 2
        )
        assert np.all(y * (X @ p.coef_) > 0)  # converged: the passes ended error-free


@pytest.mark.parametrize("seed", range(6))
def test_theorem_21_16_adversarial_order(seed):
    """The adversary always shows a pool point on which the Perceptron would update."""
    rng = np.random.default_rng(seed)
    X, y, w_star = separable(rng, 200, 3, 0.1)
    R = np.max(np.linalg.norm(X, axis=1))
    bound = (R * np.linalg.norm(w_star)) ** 2
    p = Perceptron()
    p.learn_one(X[0], y[0])
    while True:
        scores = y * (X @ p.coef_)
        bad = np.flatnonzero(scores <= 0)
        if bad.size == 0:
            break
        t = bad[np.argmin(scores[bad])]  # the most violated point
        p.learn_one(X[t], y[t])
        assert p.n_updates_ <= bound
    assert p.n_updates_ >= 2


@pytest.mark.parametrize("seed", range(4))
def test_theorem_21_16_general_bound_with_label_noise(seed):
    rng = np.random.default_rng(seed)
    X, y, w_star = separable(rng, 400, 4, 0.2)
    flip = rng.uniform(size=len(y)) < 0.1
    y = np.where(flip, -y, y)
    p = Perceptron().partial_fit(X, y)
    for scale in (0.25, 0.5, 1.0, 2.0):
        assert p.n_updates_ <= perceptron_mistake_bound(X, y, scale * w_star)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.floats(0.01, 100.0))
def test_perceptron_is_ogd_on_the_round_wise_hinge_with_any_step(seed, eta):
    """SSBD Section 21.4: updates and predictions do not depend on eta > 0."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 3))
    y = np.where(rng.uniform(size=40) < 0.5, -1.0, 1.0)
    p = Perceptron()
    ogd = OnlineGradientDescent(3, learning_rate=eta)
    for xi, yi in zip(X, y):
        assert p.predict_one(xi) == (1.0 if ogd.w_ @ xi >= 0 else -1.0)
        v = -yi * xi if yi * (ogd.w_ @ xi) <= 0 else np.zeros(3)
        ogd.update(v)
        p.learn_one(xi, yi)
        np.testing.assert_allclose(eta * p.coef_, ogd.w_, rtol=1e-9, atol=1e-12)


def test_protocol_and_conventions():
    p = Perceptron()
    assert isinstance(p, OnlineClassifier)
    assert p.predict_one(np.array([1.0, 2.0])) == 1.0 and p.coef_ is None
    p.learn_one(np.array([1.0, 0.0]), 1.0)  # w = 0: y<w,x> = 0 <= 0 updates
    assert p.n_updates_ == 1
    p.learn_one(np.array([0.0, 1.0]), -1.0)  # <w,x> = 0 again: update
    np.testing.assert_array_equal(p.coef_, [1.0, -1.0])
    assert p.predict_one(np.array([1.0, 1.0])) == 1.0  # tie goes to +1
    p.learn_one(np.array([3.0, 0.0]), -1.0, weight=0.0)  # weight 0 skips
    assert p.n_updates_ == 2
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 2)), np.where(rng.uniform(size=30) < 0.5, -1.0, 1.0)
    a, b = Perceptron().partial_fit(X, y), Perceptron()
    for xi, yi in zip(X, y):
        b.learn_one(xi, yi)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert set(a.decision_function(X)) <= {-1.0, 1.0}


def test_docstring_examples_run():
    import doctest

    import dpboost.online.perceptron as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
