"""Round-4 mutation gaps in dpboost/boost.py: what the Boost loop (Algorithms 1-2 of Bun,
Carmosino & Sorrell 2020) hands the weak learner and the callback."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost.boost import boost
from dpboost.lazy_breg import LazyBregBoost
from dpboost.weak_learners import CenteringHalfspace


class _Recorder(CenteringHalfspace):
    def __init__(self):
        super().__init__(1.0)
        self.seen = []

    def fit(self, X, y, mu_hat, *, rng):
        self.seen.append(np.array(mu_hat, dtype=np.float64))
        return super().fit(X, y, mu_hat, rng=rng)


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(0.0, 0.4, (n, 3))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X[:, 0] + 0.2 * rng.normal(size=n) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("kappa", [0.2, 0.5])
def test_weak_learner_gets_the_normalised_measure(kappa):
    """Iter (Algorithm 2) calls WkL on mu_hat = mu / |mu|: a distribution (total 1).  The
    learner's sensitivity 2R/(kappa n) is proved for it: LB-NxM's measure has total kappa n and
    entries <= 1, so every mu_hat(i) <= 1/(kappa n) (smoothness).  An unnormalised measure
    would scale the released centre by kappa n and void the noise calibration."""
    X, y = _data()
    n = len(y)
    wl = _Recorder()
    boost(X, y, measure_producer=LazyBregBoost(kappa, 1.0), weak_learner=wl, n_rounds=4,
          rng=np.random.default_rng(0))
    assert len(wl.seen) == 4
    for mu_hat in wl.seen:
        assert mu_hat.sum() == pytest.approx(1.0, abs=1e-12)
        assert mu_hat.min() >= 0.0
        assert mu_hat.max() <= 1.0 / (kappa * n) * (1 + 1e-9)


def test_callback_gets_zero_based_rounds_and_the_round_measure():
    """callback(t, mu, h) runs after round t, 0-based (docstring): t = 0 .. T-1 in order, with
    the measure LB-NxM produced for the hypotheses before round t (recomputed independently
    with the pure LazyBregBoost.recompute) and the hypothesis of that round."""
    X, y = _data()
    calls = []
    H = boost(X, y, measure_producer=LazyBregBoost(0.5, 1.0), weak_learner=CenteringHalfspace(),
              n_rounds=3, rng=np.random.default_rng(0),
              callback=lambda t, mu, h: calls.append((t, np.array(mu), h)))
    assert [c[0] for c in calls] == [0, 1, 2]
    for t, mu, h in calls:
        assert h is H[t]
        np.testing.assert_allclose(mu, LazyBregBoost(0.5, 1.0).recompute(X, y, H[:t]),
                                   rtol=1e-12, atol=1e-15)
