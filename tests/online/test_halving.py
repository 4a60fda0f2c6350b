"""Halving (Theorem 21.3), SOA (Lemma 21.7, Corollary 21.8) and the Littlestone dimension."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dpboost.online.halving import (
    Halving,
    LittlestoneOracle,
    StandardOptimalAlgorithm,
    littlestone_dimension,
)


def thresholds(n: int) -> np.ndarray:
    """The n + 1 thresholds h_a(j) = +1 iff j >= a on the points 0..n-1."""
    return np.array([[1 if j >= a else -1 for j in range(n)] for a in range(n + 1)])


def singletons(k: int) -> np.ndarray:
    return 2 * np.eye(k, dtype=int) - 1


def all_functions(k: int) -> np.ndarray:
    return np.array(list(itertools.product([-1, 1], repeat=k)))


def shattered(H: np.ndarray, rows: tuple, depth: int) -> bool:
    """Definition 21.4 directly: is there a tree of this depth shattered by the rows?"""
    if depth == 0:
        return len(rows) > 0
    for j in range(H.shape[1]):
        plus = tuple(i for i in rows if H[i, j] > 0)
        minus = tuple(i for i in rows if H[i, j] < 0)
        if plus and minus and shattered(H, plus, depth - 1) and shattered(H, minus, depth - 1):
            return True
    return False


def brute_ldim(H: np.ndarray) -> int:
    rows = tuple(range(len(H)))
    d = 0
    while shattered(H, rows, d + 1):
        d += 1
    return d


def brute_vcdim(H: np.ndarray) -> int:
    best = 0
    for size in range(1, H.shape[1] + 1):
        for cols in itertools.combinations(range(H.shape[1]), size):
            if len({tuple(r) for r in H[:, cols]}) == 2**size:
                best = size
    return best


small_classes = arrays(
    np.int8, st.tuples(st.integers(1, 9), st.integers(1, 5)), elements=st.sampled_from([-1, 1])
)


# --- Littlestone dimension ---------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 16))
def test_ldim_thresholds(n):
    assert littlestone_dimension(thresholds(n)) == math.floor(math.log2(n + 1))


@pytest.mark.parametrize("k", range(2, 12))
def test_ldim_singletons(k):
    assert littlestone_dimension(singletons(k)) == 1  # SSBD Example 21.3


@pytest.mark.parametrize("k", range(1, 6))
def test_ldim_all_functions(k):
    assert littlestone_dimension(all_functions(k)) == k


def test_ldim_single_hypothesis_is_zero_and_empty_subclass_is_minus_one():
    assert littlestone_dimension([[1, -1, 1]]) == 0
    assert LittlestoneOracle(singletons(3)).ldim(0) == -1


@settings(max_examples=150)
@given(small_classes)
def test_ldim_matches_the_shattered_tree_definition(H):
    assert littlestone_dimension(H) == brute_ldim(H)


@settings(max_examples=100)
@given(small_classes)
def test_vcdim_le_ldim_le_log2_size(H):
    ldim = littlestone_dimension(H)
    n_distinct = len({tuple(r) for r in H})
    assert brute_vcdim(H) <= ldim <= math.floor(math.log2(n_distinct))  # Thm 21.9, Ex. 21.2


# --- adversaries -------------------------------------------------------------------------


def _splitting_points(H, mask):
    out = []
    for j in range(H.shape[1]):
        col = H[[i for i in range(len(H)) if mask >> i & 1], j]
        if (col > 0).any() and (col < 0).any():
            out.append(j)
    return out


def flipping_adversary(learner, H, rng, n_rounds=200):
    """Show a point that splits the version space and label it against the learner."""
    mistakes = 0
    for _ in range(n_rounds):
        points = _splitting_points(H, learner.version_mask_)
        if not points:
            break
        j = int(rng.choice(points))
        y = -1.0 if learner.predict_one(np.array([j])) >= 0 else 1.0
        mistakes += 1
        learner.learn_one(np.array([j]), y)
    assert learner.n_mistakes_ == mistakes
    return mistakes


def optimal_adversary(learner, H):
    """Lemma 21.6: walk a deepest shattered tree, always labelling against the learner."""
    oracle = LittlestoneOracle(H)
    pos = [sum(1 << i for i in range(len(H)) if H[i, j] > 0) for j in range(H.shape[1])]
    mistakes = 0
    while True:
        mask = learner.version_mask_
        depth = oracle.ldim(mask)
        if depth <= 0:
            return mistakes
        j = next(
            j
            for j in range(H.shape[1])
            if 1 + min(oracle.ldim(mask & pos[j]), oracle.ldim(mask & ~pos[j])) == depth
        )
        y = -1.0 if learner.predict_one(np.array([j])) >= 0 else 1.0
        learner.learn_one(np.array([j]), y)
        mistakes += 1


CLASSES = {
    "thresholds-12": thresholds(12),
    "singletons-9": singletons(9),
    "all-functions-4": all_functions(4),
    "random-40x8": np.where(np.random.default_rng(0).uniform(size=(40, 8)) < 0.5, -1, 1),
    "random-25x6-skewed": np.where(np.random.default_rng(1).uniform(size=(25, 6)) < 0.2, -1, 1),
}


@pytest.mark.parametrize("name", list(CLASSES))
def test_halving_theorem_21_3_adversarial(name):
    H = CLASSES[name]
    for seed in range(5):
        mistakes = flipping_adversary(Halving(H), H, np.random.default_rng(seed))
        assert mistakes <= math.log2(len(H))


@pytest.mark.parametrize("name", list(CLASSES))
def test_soa_lemma_21_7_adversarial(name):
    H = CLASSES[name]
    ldim = littlestone_dimension(H)
    for seed in range(5):
        assert (
            flipping_adversary(StandardOptimalAlgorithm(H), H, np.random.default_rng(seed)) <= ldim
        )


@pytest.mark.parametrize("name", list(CLASSES))
def test_corollary_21_8_soa_is_forced_to_exactly_ldim(name):
    H = CLASSES[name]
    ldim = littlestone_dimension(H)
    assert optimal_adversary(StandardOptimalAlgorithm(H), H) == ldim
    assert optimal_adversary(Halving(H), H) >= ldim  # Lemma 21.6 for any learner


def test_soa_on_many_singletons_errs_at_most_once():
    """log2|H| = 6 but Ldim = 1 (SSBD Example 21.3); the memoised Ldim stays cheap here."""
    H = singletons(64)
    assert littlestone_dimension(H) == 1
    rng = np.random.default_rng(0)
    assert flipping_adversary(StandardOptimalAlgorithm(H), H, rng) <= 1


@settings(max_examples=60)
@given(small_classes, st.integers(0, 2**32 - 1))
def test_random_realizable_sequences(H, seed):
    rng = np.random.default_rng(seed)
    target = H[rng.integers(len(H))]
    halving, soa = Halving(H), StandardOptimalAlgorithm(H)
    for j in rng.integers(H.shape[1], size=30):
        for learner in (halving, soa):
            learner.learn_one(np.array([j]), float(target[j]))
    n_distinct = len({tuple(r) for r in H})
    assert halving.n_mistakes_ <= math.log2(n_distinct)
    assert soa.n_mistakes_ <= littlestone_dimension(H)


@settings(max_examples=60)
@given(small_classes, st.integers(0, 2**32 - 1))
def test_flipping_adversary_on_random_classes(H, seed):
    n_distinct = len({tuple(r) for r in H})
    halving = Halving(H)
    assert flipping_adversary(halving, H, np.random.default_rng(seed)) <= math.log2(len(H))
    soa = StandardOptimalAlgorithm(H)
    assert flipping_adversary(soa, H, np.random.default_rng(seed)) <= littlestone_dimension(H)
    assert littlestone_dimension(H) <= math.log2(n_distinct)


# --- callables, protocol, errors ---------------------------------------------------------


def test_callables_agree_with_the_array_form():
    cuts = np.linspace(0.0, 1.0, 9)
    hyps = [lambda x, c=c: 1.0 if x[0] >= c else -1.0 for c in cuts]
    domain = [np.array([v]) for v in np.linspace(-0.05, 1.05, 23)]
    table = np.array([[h(x) for x in domain] for h in hyps])
    target = hyps[3]
    rng = np.random.default_rng(4)
    for cls, kw in ((Halving, {}), (StandardOptimalAlgorithm, {"domain": domain})):
        a, b = cls(hyps, **kw), cls(table)
        for j in rng.integers(len(domain), size=25):
            assert a.predict_one(domain[j]) == b.predict_one(np.array([j]))
            a.learn_one(domain[j], target(domain[j]))
            b.learn_one(np.array([j]), float(table[3, j]))
        np.testing.assert_array_equal(a.version_space(), b.version_space())


def test_halving_predict_is_the_version_space_vote():
    h = Halving(thresholds(4))  # 5 hypotheses
    assert h.predict_one(np.array([3])) == pytest.approx(3 / 5)  # a <= 3 say +1, a = 4 says -1
    h.learn_one(np.array([1]), -1.0)  # keeps a in {2, 3, 4}
    np.testing.assert_array_equal(h.version_space(), [2, 3, 4])
    assert h.predict_one(np.array([2])) == pytest.approx(-1 / 3)
    # ties go to +1 through predict()
    t = Halving([[1], [-1]])
    assert t.predict_one(np.array([0])) == 0.0 and t.predict(np.array([[0]]))[0] == 1.0


def test_batch_verbs_are_loops():
    H = CLASSES["random-40x8"]
    X = np.arange(8).reshape(-1, 1)
    y = H[7].astype(float)
    a, b = StandardOptimalAlgorithm(H), StandardOptimalAlgorithm(H)
    a.partial_fit(X, y)
    for xi, yi in zip(X, y):
        b.learn_one(xi, float(yi))
    assert a.version_mask_ == b.version_mask_
    np.testing.assert_array_equal(a.predict(X), y)


def test_inconsistent_labels_raise():
    h = Halving(singletons(3))
    h.learn_one(np.array([0]), 1.0)
    with pytest.raises(ValueError, match="No hypothesis of the class is consistent"):
        h.learn_one(np.array([1]), 1.0)
    np.testing.assert_array_equal(h.version_space(), [0])  # state unchanged


@pytest.mark.parametrize(
    "call",
    [
        lambda: Halving(np.zeros((2, 2))),
        lambda: Halving(np.ones(3)),
        lambda: littlestone_dimension(np.empty((0, 3))),
        lambda: Halving(singletons(3)).predict_one(np.array([3])),
        lambda: Halving(singletons(3)).predict_one(np.array([0.5])),
        lambda: Halving(singletons(3)).learn_one(np.array([0]), 0.0),
        lambda: StandardOptimalAlgorithm([lambda x: 1.0]),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError, match="parameter of"):
        call()


def test_docstring_examples_run():
    import doctest

    import dpboost.online.halving as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
