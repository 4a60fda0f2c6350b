"""Deterministic Weighted Majority: the Littlestone-Warmuth mistake bound on adversarial labels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpboost.online.base import OnlineClassifier
from dpboost.online.weighted_majority import WeightedMajority, weighted_majority_mistake_bound


def _label(vote: float) -> float:
    return 1.0 if vote >= 0 else -1.0


@pytest.mark.parametrize("beta", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("d", [2, 8, 50])
def test_mistake_bound_when_the_adversary_always_flips_the_prediction(beta, d):
    """Labels y_t = -prediction: WM errs on every round, so T itself must obey the bound."""
    rng = np.random.default_rng(d)
    T = 400
    wm = WeightedMajority(d, beta=beta)
    mistakes = 0
    for _ in range(T):
        advice = rng.choice([-1.0, 1.0], size=d)
        y = -_label(wm.predict_one(advice))
        mistakes += 1
        wm.learn_one(advice, y)
    best = wm.expert_mistakes_.min()
    assert mistakes <= weighted_majority_mistake_bound(d, best, beta)


@pytest.mark.parametrize("beta", [0.1, 0.5, 0.9])
def test_mistake_bound_with_a_biased_adversary(beta):
    """Expert 0 is right 90% of the time; the adversary flips WM whenever expert 0 agrees."""
    d, T = 10, 600
    rng = np.random.default_rng(1)
    wm = WeightedMajority(d, beta=beta)
    mistakes = 0
    for _ in range(T):
        advice = rng.choice([-1.0, 1.0], size=d)
        pred = _label(wm.predict_one(advice))
        y = -pred if advice[0] == -pred or rng.uniform() < 0.1 else pred
        mistakes += pred != y
        wm.learn_one(advice, y)
    best = wm.expert_mistakes_.min()
    assert best <= 0.2 * T
    assert mistakes <= weighted_majority_mistake_bound(d, best, beta)


@pytest.mark.parametrize("d", [4, 32, 256])
def test_realizable_mistakes_at_most_log_d_over_log_of_2_over_1_plus_beta(d):
    rng = np.random.default_rng(0)
    wm = WeightedMajority(d, beta=0.5)
    truth = d // 3
    mistakes = 0
    for _ in range(300):
        advice = rng.choice([-1.0, 1.0], size=d)
        y = advice[truth]
        mistakes += _label(wm.predict_one(advice)) != y
        wm.learn_one(advice, y)
    assert wm.expert_mistakes_[truth] == 0
    assert mistakes <= math.log(d) / math.log(2 / 1.5)


def test_weights_are_beta_to_the_mistakes():
    rng = np.random.default_rng(5)
    wm = WeightedMajority(6, beta=0.3)
    for _ in range(40):
        advice = rng.choice([-1.0, 1.0], size=6)
        vote = wm.predict_one(advice)
        w = 0.3**wm.expert_mistakes_
        assert vote == pytest.approx((w @ advice) / w.sum(), abs=1e-12)
        wm.learn_one(advice, rng.choice([-1.0, 1.0]))
    np.testing.assert_allclose(
        wm.weights(), 0.3**wm.expert_mistakes_ / (0.3**wm.expert_mistakes_).sum(), rtol=1e-12
    )


def test_long_runs_keep_the_leader_exact():
    """After 10,000 rounds beta**mistakes underflows; the log-space weights do not."""
    wm = WeightedMajority(3, beta=0.01)
    advice = np.array([1.0, -1.0, 1.0])
    for t in range(10000):
        wm.learn_one(advice, 1.0 if t % 3 else -1.0)
    w = wm.weights()
    assert np.all(np.isfinite(w)) and w.sum() == pytest.approx(1.0)
    assert w[0] == pytest.approx(0.5) and w[2] == pytest.approx(0.5)
    assert wm.predict_one(advice) == pytest.approx(1.0)


@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from([-1.0, 1.0]), min_size=4, max_size=4),
            st.sampled_from([-1.0, 1.0]),
        ),
        min_size=1,
        max_size=20,
    ),
    st.integers(0, 3),
)
def test_importance_weight_k_equals_k_repetitions(rounds, k):
    a, b = WeightedMajority(4, beta=0.7), WeightedMajority(4, beta=0.7)
    for advice, y in rounds:
        a.learn_one(np.array(advice), y, weight=float(k))
        for _ in range(k):
            b.learn_one(np.array(advice), y)
    np.testing.assert_allclose(a.weights(), b.weights(), rtol=1e-9)


def test_protocol_batch_verbs_are_loops():
    rng = np.random.default_rng(2)
    X = rng.choice([-1.0, 1.0], size=(30, 5))
    y = X[:, 1].copy()
    a, b = WeightedMajority(5), WeightedMajority(5)
    a.partial_fit(X, y)
    for xi, yi in zip(X, y):
        b.learn_one(xi, yi)
    np.testing.assert_array_equal(a.log_weights_, b.log_weights_)
    assert isinstance(a, OnlineClassifier)
    np.testing.assert_array_equal(a.predict(X), X[:, 1])
    # A tie votes 0 and predict() sends it to +1.
    tie = WeightedMajority(2)
    assert tie.predict_one(np.array([1.0, -1.0])) == 0.0
    assert tie.predict(np.array([[1.0, -1.0]]))[0] == 1.0


def test_bound_formula():
    assert weighted_majority_mistake_bound(8, 0, 0.5) == pytest.approx(
        math.log(8) / math.log(4 / 3)
    )
    assert weighted_majority_mistake_bound(2, 10, 0.5) == pytest.approx(
        (math.log(2) + 10 * math.log(2)) / math.log(4 / 3)
    )
    # beta = 1/2 gives the textbook 2.41 (m + log2 d).
    assert weighted_majority_mistake_bound(16, 3, 0.5) == pytest.approx(
        (3 + 4) * math.log(2) / math.log(4 / 3)
    )
    assert math.log(2) / math.log(4 / 3) == pytest.approx(2.4094, abs=1e-4)


@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda: WeightedMajority(0), ValueError),
        (lambda: WeightedMajority(3, beta=1.0), ValueError),
        (lambda: WeightedMajority(3, beta=0.0), ValueError),
        (lambda: WeightedMajority(3, beta="a"), TypeError),
        (lambda: WeightedMajority(3).predict_one(np.array([1.0, 0.5, 1.0])), ValueError),
        (lambda: WeightedMajority(3).predict_one(np.array([1.0, 1.0])), ValueError),
        (lambda: WeightedMajority(3).learn_one(np.array([1.0, 1.0, 1.0]), 0.0), ValueError),
    ],
)
def test_validation(call, exc):
    with pytest.raises(exc, match="parameter of WeightedMajority"):
        call()


def test_docstring_examples_run():
    import doctest

    import dpboost.online.weighted_majority as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
