"""The pooling of private Platt scaling (``_pool``) on synthetic noisy histograms.

Pins what the pooled groups are, against an independent recomputation from the cells: groups
are runs of adjacent bins, each group's total is the sum of its noisy cells, only the positive
share is clamped into ``[0, total]``, and the bins above the last group are dropped only when
their noisy total stays below three noise standard deviations.  That last rule is where the
positives of a rare, well-ranked class go missing (session 20: at n = 50,000, 1% positives,
epsilon = 1, 416 training positives of about 500 lay in the 72 dropped top bins), so a change to it
must change this test on purpose.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost import histogram_cuts as hc
from dpboost import private_platt as pp


def _groups(pos, neg, s2):
    """Independent recomputation: the runs of bins ``_pool`` closes, and the dropped rest."""
    runs, start = [], 0
    for j in range(pos.size):
        k = j - start + 1
        if pos[start:j + 1].sum() + neg[start:j + 1].sum() >= 3.0 * math.sqrt(2.0 * k * s2):
            runs.append((start, j + 1))
            start = j + 1
    return runs, (start, pos.size)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([8, 16, 64, 128]), st.integers(1, 3000),
       st.floats(0.0, 1.0))
def test_pooled_groups_are_sums_of_adjacent_noisy_cells(seed, B, s2, rate):
    rng = np.random.default_rng(seed)
    centres = np.linspace(-1 + 1 / B, 1 - 1 / B, B)
    true = rng.multinomial(20_000, np.exp(-((centres + 0.3) / 0.2) ** 2) / np.exp(
        -((centres + 0.3) / 0.2) ** 2).sum())
    tp = rng.binomial(true, rate)
    pos = tp + np.round(rng.normal(0, math.sqrt(s2), B))
    neg = (true - tp) + np.round(rng.normal(0, math.sqrt(s2), B))
    gp, gn, gc, gk = pp._pool(pos, neg, centres, s2, with_sizes=True)
    runs, rest = _groups(pos, neg, s2)
    assert [b - a for a, b in runs] == gk.tolist()
    for (a, b), p, n, c in zip(runs, gp, gn, gc):
        total = pos[a:b].sum() + neg[a:b].sum()
        assert p + n == total  # the total is never clamped ...
        assert p == min(max(pos[a:b].sum(), 0.0), total)  # ... only the positive share
        assert centres[a] - 1e-12 <= c <= centres[b - 1] + 1e-12
    k = rest[1] - rest[0]
    if k:  # the dropped upper tail stayed below the bar at every prefix of it
        assert pos[rest[0]:].sum() + neg[rest[0]:].sum() < 3.0 * math.sqrt(2.0 * k * s2)


def test_without_noise_the_groups_are_the_true_counts_of_the_covered_bins():
    # s2 = 1 is negligible next to 20,000 rows: every bin holding 5 or more rows closes a
    # group, and the positives of the covered bins are recovered exactly (no clamping bias)
    rng = np.random.default_rng(0)
    centres = np.linspace(-1 + 1 / 64, 1 - 1 / 64, 64)
    true = np.zeros(64, int)
    true[20:40] = 1000
    tp = rng.binomial(true, 0.05)
    gp, gn, _, gk = pp._pool(tp.astype(float), (true - tp).astype(float), centres, 1,
                             with_sizes=True)
    assert gk.sum() == 40  # the empty bins above the last non-empty one are dropped
    assert gp.sum() == tp.sum() and gn.sum() == (true - tp).sum()


# ------------------------------------------------------- the two-Gaussian crossing of the cells
def _two_gaussians(rng, n, rate=0.01, mu1=0.05, s1=0.06, mu0=-0.2, s0=0.08):
    """1% positives N(0.05, 0.06) above negatives N(-0.2, 0.08): a rare, well-ranked class."""
    y = np.where(rng.random(n) < rate, 1, -1)
    u = np.where(y > 0, rng.normal(mu1, s1, n), rng.normal(mu0, s0, n))
    return np.clip(u, -1, 1), y


def test_a_rare_well_ranked_class_is_predicted_in_every_seed():
    # 50,000 rows, the calibration budget of epsilon = 1 (s^2 = 841 per cell, 128 bins).  The
    # positives' bins lie above the pooling's last group, which dropped them: before session
    # 20 Platt's P = 1/2 fell above every score in seed 0 (no positive predicted, held-out
    # accuracy 0.9901) and in seeds 5 and 6 predicted 0.09% / 0.08% (0.9912 / 0.9903); mean
    # 0.9927.  Measured with gaussian_cut over these 8 seeds: positive rate 0.35%-0.70% (true
    # 1%), accuracy 0.9938-0.9943, mean 0.9940; the best cut on the true scores is 0.9945.
    accs = []
    for seed in range(8):
        rng = np.random.default_rng(seed)
        u, y = _two_gaussians(rng, 50_000)
        fit = pp.private_platt(u, y, 0.00119, rng=rng)
        ut, yt = _two_gaussians(rng, 100_000)
        pred = np.where(fit.slope * ut + fit.offset > 0, 1, -1)
        assert np.mean(pred > 0) > 0.002
        accs.append(float(np.mean(pred == yt)))
        if seed == 0:  # the formerly single-class seed: no group positive, the cells' crossing
            assert fit.moved_threshold and fit.threshold == "gaussian"
    assert min(accs) > 0.9930 and np.mean(accs) > 0.9935


def _cells(n1, mu1, s1, n0, mu0, s0, B):
    from scipy.stats import norm

    edges = np.linspace(-1.0, 1.0, B + 1)
    return (n1 * np.diff(norm.cdf(edges, mu1, s1)), n0 * np.diff(norm.cdf(edges, mu0, s0)),
            edges)


def _bayes_cut(n1, mu1, s1, n0, mu0, s0):
    """The highest upward crossing of n1 N(mu1, s1) over n0 N(mu0, s0) in (mu0, 1), solved
    directly from the true densities (sign changes on a fine grid, then brentq)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    def f(t):
        return (math.log(n1) + norm.logpdf(t, mu1, s1) - math.log(n0)
                - norm.logpdf(t, mu0, s0))

    grid = np.linspace(mu0, 1.0, 4001)
    values = np.array([f(t) for t in grid])
    up = np.flatnonzero((values[:-1] <= 0) & (values[1:] > 0))
    return brentq(f, grid[up[-1]], grid[up[-1] + 1]) if up.size else None


@settings(max_examples=40, deadline=None)
@given(st.floats(0.005, 0.1), st.floats(0.1, 0.4), st.floats(0.03, 0.1), st.floats(0.5, 1.5))
def test_gaussian_cut_is_the_bayes_cut_without_noise(rate, gap, s0, ratio):
    # expected counts of 50,000 rows, no noise (s2 = 1 is negligible): the fitted crossing is
    # the Bayes cut up to the binning (128 bins: width 1/64)
    n1, n0, mu0 = 50_000 * rate, 50_000 * (1 - rate), -0.2
    pos, neg, edges = _cells(n1, mu0 + gap, s0 * ratio, n0, mu0, s0, 128)
    truth = _bayes_cut(n1, mu0 + gap, s0 * ratio, n0, mu0, s0)
    got = hc.gaussian_cut(pos, neg, edges, 1)
    if truth is None:  # no crossing on the data: the fit may not invent one far from it
        assert got is None or got[0] > 0.5
        return
    assert got is not None and abs(got[0] - truth) < 1 / 64


@pytest.mark.parametrize("seed", range(6))
def test_gaussian_cut_on_noisy_cells_is_near_the_noise_free_cut(seed):
    # the same cells with the discrete-Gaussian noise of epsilon = 1 (s^2 = 841) on each of the
    # 256: the crossing stays within 0.05 of the noise-free one, 0.036 (measured: within 0.021
    # over these seeds), where Platt's fit to the pooled groups put P = 1/2 at 0.07 to 0.64 or
    # beyond +1
    from dpboost.mechanisms import sample_discrete_gaussian

    rng = np.random.default_rng(seed)
    pos, neg, edges = _cells(500, 0.05, 0.06, 49_500, -0.2, 0.08, 128)
    clean = hc.gaussian_cut(pos, neg, edges, 1)
    noisy_pos = np.round(pos) + sample_discrete_gaussian(841, 128, rng=rng)
    noisy_neg = np.round(neg) + sample_discrete_gaussian(841, 128, rng=rng)
    got = hc.gaussian_cut(noisy_pos, noisy_neg, edges, 841)
    assert clean is not None and got is not None
    assert abs(got[0] - clean[0]) < 0.05 and got[1] > 0
