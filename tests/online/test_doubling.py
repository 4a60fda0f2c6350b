"""The doubling trick: anytime regret within sqrt2/(sqrt2-1) of the known-horizon bound."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpboost.online.doubling import DOUBLING_FACTOR, DoublingTrick, doubling_regret_bound
from dpboost.online.hedge import Hedge, hedge_learning_rate
from dpboost.online.ogd import L2Ball, OnlineGradientDescent, ogd_learning_rate
from dpboost.online.online_to_batch import online_to_batch
from dpboost.online.perceptron import Perceptron


def doubled_hedge(d):
    return DoublingTrick(lambda n: Hedge(d, learning_rate=hedge_learning_rate(d, n)))


def doubled_ogd(dim, radius, rho):
    return DoublingTrick(
        lambda n: OnlineGradientDescent(
            dim,
            learning_rate=ogd_learning_rate(radius=radius, lipschitz=rho, n_rounds=n),
            projection=L2Ball(radius),
        )
    )


@pytest.mark.parametrize("d", [2, 10])
@pytest.mark.parametrize("kind", ["heaviest", "bernoulli", "switch"])
def test_hedge_anytime_regret(d, kind):
    """At every T, regret <= sqrt2/(sqrt2-1) * sqrt(2 log d) * sqrt(T) (alpha of Thm 21.11)."""
    T = 1500
    rng = np.random.default_rng(d)
    alpha = math.sqrt(2 * math.log(d))
    learner = doubled_hedge(d)
    paid, cumulative = 0.0, np.zeros(d)
    worst_ratio = 0.0
    for t in range(1, T + 1):
        w = learner.predict()
        if kind == "heaviest":
            v = (np.arange(d) == np.argmax(w)).astype(float)
        elif kind == "bernoulli":
            v = rng.integers(0, 2, size=d).astype(float)
        else:
            v = np.where(np.arange(d) == 0, float(t > T // 3), float(t <= T // 3))
        assert learner.update(v) == pytest.approx(w @ v)
        paid += w @ v
        cumulative += v
        regret = paid - cumulative.min()
        bound = doubling_regret_bound(alpha, t)
        assert regret <= bound + 1e-9
        worst_ratio = max(worst_ratio, regret / bound)
    assert learner.n_rounds_ == T
    assert worst_ratio > 0.05  # measured 0.08-0.47: the bound is not vacuous here


@pytest.mark.parametrize("dim", [1, 5])
def test_ogd_anytime_regret(dim):
    """At every T, regret <= sqrt2/(sqrt2-1) * B rho sqrt(T) (alpha of Thm 21.15)."""
    B, rho, T = 1.5, 2.0, 1200
    rng = np.random.default_rng(dim)
    learner = doubled_ogd(dim, B, rho)
    total, zsum = 0.0, np.zeros(dim)
    for t in range(1, T + 1):
        w = learner.predict()
        z = rng.normal(size=dim)
        z *= rho / np.linalg.norm(z)
        total += z @ w
        zsum += z
        learner.update(z)
        assert np.linalg.norm(learner.predict()) <= B + 1e-12
        regret = total + B * np.linalg.norm(zsum)
        assert regret <= doubling_regret_bound(B * rho, t) + 1e-9


def test_every_epoch_meets_its_own_bound_and_restarts_on_schedule():
    """Epoch m covers rounds 2^m .. 2^{m+1}-1 and is built for horizon 2^m."""
    d, T = 4, 300
    horizons = []

    def make(n):
        horizons.append(n)
        return Hedge(d, learning_rate=hedge_learning_rate(d, n))

    learner = DoublingTrick(make)
    rng = np.random.default_rng(0)
    epoch_of_round = []
    for t in range(1, T + 1):
        epoch_of_round.append(learner.epoch_)
        learner.update(rng.integers(0, 2, size=d).astype(float))
        inner = learner._learner
        if inner.n_rounds_ == 2**learner._learner_epoch:  # epoch complete
            assert inner.regret() <= math.sqrt(2 * math.log(d) * inner.n_rounds_)
    assert horizons == [2**m for m in range(int(math.log2(T)) + 1)]
    assert epoch_of_round == [math.floor(math.log2(t)) for t in range(1, T + 1)]


def test_classifier_verbs_restart_too():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    learner = DoublingTrick(lambda n: Perceptron())
    learner.partial_fit(X[:15], y[:15])
    assert learner.n_rounds_ == 15 and learner.epoch_ == 4  # round 16 opens epoch 4
    assert learner.learner.coef_ is None  # a fresh epoch learner
    learner.partial_fit(X[15:], y[15:])
    assert learner.epoch_ == 4 and learner.learner.n_updates_ >= 1
    assert learner.predict_one(X[0]) in (-1.0, 1.0)


def test_batch_predict_of_a_wrapped_classifier():
    # predict(X) raised TypeError: the OCO predict() took no rows and shadowed the batch verb
    rng = np.random.default_rng(2)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    learner = DoublingTrick(lambda n: Perceptron()).partial_fit(X, y)
    labels = learner.predict(X)
    np.testing.assert_array_equal(labels, learner.learner.predict(X))  # the epoch's learner
    np.testing.assert_array_equal(labels, np.where(learner.decision_function(X) >= 0, 1.0, -1.0))
    batch = online_to_batch(DoublingTrick(lambda n: Perceptron()), X, y,
                            rng=np.random.default_rng(0))
    assert batch.predict(X).shape == (20,)


def test_predict_forms_and_their_errors():
    hedge = doubled_hedge(3)
    np.testing.assert_allclose(hedge.predict(), np.full(3, 1 / 3))  # the OCO form still works
    with pytest.raises(TypeError, match=r"DoublingTrick.predict\(X\) needs an online classifier"):
        hedge.predict(np.zeros((2, 3)))
    with pytest.raises(TypeError, match=r"wrapped Perceptron is an online classifier: call "
                                        r"predict\(X\)"):
        DoublingTrick(lambda n: Perceptron()).predict()


def test_a_zero_weight_example_is_not_a_round():
    # it advanced n_rounds_, so zero-weight rows could restart the learner (a new epoch)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(10, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    learner = DoublingTrick(lambda n: Perceptron()).partial_fit(X[:2], y[:2])
    inner, coef = learner.learner, learner.learner.coef_.copy()
    learner.partial_fit(X, y, sample_weight=np.zeros(10))
    assert learner.n_rounds_ == 2 and learner.learner is inner
    np.testing.assert_array_equal(inner.coef_, coef)
    with pytest.raises(ValueError, match="'weight' parameter of DoublingTrick.learn_one"):
        learner.learn_one(X[0], y[0], -1.0)


def test_factor_and_validation():
    assert DOUBLING_FACTOR == pytest.approx(3.4142135623730951)
    assert doubling_regret_bound(2.0, 9) == pytest.approx(DOUBLING_FACTOR * 6)
    with pytest.raises(TypeError, match="'make_learner' parameter of DoublingTrick"):
        DoublingTrick(3)


def test_docstring_examples_run():
    import doctest

    import dpboost.online.doubling as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
