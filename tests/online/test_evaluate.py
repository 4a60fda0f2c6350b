"""Progressive validation (dpboost.online.evaluate)."""

import math

import numpy as np
import pytest

from dpboost.online.evaluate import log_loss, progressive_val_score, zero_one_loss
from dpboost.online.learners import OnlineLinearLearner, OnlinePerceptronLearner


class _Memoriser:
    """Predicts the last label seen for the same x (else +1): makes PV differ from refit error."""

    def __init__(self):
        self.table = {}
        self.calls = []

    def predict_one(self, x):
        self.calls.append("predict")
        return self.table.get(tuple(x), 1.0)

    def learn_one(self, x, y, weight=1.0):
        self.calls.append("learn")
        self.table[tuple(x)] = y


def test_predicts_before_learning():
    X = np.array([[0.0], [1.0], [0.0], [1.0]])
    y = np.array([-1.0, -1.0, -1.0, 1.0])
    m = _Memoriser()
    # t=1: +1 vs -1 wrong; t=2: +1 vs -1 wrong; t=3: -1 right; t=4: -1 vs +1 wrong
    assert progressive_val_score(m, X, y) == pytest.approx(3 / 4)
    assert m.calls == ["predict", "learn"] * 4


def test_matches_a_manual_loop_for_a_real_learner():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.where(X[:, 0] > 0.2, 1.0, -1.0)
    manual, m = [], OnlineLinearLearner()
    for x, t in zip(X, y):
        manual.append(log_loss(m.predict_one(x), t))
        m.learn_one(x, t)
    assert progressive_val_score(OnlineLinearLearner(), X, y, metric="log_loss") == (
        pytest.approx(np.mean(manual), rel=1e-12))


def test_losses():
    assert zero_one_loss(0.0, 1.0) == 0.0 and zero_one_loss(0.0, -1.0) == 1.0
    assert log_loss(0.0, 1.0) == pytest.approx(math.log(2))
    assert log_loss(0.5, -1.0) == pytest.approx(-math.log(0.25))
    assert math.isfinite(log_loss(-1.0, 1.0))


@pytest.mark.parametrize("X,y,match", [
    (np.ones((3, 2)), np.array([1.0, -1.0]), "shape"),
    (np.ones((0, 2)), np.ones(0), "at least one"),
    (np.array([[np.nan, 1.0]]), np.array([1.0]), "NaN"),
    (np.ones((2, 1)), np.array([0.0, 1.0]), "labels"),
])
def test_bad_input(X, y, match):
    with pytest.raises(ValueError, match=match):
        progressive_val_score(OnlinePerceptronLearner(), X, y)


def test_bad_metric():
    with pytest.raises(ValueError, match="metric"):
        progressive_val_score(OnlinePerceptronLearner(), np.ones((1, 1)), np.ones(1), metric="auc")
