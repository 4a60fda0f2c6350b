"""Hedge (randomized Weighted Majority): SSBD Theorem 21.11 on adversarial and random losses.

Expected losses are computed exactly (``<w_t, v_t>``), so every regret test is deterministic.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dpboost.online.hedge import Hedge, hedge_learning_rate, hedge_regret_bound


def _naive_weights(eta: float, cumulative: np.ndarray) -> np.ndarray:
    w = np.exp(-eta * cumulative)
    return w / w.sum()


def _run(d: int, T: int, adversary) -> Hedge:
    h = Hedge(d, learning_rate=hedge_learning_rate(d, T))
    for t in range(T):
        h.update(adversary(t, h.weights()))
    return h


def _heaviest(t, w):
    """Loss 1 on the currently heaviest expert, 0 elsewhere."""
    v = np.zeros_like(w)
    v[np.argmax(w)] = 1.0
    return v


def _all_heavy(t, w):
    """Loss 1 on every expert at least as heavy as the average."""
    return (w >= 1.0 / len(w) - 1e-15).astype(float)


def _switch(T):
    """Everyone but expert 0 loses during the first half, then only expert 0 loses."""

    def adv(t, w):
        v = np.zeros_like(w)
        if t < T // 2:
            v[1:] = 1.0
        else:
            v[0] = 1.0
        return v

    return adv


@pytest.mark.parametrize("d", [2, 3, 16, 100])
@pytest.mark.parametrize("T", [50, 400, 2000])
def test_theorem_21_11_adversarial(d, T):
    assert T > 2 * math.log(d)
    bound = hedge_regret_bound(d, T)
    for adversary in (_heaviest, _all_heavy, _switch(T)):
        h = _run(d, T, adversary)
        assert h.regret() <= bound
        assert h.n_rounds_ == T


@pytest.mark.parametrize("d", [2, 10, 64])
@pytest.mark.parametrize("kind", ["bernoulli", "uniform", "drift"])
def test_theorem_21_11_random(d, kind):
    T = 1000
    bound = hedge_regret_bound(d, T)
    ratios = []
    for seed in range(6):
        rng = np.random.default_rng(seed)
        if kind == "bernoulli":
            L = rng.integers(0, 2, size=(T, d)).astype(float)
        elif kind == "uniform":
            L = rng.uniform(size=(T, d))
        else:  # expert means differ slightly: a best expert exists but is hard to find
            means = 0.5 + 0.05 * rng.uniform(-1, 1, size=d)
            L = (rng.uniform(size=(T, d)) < means).astype(float)
        h = Hedge(d, learning_rate=hedge_learning_rate(d, T))
        for v in L:
            h.update(v)
        assert h.regret() <= bound
        ratios.append(h.regret() / bound)
    if kind == "bernoulli":
        # The bound is not vacuous here: fair coin flips give regret of the order of the bound
        # (measured mean ratio 0.23-0.43 over d and T), so a wrong update would be caught.
        assert np.mean(ratios) > 0.1


@given(
    losses=arrays(
        np.float64, st.tuples(st.integers(1, 40), st.integers(1, 6)), elements=st.floats(0, 1)
    ),
    eta=st.floats(1e-3, 20),
)
def test_potential_bound_for_every_eta(losses, eta):
    """The proof of Theorem 21.11 gives regret <= log(d)/eta + eta*T/2 for any eta > 0."""
    T, d = losses.shape
    h = Hedge(d, learning_rate=eta)
    for v in losses:
        h.update(v)
    assert h.regret() <= math.log(d) / eta + eta * T / 2 + 1e-9


def test_weights_match_naive_exponential_weights():
    rng = np.random.default_rng(3)
    h = Hedge(5, learning_rate=0.3)
    cumulative = np.zeros(5)
    paid = 0.0
    for _ in range(60):
        w = _naive_weights(0.3, cumulative)
        np.testing.assert_allclose(h.weights(), w, rtol=1e-12)
        v = rng.uniform(size=5)
        paid += w @ v
        assert h.update(v) == pytest.approx(w @ v, rel=1e-12)
        cumulative += v
    np.testing.assert_allclose(h.cumulative_losses_, cumulative)
    assert h.cumulative_loss_ == pytest.approx(paid, rel=1e-12)
    assert h.regret() == pytest.approx(paid - cumulative.min(), rel=1e-12)


def test_long_run_never_underflows():
    """eta * loss gaps of 2.5e5 would make the naive weights 0/0; log-space stays exact."""
    d, T = 4, 5000
    h = Hedge(d, learning_rate=50.0)
    v = np.array([1.0, 0.0, 1.0, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(T):
            h.update(v)
        w = h.weights()
    assert np.all(np.isfinite(w)) and w.sum() == pytest.approx(1.0)
    assert w[1] == pytest.approx(1.0)
    assert h.cumulative_loss_ < 1.0  # paid only on the first round(s)
    assert np.isfinite(h.log_weights_).all() and h.log_weights_.max() == 0.0


def test_sample_expert_uses_the_given_generator():
    h = Hedge(3, learning_rate=1.0, rng=np.random.default_rng(7))
    h.update([1.0, 0.0, 0.5])
    draws = [h.sample_expert() for _ in range(2000)]
    again = Hedge(3, learning_rate=1.0, rng=np.random.default_rng(7))
    again.update([1.0, 0.0, 0.5])
    assert draws == [again.sample_expert() for _ in range(2000)]  # seeded: reproducible
    freq = np.bincount(draws, minlength=3) / 2000
    # 2000 draws: standard error <= 0.0112, so 5 sd = 0.056.
    np.testing.assert_allclose(freq, h.weights(), atol=0.056)


def test_sampled_predictions_pay_the_expected_loss_on_average():
    """Against a fixed loss sequence, following a drawn expert costs <w_t, v_t> in expectation;
    100 seeded runs agree with the exact expected loss within 4 standard errors."""
    d, T = 5, 200
    L = np.random.default_rng(11).uniform(size=(T, d))
    realized = []
    for seed in range(100):
        h = Hedge(d, learning_rate=hedge_learning_rate(d, T), rng=np.random.default_rng(seed))
        total = 0.0
        for v in L:
            total += v[h.sample_expert()]
            h.update(v)
        realized.append(total)
    se = np.std(realized, ddof=1) / math.sqrt(len(realized))
    assert abs(np.mean(realized) - h.cumulative_loss_) <= 4 * se
    assert np.mean(realized) - L.sum(axis=0).min() <= hedge_regret_bound(d, T) + 4 * se


def test_sample_expert_without_rng_raises():
    with pytest.raises(ValueError, match="random generator"):
        Hedge(2, learning_rate=0.1).sample_expert()


def test_single_expert_has_zero_regret():
    h = Hedge(1, learning_rate=hedge_learning_rate(1, 10))
    for v in [0.3, 1.0, 0.0]:
        h.update([v])
    assert h.regret() == pytest.approx(0.0)


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"n_experts": 0, "learning_rate": 0.1}, ValueError),
        ({"n_experts": 2.5, "learning_rate": 0.1}, TypeError),
        ({"n_experts": True, "learning_rate": 0.1}, TypeError),
        ({"n_experts": 2, "learning_rate": -1.0}, ValueError),
        ({"n_experts": 2, "learning_rate": float("nan")}, ValueError),
        ({"n_experts": 2, "learning_rate": 0.1, "rng": 3}, TypeError),
    ],
)
def test_constructor_validation(kwargs, exc):
    n = kwargs.pop("n_experts")
    with pytest.raises(exc, match="parameter of Hedge must be"):
        Hedge(n, **kwargs)


@pytest.mark.parametrize("losses", [[0.5], [0.5, 1.5], [0.5, -0.1], [0.5, np.nan]])
def test_update_rejects_bad_losses(losses):
    h = Hedge(2, learning_rate=0.1)
    with pytest.raises(ValueError, match="'losses' parameter of Hedge.update"):
        h.update(losses)
    assert h.n_rounds_ == 0


def test_tuned_rate_and_bound_formulas():
    assert hedge_learning_rate(10, 50) == pytest.approx(math.sqrt(2 * math.log(10) / 50))
    assert hedge_regret_bound(10, 50) == pytest.approx(math.sqrt(2 * 50 * math.log(10)))
    # At the tuned rate, log(d)/eta + eta*T/2 equals the theorem's bound.
    eta = hedge_learning_rate(10, 50)
    assert math.log(10) / eta + eta * 50 / 2 == pytest.approx(hedge_regret_bound(10, 50))


def test_docstring_examples_run():
    import doctest

    import dpboost.online.hedge as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
