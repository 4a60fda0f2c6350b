"""The Boost skeleton: exactly T rounds, state = hypotheses, cached measure = recomputed measure."""

from __future__ import annotations

import numpy as np
from _core_helpers import margin_data

from dpboost.boost import MeasureProducer, WeakLearner, boost
from dpboost.lazy_breg import LazyBregBoost
from dpboost.weak_learners import CenteringHalfspace, GaussianCenteringHalfspace


def test_protocols_are_satisfied():
    assert isinstance(LazyBregBoost(0.5, 1.0), MeasureProducer)
    assert isinstance(GaussianCenteringHalfspace(1.0, 0.5), WeakLearner)
    assert isinstance(CenteringHalfspace(), WeakLearner)


def test_cached_measure_equals_recomputed_from_hypotheses_alone():
    X, y, _ = margin_data(800, 6, 0.05, seed=1)
    nxm = LazyBregBoost(0.25, 5.0)
    seen = []
    H = boost(
        X, y, measure_producer=nxm,
        weak_learner=GaussianCenteringHalfspace(5.0, 0.25),
        n_rounds=300, rng=np.random.default_rng(0),
        callback=lambda t, mu, h: seen.append(mu.copy()),
    )
    assert len(H) == 300 and len(seen) == 300
    fresh = LazyBregBoost(0.25, 5.0)
    for t in (0, 1, 10, 150, 299):
        np.testing.assert_allclose(seen[t], fresh.recompute(X, y, H[:t]), rtol=0, atol=1e-12)


def test_seeded_runs_are_identical_and_seeds_differ():
    X, y, _ = margin_data(300, 4, 0.1, seed=2)

    def run(seed):
        H = boost(X, y, measure_producer=LazyBregBoost(0.3, 2.0),
                  weak_learner=GaussianCenteringHalfspace(2.0, 0.3), n_rounds=20,
                  rng=np.random.default_rng(seed))
        return np.array([h.coef for h in H])

    np.testing.assert_array_equal(run(7), run(7))
    assert not np.array_equal(run(7), run(8))


def test_nonprivate_boost_separates_margin_data():
    X, y, _ = margin_data(2000, 10, 0.1, seed=3)
    H = boost(X, y, measure_producer=LazyBregBoost(0.1, 1.0), weak_learner=CenteringHalfspace(),
              n_rounds=100, rng=np.random.default_rng(0))
    w = np.mean([h.coef for h in H], axis=0)
    assert np.mean(np.sign(X @ w) == y) >= 0.97


def test_zero_rounds_gives_no_hypotheses():
    X, y, _ = margin_data(10, 2, 0.1)
    assert boost(X, y, measure_producer=LazyBregBoost(0.5, 1.0), weak_learner=CenteringHalfspace(),
                 n_rounds=0, rng=np.random.default_rng(0)) == []


def test_each_hypothesis_is_evaluated_once_over_the_whole_run():
    """Per-round cost O(nd): the producer never re-evaluates earlier hypotheses."""
    from dpboost.weak_learners import HalfspaceHypothesis

    calls: list[int] = []

    class Counting(HalfspaceHypothesis):
        __slots__ = ("index",)

        def __call__(self, X):
            calls.append(self.index)
            return super().__call__(X)

    class Learner(CenteringHalfspace):
        def fit(self, X, y, mu_hat, *, rng):
            h = Counting(super().fit(X, y, mu_hat, rng=rng).coef)
            h.index = len(seen)
            seen.append(h)
            return h

    seen: list = []
    X, y, _ = margin_data(200, 3, 0.1, seed=4)
    boost(X, y, measure_producer=LazyBregBoost(0.25, 5.0), weak_learner=Learner(),
          n_rounds=50, rng=np.random.default_rng(0))
    # round t evaluates only h_{t-1}; the last hypothesis is never needed by the producer
    assert calls == list(range(49))
