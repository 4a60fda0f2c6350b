"""Importance weights are at most MAX_WEIGHT = 1e100, refused above it before any state changes.

Before the fix ``sample_weight=1e300`` on one row overflowed the linear weak learners' AdaGrad
accumulators (a squared weighted gradient is ``inf`` from about ``1e154``): OnlineBBM,
AdaBoostOL and OnlineAgnosticBoost then predicted +1 on every row (AdaBoostOL with a
RuntimeWarning, OnlineBBM silently).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

from dpboost.online import (
    AdaBoostOL,
    AdaBoostOLS,
    DoublingTrick,
    Halving,
    OnlineAgnosticBoost,
    OnlineBBM,
    OnlineGradientDescentClassifier,
    OnlineLinearLearner,
    OnlinePerceptronLearner,
    OnlineRealizableBoost,
    OnlineStumpLearner,
    Perceptron,
    WeightedMajority,
)
from dpboost.online.base import MAX_WEIGHT

RNG = np.random.default_rng(9)
X = RNG.normal(size=(300, 3))
Y = np.where(X[:, 0] > 0, 1.0, -1.0)


def _perceptron(horizon):
    return Perceptron()


LEARNERS = {
    "Perceptron": (Perceptron, X),
    "OGDClassifier": (OnlineGradientDescentClassifier, X),
    "OnlineLinearLearner": (OnlineLinearLearner, X),
    "OnlinePerceptronLearner": (OnlinePerceptronLearner, X),
    "OnlineStumpLearner": (OnlineStumpLearner, X),
    "OnlineBBM": (lambda: OnlineBBM(5, random_state=0), X),
    "AdaBoostOL": (lambda: AdaBoostOL(5, prediction="mean", random_state=0), X),
    "AdaBoostOLS": (lambda: AdaBoostOLS(5, prediction="mean", random_state=0), X),
    "OnlineAgnosticBoost": (lambda: OnlineAgnosticBoost(5, prediction="mean", random_state=0), X),
    "OnlineRealizableBoost": (lambda: OnlineRealizableBoost(5, mode="weight", random_state=0), X),
    "DoublingTrick": (lambda: DoublingTrick(_perceptron), X),
    "WeightedMajority": (lambda: WeightedMajority(3), np.sign(X) + (X == 0)),
    "Halving": (lambda: Halving([[1, 1], [1, -1]]), np.zeros((300, 1))),
}


@pytest.mark.parametrize("weight", [1.0000001e100, 1e154, 1e300, np.finfo(float).max])
@pytest.mark.parametrize("name", list(LEARNERS))
def test_a_weight_above_the_bound_is_refused_naming_it(name, weight):
    make, rows = LEARNERS[name]
    model = make().partial_fit(rows[:5], np.ones(5))
    before = model.decision_function(rows)
    snapshot = copy.deepcopy(model)
    with pytest.raises(ValueError, match=r"'weight' parameter of \w+\.learn_one must be a float "
                                         r"in \[0, 1e\+100\]"):
        model.learn_one(rows[5], 1.0, weight)
    np.testing.assert_array_equal(model.decision_function(rows), before)
    np.testing.assert_array_equal(snapshot.decision_function(rows), before)
    w = np.ones(10)
    w[3] = weight
    with pytest.raises(ValueError, match=r"must be a float in \[0, 1e\+100\]"):
        make().partial_fit(rows[:10], np.ones(10), sample_weight=w)


@pytest.mark.parametrize("name", ["OnlineBBM", "AdaBoostOL", "OnlineAgnosticBoost",
                                  "OnlineLinearLearner", "OnlineRealizableBoost"])
def test_the_largest_weight_keeps_the_linear_learners_finite(name):
    make, _ = LEARNERS[name]
    weights = np.ones(len(Y))
    weights[::50] = MAX_WEIGHT  # six rows at the bound
    model = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # AdaBoostOL warned 'overflow encountered in multiply'
        model.partial_fit(X, Y, sample_weight=weights)
    bank = model._bank if name == "OnlineLinearLearner" else model.bank_
    assert np.isfinite(bank.G).all() and np.isfinite(bank.W).all()
    assert bank.G.max() < 1e201
    # the heavy rows dominate the weighted objective: the model fits them, it has not broken
    heavy = model.predict(X[::50])
    np.testing.assert_array_equal(heavy, Y[::50])
