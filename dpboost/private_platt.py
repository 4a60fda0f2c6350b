r"""Private Platt scaling: an intercept and calibrated probabilities from a noisy score histogram.

The boosted halfspace ``w = mean_t z_hat_t`` has no intercept of its own: the offset is whatever
the constant coordinate of the centres averages to, i.e. the class balance of the measures
LB-NxM produced, not the offset that minimises the error.  **That is the root cause of the
lambda fragility:** with ``lambda = 20`` the measures swing onto the hard (minority-heavy)
examples, the averaged offset says "positive", and the classifier predicts 38% positives on
a9a (24% true) with accuracy 0.79, while its ROC AUC is unchanged (0.8995 vs 0.8992 at
``lambda = 5``, epsilon = 1, 3 seeds): the *direction* is right, only the *threshold* is wrong.
With the best threshold the same ``w`` reaches 0.850.  The same misplaced threshold makes
well-ranked classifiers predict a single class on imbalanced data.

This module learns the threshold, and calibrated probabilities, privately (the release is
here; the fits and cuts of steps 3-6, which read only the released cells, are in
:mod:`dpboost.histogram_cuts`):

1. the score of each training row is ``u = x . w / (R ||w||)`` in ``[-1, 1]`` (``w`` is
   already private output);
2. ``u`` is binned on the public grid of ``B`` equal bins of ``[-1, 1]``, one count per
   (bin, label); replacing one row moves one unit from one cell to another, an integer query of
   L2 sensitivity ``sqrt 2``, and discrete Gaussian noise ``N_Z(0, s^2)`` with
   ``s^2 >= 1 / rho`` on each of the ``2B`` cells is ``rho``-zCDP (Canonne, Kamath & Steinke
   2020, Theorem 14): :class:`accounting.DiscreteGaussianEvent` with noise multiplier
   ``s / sqrt 2``.  The output is integers only;
3. post-processing: adjacent bins are pooled until a group's noisy total exceeds three standard
   deviations of its noise (so that empty bins do not add spurious mass), and Platt's model
   ``P(y = 1 | u) = 1 / (1 + exp(-(a u + b)))`` is fitted to the groups by weighted maximum
   likelihood (Platt 1999);
4. post-processing: the threshold.  Platt's two-parameter model is fitted mostly by the bulk of
   the scores, and on imbalanced data it is too flat in the upper tail: its 0.5 point sits above
   scores where positives already outnumber negatives, so a well-ranked classifier predicts a
   single class.  **Root cause:** the log-odds is not linear in ``u`` when the two classes'
   scores spread differently (two Gaussians of unequal variances give a *quadratic* log-odds),
   and a minority class concentrated in a narrow upper tail is exactly that case.  So a
   quadratic log-odds ``b + a v + c v^2`` (``v`` the standardised score) is fitted to the same
   groups by weighted maximum likelihood (:func:`quadratic_cut`), and ``P = 1/2`` moves to its
   upward crossing when that crossing lies on the data (between the lowest group and one bin
   above the highest); Platt's slope is then refitted with ``P = 1/2`` pinned there, so
   ``predict_proba`` stays consistent with ``predict``.  A parametric fit uses every group, so
   it is far less noisy than comparing tail counts; it needs ``MIN_QUADRATIC_GROUPS = 6``
   groups.  Otherwise (small data, or no crossing on the data) the cut between groups that
   maximises the *noisy* training accuracy moves the threshold only when its gain over
   Platt's cut exceeds ``sqrt(2 ln G)`` standard deviations of its noise
   (:func:`accuracy_cut`).  Measured on the cached fits of ``benchmarks/bench_imbalance.py``
   and ``bench_utility.py`` (3 seeds, 12 for the small tasks; held-out accuracy, gated cut
   alone -> quadratic crossing first): 25 letters against the rest at epsilon 0.5 / 1 / 2 / 5
   0.9659 / 0.9656 / 0.9700 / 0.9738 -> 0.9683 / 0.9693 / 0.9717 / 0.9733, seeds predicting a
   single class 41 / 48 / 16 / 7 -> 23 / 12 / 8 / 3 of 75 (a non-private best cut on the same
   scores: 18 / 13 / 8 / 8), Brier score lower at every epsilon (0.0344 -> 0.0273 at
   epsilon = 1); letter "A" at epsilon = 1 0.9891 -> 0.9914; covtype at epsilon = 0.5
   0.7405 -> 0.7438; a9a with 10% positives at epsilon = 1 0.9111 -> 0.9153; a9a, a9a with 1%
   / 2% / 5% positives, online-shoppers, german credit, breast cancer and digits within
   0.05 point.  Without the "on the data" condition an extrapolated crossing cost a9a with 1%
   positives 0.37 point at epsilon = 1; below 6 groups the quadratic overfits (breast cancer
   at epsilon = 5, 8 bins: 0.935 -> 0.923).  Last, a runaway Platt fit is kept on the
   histogram's resolution (:func:`group_edge`): when a group's noisy count was clamped at 0
   and Platt's ``P = 1/2`` falls inside the top group's bins although no group is positive at
   its centre, it moves to that group's upper edge (symmetrically to ``-1``).  Measured on
   synthetic tasks that use the histogram with few groups (3,000 and 6,000 rows, 5 to 300
   features, 1% to 50% positives, epsilon 0.5 / 1 / 2, 4 seeds; 100 settings): it changed 9,
   mean held-out accuracy 0.87872 -> 0.87897 and Brier score 0.09154 -> 0.09136; 1% positives
   with 100 and 300 features rose 0.9 and 1.6 points (they had fallen below the majority
   rate), the largest loss was 0.05 point.  On the benchmark tasks (a9a, covtype, letter "A",
   online shoppers) it never triggered.
5. post-processing: a rare class the pooling lost.  ``_pool`` drops the bins above its last
   group, and on a rare, well-ranked class those hold most positives (50,000 rows, 1%
   positives, epsilon = 1: 416 of about 500 training positives in 72 dropped bins, whose
   noise of standard deviation ``29 sqrt(72)`` per class keeps them below the pooling's bar);
   the groups left show no positive majority anywhere and Platt's ``P = 1/2`` lies above every
   score.  So when no group is positive and the accuracy cut did not move, two Gaussian score
   densities are fitted to all ``2B`` noisy cells (:func:`gaussian_cut`: weighted least
   squares, no clamping, so the zero-mean noise adds variance but no bias) and ``P = 1/2``
   moves to their upper crossing when it lies above the negatives' centre (the report's
   threshold ``"gaussian"``), and Platt's slope is refitted through it.  Measured by
   replaying the same fits (4 seeds, held-out accuracy / balanced accuracy / Brier, before
   -> after): make_classification with 20 features and 1% positives, 50,000 rows,
   epsilon = 1: 0.9921 / 0.593 / 0.0072 -> 0.9945 / 0.738 / 0.0053,
   seeds predicting a single class 2 -> 1; 2% at epsilon = 0.5: 0.9836 / 0.569 -> 0.9887 /
   0.729; 10 features, 5%, 10,000 rows, epsilon = 0.5: 0.9645 / 0.663 -> 0.9824 / 0.849; over
   the 10 failing settings of that trial single-class seeds 17 -> 7 of 40, and accuracy,
   balanced accuracy and Brier score worse in none.  The 26 letters against the rest (epsilon
   0.5 / 1 / 2, 312 fits): 23 changed, mean accuracy 0.97028 -> 0.97074, single-class fits
   51 -> 37, largest loss 2.1 points (letter "F", epsilon = 0.5, one seed), largest gain 2.5;
   a9a, covtype, online shoppers, balanced synthetic tasks unchanged, a9a with 1% / 2% / 5%
   positives within 0.03 point.  Its guards: the fitted positives must rank above the
   negatives and the crossing lie above the negatives' centre (without them a noise spike
   fitted below the bulk predicted almost every row positive in one seed of a9a with 1%
   positives, epsilon = 1); and the noisy cells above the crossing must not lose accuracy by
   more than ``GAUSSIAN_LOSS_SD = 1`` standard deviation of their noise
   (:func:`cut_gain_holds`; session 30).  Without the last guard a weak, rare class whose
   negatives have a heavier upper tail than one Gaussian got a crossing in that tail: on
   statsmodels' RAND health-insurance table (15,142 training rows, 9 features, 3 seeds),
   "10 or more doctor visits" (5.7% positives) scored 0.9323 / 0.9343 at epsilon = 2 / 4
   against the majority rate 0.9427, and "20 or more" (1.2%) 0.9575 at epsilon = 4 against
   0.9885; with it 0.9425 / 0.9424 and 0.9882.  Replayed on the same fits (same seeds): of
   60 fits on that table and the affairs table, 6 changed, none for the worse (+2.45 points on
   average); of 72 synthetic fits (``benchmarks/bench_synthetic.py``'s tasks, 10,000 and
   50,000 rows, 10 and 20 features, 1 / 2 / 5% positives, epsilon 0.5 / 1 / 2) 1 changed
   (+0.04 point); the 26 letters against the rest (epsilon 0.5 / 1 / 2, 2 seeds) and a9a
   with 1-10% positives unchanged.  Gating at zero loss (``z = 0``) changed 11 of the 72
   synthetic fits, +0.006 point on average, and 10 more of them predicted a single class.
6. post-processing: which class is the positive one.  Steps 3-5 look for a rare class in the
   *upper* tail of the scores; as the negative class (a schema's first class; in Python the
   first in sorted order), the rare class is in the lower tail, and fits predicted only the
   majority far more often.
   So when the noisy cells hold more positives than negatives in all, steps 3-5 run on the
   mirrored cells (the classes swapped, bin ``j`` read as bin ``B - 1 - j``: the scores
   ``-u``) and the fit is mirrored back, ``1 - sigmoid(a (-u) + b) = sigmoid(a u - b)``
   (:meth:`PlattFit.mirrored`; the report's ``"mirrored_classes"``).  Measured with
   ``benchmarks/bench_class_order.py`` (session 31: ``bench_synthetic.py``'s tasks at 3,000
   to 50,000 rows, 10 and 40 features, 1 / 5 / 30% positives, and 10 letters against the
   rest; epsilon 0.5 / 1 / 2, 2 seeds, 168 fits): declared as the negative class, the rare
   class scored 0.94799 on average with 84 fits predicting a single class, against 0.95339
   and 33 when declared positive; mirrored, 0.95232 and 28.  Letters at epsilon 0.5: 0.9620
   -> 0.9690 (declared positive 0.9705).  The 30% tasks moved both ways (-0.02 point on
   average).  Fits with fewer positives than negatives (every task of
   ``bench_utility.py``) are unchanged; with those tasks' labels flipped (3 seeds, epsilon
   0.5 / 1 / 2 / 5) a9a 0.8487 -> 0.8490, covtype 0.7496 -> 0.7515, shoppers 0.8891 ->
   0.8901, german credit unchanged on average (-3.6 to +2.8 points on 250 test rows).

The estimator's ``decision_function`` is then ``a u + b`` (the log-odds), ``predict`` thresholds
it at 0, and ``predict_proba`` is its logistic: calibrated from private quantities only.

References
----------
J. Platt. "Probabilistic outputs for support vector machines and comparisons to regularized
likelihood methods." Advances in Large Margin Classifiers, 1999.
C. Canonne, G. Kamath, T. Steinke. "The Discrete Gaussian for Differential Privacy."
NeurIPS 2020, Theorem 14.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from accounting import DiscreteGaussianEvent
from dpboost.histogram_cuts import (accuracy_cut, cut_gain_holds, fit_platt, gaussian_cut,
                                    group_edge, quadratic_cut, slope_through)
from dpboost.mechanisms import lattice_variance, sample_discrete_gaussian

__all__ = ["PlattFit", "histogram_auc", "n_bins", "private_platt", "score_histogram_event",
           "worthwhile"]

MIN_BINS = 8
MIN_SIGNAL = 100  # n sqrt(rho) below which the private cut replaces the histogram
MAX_BINS = 128
MIN_QUADRATIC_GROUPS = 6
#: The Gaussian crossing is kept unless the noisy cells above it lose accuracy by more than
#: this many standard deviations of their noise (:func:`cut_gain_holds`; module docstring, 5).
GAUSSIAN_LOSS_SD = 1.0
#: Fit the cells mirrored when their noisy positive total exceeds the negative one (module
#: docstring, 6); ``benchmarks/bench_class_order.py`` turns it off to replay the old rule.
MIRROR_POSITIVE_MAJORITY = True


@dataclass(frozen=True)
class PlattFit:
    """Result of :func:`private_platt`: ``P(y = 1 | u) = sigmoid(slope u + offset)``.

    ``n_bins`` bins on ``[-1, 1]`` were released, pooled into ``n_groups`` groups.
    ``threshold`` says where ``P = 1/2`` comes from: ``"platt"`` (Platt's own fit),
    ``"quadratic"`` (the crossing of the quadratic log-odds, :func:`quadratic_cut`, with the
    slope refitted), ``"gaussian"`` (the crossing of two Gaussian score densities fitted to the
    cells when no pooled group is positive, :func:`gaussian_cut`, slope refitted),
    ``"accuracy-cut"`` (:func:`accuracy_cut`) or ``"group-edge"`` (Platt's
    crossing moved to the edge of an outermost group, :func:`group_edge`); when it moved,
    ``platt_offset`` is Platt's own offset.  ``mirrored_classes``: the cells held more
    positives than negatives, so the threshold was found on the mirrored cells (module
    docstring, 6).  ``histogram_auc``: the ROC AUC the noisy cells give the training scores
    (:func:`histogram_auc`, post-processing).
    """

    slope: float
    offset: float
    n_bins: int
    n_groups: int
    noise_variance: int
    threshold: str = "platt"
    platt_offset: float | None = None
    mirrored_classes: bool = False
    histogram_auc: float | None = None

    @property
    def moved_threshold(self) -> bool:
        """Whether ``P = 1/2`` moved away from Platt's own fit."""
        return self.threshold != "platt"

    def mirrored(self) -> PlattFit:
        """The fit for ``u`` and the labels, from a fit to ``-u`` with the classes swapped:
        ``1 - sigmoid(a (-u) + b) = sigmoid(a u - b)`` (module docstring, 6)."""
        platt = None if self.platt_offset is None else -self.platt_offset
        return replace(self, offset=-self.offset, platt_offset=platt,
                       mirrored_classes=not self.mirrored_classes)


def worthwhile(n: int, rho: float) -> bool:
    """Whether the histogram beats the private cut: ``n sqrt(rho) >= MIN_SIGNAL = 100`` (public).

    Below it (``n < 2,860`` at epsilon = 1 with the default 5% share) ``calibration="auto"``
    spends the share on a private cut and slope of the score instead
    (:mod:`dpboost.private_threshold`).  The crossover was measured with both on the same fits
    (4 seeds, held-out accuracy / Brier score, histogram -> cut): at ``n sqrt(rho) = 65``
    (breast cancer, epsilon = 5) 0.940 / 0.055 -> 0.961 / 0.052; at 89 (digits "8",
    epsilon = 2) 0.926 / 0.063 -> 0.940 / 0.050; at 114 (german credit, epsilon = 5)
    0.715 / 0.192 -> 0.706 / 0.204; at 130 (a9a, epsilon = 0.1) 0.823 / 0.123 ->
    0.817 / 0.130; at 169 (online shoppers, epsilon = 0.5) 0.884 / 0.083 -> 0.883 / 0.094.
    Above it the histogram's fits use every bin and also give calibrated probabilities.

    Examples
    --------
    >>> worthwhile(30000, 0.0012), worthwhile(2000, 0.0012)
    (True, False)
    """
    return n * math.sqrt(rho) >= MIN_SIGNAL


def n_bins(n: int, rho: float) -> int:
    """Bins of the score histogram: a power of two, ``n sqrt(rho) / 8`` clipped to [8, 128].

    With about ``n / B`` rows per bin and noise of order ``1 / sqrt(rho)`` per cell, this keeps
    the bins that hold data well above the noise.  Public: ``n`` and ``rho`` only.

    Examples
    --------
    >>> n_bins(30000, 0.0012), n_bins(500, 0.0012)
    (128, 8)
    """
    raw = n * math.sqrt(rho) / 8.0
    return int(2 ** round(math.log2(min(MAX_BINS, max(MIN_BINS, raw)))))


def _noise(rho: float) -> tuple[int, float]:
    """Integer variance ``s^2 >= 1 / rho`` and the event's noise multiplier ``s / sqrt 2``."""
    t, m = lattice_variance(math.sqrt(1.0 / rho))
    return t * m, math.sqrt(t * m / 2.0)


def score_histogram_event(rho: float) -> DiscreteGaussianEvent:
    """The event of :func:`private_platt` with budget ``rho`` (public: known before any data)."""
    return DiscreteGaussianEvent(noise_multiplier=_noise(rho)[1])


def _pool(pos: np.ndarray, neg: np.ndarray, centres: np.ndarray, s2: int, *,
          with_sizes: bool = False):
    """Pool adjacent bins until a group's noisy total exceeds 3 sd of its noise; drop the rest.

    Returns ``(positives, negatives, centres)`` per group, and the number of bins in each group
    with ``with_sizes=True``.
    """
    gp, gn, gc, gk = [], [], [], []
    cp = cn = cw = cm = 0.0
    k = 0
    for j in range(pos.size):
        cp += pos[j]
        cn += neg[j]
        mass = max(pos[j] + neg[j], 0.0)
        cw += centres[j] * mass
        cm += mass
        k += 1
        if cp + cn >= 3.0 * math.sqrt(2.0 * k * s2):
            total = cp + cn
            p = min(max(cp, 0.0), total)
            gp.append(p)
            gn.append(total - p)
            gc.append(cw / cm if cm > 0 else centres[j])
            gk.append(k)
            cp = cn = cw = cm = 0.0
            k = 0
    out = (np.array(gp), np.array(gn), np.clip(np.array(gc), -1.0, 1.0))
    return (*out, np.array(gk, dtype=np.int64)) if with_sizes else out


def private_platt(u: np.ndarray, y_pm: np.ndarray, rho: float, *,
                  rng: np.random.Generator) -> PlattFit:
    """Fit Platt scaling of the scores ``u`` in ``[-1, 1]`` to labels ``y_pm``, ``rho``-zCDP.

    Parameters
    ----------
    u : ndarray of shape (n,)
        Scores of the training rows, each in ``[-1, 1]`` (a function of the row and of
        released quantities only).
    y_pm : ndarray of shape (n,)
        Labels in ``{-1, +1}``.
    rho : float > 0
        The zCDP budget of the release (see the module docstring).
    rng : numpy.random.Generator

    Returns
    -------
    PlattFit
        With fewer than two groups above the noise it falls back to ``slope = 1, offset = 0``
        (the sign of ``u``), which is also private.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> u = rng.uniform(-0.5, 0.5, 20000)
    >>> y = np.where(rng.random(20000) < 1 / (1 + np.exp(-8 * u + 1)), 1, -1)
    >>> fit = private_platt(u, y, 0.01, rng=rng)
    >>> abs(fit.slope - 8) < 1.5, abs(fit.offset + 1) < 0.3
    (True, True)
    """
    n = u.size
    B = n_bins(n, rho)
    s2, _ = _noise(rho)
    edges = np.linspace(-1.0, 1.0, B + 1)
    idx = np.clip(np.searchsorted(edges, np.clip(u, -1.0, 1.0), side="right") - 1, 0, B - 1)
    pos = np.bincount(idx[y_pm > 0], minlength=B).astype(np.int64)
    neg = np.bincount(idx[y_pm <= 0], minlength=B).astype(np.int64)
    pos = pos + sample_discrete_gaussian(s2, B, rng=rng)
    neg = neg + sample_discrete_gaussian(s2, B, rng=rng)
    if MIRROR_POSITIVE_MAJORITY and pos.sum() > neg.sum():  # module docstring, 6
        fit = _fit_cells(neg[::-1], pos[::-1], edges, s2).mirrored()
    else:
        fit = _fit_cells(pos, neg, edges, s2)
    return replace(fit, histogram_auc=histogram_auc(pos, neg))


def histogram_auc(pos: np.ndarray, neg: np.ndarray) -> float | None:
    """The ROC AUC of the scores read from a (noisy) histogram: ``pos[j]``, ``neg[j]`` rows of
    each label in bin ``j`` (bins in increasing score), counts clipped at 0, ties counted half.
    Post-processing of the histogram's release (no budget); None when a label has no count.

    Examples
    --------
    >>> histogram_auc(np.array([0, 1, 3]), np.array([3, 1, 0]))  # = sklearn's roc_auc_score
    0.96875
    >>> histogram_auc(np.array([2, 2]), np.array([2, 2]))
    0.5
    """
    p = np.maximum(np.asarray(pos, dtype=np.float64), 0.0)
    q = np.maximum(np.asarray(neg, dtype=np.float64), 0.0)
    if p.sum() <= 0 or q.sum() <= 0:
        return None
    below = np.concatenate(([0.0], np.cumsum(q)[:-1]))  # negatives in lower bins
    return float((p * (below + 0.5 * q)).sum() / (p.sum() * q.sum()))


def _fit_cells(pos: np.ndarray, neg: np.ndarray, edges: np.ndarray, s2: int) -> PlattFit:
    """Steps 3-5 of the module docstring on the released cells (post-processing)."""
    B = pos.size
    centres = 0.5 * (edges[:-1] + edges[1:])
    gp, gn, gc, gk = _pool(pos.astype(np.float64), neg.astype(np.float64), centres, s2,
                           with_sizes=True)
    if gp.size < 2:
        return PlattFit(1.0, 0.0, B, int(gp.size), s2)
    a, b = fit_platt(gp, gn, gc)  # a >= MIN_SLOPE > 0
    if gp.size >= MIN_QUADRATIC_GROUPS:  # the crossing of a bent log-odds, if on the data
        t = quadratic_cut(gp, gn, gc, float(gc[0]), float(gc[-1]) + 2.0 / B)
        if t is not None:
            a2 = slope_through(gp, gn, gc, t)
            return PlattFit(a2, -a2 * t, B, int(gp.size), s2, threshold="quadratic",
                            platt_offset=b)
    start = int(np.searchsorted(gc, -b / a))  # groups >= start are positive under Platt
    cut = accuracy_cut(gp, gn, gk, start, s2)
    if cut == start == gp.size:  # no group positive: the cells' own two-Gaussian crossing
        crossing = gaussian_cut(pos, neg, edges, s2)
        if crossing is not None and cut_gain_holds(pos, neg, edges, s2, crossing[0], 1.0,
                                                   -GAUSSIAN_LOSS_SD):
            a2 = slope_through(gp, gn, gc, crossing[0])
            return PlattFit(a2, -a2 * crossing[0], B, int(gp.size), s2, threshold="gaussian",
                            platt_offset=b)
    if cut == start:
        edge = group_edge(-b / a, start, gp.size, float(edges[int(gk.sum())]),
                          clamped=bool(np.any(gp <= 0) or np.any(gn <= 0)))
        if edge is not None:
            return PlattFit(a, -a * edge, B, int(gp.size), s2, threshold="group-edge",
                            platt_offset=b)
        return PlattFit(a, b, B, int(gp.size), s2)
    # P = 1/2 between the last negative and the first positive group
    u = (gc[cut - 1] + gc[cut]) / 2.0 if 0 < cut < gp.size else (
        gc[-1] + 1.0 / B if cut == gp.size else gc[0] - 1.0 / B)
    return PlattFit(a, -a * u, B, int(gp.size), s2, threshold="accuracy-cut", platt_offset=b)
