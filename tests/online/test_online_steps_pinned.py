"""Online steps pinned to their formulas (mutation test, session 35): four changes of the online
family survived every test, because the tests checked invariants (bounds, clipping, shapes)
and the first round, where the right and the wrong formula agree.

* Online BBM passes an example of importance weight ``w`` to weak learner ``i`` with weight
  ``w p_t^i`` (BKL15, Algorithm 1 and Section 2.1), not ``p_t^i``;
* AdaBoost.OL's alpha player is projected OGD with step ``4 / sqrt(t)`` (BKL15, Algorithm 2),
  and weak learner ``i`` gets weight ``1 / (1 + exp(s^{i-1}))``, the margin *before* it;
* ``online_to_batch(method="random")`` returns ``h_r``, the learner before row ``r``
  (Shalev-Shwartz & Ben-David 2014, Exercise 21.5: ``h_r`` must not have seen ``z_r``).
"""

import math

import numpy as np
import pytest
from scipy.special import expit

from dpboost.online import AdaBoostOL, OnlineBBM, OnlineClassifier, Perceptron
from dpboost.online.online_to_batch import online_to_batch


class _Plus(OnlineClassifier):
    """A weak learner that always says +1 (so ``z_t = y_t``) and learns nothing."""

    def predict_one(self, x):
        return 1.0

    def learn_one(self, x, y, weight=1.0):
        return self


@pytest.mark.parametrize("weight", [0.25, 3.0])
def test_bbm_passes_the_weight_times_p_to_each_weak_learner(weight):
    m = OnlineBBM(n_learners=5, gamma=0.2, weak_learner="perceptron")
    x = np.array([1.0, -2.0])
    p = m.sampling_probabilities(x, 1.0)  # p_t^i before the update
    m.learn_one(x, 1.0, weight=weight)
    # every Perceptron starts at score 0, a mistake, so its bias moves by its weight times y
    np.testing.assert_allclose(m.bank_.b, weight * p)


def test_adaboost_ol_alpha_follows_projected_ogd_with_step_4_over_sqrt_t():
    a = AdaBoostOL(n_learners=1, weak_learner=_Plus())
    a.learn_one(np.array([1.0]), 1.0)  # s = 0: alpha = clip(0 + 4 * 1 * sigmoid(0)) = 2
    assert a.alpha_[0] == pytest.approx(2.0)
    a.learn_one(np.array([1.0]), -1.0)  # z = -1, s = -2: alpha = 2 - (4 / sqrt 2) sigmoid(2)
    assert a.alpha_[0] == pytest.approx(2.0 - 4.0 / math.sqrt(2.0) * expit(2.0))
    for t in range(3, 40):  # and on: each step from the formula, with y alternating
        y = 1.0 if t % 2 else -1.0
        before = a.alpha_[0]
        a.learn_one(np.array([1.0]), y)
        s = before * y
        assert a.alpha_[0] == pytest.approx(
            np.clip(before + 4.0 / math.sqrt(t) * y * expit(-s), -2.0, 2.0))


def test_adaboost_ol_weighs_each_learner_by_the_margin_before_it():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    b = AdaBoostOL(n_learners=4, random_state=0).partial_fit(X, y)
    # s^0 = 0 on every round, so the first learner's weight is 1/2 each time
    assert b.weight_sums_[0] == pytest.approx(0.5 * len(y))
    # and the second's is 1 / (1 + exp(alpha^1 z^1)), replayed with constant learners
    c = AdaBoostOL(n_learners=2, weak_learner=_Plus())
    expected = 0.0
    for t in range(1, 30):
        yt = 1.0 if t % 3 else -1.0
        expected += expit(-c.alpha_[0] * yt)  # z^1 = y: s^1 = alpha^1 y before the update
        c.learn_one(np.array([1.0]), yt)
    assert c.weight_sums_[1] == pytest.approx(expected)


def test_random_online_to_batch_returns_the_learner_before_row_r():
    T = 8
    X = np.eye(T)
    y = np.where(np.arange(T) % 2, 1.0, -1.0)  # every row is a Perceptron update
    seen = set()
    for seed in range(30):
        r = int(np.random.default_rng(seed).integers(T))  # the draw online_to_batch makes
        h = online_to_batch(Perceptron(), X, y, method="random", rng=np.random.default_rng(seed))
        assert h.n_updates_ == r  # h_r has learned rows 0 .. r-1 only
        seen.add(r)
    assert 0 in seen  # the initial learner is a possible answer
