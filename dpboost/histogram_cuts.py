"""Where ``P = 1/2`` goes: fits and cuts on a released score histogram (post-processing).

:func:`dpboost.private_platt.private_platt` releases one noisy histogram of the training
scores, by class; every function here reads only those released cells (or groups pooled
from them) and public constants, so none spends privacy budget.  Which rule sets the
threshold, and what each was measured to do, is the module docstring of
:mod:`dpboost.private_platt` (steps 3-6): Platt's own fit (:func:`fit_platt`), the crossing
of a quadratic log-odds (:func:`quadratic_cut`), the accuracy cut (:func:`accuracy_cut`), the
group edge (:func:`group_edge`) and the two-Gaussian crossing (:func:`gaussian_cut`) with its
loss guard (:func:`cut_gain_holds`).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["MAX_SLOPE", "MIN_SLOPE", "accuracy_cut", "cut_gain_holds", "fit_platt",
           "gaussian_cut", "group_edge", "quadratic_cut", "slope_through"]

MIN_SLOPE = 1e-3  # Platt's slope on u in [-1, 1]: positive, so the ranking is never reversed
MAX_SLOPE = 1e4


def accuracy_cut(pos: np.ndarray, neg: np.ndarray, sizes: np.ndarray, start: int,
                 s2: int, z: float | None = None) -> int:
    """The group index from which to predict positive: Platt's ``start``, or a better cut.

    Moving the cut from ``start`` to ``k`` changes the noisy training accuracy by
    ``gain = sum (pos - neg)`` over the groups in between (sign by direction); each group's
    ``pos - neg`` carries the noise of ``2 sizes[j]`` cells of variance ``s2``, so the gain has
    standard deviation ``sqrt(2 s2 sum sizes)``.  The cut maximising ``gain - z sd`` is
    returned (``start`` when no cut beats it); ``z`` defaults to ``sqrt(2 ln G)`` for ``G``
    groups (at least 1).  Post-processing of the released counts only.

    Examples
    --------
    >>> pos, neg = np.array([0., 5, 10, 60]), np.array([200., 100, 40, 20])
    >>> accuracy_cut(pos, neg, np.ones(4, int), 4, s2=1)    # Platt predicted no positive
    3
    >>> accuracy_cut(pos, neg, np.ones(4, int), 4, s2=400)  # the same gain is noise here
    4
    """
    diff = np.asarray(pos, dtype=np.float64) - np.asarray(neg, dtype=np.float64)
    if z is None:
        z = max(1.0, math.sqrt(2.0 * math.log(max(diff.size, 1))))
    best, cut = 0.0, int(start)
    for k in range(diff.size + 1):
        lo, hi = min(k, start), max(k, start)
        if lo == hi:
            continue
        gain = diff[lo:hi].sum() * (1.0 if k < start else -1.0)
        score = gain - z * math.sqrt(2.0 * s2 * float(np.sum(sizes[lo:hi])))
        if score > best:
            best, cut = score, k
    return cut


def group_edge(crossing: float, start: int, n_groups: int, top: float, *,
               clamped: bool) -> float | None:
    """Where ``P = 1/2`` moves when a runaway Platt fit puts it inside an outermost group.

    ``start`` groups lie below Platt's crossing (their mass-weighted centres do); ``top`` is the
    upper edge of the highest group's bins; ``clamped`` says that some group's noisy count of
    positives (or of negatives) was clamped at 0, which gives that group the log-odds
    ``-inf`` (or ``+inf``): the maximum-likelihood slope then runs off, and Platt's crossing
    lands inside one bin of the histogram, where the counts resolve nothing.  In that case, when
    no group is positive at its centre (``start == n_groups``) but the crossing lies below
    ``top``, it moves to ``top``; when every group is positive (``start == 0``) it moves to
    ``-1``, the lower edge of the lowest group.  Otherwise ``None`` (Platt's crossing stands:
    without a clamped count, a crossing between the top centre and the top edge is a fit, and
    moving it lost up to 0.5 point where it was tried).  Measured (3,000 rows, 300 features,
    1% positives, epsilon = 1, seed 0): two groups, slope 135, 5.9% of the rows predicted
    positive with a ranking of ROC AUC 0.52, accuracy 0.921 against the majority rate 0.977.
    Post-processing of the released counts only.

    Examples
    --------
    >>> group_edge(-0.415, 2, 2, -0.375, clamped=True)
    -0.375
    >>> group_edge(-0.415, 2, 2, -0.375, clamped=False) is None
    True
    >>> group_edge(-0.9, 0, 3, 0.5, clamped=True)
    -1.0
    """
    if not clamped:
        return None
    if start == n_groups and crossing < top:
        return float(top)
    if start == 0 and crossing > -1.0:
        return -1.0
    return None


def gaussian_cut(pos: np.ndarray, neg: np.ndarray, edges: np.ndarray,
                 s2: int) -> tuple[float, float] | None:
    """Upper crossing of two Gaussian score densities fitted to the noisy cells, and its slope.

    Each class's cells are modelled as ``n_c`` times the mass of ``N(mu_c, sd_c^2)`` in each bin
    of ``edges`` and fitted to the noisy counts ``pos`` and ``neg`` (all ``B`` cells, neither
    pooled, clamped nor dropped) by least squares weighted by ``1 / (s2 + expected count)``:
    the noise is zero-mean, so an empty cell adds variance but no bias, and the cells of a
    thin upper tail keep their positives (the pooling drops the bins above its last group).
    ``sd_c`` is at least half a bin.  Returns the highest ``t`` where the fitted log-odds
    ``log(n_1 N(t; mu_1, sd_1) / (n_0 N(t; mu_0, sd_0)))`` turns positive on ``[-1, 1]`` and
    its derivative there (clipped to ``[MIN_SLOPE, MAX_SLOPE]``), or ``None``.
    Post-processing of the released counts only.

    Examples
    --------
    >>> from scipy.stats import norm
    >>> edges = np.linspace(-1, 1, 65)
    >>> neg = 20000 * np.diff(norm.cdf(edges, -0.2, 0.1))
    >>> pos = 300 * np.diff(norm.cdf(edges, 0.1, 0.05))
    >>> t, a = gaussian_cut(pos, neg, edges, 1)
    >>> bool(0.0 < t < 0.1), bool(a > 10)
    (True, True)
    """
    from scipy.optimize import brentq, least_squares
    from scipy.stats import norm

    pos, neg, edges = (np.asarray(x, dtype=np.float64) for x in (pos, neg, edges))
    width = float(edges[1] - edges[0])
    centres = 0.5 * (edges[:-1] + edges[1:])

    def expected(p):
        return (math.exp(p[0]) * np.diff(norm.cdf(edges, p[1], math.exp(p[2]))),
                math.exp(p[3]) * np.diff(norm.cdf(edges, p[4], math.exp(p[5]))))

    def residuals(p):
        e1, e0 = expected(p)
        return np.r_[(pos - e1) / np.sqrt(s2 + e1), (neg - e0) / np.sqrt(s2 + e0)]

    big = math.log(10.0 * float(np.abs(pos).sum() + np.abs(neg).sum()) + 10.0)
    lo = np.array([0.0, -1.0, math.log(width / 2), 0.0, -1.0, math.log(width / 2)])
    hi = np.array([big, 1.0, math.log(2.0), big, 1.0, math.log(2.0)])
    j0 = int(np.argmax(np.convolve(neg, np.ones(3), "same")))  # the negatives' mode
    j1 = int(np.argmax(np.convolve(pos, np.ones(3), "same")))
    best = None
    for m1 in sorted({float(centres[j1]), float(centres[j0] + 4 * width),
                      float(centres[j0] + 16 * width)}):
        start = np.clip([math.log(max(pos.sum(), 10.0)), m1, math.log(4 * width),
                         math.log(max(neg.sum(), 1.0)), centres[j0], math.log(8 * width)],
                        lo + 1e-9, hi - 1e-9)
        res = least_squares(residuals, start, bounds=(lo, hi))
        if best is None or res.cost < best.cost:
            best = res
    n1, m1, s1, n0, m0, s0 = (float(x) for x in best.x)
    s1, s0 = math.exp(s1), math.exp(s0)

    def log_odds(t):
        return (n1 - n0 - math.log(s1 / s0) - 0.5 * ((t - m1) / s1) ** 2
                + 0.5 * ((t - m0) / s0) ** 2)

    if not m1 > m0:  # the positives must rank above the negatives
        return None
    grid = np.linspace(-1.0, 1.0, 4 * centres.size + 1)
    values = np.array([log_odds(t) for t in grid])
    rising = np.flatnonzero((values[:-1] <= 0) & (values[1:] > 0))
    if rising.size == 0:
        return None
    t = brentq(log_odds, grid[rising[-1]], grid[rising[-1] + 1])
    if not t > m0:  # a minority cut below the majority's centre: a fit of the noise
        return None
    slope = (t - m0) / s0 ** 2 - (t - m1) / s1 ** 2
    return float(t), min(max(float(slope), MIN_SLOPE), MAX_SLOPE)


def cut_gain_holds(pos: np.ndarray, neg: np.ndarray, edges: np.ndarray, s2: int, t: float,
                   ref: float, z: float) -> bool:
    """Whether moving ``P = 1/2`` from ``ref`` to ``t`` changes the noisy training accuracy by
    more than ``z`` standard deviations of its noise (``z < 0``: loses at most ``-z``).

    The cells whose centres lie between the two cuts change side: moved down (``t < ref``)
    they are predicted positive, and the noisy accuracy changes by ``sum (pos - neg)`` over
    them (``sum (neg - pos)`` moved up); each cell pair carries noise of variance ``2 s2``.
    Post-processing of the released counts only.

    Examples
    --------
    >>> edges = np.linspace(-1, 1, 5)                 # cells centred at -0.75 ... 0.75
    >>> pos, neg = np.array([0, 0, 10, 30]), np.array([900, 80, 40, 5])
    >>> cut_gain_holds(pos, neg, edges, 1, 0.6, 1.0, 0.0)     # the top cell: +25
    True
    >>> cut_gain_holds(pos, neg, edges, 1, 0.1, 1.0, 0.0)     # two cells: -5
    False
    >>> cut_gain_holds(pos, neg, edges, 16, 0.1, 1.0, -1.0)   # -5 > -1 sd (sd = 8)
    True
    """
    centres = 0.5 * (edges[:-1] + edges[1:])
    inside = (centres >= min(t, ref)) & (centres < max(t, ref))
    diff = np.asarray(pos, dtype=np.float64)[inside] - np.asarray(neg, dtype=np.float64)[inside]
    gain = float(diff.sum()) * (1.0 if t < ref else -1.0)
    return gain > z * math.sqrt(2.0 * s2 * int(inside.sum()))


def _nll(pos: np.ndarray, neg: np.ndarray, t: np.ndarray) -> float:
    """Weighted logistic negative log-likelihood of the log-odds ``t`` per group."""
    return float(np.sum(pos * np.logaddexp(0.0, -t) + neg * np.logaddexp(0.0, t)))


def _residual(pos: np.ndarray, neg: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``d _nll / d t`` per group: expected minus observed positives (no overflow)."""
    from scipy.special import expit

    return (pos + neg) * expit(t) - pos


def quadratic_cut(pos: np.ndarray, neg: np.ndarray, u: np.ndarray, lo: float,
                  hi: float) -> float | None:
    """Upward crossing of a quadratic log-odds fitted to the groups, if it lies in ``(lo, hi]``.

    Fits ``P(y = 1 | u) = sigmoid(b + a v + c v^2)``, ``v = (u - m) / s`` with ``m, s`` the
    mass-weighted mean and spread of the group centres ``u``, by weighted maximum likelihood
    with ``a >= MIN_SLOPE`` (rising at the bulk).  This is the log-odds of two Gaussian
    classes of unequal variances.  Returns the root where the log-odds turns from negative to
    positive (``P = 1/2`` with ``P`` rising), or ``None`` when there is none in ``(lo, hi]``.
    Post-processing of the released counts only.

    Examples
    --------
    >>> u = np.linspace(-0.5, 0.3, 17)
    >>> lp = -3.0 + 20.0 * (u + 0.1) ** 2 * (u > -0.1) + 8.0 * (u + 0.1)  # a rising, bent tail
    >>> tot = np.full(17, 2000.0)
    >>> t = quadratic_cut(tot / (1 + np.exp(-lp)), tot / (1 + np.exp(lp)), u, -0.5, 0.35)
    >>> bool(0.0 < t < 0.3)
    True
    """
    from scipy.optimize import minimize

    pos, neg, u = (np.asarray(x, dtype=np.float64) for x in (pos, neg, u))
    w = pos + neg
    if not w.sum() > 0:
        return None
    m = float(np.average(u, weights=w))
    s = float(np.sqrt(np.average((u - m) ** 2, weights=w)))
    if not s > 0:
        return None
    v = (u - m) / s

    def loss(p):
        return _nll(pos, neg, p[0] * v + p[1] * v * v + p[2])

    def grad(p):
        r = _residual(pos, neg, p[0] * v + p[1] * v * v + p[2])
        return np.array([np.sum(r * v), np.sum(r * v * v), np.sum(r)])

    prior = math.log((pos.sum() + 1.0) / (neg.sum() + 1.0))
    res = minimize(loss, np.array([1.0, 0.0, prior]), jac=grad, method="L-BFGS-B",
                   bounds=[(MIN_SLOPE, None), (None, None), (None, None)])
    a, c, b = (float(x) for x in res.x)
    if abs(c) < 1e-12:
        roots = [-b / a]
    else:
        disc = a * a - 4.0 * c * b
        if disc < 0:
            return None
        r = math.sqrt(disc)
        roots = [(-a - r) / (2.0 * c), (-a + r) / (2.0 * c)]
    vlo, vhi = (lo - m) / s, (hi - m) / s
    rising = sorted(x for x in roots if a + 2.0 * c * x > 0 and vlo < x <= vhi)
    return m + s * rising[0] if rising else None


def slope_through(pos: np.ndarray, neg: np.ndarray, u: np.ndarray, t: float) -> float:
    """Maximum-likelihood slope of ``sigmoid(a (u - t))``: Platt's model with ``P(t) = 1/2``."""
    from scipy.optimize import minimize_scalar

    res = minimize_scalar(lambda a: _nll(pos, neg, a * (u - t)), bounds=(MIN_SLOPE, MAX_SLOPE),
                          method="bounded")
    return max(float(res.x), MIN_SLOPE)


def fit_platt(pos: np.ndarray, neg: np.ndarray, u: np.ndarray) -> tuple[float, float]:
    """Weighted maximum likelihood of ``sigmoid(a u + b)`` subject to ``a >= MIN_SLOPE``.

    The slope is kept positive: calibration maps the boosted score monotonically and never
    reverses the ranking the rounds learned.  Unconstrained, a noisy histogram of a weak,
    imbalanced task can give ``a < 0``: on letter "H" against the rest (3.7% positive,
    epsilon = 1) that turned a held-out ROC AUC of 0.74 into 0.24.  At the bound the
    probabilities are nearly constant (the base rate) and the order of the scores is kept.
    """
    from scipy.optimize import minimize

    def loss(p):
        return _nll(pos, neg, p[0] * u + p[1])

    def grad(p):
        r = _residual(pos, neg, p[0] * u + p[1])
        return np.array([np.sum(r * u), np.sum(r)])

    prior = math.log((pos.sum() + 1.0) / (neg.sum() + 1.0))
    res = minimize(loss, np.array([1.0, prior]), jac=grad, method="L-BFGS-B",
                   bounds=[(MIN_SLOPE, None), (None, None)])
    return max(float(res.x[0]), MIN_SLOPE), float(res.x[1])
