"""Private Platt scaling: sensitivity of the histogram, recovery of a known model, pooling."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting import ZCDPAccountant
from dpboost import private_platt as pp


def _histogram(u, y, B):
    edges = np.linspace(-1.0, 1.0, B + 1)
    idx = np.clip(np.searchsorted(edges, np.clip(u, -1, 1), side="right") - 1, 0, B - 1)
    return np.concatenate([np.bincount(idx[y > 0], minlength=B),
                           np.bincount(idx[y <= 0], minlength=B)])


@given(st.integers(2, 300), st.integers(0, 10**6), st.sampled_from([8, 16, 64, 128]))
def test_replacing_one_row_moves_the_histogram_by_at_most_sqrt2(n, seed, B):
    rng = np.random.default_rng(seed)
    u = rng.uniform(-1.2, 1.2, n)  # out-of-range scores are clipped into the end bins
    y = rng.choice([-1, 1], n)
    i = int(rng.integers(n))
    u2, y2 = u.copy(), y.copy()
    u2[i], y2[i] = rng.uniform(-1.2, 1.2), rng.choice([-1, 1])
    diff = _histogram(u, y, B) - _histogram(u2, y2, B)
    assert np.sqrt(np.sum(diff.astype(float) ** 2)) <= math.sqrt(2) + 1e-12


@pytest.mark.parametrize("rho", [1e-4, 1e-3, 0.05])
def test_event_costs_at_most_rho(rho):
    ev = pp.score_histogram_event(rho)
    # sensitivity sqrt 2, variance s^2 >= 1/rho: rho' = 2 / (2 s^2) <= rho
    assert ZCDPAccountant().compose(ev).rho <= rho
    assert ZCDPAccountant().compose(ev).rho >= rho * (1 - 2 / math.sqrt(1 / rho))


def test_recovers_a_known_platt_model():
    rng = np.random.default_rng(3)
    n = 60_000
    u = rng.normal(-0.1, 0.15, n)
    a, b = 12.0, -0.5
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-(a * u + b))), 1, -1)
    fits = [pp.private_platt(u, y, 2e-3, rng=rng) for _ in range(5)]
    # margins: the non-private MLE on 60,000 rows has sd ~0.25 in a and ~0.03 in b; binning
    # (width 1/64) and noise (s ~ 22 per cell) add less than that
    assert np.median([f.slope for f in fits]) == pytest.approx(a, abs=1.5)
    assert np.median([f.offset for f in fits]) == pytest.approx(b, abs=0.2)
    assert all(f.n_bins == 128 and f.n_groups >= 5 for f in fits)


def test_empty_bins_do_not_add_spurious_mass():
    # all scores in one bin: after pooling, the noisy total must stay near n, not near
    # n + (number of empty bins) * E[noise+] as clipping cell by cell would give
    rng = np.random.default_rng(5)
    n, s2 = 5000, 400
    pos = np.zeros(128)
    neg = np.zeros(128)
    pos[60], neg[60] = 1000, 4000
    pos = pos + rng.normal(0, math.sqrt(s2), 128)
    neg = neg + rng.normal(0, math.sqrt(s2), 128)
    gp, gn, _ = pp._pool(pos, neg, np.linspace(-1, 1, 128), s2)
    assert abs(gp.sum() + gn.sum() - n) < 6 * math.sqrt(2 * 128 * s2)
    assert len(gp) <= 4


def test_small_samples_skip_the_histogram():
    assert not pp.worthwhile(1000, 0.05 * 0.0244)  # n = 1,000 at epsilon = 1
    assert pp.worthwhile(5000, 0.05 * 0.0244)
    assert pp.n_bins(10**6, 1.0) == pp.MAX_BINS and pp.n_bins(10, 1e-6) == pp.MIN_BINS
