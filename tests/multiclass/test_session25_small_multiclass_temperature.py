"""Session 25: the private temperature's public base measure (:func:`temperature_weights`).

Small multiclass fits drew their softmax temperature nearly uniformly over a grid that is mostly
hot, so their probabilities scored worse than uniform ones.  The base measure ``2^(-j/4)``
favours cool temperatures where the data cannot decide, leaves the draw alone where they can,
and changes neither the event nor the bounded range of the mechanism.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import logsumexp, softmax

from dpboost.private_temperature import (
    BASE_HALVING,
    brier_gains,
    candidate_temperatures,
    private_temperature,
    temperature_eta,
    temperature_event,
    temperature_weights,
)
from dpboost.private_threshold import BRIER_SENSITIVITY


def _log_draw(gains, eta, weights=None):
    """The exact log-probabilities of the draw: ``log w_k + eta U_k``, normalised."""
    z = float(eta) * (np.asarray(gains, float) - np.max(gains))
    if weights is not None:
        z = z + np.log(np.asarray(weights, float))
    return z - logsumexp(z)


def _no_signal(n, K=10, seed=0, spread=0.02):
    """Scores of a fit at chance (labels independent of them), as small as a small fit's
    (300 digits rows: standard deviation 0.04-0.1 of ``u`` at epsilon = 0.5-1)."""
    rng = np.random.default_rng(seed)
    return rng.normal(0, spread, (n, K)).clip(-1, 1), rng.integers(0, K, n)


def test_the_weights_are_public_integers_halving_every_four_candidates():
    w = temperature_weights()
    assert w.dtype == np.int64 and w.size == candidate_temperatures().size
    j = np.arange(w.size)
    np.testing.assert_array_equal(w, [round(2.0 ** (40 - k / BASE_HALVING)) for k in j])
    assert np.all(np.diff(w) < 0) and w.min() >= 1
    np.testing.assert_allclose(w[:-4] / w[4:], 2.0, rtol=1e-9)
    # the same for any data: nothing in the measure is read from the rows
    np.testing.assert_array_equal(w, temperature_weights())


def test_the_event_is_unchanged():
    """The base measure is data-independent: the event is still epsilon_0 = 2 eta Delta."""
    for rho in (1e-4, 1.2e-3, 0.05):
        eps0 = temperature_event(rho).epsilon
        assert eps0 >= 2 * float(temperature_eta(rho)) * BRIER_SENSITIVITY
        assert eps0**2 / 8 <= rho


@pytest.mark.parametrize("seed", range(4))
def test_neighbours_draws_stay_within_the_bounded_range(seed):
    """McSherry & Talwar with a base measure: for a dataset and its neighbour (one row
    replaced), ``log p_k - log p'_k`` spans at most ``epsilon_0 = 2 eta Delta`` over ``k``
    (computed exactly from the integer gains); a row replaced by its worst case moves the gains
    by up to the sensitivity."""
    u, y = _no_signal(300, seed=seed, spread=0.1)
    rho = 1.2e-3
    taus = candidate_temperatures()
    eta = temperature_eta(rho)
    w = temperature_weights()
    g = brier_gains(u, y, taus)
    u2, y2 = u.copy(), y.copy()
    u2[0] = np.eye(10)[(y[0] + 1) % 10]  # the row most unlike the first, on the grid's edge
    y2[0] = y[0]
    g2 = brier_gains(u2, y2, taus)
    assert np.abs(g - g2).max() <= BRIER_SENSITIVITY
    diff = _log_draw(g, eta, w) - _log_draw(g2, eta, w)
    assert diff.max() - diff.min() <= temperature_event(rho).epsilon + 1e-12


def test_a_fit_at_chance_draws_a_cool_temperature():
    """300 rows of scores at chance with the budget of a 300-row fit at epsilon = 1
    (rho = 1.2e-3): the flat measure put 0.415 of the draw on temperatures above 8 (exact, on
    this sample), the base measure keeps 0.811 at 8 or below; the held-out Brier score
    expected over the draw falls from 0.925 to 0.907 (uniform probabilities: 0.900)."""
    u, y = _no_signal(300)
    ut, yt = _no_signal(2000, seed=1)
    taus = candidate_temperatures()
    eta = temperature_eta(1.2e-3)
    g = brier_gains(u, y, taus)
    flat = np.exp(_log_draw(g, eta))
    based = np.exp(_log_draw(g, eta, temperature_weights()))
    hot = taus > 8
    assert flat[hot].sum() > 0.35 and based[~hot].sum() > 0.75
    brier = np.array([np.mean(((softmax(t * ut, axis=1) - np.eye(10)[yt]) ** 2).sum(1))
                      for t in taus])
    assert based @ brier < flat @ brier - 0.01
    assert based @ brier < 0.9 + 0.01 < flat @ brier


def test_where_the_data_decide_the_draw_is_the_same():
    """20,000 rows with a clear best temperature (scores 0.2 e_y + noise, rho = 1.2e-3): the
    same candidate takes most of the draw under either measure (0.895 flat, 0.878 with the base
    measure), and the two draws' total variation is 0.017."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 5, 20_000)
    u = (0.2 * np.eye(5)[y] + rng.normal(0, 0.1, (20_000, 5))).clip(-1, 1)
    g = brier_gains(u, y, candidate_temperatures())
    eta = temperature_eta(1.2e-3)
    flat = np.exp(_log_draw(g, eta))
    based = np.exp(_log_draw(g, eta, temperature_weights()))
    assert flat.max() > 0.8 and based.max() > 0.8 and flat.argmax() == based.argmax()
    assert 0.5 * np.abs(flat - based).sum() < 0.05


@pytest.mark.slow
def test_the_draw_follows_the_weighted_exponential_mechanism():
    """Draws of private_temperature on fixed scores: frequencies match ``w exp(eta U)``
    normalised (3,000 draws; a 33-cell multinomial's total variation exceeds 0.08 with
    probability < 0.001 here) and not the flat measure's (total variation > 0.2 apart)."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 40)
    u = 0.3 * np.eye(3)[y] + rng.normal(0, 0.2, (40, 3))
    rho = 2e-7
    taus = list(candidate_temperatures())
    g = brier_gains(u, y, np.array(taus))
    eta = temperature_eta(rho)
    expected = np.exp(_log_draw(g, eta, temperature_weights()))
    flat = np.exp(_log_draw(g, eta))
    assert 0.5 * np.abs(expected - flat).sum() > 0.2
    draws = [taus.index(private_temperature(u, y, rho, 1.0, rng=rng).temperature)
             for _ in range(3000)]
    freq = np.bincount(draws, minlength=len(taus)) / 3000
    assert 0.5 * np.abs(freq - expected).sum() < 0.08
    assert math.isclose(freq.sum(), 1.0)
