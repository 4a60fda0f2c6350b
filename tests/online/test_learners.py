"""Weak online learners and their vectorised banks (dpboost.online.learners)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.online.base import OnlineLearner
from dpboost.online.learners import (
    LinearBank,
    ListBank,
    OnlineLinearLearner,
    OnlinePerceptronLearner,
    OnlineStumpLearner,
    PerceptronBank,
    StumpBank,
    make_bank,
)

SINGLE = [OnlineLinearLearner, OnlinePerceptronLearner, OnlineStumpLearner]


def _data(n=200, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, d))
    X[rng.random(X.shape) < 0.3] = 0.0  # some sparsity
    y = np.where(X @ np.arange(1, d + 1) > 0.1, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("cls", SINGLE)
def test_protocol_and_partial_fit_equals_loop(cls):
    X, y = _data()
    w = np.random.default_rng(1).uniform(0, 2, size=len(y))
    a, b = cls(), cls()
    assert isinstance(a, OnlineLearner)
    a.partial_fit(X, y, sample_weight=w)
    for xi, yi, wi in zip(X, y, w):
        b.learn_one(xi, yi, wi)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    out = a.decision_function(X)
    assert np.all(np.abs(out) <= 1.0)


@pytest.mark.parametrize("bank_cls,single_cls", [(LinearBank, OnlineLinearLearner),
                                                 (PerceptronBank, OnlinePerceptronLearner),
                                                 (StumpBank, OnlineStumpLearner)])
def test_bank_equals_independent_single_learners(bank_cls, single_cls):
    """Vectorising across N learners changes nothing: column i is learner i run alone."""
    X, y = _data(150, 3, seed=2)
    rng = np.random.default_rng(3)
    n = 4
    weights = rng.uniform(0, 1.5, size=(len(y), n))
    weights[:, 0] = 0.0  # learner 0 never learns
    labels = np.where(rng.random((len(y), n)) < 0.8, y[:, None], -y[:, None])
    bank = bank_cls(n)
    singles = [single_cls() for _ in range(n)]
    for t in range(len(y)):
        bank.learn(X[t], labels[t], weights[t])
        for i, m in enumerate(singles):
            m.learn_one(X[t], labels[t, i], weights[t, i])
    for x in X[:40]:
        expected = np.array([m._bank.scores(x)[0] for m in singles])
        np.testing.assert_allclose(bank.scores(x), expected, rtol=1e-12, atol=1e-12)


def test_zero_weight_leaves_the_learned_weights_unchanged():
    X, y = _data()
    m = OnlineLinearLearner().partial_fit(X[:50], y[:50])
    W, G = m._bank.W.copy(), m._bank.G.copy()
    for xi, yi in zip(X[50:], y[50:]):
        m.learn_one(xi, yi, 0.0)
    np.testing.assert_array_equal(m._bank.W, W)  # only the feature scale may move
    np.testing.assert_array_equal(m._bank.G, G)


def test_linear_learner_learns_a_halfspace_and_is_scale_free():
    X, y = _data(2000, 5, seed=4)
    m1 = OnlineLinearLearner()
    m2 = OnlineLinearLearner()
    scale = np.array([1e-3, 1.0, 1e3, 7.0, 1e6])
    mistakes = 0
    for x, t in zip(X, y):
        mistakes += int((m1.predict_one(x) >= 0) != (t > 0))
        m1.learn_one(x, t)
    err1 = mistakes / len(y)
    for x, t in zip(X * scale, y):
        m2.learn_one(x, t)
    assert err1 < 0.1
    # normalised features: rescaling any column leaves the predictions unchanged
    np.testing.assert_allclose(m1.decision_function(X), m2.decision_function(X * scale),
                               rtol=1e-9, atol=1e-12)


def test_perceptron_mistake_bound():
    """Novikoff: on data separable with margin rho by a unit vector (bias included as a constant
    feature), the Perceptron makes at most (R / rho)^2 mistakes, R = max ||(x, 1)||."""
    rng = np.random.default_rng(5)
    u = np.array([0.6, -0.8, 0.0])  # unit vector on (x1, x2, bias)
    X = rng.uniform(-1, 1, size=(3000, 2))
    margins = X @ u[:2]
    keep = np.abs(margins) >= 0.2
    X, y = X[keep], np.sign(margins[keep])
    rho = np.min(y * (X @ u[:2])) / np.linalg.norm(u)
    R = np.sqrt(np.max(np.sum(X**2, axis=1)) + 1.0)
    m = OnlinePerceptronLearner()
    mistakes = 0
    for _ in range(3):  # several passes: the bound is on the total
        for x, t in zip(X, y):
            mistakes += int(np.sign(m.predict_one(x)) != t)
            m.learn_one(x, t)
    assert 0 < mistakes <= (R / rho) ** 2


def test_stump_finds_the_informative_feature():
    rng = np.random.default_rng(6)
    X = rng.uniform(-1, 1, size=(800, 3))
    y = np.where(X[:, 2] > 0.3, 1.0, -1.0)
    bank = StumpBank(1, n_thresholds=21)
    for x, t in zip(X, y):
        bank.learn(x, t)
    best = int(np.argmax(np.abs(bank.C[0])))
    assert best // 21 == 2
    assert bank.thresholds[best % 21] == pytest.approx(0.3)


def test_list_bank_of_perceptrons_equals_perceptron_bank():
    X, y = _data(120, 3, seed=7)
    w = np.random.default_rng(8).uniform(0, 1, size=(len(y), 3))
    a = ListBank.from_prototype(OnlinePerceptronLearner(), 3)
    b = PerceptronBank(3)
    for t in range(len(y)):
        a.learn(X[t], y[t], w[t])
        b.learn(X[t], y[t], w[t])
    for x in X[:30]:
        np.testing.assert_array_equal(a.votes(x), b.votes(x))


@settings(max_examples=30)
@given(st.lists(st.floats(-1e8, 1e8, allow_nan=False), min_size=3, max_size=3),
       st.floats(0, 10))
def test_linear_bank_stays_finite(values, weight):
    bank = LinearBank(3)
    x = np.array(values)
    for y in (1.0, -1.0, 1.0):
        bank.learn(x, y, weight)
    assert np.all(np.isfinite(bank.scores(x)))


def test_errors():
    with pytest.raises(ValueError, match="weak_learner"):
        make_bank("tree", 3)
    with pytest.raises(TypeError, match="weak_learner"):
        make_bank(3.0, 3)
    with pytest.raises(ValueError, match="learning_rate"):
        OnlineLinearLearner(learning_rate=-1.0)
    m = OnlineLinearLearner()
    m.learn_one(np.ones(3), 1.0)
    with pytest.raises(ValueError, match="3 features"):
        m.predict_one(np.ones(4))


def test_primitives_perceptron_works_as_a_weak_learner():
    """dpboost.online.perceptron.Perceptron (homogeneous) plugs in through ListBank; with a
    constant feature appended it computes what PerceptronBank computes with its bias."""
    from dpboost.online.bbm import OnlineBBM
    from dpboost.online.perceptron import Perceptron

    X, y = _data(300, 3, seed=9)
    X1 = np.hstack([X, np.ones((len(y), 1))])
    generic = OnlineBBM(5, 0.2, weak_learner=Perceptron()).partial_fit(X1, y)
    rng = np.random.default_rng(10)
    w = rng.uniform(0.1, 1, size=(len(y), 3))
    a = ListBank.from_prototype(Perceptron(), 3)
    b = PerceptronBank(3)
    for t in range(len(y)):
        a.learn(X1[t], y[t], w[t])
        b.learn(X[t], y[t], w[t])
    for x, x1 in zip(X[:50], X1[:50]):
        np.testing.assert_array_equal(a.votes(x1), b.votes(x))
    assert np.mean(generic.predict(X1) == y) > 0.8
