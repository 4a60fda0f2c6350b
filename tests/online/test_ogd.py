"""Online gradient descent: SSBD Theorem 21.15 with exact comparators, projections, classifier."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dpboost.online.base import OnlineClassifier
from dpboost.online.ogd import (
    Box,
    L2Ball,
    OnlineGradientDescent,
    OnlineGradientDescentClassifier,
    ogd_learning_rate,
    ogd_regret_bound,
)


def run_linear(ogd: OnlineGradientDescent, adversary, T: int) -> tuple[float, np.ndarray]:
    """Play linear losses <z_t, w>; return the learner's total loss and sum_t z_t."""
    total, zsum = 0.0, np.zeros(ogd.dim)
    for t in range(T):
        w = ogd.predict()
        z = adversary(t, w)
        total += float(z @ w)
        zsum += z
        ogd.update(z)
    return total, zsum


def _unit(v, rng):
    n = np.linalg.norm(v)
    if n == 0:
        v = rng.normal(size=v.shape)
        n = np.linalg.norm(v)
    return v / n


def adversaries(rho: float, dim: int, seed: int):
    rng = np.random.default_rng(seed)
    return {
        "push": lambda t, w: rho * _unit(w, rng),  # loss rho * ||w_t||
        "random": lambda t, w: rho * _unit(rng.normal(size=dim), rng),
        "constant": lambda t, w: rho * np.eye(dim)[0],
        "alternate": lambda t, w: rho * (1 if t % 2 else -1) * np.eye(dim)[0],
        "blocks": lambda t, w: rho * (1 if (t // 37) % 2 else -1) * np.eye(dim)[dim - 1],
    }


@pytest.mark.parametrize("dim", [1, 3, 20])
@pytest.mark.parametrize("radius, rho", [(1.0, 1.0), (2.5, 0.4)])
def test_theorem_21_15_on_the_l2_ball(dim, radius, rho):
    T = 500
    bound = ogd_regret_bound(radius=radius, lipschitz=rho, n_rounds=T)
    eta = ogd_learning_rate(radius=radius, lipschitz=rho, n_rounds=T)
    for name, adv in adversaries(rho, dim, seed=dim).items():
        ogd = OnlineGradientDescent(dim, learning_rate=eta, projection=L2Ball(radius))
        total, zsum = run_linear(ogd, adv, T)
        best = -radius * np.linalg.norm(zsum)  # min over the ball of <zsum, w>
        assert total - best <= bound + 1e-9, name
        assert np.linalg.norm(ogd.w_) <= radius + 1e-12


@pytest.mark.parametrize("dim", [1, 4])
def test_theorem_21_15_on_a_box(dim):
    T = 400
    low, high = -np.linspace(0.5, 1.0, dim), np.linspace(1.0, 2.0, dim)
    box = Box(low, high)
    rho = 1.0
    bound = ogd_regret_bound(radius=box.radius, lipschitz=rho, n_rounds=T)
    eta = ogd_learning_rate(radius=box.radius, lipschitz=rho, n_rounds=T)
    for name, adv in adversaries(rho, dim, seed=7).items():
        ogd = OnlineGradientDescent(dim, learning_rate=eta, projection=box)
        total, zsum = run_linear(ogd, adv, T)
        best = float(np.minimum(low * zsum, high * zsum).sum())  # min over the box
        assert total - best <= bound + 1e-9, name
        assert np.all(ogd.w_ >= low - 1e-12) and np.all(ogd.w_ <= high + 1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_theorem_21_15_squared_loss_on_an_interval(seed):
    """f_t(w) = (w - z_t)^2 on [-B, B] with z_t in [-B, B] is 4B-Lipschitz; the best fixed w is
    the clipped mean of the z_t (exact comparator)."""
    B, T = 2.0, 600
    rng = np.random.default_rng(seed)
    z = np.concatenate([rng.uniform(-B, B, T // 2), rng.uniform(0, B, T - T // 2)])
    ogd = OnlineGradientDescent(
        1,
        learning_rate=ogd_learning_rate(radius=B, lipschitz=4 * B, n_rounds=T),
        projection=Box(-B, B),
    )
    total = 0.0
    for zt in z:
        w = ogd.predict()[0]
        total += (w - zt) ** 2
        ogd.update(lambda u, zt=zt: 2 * (u - zt))
    w_star = float(np.clip(z.mean(), -B, B))
    regret = total - float(((w_star - z) ** 2).sum())
    assert regret <= ogd_regret_bound(radius=B, lipschitz=4 * B, n_rounds=T)


@given(
    Z=arrays(
        np.float64, st.tuples(st.integers(1, 30), st.integers(1, 4)), elements=st.floats(-3, 3)
    ),
    eta=st.floats(1e-3, 10),
    radius=st.floats(0.1, 5),
)
def test_first_bound_holds_for_every_eta(Z, eta, radius):
    """Regret(w*) <= ||w*||^2/(2 eta) + (eta/2) sum ||v_t||^2 for every w* in the set."""
    ogd = OnlineGradientDescent(Z.shape[1], learning_rate=eta, projection=L2Ball(radius))
    total = 0.0
    for z in Z:
        total += float(z @ ogd.w_)
        ogd.update(z)
    zsum = Z.sum(axis=0)
    norm = np.linalg.norm(zsum)
    for w_star in [np.zeros(Z.shape[1]), -radius * zsum / norm if norm > 0 else zsum]:
        regret = total - float(zsum @ w_star)
        rhs = w_star @ w_star / (2 * eta) + eta / 2 * float((Z**2).sum())
        assert regret <= rhs + 1e-9 * (1 + abs(rhs))


@given(arrays(np.float64, st.integers(1, 5), elements=st.floats(-100, 100)), st.floats(0.0, 10.0))
def test_l2_ball_projection_is_the_nearest_point(w, radius):
    p = L2Ball(radius)(w)
    assert np.linalg.norm(p) <= radius * (1 + 1e-12)
    if np.linalg.norm(w) <= radius:
        np.testing.assert_array_equal(p, w)
    rng = np.random.default_rng(0)
    for _ in range(20):  # variational inequality <w - p, u - p> <= 0 for u in the ball
        u = rng.normal(size=w.shape)
        u *= radius * rng.uniform() / max(np.linalg.norm(u), 1e-300)
        assert (w - p) @ (u - p) <= 1e-7 * (1 + np.abs(w).sum())


@given(arrays(np.float64, 3, elements=st.floats(-10, 10)))
def test_box_projection_is_the_nearest_point(w):
    box = Box([-1.0, 0.0, 2.0], [1.0, 0.5, 3.0])
    p = box(w)
    rng = np.random.default_rng(1)
    for _ in range(20):
        u = rng.uniform(box.low, box.high)
        assert (w - p) @ (u - p) <= 1e-9
    assert box.radius == pytest.approx(math.sqrt(1 + 0.25 + 9))


def test_box_radius_with_scalar_bounds_needs_the_dimension():
    assert Box(-1.0, 2.0).radius == 2.0
    assert Box(-1.0, 2.0, dim=4).radius == pytest.approx(4.0)


def test_gradient_oracle_equals_vector_feedback():
    rng = np.random.default_rng(2)
    a = OnlineGradientDescent(3, learning_rate=0.2, projection=L2Ball(1.0))
    b = OnlineGradientDescent(3, learning_rate=0.2, projection=L2Ball(1.0))
    for _ in range(20):
        c = rng.normal(size=3)
        a.update(lambda w, c=c: 2 * (w - c))
        b.update(2 * (b.predict() - c))
        np.testing.assert_array_equal(a.w_, b.w_)
    assert a.n_rounds_ == 20


def test_first_iterate_is_the_projected_origin():
    assert OnlineGradientDescent(2, learning_rate=1.0).predict().tolist() == [0.0, 0.0]
    ogd = OnlineGradientDescent(2, learning_rate=1.0, projection=Box([1.0, -2.0], [2.0, -1.0]))
    assert ogd.predict().tolist() == [1.0, -1.0]


# --- the classifier ------------------------------------------------------------------------


def test_classifier_is_ogd_on_the_surrogate():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 4))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    for loss in ("hinge", "logistic"):
        clf = OnlineGradientDescentClassifier(learning_rate=0.3, loss=loss, radius=2.0)
        ogd = OnlineGradientDescent(4, learning_rate=0.3, projection=L2Ball(2.0))
        for xi, yi in zip(X, y):
            m = yi * (ogd.w_ @ xi)
            g = (-1.0 if m < 1 else 0.0) if loss == "hinge" else -1.0 / (1.0 + math.exp(m))
            ogd.update(g * yi * xi)
            clf.learn_one(xi, yi)
            np.testing.assert_allclose(clf.coef_, ogd.w_, rtol=1e-12, atol=1e-15)
        assert np.linalg.norm(clf.coef_) <= 2.0 + 1e-12


def test_classifier_logistic_gradient_is_stable_for_huge_margins():
    clf = OnlineGradientDescentClassifier(loss="logistic", learning_rate=1.0)
    clf.learn_one(np.array([1e4]), 1.0)
    clf.learn_one(np.array([1e4]), 1.0)  # margin ~ 5e7: exp would overflow
    clf.learn_one(np.array([1e4]), -1.0)
    assert np.all(np.isfinite(clf.coef_))


def test_classifier_learns_a_separable_problem_and_follows_the_protocol():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 3))
    y = np.where(X @ np.array([1.0, -2.0, 0.5]) > 0, 1.0, -1.0)
    a = OnlineGradientDescentClassifier(learning_rate=0.5)
    b = OnlineGradientDescentClassifier(learning_rate=0.5)
    assert a.predict_one(X[0]) == 0.0 and a.coef_ is None
    a.partial_fit(X, y)
    for xi, yi in zip(X, y):
        b.learn_one(xi, yi)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert isinstance(a, OnlineClassifier)
    assert np.all(np.abs(a.decision_function(X)) <= 1.0)
    assert (a.predict(X) == y).mean() > 0.9


def test_classifier_importance_weight_scales_the_gradient():
    x = np.array([0.5, -1.0])
    a = OnlineGradientDescentClassifier(learning_rate=0.2)
    b = OnlineGradientDescentClassifier(learning_rate=0.6)
    a.learn_one(x, 1.0, weight=3.0)
    b.learn_one(x, 1.0)
    np.testing.assert_allclose(a.coef_, b.coef_)


@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda: OnlineGradientDescent(0, learning_rate=0.1), ValueError),
        (lambda: OnlineGradientDescent(2, learning_rate=0.0), ValueError),
        (lambda: OnlineGradientDescent(2, learning_rate=0.1, projection=3), TypeError),
        (lambda: OnlineGradientDescent(2, learning_rate=0.1).update([1.0]), ValueError),
        (lambda: OnlineGradientDescent(2, learning_rate=0.1).update([1.0, np.inf]), ValueError),
        (lambda: L2Ball(-1.0), ValueError),
        (lambda: Box(1.0, -1.0), ValueError),
        (lambda: Box([0.0, 0.0], [1.0]), ValueError),
        (lambda: OnlineGradientDescentClassifier(loss="squared"), ValueError),
        (lambda: OnlineGradientDescentClassifier(radius=0.0), ValueError),
        (lambda: ogd_learning_rate(radius=1.0, lipschitz=0.0, n_rounds=10), ValueError),
        (lambda: ogd_learning_rate(radius=1.0, lipschitz=1.0, n_rounds=1.5), TypeError),
    ],
)
def test_validation(call, exc):
    with pytest.raises(exc, match="parameter"):
        call()


def test_rate_and_bound_formulas():
    eta = ogd_learning_rate(radius=3.0, lipschitz=2.0, n_rounds=25)
    assert eta == pytest.approx(3.0 / (2.0 * 5))
    # B^2/(2 eta) + eta rho^2 T / 2 at the tuned rate equals B rho sqrt(T).
    assert 9 / (2 * eta) + eta * 4 * 25 / 2 == pytest.approx(
        ogd_regret_bound(radius=3.0, lipschitz=2.0, n_rounds=25)
    )


def test_docstring_examples_run():
    import doctest

    import dpboost.online.ogd as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
