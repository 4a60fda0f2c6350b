"""Round-6 mutation gaps of :func:`dpboost.private_temperature.private_temperature_families`.

The drawn pair's fit must carry the drawn family's own public bound (``tau / B`` is folded into
the model), and the pair utilities must add ``2^10 + 2`` steps per correctly classified row
to the Brier gain, computed here independently of ``_row_sums``."""

from __future__ import annotations

import math

import numpy as np

from dpboost.private_temperature import (
    ScoreFamily,
    brier_gains,
    pair_utilities,
    private_temperature_families,
)
from dpboost.private_threshold import BRIER_SENSITIVITY


def test_the_fit_carries_the_bound_of_the_family_drawn():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 3000)
    noise = ScoreFamily(rng.normal(0, 0.01, (3000, 3)), 0.05)
    good = ScoreFamily(0.02 * np.eye(3)[y] + rng.normal(0, 0.01, (3000, 3)), 0.07)
    f, fit = private_temperature_families([noise, good], y, 0.01, rng=rng)
    assert f == 1 and fit.family == 1
    assert fit.bound == 0.07 and fit.factor == fit.temperature / 0.07


def _softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def test_pair_utilities_match_an_independent_brier_and_count():
    rng = np.random.default_rng(4)
    n, K = 200, 4
    u = rng.uniform(-1, 1, (n, K))
    y = rng.integers(0, K, n)
    b = rng.normal(0, 0.5, K)
    temperatures = np.array([1.0, 2.0 ** 0.5, 8.0, 256.0])
    got = pair_utilities(u, y, temperatures, b)
    for j, tau in enumerate(temperatures):
        p = _softmax(tau * u + b)
        gain = math.fsum(1.0 - 0.5 * ((p - np.eye(K)[y]) ** 2).sum(axis=1))
        correct = int(np.count_nonzero(np.argmax(tau * u + b, axis=1) == y))
        assert abs(int(got[j]) - (math.floor(1024 * gain) + BRIER_SENSITIVITY * correct)) <= 1
    np.testing.assert_array_equal(got - brier_gains(u, y, temperatures, b),
                                  BRIER_SENSITIVITY * np.array(
                                      [np.count_nonzero(np.argmax(t * u + b, axis=1) == y)
                                       for t in temperatures]))


def test_the_draw_scores_each_family_with_its_own_offsets():
    """Family 1 has no signal in its scores but the offsets of a 90% majority class; family
    0 is right on 60% of the rows.  With its offsets family 1 is right on 90%: 600 rows more,
    far beyond the first family's base weight at rho = 1 (without them, 10%)."""
    rng = np.random.default_rng(7)
    n = 2000
    y = (rng.random(n) < 0.9).astype(int)
    hit = rng.random(n) < 0.6
    weak = np.where(hit, y, 1 - y)
    first = ScoreFamily(0.5 * np.eye(2)[weak], 1.0)
    prior = ScoreFamily(np.zeros((n, 2)), 1.0, np.log(np.array([0.1, 0.9])))
    draws = [private_temperature_families([first, prior], y, 1.0, rng=rng)[0] for _ in range(5)]
    assert draws == [1] * 5
