"""An example of importance weight 0 is an absent example, for every learner in dpboost.online.

Beygelzimer, Kale & Luo (2015, Section 2.1) read a weight as an importance: weight 0 must leave
the learner exactly as it was.  Before the fix AdaBoost.OL(.S) still moved ``t_``, ``alpha_``
and the Hedge weights, the linear learners moved their feature scale, the randomized boosters
drew from their generator, OGD counted a round and the doubling trick could open a new epoch.
Property: learning a sequence with some weights 0 gives the same state (every attribute, the
generators included) and the same predictions as learning the sequence without those rows.
"""

from __future__ import annotations

import copy
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    StandardOptimalAlgorithm,
    WeightedMajority,
)

THRESHOLDS = [[1 if j >= a else -1 for j in range(6)] for a in range(7)]  # 7 hypotheses


def _vectors(rng, n):
    X = rng.uniform(-1, 1, size=(n, 3))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] >= 0, 1.0, -1.0)
    flip = rng.random(n) < 0.1
    return X, np.where(flip, -y, y)


def _advice(rng, n):
    X = np.where(rng.random((n, 3)) < 0.5, 1.0, -1.0)
    return X, X[:, 0].copy()


def _points(rng, n):
    X = rng.integers(0, 6, size=(n, 1)).astype(float)
    return X, np.array([THRESHOLDS[3][int(j)] for j in X[:, 0]], dtype=float)


def _perceptron(horizon):
    return Perceptron()


LEARNERS = {
    "Perceptron": (Perceptron, _vectors),
    "OGD-hinge": (OnlineGradientDescentClassifier, _vectors),
    "OGD-logistic": (lambda: OnlineGradientDescentClassifier(loss="logistic", radius=2.0),
                     _vectors),
    "OnlineLinearLearner": (OnlineLinearLearner, _vectors),
    "OnlinePerceptronLearner": (OnlinePerceptronLearner, _vectors),
    "OnlineStumpLearner": (OnlineStumpLearner, _vectors),
    "OnlineBBM": (lambda: OnlineBBM(4, random_state=1), _vectors),
    "OnlineBBM-sample": (lambda: OnlineBBM(4, mode="sample", random_state=1), _vectors),
    "AdaBoostOL": (lambda: AdaBoostOL(4, random_state=1), _vectors),
    "AdaBoostOL-mean-stump": (lambda: AdaBoostOL(4, weak_learner="stump", prediction="mean",
                                                 random_state=1), _vectors),
    "AdaBoostOLS": (lambda: AdaBoostOLS(4, weak_learner="perceptron", random_state=1),
                    _vectors),
    "AdaBoostOL-list": (lambda: AdaBoostOL(3, weak_learner=Perceptron(), random_state=1),
                        _vectors),
    "OnlineAgnosticBoost": (lambda: OnlineAgnosticBoost(4, 0.5, random_state=1), _vectors),
    "OnlineRealizableBoost": (lambda: OnlineRealizableBoost(4, random_state=1), _vectors),
    "OnlineRealizableBoost-weight": (lambda: OnlineRealizableBoost(4, mode="weight",
                                                                   random_state=1), _vectors),
    "DoublingTrick": (lambda: DoublingTrick(_perceptron), _vectors),
    "WeightedMajority": (lambda: WeightedMajority(3), _advice),
    "Halving": (lambda: Halving(THRESHOLDS), _points),
    "SOA": (lambda: StandardOptimalAlgorithm(THRESHOLDS), _points),
}


def state(obj, seen=None):
    """Every attribute of ``obj`` as a comparable value (arrays by bytes, generators by state)."""
    seen = set() if seen is None else seen
    if isinstance(obj, np.ndarray):
        return ("array", obj.dtype.str, obj.shape, obj.tobytes())
    if isinstance(obj, np.random.Generator):
        return ("generator", repr(obj.bit_generator.state))
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, type)):
        return ("callable", id(obj))
    if isinstance(obj, dict):
        return tuple(sorted((k, state(v, seen)) for k, v in obj.items()))
    if isinstance(obj, (list, tuple)):
        return tuple(state(v, seen) for v in obj)
    if hasattr(obj, "__dict__"):
        if id(obj) in seen:
            return ("cycle", type(obj).__name__)
        seen.add(id(obj))
        return (type(obj).__name__, state(vars(obj), seen))
    return ("value", repr(obj))


@pytest.mark.parametrize("name", list(LEARNERS))
@settings(max_examples=40)
@given(weights=st.lists(st.sampled_from([0.0, 0.0, 1.0, 0.5, 3.0]), min_size=1, max_size=25),
       seed=st.integers(0, 2**16))
def test_zero_weight_rows_leave_no_trace(name, weights, seed):
    make, data = LEARNERS[name]
    X, y = data(np.random.default_rng(seed), len(weights))
    w = np.array(weights)
    with_zeros = make().partial_fit(X, y, sample_weight=w)
    without = make().partial_fit(X[w > 0], y[w > 0], sample_weight=w[w > 0])
    # predictions agree, sampled ones included (the same prediction streams in the same state);
    # predicting first also builds DoublingTrick's epoch learner, which it builds lazily
    np.testing.assert_array_equal(with_zeros.decision_function(X), without.decision_function(X))
    np.testing.assert_array_equal(with_zeros.predict(X), without.predict(X))
    assert state(with_zeros) == state(without)


def test_the_trial_repro_adaboost_ol():
    # a.alpha_ != b.alpha_ after 50 rows of weight 0 (t_ was 51 against 1)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    for cls in (AdaBoostOL, AdaBoostOLS):
        a = cls(10, random_state=0)
        a.learn_one(X[0], y[0])
        b = copy.deepcopy(a)
        b.partial_fit(X, y, sample_weight=np.zeros(len(y)))
        assert b.t_ == 1 and state(a) == state(b)
        np.testing.assert_array_equal(a.alpha_, b.alpha_)


@pytest.mark.parametrize("name", ["Perceptron", "OGD-hinge", "OnlineLinearLearner", "OnlineBBM",
                                  "AdaBoostOL"])
def test_a_zero_weight_row_is_still_validated(name):
    model = LEARNERS[name][0]().partial_fit(np.ones((2, 3)), np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match="x has 2 features"):
        model.learn_one(np.ones(2), 1.0, 0.0)
    with pytest.raises(ValueError, match="'y' parameter"):
        model.learn_one(np.ones(3), 0.0, 0.0)
    with pytest.raises(ValueError, match="finite"):
        model.learn_one(np.array([np.nan, 0.0, 0.0]), 1.0, 0.0)
