"""Private Platt scaling: sensitivity of the histogram, recovery of a known model, pooling,
and the threshold (quadratic log-odds crossing, gated accuracy cut)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting import ZCDPAccountant
from dpboost import histogram_cuts as hc
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
    assert not pp.worthwhile(2500, 0.05 * 0.0244)  # n = 2,500 at epsilon = 1
    assert pp.worthwhile(5000, 0.05 * 0.0244)
    assert pp.n_bins(10**6, 1.0) == pp.MAX_BINS and pp.n_bins(10, 1e-6) == pp.MIN_BINS


# ----------------------------------------------------------------------------- the threshold
def _accuracy(pos, neg, cut):
    return float(np.sum(pos[cut:]) + np.sum(neg[:cut]))


@given(st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500)), min_size=1, max_size=20),
       st.data())
def test_accuracy_cut_is_the_best_cut_when_the_noise_is_negligible(groups, data):
    pos = np.array([g[0] for g in groups], float)
    neg = np.array([g[1] for g in groups], float)
    start = data.draw(st.integers(0, len(groups)))
    cut = hc.accuracy_cut(pos, neg, np.ones(len(groups), int), start, s2=1e-12)
    best = max(_accuracy(pos, neg, k) for k in range(len(groups) + 1))
    assert _accuracy(pos, neg, cut) == best


@given(st.lists(st.tuples(st.floats(-300, 500), st.floats(-300, 500), st.integers(1, 8)),
                min_size=1, max_size=20), st.integers(1, 10**4), st.data())
def test_accuracy_cut_moves_only_for_a_gain_above_one_noise_sd(groups, s2, data):
    pos, neg = (np.array([g[i] for g in groups], float) for i in (0, 1))
    sizes = np.array([g[2] for g in groups], int)
    start = data.draw(st.integers(0, len(groups)))
    cut = hc.accuracy_cut(pos, neg, sizes, start, s2)
    lo, hi = min(cut, start), max(cut, start)
    gain = _accuracy(pos, neg, cut) - _accuracy(pos, neg, start)
    assert cut == start or gain > math.sqrt(2 * s2 * sizes[lo:hi].sum())


def _skewed_tail(rng, n):
    """4% positives whose scores form a narrow upper tail (letter-like): the log-odds is not
    linear in u, and Platt's fit, dominated by the negatives' bulk, puts P = 1/2 above most of
    the tail."""
    y = np.where(rng.random(n) < 0.04, 1, -1)
    u = np.where(y > 0, rng.normal(0.05, 0.03, n), rng.normal(-0.1, 0.06, n))
    return np.clip(u, -1, 1), y


@given(st.integers(0, 10**6), st.floats(-3.0, 3.0))
def test_calibration_never_reverses_the_ranking(seed, true_slope):
    # Whatever the noisy histogram says (here even a truly reversed relation), Platt's slope
    # stays >= MIN_SLOPE > 0, so the calibrated score orders rows exactly as u does.
    rng = np.random.default_rng(seed)
    u = rng.uniform(-0.2, 0.2, 3000)
    y = np.where(rng.random(3000) < 1 / (1 + np.exp(-(true_slope * 10 * u - 2))), 1, -1)
    fit = pp.private_platt(u, y, 0.001, rng=rng)
    assert fit.slope >= hc.MIN_SLOPE
    order = np.argsort(u, kind="stable")
    assert np.all(np.diff(fit.slope * u[order] + fit.offset) >= 0)


# ------------------------------------------------------------- the quadratic log-odds crossing
def _gaussian_groups(p, mu1, s1, mu0, s0, n, centres):
    """Expected counts of two Gaussian classes in bins centred on ``centres`` (no noise)."""
    from scipy.stats import norm

    w = centres[1] - centres[0]
    lo, hi = centres - w / 2, centres + w / 2
    pos = n * p * (norm.cdf(hi, mu1, s1) - norm.cdf(lo, mu1, s1))
    neg = n * (1 - p) * (norm.cdf(hi, mu0, s0) - norm.cdf(lo, mu0, s0))
    keep = pos + neg > 1.0
    return pos[keep], neg[keep], centres[keep]


def _bayes_cut(p, mu1, s1, mu0, s0):
    """Upper root of log(p N(u; mu1, s1)) = log((1 - p) N(u; mu0, s0)), solved directly."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    def f(u):
        return (math.log(p) + norm.logpdf(u, mu1, s1)
                - math.log(1 - p) - norm.logpdf(u, mu0, s0))

    return brentq(f, mu1 - 3 * s1 if f(mu1 - 3 * s1) < 0 else mu0, mu1 + 3 * s1)


@given(st.floats(0.02, 0.3), st.floats(0.02, 0.08), st.floats(0.5, 1.5))
def test_quadratic_cut_finds_the_bayes_cut_of_two_gaussians(p, s1, ratio):
    # positives N(0.1, s1), negatives N(-0.1, s1 * ratio): the log-odds is exactly quadratic.
    # On expected counts (no noise) the fitted crossing must be the Bayes cut, up to the
    # binning (width 1/64: a centre is off by at most half a bin).
    s0 = s1 * ratio
    centres = np.linspace(-1 + 1 / 128, 1 - 1 / 128, 128)
    pos, neg, c = _gaussian_groups(p, 0.1, s1, -0.1, s0, 10**6, centres)
    truth = _bayes_cut(p, 0.1, s1, -0.1, s0)
    t = hc.quadratic_cut(pos, neg, c, float(c[0]), float(c[-1]))
    if not c[0] < truth <= c[-1]:
        return
    assert t is not None and abs(t - truth) < 1 / 64 + 0.01


@given(st.lists(st.tuples(st.floats(0, 500), st.floats(0, 500)), min_size=3, max_size=30),
       st.floats(-1, 0.5), st.floats(0.01, 0.5))
def test_quadratic_cut_lies_on_the_given_interval_and_rises(groups, lo, width):
    pos = np.array([g[0] for g in groups]) + 1.0
    neg = np.array([g[1] for g in groups]) + 1.0
    u = np.linspace(-0.5, 0.5, len(groups))
    t = hc.quadratic_cut(pos, neg, u, lo, lo + width)
    assert t is None or lo < t <= lo + width + 1e-12


def test_quadratic_threshold_rescues_a_skewed_tail_where_platt_predicts_nothing():
    # 15,000 rows, the budget of epsilon = 1 (5% share).  Platt's 0.5 point sits above most of
    # the tail; the quadratic crossing does not.  Measured over these 8 seeds: held-out accuracy
    # 0.9743-0.9763 with the crossing used in all 8, against 0.9608-0.9763 for Platt with the
    # gated accuracy cut alone; the non-private best cut is 0.9762 and the best constant 0.96.
    accs = []
    for seed in range(8):
        rng = np.random.default_rng(seed)
        u, y = _skewed_tail(rng, 15_000)
        fit = pp.private_platt(u, y, 0.00085, rng=rng)
        ut, yt = _skewed_tail(rng, 100_000)
        accs.append(float(np.mean(np.where(fit.slope * ut + fit.offset > 0, 1, -1) == yt)))
        assert fit.threshold == "quadratic" and fit.slope >= hc.MIN_SLOPE
    assert min(accs) > 0.972 and np.mean(accs) > 0.974


def test_uninformative_scores_predict_no_minority():
    # 1% positives whose scores carry no signal: whatever the noise, the threshold must not
    # invent a positive region.  Measured over these 10 seeds: no positive prediction at all
    # (Platt's own threshold in every seed); the bound leaves room for 1%.
    rates = []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        u, y = _uninformative(rng, 25_000, -0.1, 0.08)
        fit = pp.private_platt(u, y, 0.00085, rng=rng)
        rates.append(_positive_rate(fit.slope, fit.offset, u))
    assert max(rates) <= 0.01


def _uninformative(rng, n, centre, spread):
    """Scores ``N(centre, spread)`` and 1% positive labels drawn independently of them."""
    return rng.normal(centre, spread, n), np.where(rng.random(n) < 0.01, 1, -1)


def _positive_rate(slope, offset, u):
    return float(np.mean(slope * u + offset > 0))


def test_probabilities_agree_with_the_moved_threshold():
    rng = np.random.default_rng(11)
    y = np.where(rng.random(20_000) < 0.05, 1, -1)
    u = np.where(y > 0, rng.normal(0.1, 0.04, 20_000), rng.normal(-0.1, 0.07, 20_000))
    fit = pp.private_platt(u, y, 0.001, rng=rng)
    assert fit.moved_threshold and fit.platt_offset is not None
    t = -fit.offset / fit.slope
    p = 1 / (1 + np.exp(-(fit.slope * np.array([t - 1e-3, t + 1e-3]) + fit.offset)))
    assert p[0] < 0.5 < p[1]


def test_a_crossing_inside_the_top_group_moves_to_its_edge():
    # Scores packed into two of 16 bins (3,000 rows of 300 features, as the boosted score of
    # a weak high-dimensional fit), 1% positives that the score does not rank, the budget of
    # epsilon = 1 (5% share).  A noisy positive count clamped at 0 gives one group the
    # log-odds -inf; Platt's slope then runs off and its P = 1/2 lands inside the top group's
    # bin.  Measured over these 30 seeds: the crossing moved in 10; Platt's own crossing
    # (platt_offset) predicts 0.84% of the rows positive on average, all of them at random
    # (the majority rate is 99%), the moved one 0.11%.  Since session 20 a fit where no group
    # is positive first tries the two-Gaussian crossing of the cells (gaussian_cut): it takes
    # 17 of these seeds (6 of the 10 group-edge ones), always above every score (no row
    # predicted positive), and group-edge the remaining 4; mean positive rate 0.03%.
    old, new, moved, edges = [], [], 0, 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        u, y = _uninformative(rng, 3000, -0.47, 0.035)
        fit = pp.private_platt(u, y, 0.00119, rng=rng)
        new.append(_positive_rate(fit.slope, fit.offset, u))
        if fit.moved_threshold:
            moved += 1
            old.append(_positive_rate(fit.slope, fit.platt_offset, u))
        else:
            old.append(new[-1])
        if fit.threshold == "group-edge":
            edges += 1
            edge = -fit.offset / fit.slope  # a bin edge of the public grid: -1 + 2k/B
            k = (edge + 1.0) * fit.n_bins / 2.0
            assert abs(k - round(k)) < 1e-9
    assert moved >= 10 and edges >= 2
    assert np.mean(old) > 0.006 and np.mean(new) < 0.002


def test_group_edge_only_moves_a_runaway_crossing_outside_every_group_centre():
    assert hc.group_edge(-0.415, 2, 2, -0.375, clamped=True) == -0.375
    assert hc.group_edge(-0.415, 2, 2, -0.375, clamped=False) is None  # a fit: it stands
    assert hc.group_edge(-0.3, 2, 2, -0.375, clamped=True) is None     # above the top edge
    assert hc.group_edge(-0.415, 1, 2, -0.375, clamped=True) is None   # a group is positive
    assert hc.group_edge(-0.95, 0, 3, 0.5, clamped=True) == -1.0        # every group positive
