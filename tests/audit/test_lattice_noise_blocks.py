"""Noise drawn ahead in blocks (``LatticeNoise``) is the same distribution, used once.

The boosting rounds take their discrete Gaussian noise from blocks of draws made ahead of time
(one sampler call per 16 rounds instead of one per round).  These tests check what makes that
safe: each vector handed out is distributed as ``N_Z(0, t m)^d`` (chi-square against the exact
pmf, and independence between consecutive vectors), no draw is handed out twice, a mismatched
Generator is refused, and a pickled learner carries no draws.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from lattice_cases import chi_square_passes

from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.mechanisms import LatticeGaussian, LatticeNoise, lattice_variance
from dpboost.weak_learners import GaussianCenteringHalfspace


@pytest.mark.parametrize("sigma", [0.7, 6.3])
def test_block_draws_match_the_discrete_gaussian_pmf(sigma):
    t, m = lattice_variance(sigma)
    pool = LatticeNoise(np.random.default_rng(11), block=7)
    draws = np.concatenate([pool.draw(t, m, 5) for _ in range(8_000)])  # 40,000 draws
    assert chi_square_passes(draws, t * m)


def test_consecutive_vectors_are_uncorrelated_within_and_across_blocks():
    t, m = lattice_variance(3.0)
    pool = LatticeNoise(np.random.default_rng(3), block=16)
    rows = np.array([pool.draw(t, m, 3) for _ in range(8_000)], dtype=float)
    # lag-1 correlation of the same coordinate (15 of 16 pairs within a block, 1 across),
    # and between coordinates of one vector: under independence each is about N(0, 1/n)
    # with n = 8,000, so |r| < 5/sqrt(n) = 0.056 (a 5-sigma margin)
    for j in range(3):
        r = np.corrcoef(rows[:-1, j], rows[1:, j])[0, 1]
        assert abs(r) < 0.056
    assert abs(np.corrcoef(rows[:, 0], rows[:, 1])[0, 1]) < 0.056


def test_each_draw_is_handed_out_once_and_a_new_shape_starts_a_new_block():
    pool = LatticeNoise(np.random.default_rng(0), block=3)
    t, m = lattice_variance(1e6)  # wide noise: equal vectors would reveal reuse
    first = [pool.draw(t, m, 4) for _ in range(3)]
    fourth = pool.draw(t, m, 4)  # a new block
    assert len({tuple(v) for v in first + [fourth]}) == 4
    other = pool.draw(t, m, 2)  # another dimension: a fresh block of its own
    assert other.shape == (2,) and pool.draw(t, m, 4).shape == (4,)


def test_release_from_a_pool_stays_on_the_grid_and_takes_the_next_draw():
    mech = LatticeGaussian(sensitivity=0.01, noise_multiplier=2.0, dimension=3)
    g, (t, m) = mech.granularity, mech.grid_variance
    pool, twin = LatticeNoise(np.random.default_rng(0)), LatticeNoise(np.random.default_rng(0))
    value = np.array([0.25, -0.5, 0.125])
    out = mech.release(value, rng=pool)
    assert np.array_equal(out / g, np.round(out / g))  # on the grid, as without the pool
    assert np.array_equal(out, (np.rint(value / g) + twin.draw(t, m, 3)) * g)


def test_a_pickled_learner_carries_no_draws_and_refits_the_same():
    X = np.random.default_rng(1).normal(size=(300, 4)) / 4
    y = np.where(X[:, 0] > 0, 1, -1)
    learner = GaussianCenteringHalfspace(noise_multiplier=3.0, kappa=0.3)
    learner.fit(X, y, np.full(300, 1 / 300), rng=np.random.default_rng(2))
    assert "_noise" in learner.__dict__
    assert "_noise" not in pickle.loads(pickle.dumps(learner)).__dict__


def test_same_seed_same_model_and_fresh_generator_per_fit():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2_000, 6)) / 4
    y = (X[:, 0] + 0.2 * rng.normal(size=2_000) > 0).astype(int)
    fits = [PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=5).fit(X, y)
            for _ in range(2)]
    assert np.array_equal(fits[0].coef_, fits[1].coef_)
