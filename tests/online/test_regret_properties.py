"""The cited theorems' bounds, checked on adversarial and random sequences (hypothesis).

Each bound is the one the module's docstring cites; ``derandomize=True`` keeps the examples
fixed from run to run.  The worst ratios measured while writing these (regret / bound over a few
hundred sequences each): Hedge 0.54 (follow-the-leader adversary), the doubling trick 0.35,
OGD 1.0 (attained at T = 1, where the bound is exact), the Perceptron 0.995, Weighted Majority
0.78.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.online import DoublingTrick, Hedge, L2Ball, OnlineGradientDescent, Perceptron
from dpboost.online import WeightedMajority
from dpboost.online.doubling import doubling_regret_bound
from dpboost.online.hedge import hedge_learning_rate, hedge_regret_bound
from dpboost.online.ogd import ogd_learning_rate, ogd_regret_bound
from dpboost.online.online_to_batch import online_to_batch
from dpboost.online.perceptron import perceptron_mistake_bound
from dpboost.online.weighted_majority import weighted_majority_mistake_bound

FIXED = settings(max_examples=40, deadline=None, derandomize=True)
ADVERSARIES = ("leader", "random", "bernoulli", "alternate")


def _losses(kind: str, weights: np.ndarray, t: int, rng: np.random.Generator) -> np.ndarray:
    d = weights.shape[0]
    if kind == "leader":  # hit every expert that holds the most weight
        return (weights >= weights.max() - 1e-12).astype(float)
    if kind == "random":
        return rng.random(d)
    if kind == "bernoulli":
        return (rng.random(d) < 0.5).astype(float)
    v = np.zeros(d)
    v[t % min(d, 2)] = 1.0
    return v


def _play(learner, n_experts: int, n_rounds: int, kind: str, seed: int) -> float:
    """Run the adversary against ``learner``; return paid loss minus the best expert's."""
    rng = np.random.default_rng(seed)
    paid, totals = 0.0, np.zeros(n_experts)
    for t in range(n_rounds):
        v = _losses(kind, np.asarray(learner.predict()), t, rng)
        paid += learner.update(v)
        totals += v
    return paid - float(totals.min())


@FIXED
@given(st.integers(1, 12), st.integers(1, 400), st.sampled_from(ADVERSARIES),
       st.integers(0, 2**32 - 1))
def test_hedge_tuned_regret_within_theorem_21_11(n_experts, n_rounds, kind, seed):
    hedge = Hedge(n_experts, learning_rate=hedge_learning_rate(n_experts, n_rounds))
    regret = _play(hedge, n_experts, n_rounds, kind, seed)
    assert regret == hedge.regret() or math.isclose(regret, hedge.regret(), abs_tol=1e-9)
    assert regret <= hedge_regret_bound(n_experts, n_rounds) + 1e-9


@FIXED
@given(st.integers(2, 8), st.integers(1, 300), st.floats(1e-3, 50.0),
       st.sampled_from(ADVERSARIES), st.integers(0, 2**32 - 1))
def test_hedge_any_rate_within_the_proofs_bound(n_experts, n_rounds, eta, kind, seed):
    # SSBD's proof of Theorem 21.11: regret <= log(d)/eta + eta T / 2 for every eta > 0
    hedge = Hedge(n_experts, learning_rate=eta)
    regret = _play(hedge, n_experts, n_rounds, kind, seed)
    assert regret <= math.log(n_experts) / eta + eta * n_rounds / 2 + 1e-9


BOUNDARIES = sorted({1, 2, 3} | {2**k + e for k in range(2, 10) for e in (-1, 0, 1)})


@FIXED
@given(st.integers(2, 10), st.sampled_from(BOUNDARIES), st.sampled_from(ADVERSARIES),
       st.integers(0, 2**32 - 1))
def test_doubling_trick_at_epoch_boundaries(n_experts, n_rounds, kind, seed):
    doubling = DoublingTrick(
        lambda horizon: Hedge(n_experts, learning_rate=hedge_learning_rate(n_experts, horizon))
    )
    regret = _play(doubling, n_experts, n_rounds, kind, seed)
    alpha = math.sqrt(2.0 * math.log(n_experts))  # Hedge's regret is alpha sqrt(n)
    assert regret <= doubling_regret_bound(alpha, n_rounds) + 1e-9
    # round T + 1 opens epoch floor(log2(T + 1)), whose learner has seen T + 1 - 2^m rounds
    epoch = int(math.floor(math.log2(n_rounds + 1)))
    assert doubling.epoch_ == epoch
    assert doubling.learner.n_rounds_ == n_rounds + 1 - 2**epoch


@FIXED
@given(st.integers(1, 5), st.integers(1, 300), st.floats(0.1, 5.0), st.floats(0.1, 5.0),
       st.sampled_from(("random", "chase", "blocks")), st.integers(0, 2**32 - 1))
def test_ogd_regret_within_theorem_21_15(dim, n_rounds, radius, lipschitz, kind, seed):
    rng = np.random.default_rng(seed)
    eta = ogd_learning_rate(radius=radius, lipschitz=lipschitz, n_rounds=n_rounds)
    ogd = OnlineGradientDescent(dim, learning_rate=eta, projection=L2Ball(radius))
    paid, total = 0.0, np.zeros(dim)
    for t in range(n_rounds):
        w = ogd.predict()
        if kind == "random":
            z = rng.normal(size=dim)
        elif kind == "chase":  # the loss <z, w> grows in the direction OGD stands in
            z = w if np.linalg.norm(w) > 0 else np.ones(dim)
        else:
            z = np.ones(dim) * (1.0 if (t // max(1, n_rounds // 4)) % 2 == 0 else -1.0)
        z = z / np.linalg.norm(z) * lipschitz
        paid += float(z @ w)
        total += z
        ogd.update(z)
    regret = paid + radius * float(np.linalg.norm(total))  # best w in the ball: -B Z/||Z||
    bound = ogd_regret_bound(radius=radius, lipschitz=lipschitz, n_rounds=n_rounds)
    assert regret <= bound * (1 + 1e-9)


@FIXED
@given(st.integers(1, 5), st.integers(1, 200), st.floats(0.01, 100.0), st.integers(0, 2**32 - 1))
def test_perceptron_updates_within_theorem_21_16(dim, n, scale, seed):
    rng = np.random.default_rng(seed)
    w_star = rng.normal(size=dim)
    X = rng.normal(size=(n, dim)) * scale
    margins = X @ w_star
    keep = np.abs(margins) > 1e-6
    X, margins = X[keep], margins[keep]
    if len(X) == 0:
        return
    y = np.sign(margins)
    w_star = w_star / np.abs(margins).min()  # y <w*, x> >= 1
    p = Perceptron()
    for _ in range(3):  # passes repeat the sequence; the bound covers any sequence
        for xi, yi in zip(X, y):
            p.learn_one(xi, yi)
    r = float(np.max(np.linalg.norm(X, axis=1)))
    bound = (r * float(np.linalg.norm(w_star))) ** 2
    assert math.isclose(perceptron_mistake_bound(X, y, w_star), bound, rel_tol=1e-6)
    assert p.n_updates_ <= bound * (1 + 1e-9)


@FIXED
@given(st.integers(1, 16), st.integers(1, 300), st.floats(0.05, 0.95), st.integers(0, 2**32 - 1))
def test_weighted_majority_mistakes_against_an_always_wrong_adversary(d, n_rounds, beta, seed):
    rng = np.random.default_rng(seed)
    wm = WeightedMajority(d, beta=beta)
    for _ in range(n_rounds):
        advice = np.where(rng.random(d) < 0.5, 1.0, -1.0)
        wm.learn_one(advice, -1.0 if wm.predict_one(advice) >= 0 else 1.0)  # WM always errs
    best = float(wm.expert_mistakes_.min())
    assert n_rounds <= weighted_majority_mistake_bound(d, best, beta) + 1e-9


def test_online_to_batch_average_is_the_hand_computed_mean_of_the_iterates():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(25, 3))
    y = np.where(X @ np.array([1.0, -2.0, 0.5]) >= 0, 1.0, -1.0)
    w, iterates = np.zeros(3), []
    for xi, yi in zip(X, y):  # the Perceptron by hand: w_t is used on round t, w_1 = 0
        iterates.append(w.copy())
        if yi * (w @ xi) <= 0:
            w = w + yi * xi
    h = online_to_batch(Perceptron(), X, y, method="average")
    np.testing.assert_allclose(h.coef_, np.mean(iterates, axis=0), rtol=0, atol=1e-12)


def test_hedge_long_run_with_a_large_rate_stays_a_distribution():
    rng = np.random.default_rng(3)
    losses = rng.random((100_000, 4))
    hedge = Hedge(4, learning_rate=50.0)
    for v in losses:
        hedge.update(v)
    w = hedge.weights()
    assert np.all(np.isfinite(w)) and math.isclose(w.sum(), 1.0) and w.min() >= 0
    np.testing.assert_array_equal(hedge.cumulative_losses_, np.cumsum(losses, axis=0)[-1])
    assert hedge.regret() <= math.log(4) / 50.0 + 50.0 * 100_000 / 2
