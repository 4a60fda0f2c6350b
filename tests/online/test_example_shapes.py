"""One example is a 1-D x with at least one feature; a batch is a 2-D X (as in scikit-learn).

Before the fix ``check_features`` flattened its input: ``Perceptron().learn_one([[1, 2], [3,
4]], 1)`` learned one 4-feature example, ``learn_one(np.array([]), 1)`` started a 0-feature
model (OnlineBBM the same), and ``partial_fit([1, 2], [1, 1])`` read a 1-D X as two 1-feature
rows.  Each refusal must leave the learner as it was.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from dpboost.online import (
    AdaBoostOL,
    AdaBoostOLS,
    DoublingTrick,
    OnlineAgnosticBoost,
    OnlineBBM,
    OnlineGradientDescentClassifier,
    OnlineLinearLearner,
    OnlinePerceptronLearner,
    OnlineRealizableBoost,
    OnlineStumpLearner,
    Perceptron,
)

X = np.random.default_rng(5).uniform(-1, 1, size=(12, 3))
Y = np.where(X[:, 0] >= 0, 1.0, -1.0)


def _perceptron(horizon):
    return Perceptron()


LEARNERS = {
    "Perceptron": Perceptron,
    "OGDClassifier": OnlineGradientDescentClassifier,
    "OnlineLinearLearner": OnlineLinearLearner,
    "OnlinePerceptronLearner": OnlinePerceptronLearner,
    "OnlineStumpLearner": OnlineStumpLearner,
    "OnlineBBM": lambda: OnlineBBM(4, random_state=0),
    "AdaBoostOL": lambda: AdaBoostOL(4, random_state=0),
    "AdaBoostOLS": lambda: AdaBoostOLS(4, weak_learner="stump", random_state=0),
    "AdaBoostOL-list": lambda: AdaBoostOL(3, weak_learner=Perceptron(), random_state=0),
    "OnlineAgnosticBoost": lambda: OnlineAgnosticBoost(4, random_state=0),
    "OnlineRealizableBoost": lambda: OnlineRealizableBoost(4, weak_learner="perceptron",
                                                           random_state=0),
    "DoublingTrick": lambda: DoublingTrick(_perceptron),
}

BAD_X = {
    "2-D": ([[1.0, 2.0], [3.0, 4.0]], "shape \\(2, 2\\) instead \\(use partial_fit or predict"),
    "one row": (np.ones((1, 3)), "shape \\(1, 3\\)"),
    "empty": (np.array([]), "shape \\(0,\\)"),
    "scalar": (1.5, "shape \\(\\)"),
}


@pytest.mark.parametrize("bad", list(BAD_X))
@pytest.mark.parametrize("name", list(LEARNERS))
@pytest.mark.parametrize("fresh", [True, False], ids=["fresh", "trained"])
def test_one_example_must_be_a_nonempty_1d_x(name, bad, fresh):
    model = LEARNERS[name]() if fresh else LEARNERS[name]().partial_fit(X, Y)
    x, shape = BAD_X[bad]
    for verb in (lambda: model.learn_one(x, 1.0), lambda: model.predict_one(x)):
        snapshot = copy.deepcopy(model)
        with pytest.raises(ValueError, match="'x' parameter of .* must be one example: a 1-D "
                                             "array with at least one feature. Got an array of "
                                             + shape):
            verb()
        if name != "DoublingTrick":  # its make_learner is not picklable
            assert pickle.dumps(model) == pickle.dumps(snapshot)


@pytest.mark.parametrize("name", list(LEARNERS))
def test_batch_verbs_need_a_2d_x(name):
    model = LEARNERS[name]()
    with pytest.raises(ValueError, match=r"'X' parameter of .*partial_fit must be a 2-D array "
                                         r"of shape \(n_examples, n_features\). Got a 1-D array "
                                         r"of shape \(2,\) instead: reshape it with "
                                         r"X.reshape\(-1, 1\)"):
        model.partial_fit([1.0, 2.0], [1.0, 1.0])
    model.partial_fit(X, Y)
    for verb in (model.predict, model.decision_function):
        with pytest.raises(ValueError, match="must be a 2-D array"):
            verb(X[0])
        with pytest.raises(ValueError, match="must be a 2-D array"):
            verb(X[None])  # 3-D
    assert model.predict(X[:1]).shape == (1,)


@pytest.mark.parametrize("name", list(LEARNERS))
def test_a_width_other_than_the_first_examples_is_refused(name):
    model = LEARNERS[name]().partial_fit(X[:4], Y[:4])
    for x in (np.ones(2), np.ones(4)):
        with pytest.raises(ValueError, match="features, but this learner was started with 3"):
            model.learn_one(x, 1.0)
        with pytest.raises(ValueError, match="features, but this learner was started with 3"):
            model.predict_one(x)
    with pytest.raises(ValueError, match="features, but this learner was started with 3"):
        model.partial_fit(np.ones((2, 4)), np.ones(2))
