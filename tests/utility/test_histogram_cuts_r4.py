"""Round-4 mutation gap in dpboost/histogram_cuts.py: the default margin of accuracy_cut."""

from __future__ import annotations

import math

import numpy as np

from dpboost.histogram_cuts import accuracy_cut


def test_accuracy_cut_default_margin_grows_with_the_number_of_groups():
    """The cut maximises gain - z sd with z = sqrt(2 ln G) by default (at least 1): the
    expected maximum of G standard normal noises is at most sqrt(2 ln G), so a gain below that
    many sds is what noise alone produces across G candidate cuts.  Here G = 16 (z = 2.355)
    and the only favourable move (to cut 15) gains 3 with sd sqrt(2 s2 * 1) = 1.414, i.e.
    2.12 sds: at the default it is refused (3 - 3.33 < 0), at z = 1 it is taken."""
    G = 16
    assert 2.12 < math.sqrt(2.0 * math.log(G))
    pos, neg = np.zeros(G), np.full(G, 50.0)
    pos[-1], neg[-1] = 3.0, 0.0
    sizes = np.ones(G, dtype=int)
    assert accuracy_cut(pos, neg, sizes, G, s2=1) == G
    assert accuracy_cut(pos, neg, sizes, G, s2=1, z=1.0) == G - 1


def test_gaussian_cut_refuses_a_crossing_below_the_majority_centre():
    """Noise-free cells of a wide majority N(0, 0.3) (2000 rows) and a narrow minority
    N(0.05, 0.05) (2000 rows): the exact log-odds
    -ln(0.05/0.3) - ((t - 0.05)/0.05)^2 / 2 + (t/0.3)^2 / 2 rises through 0 at t = -0.045,
    below the majority's centre 0, which the rule refuses as a fit of the noise (docstring
    of gaussian_cut: a minority cut below the majority's centre returns None)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    from dpboost.histogram_cuts import gaussian_cut

    def exact(t):
        return -math.log(0.05 / 0.3) - 0.5 * ((t - 0.05) / 0.05) ** 2 + 0.5 * (t / 0.3) ** 2

    assert brentq(exact, -0.2, 0.05) < 0.0  # the rising crossing is below m0 = 0
    edges = np.linspace(-1, 1, 65)
    neg = 2000 * np.diff(norm.cdf(edges, 0.0, 0.3))
    pos = 2000 * np.diff(norm.cdf(edges, 0.05, 0.05))
    assert gaussian_cut(pos, neg, edges, 1) is None


def test_gaussian_cut_refuses_positives_centred_below_the_negatives():
    """Noise-free cells of negatives N(0.1, 0.05) and wider positives N(-0.2, 0.3), 2000 rows
    each: the positives rank below the negatives (m1 < m0), so no cut may predict the top
    scores positive; the log-odds of two Gaussians with s1 > s0 is convex and still rises
    through 0 in the upper tail (at t = 0.2175 here), which gaussian_cut must not return
    ("the positives must rank above the negatives")."""
    from scipy.stats import norm

    from dpboost.histogram_cuts import gaussian_cut

    def exact(t):
        return (-math.log(0.3 / 0.05) - 0.5 * ((t + 0.2) / 0.3) ** 2
                + 0.5 * ((t - 0.1) / 0.05) ** 2)

    assert exact(0.15) < 0.0 < exact(0.3)  # a rising crossing in the upper tail exists
    edges = np.linspace(-1, 1, 65)
    neg = 2000 * np.diff(norm.cdf(edges, 0.1, 0.05))
    pos = 2000 * np.diff(norm.cdf(edges, -0.2, 0.3))
    assert gaussian_cut(pos, neg, edges, 1) is None


def test_gaussian_cut_slope_is_clipped_to_platt_range():
    """Two well separated classes N(-0.3, 0.005) and N(0.3, 0.005), 2000 rows each, on 256
    cells: the crossing is t = 0 and the log-odds' derivative there is
    (t - m0)/s0^2 - (t - m1)/s1^2 = 0.3/0.005^2 * 2 = 24,000, beyond MAX_SLOPE; the returned
    slope is documented as clipped to [MIN_SLOPE, MAX_SLOPE] (a runaway slope makes every
    probability 0 or 1)."""
    from scipy.stats import norm

    from dpboost.histogram_cuts import MAX_SLOPE, gaussian_cut

    edges = np.linspace(-1, 1, 257)
    neg = 2000 * np.diff(norm.cdf(edges, -0.3, 0.005))
    pos = 2000 * np.diff(norm.cdf(edges, 0.3, 0.005))
    t, slope = gaussian_cut(pos, neg, edges, 1)
    assert abs(t) < 1e-6
    assert 0.3 / 0.005**2 * 2 > MAX_SLOPE
    assert slope == MAX_SLOPE


def test_quadratic_cut_returns_the_rising_root_of_a_convex_log_odds():
    """Exact class counts from the log-odds -2 + 4u + 40u^2 (positives at both tails): its
    roots are u = (-4 -+ sqrt(16 + 320)) / 80 = -0.2791 (falling: derivative 4 + 80u < 0) and
    0.1791 (rising).  P = 1/2 with P rising is the upper one (docstring), which the weighted
    maximum-likelihood fit recovers from noise-free counts."""
    from dpboost.histogram_cuts import quadratic_cut

    u = np.linspace(-0.5, 0.5, 21)
    lp = -2.0 + 4.0 * u + 40.0 * u ** 2
    tot = np.full(21, 5000.0)
    pos, neg = tot / (1 + np.exp(-lp)), tot / (1 + np.exp(lp))
    rising = (-4.0 + math.sqrt(16.0 + 320.0)) / 80.0
    t = quadratic_cut(pos, neg, u, -0.5, 0.5)
    assert t is not None and abs(t - rising) < 1e-4
