r"""The private threshold for small data: exponential mechanisms over public cuts and slopes.

Below :func:`dpboost.private_platt.worthwhile` (``n sqrt(rho) < 100``: fewer than 2,860 rows
at epsilon = 1 with the default 5% share) the score histogram of private Platt scaling is
mostly noise.  Until this module, such fits kept the offset the boosted halfspace carries,
which is the class balance of LB-NxM's measures, not the cut that minimises the error; a well-ranked
classifier could still predict a single class (breast cancer at epsilon = 0.5: ROC AUC 0.95,
accuracy 0.68; digits "8" against the rest at epsilon = 1: AUC 0.89, no positive prediction).
The same budget share buys a threshold and a slope instead:

1. the score of each training row is ``u = x . w / (R ||w||)`` in ``[-1, 1]`` (``w`` is
   private output), as for Platt scaling;
2. the candidate cuts are public: ``0`` and ``+-2^(-k/4)`` for ``k = 0 .. 4 J``, with
   ``2^(-J)`` the power of two at or below ``1 / (8 sqrt(d))`` (the projection of a unit row
   on a random direction is of order ``1 / sqrt(d)``): a quarter-octave grid, scale-free, so
   no range has to be learned.  ``K = 8 J + 3`` candidates (51 at ``d = 31``);
3. the utility of cut ``t`` is the number of training rows it classifies correctly (positive
   when ``u > t``): an integer of sensitivity 1 under replace-one;
4. one cut is drawn with probability proportional to ``exp(eta U(t))``, ``eta = epsilon_0 / 2``:
   the exponential mechanism (McSherry & Talwar 2007), ``epsilon_0``-bounded-range (Durfee &
   Rogers 2019), so ``epsilon_0^2 / 8``-zCDP (Cesar & Rogers 2021, Lemma 3.2):
   :class:`accounting.ExponentialMechanismEvent`.  Of the calibration's budget ``rho`` the
   cut gets ``(1 - SLOPE_SHARE) rho``: ``eta = sqrt(2 (1 - SLOPE_SHARE) rho)``;
5. then a slope ``a`` for the probabilities ``P(y = 1 | u) = sigmoid(a (u - t))``, from the
   public grid ``2^(j/2)``, ``j = 0 .. 2 J + 4`` (17 slopes at ``d = 31``), by a second
   exponential mechanism with ``SLOPE_SHARE = 10%`` of ``rho``.  Its utility is the Brier score
   turned into a gain, ``sum_i 1 - (p_i - y_i)^2``, in which one row moves the sum by at most 1
   (each term lies in ``[0, 1]``); it is counted in integer steps of ``2^-10``, so its
   sensitivity is ``2^10 + 2`` steps (:func:`brier_utilities`).  The Brier score is a proper
   scoring rule, so the draw favours calibrated slopes.  Both ``eta`` are rounded *down* to a
   multiple of ``2^-52``: the two draws never cost more than ``rho`` together (zCDP composes).

**A base measure that does not favour one class.**  The grid reaches ``+-1``, the largest a
score can be, but the scores of ``d`` features mostly lie within a few ``1 / sqrt(d)`` (german
credit, ``d = 71``: every training score inside ``+-0.4``), so about a third of the cuts sit
beyond every score and predict a single class.  Where the ranking is weak the best cut beats
"all negative" by only 0-20 rows, about ``1 / eta``, and a uniform draw then lands on one of
those many equal cuts: on cached small fits (12 seeds, 300 draws each) 33% / 39% of the draws
predicted one class on german credit at epsilon = 1 / 2, where the best cut on the same scores
never did.  So the draw has a public base measure (:func:`cut_weights`): the cuts beyond
``OUTER_SCALE / sqrt(d)`` stay (a score can reach them on data of low intrinsic dimension) but
those of each side together weigh half an inner cut.  Replayed on the same fits, single-class
draws fell to 9% / 5% (german credit at epsilon = 1 / 2), 18% -> 7% and 9% -> 2% (digits "8"
at epsilon = 1 / 2), 14% -> 1% (online shoppers with 1,500 rows at epsilon = 1), 8% -> 0.4% (a9a
with 2,000 rows at epsilon = 0.5) and 28% -> 22% (letter "A" with 2,000 rows, ``d = 17``, at
epsilon = 1); held-out accuracy rose by 1.0 point on breast cancer at epsilon = 0.5 and by
0.1-0.3 on a9a and covtype at epsilon = 0.5, and fell by 0.45 +- 0.24 on german credit at
epsilon = 1 (more positive predictions on a ranking of AUC 0.66).  The price is paid where the
best cut lies beyond ``1.5 / sqrt(d)`` on a small budget: scores of low intrinsic dimension
with a rare positive class at the top (breast cancer with its positives subsampled to 10%,
about 300 training rows, at epsilon = 2: single-class draws 89% -> 98%, accuracy -0.3 point;
the synthetic case in the tests).  Removing the outer cuts altogether measured the same on the
benchmark tasks; keeping a cut every octave out there, or a boundary at ``2 / sqrt(d)``, left
twice as many single-class draws; a prior decaying as ``|t|^-2`` beyond the boundary fell in
between.

**Exact sampling.**  A floating-point exponential mechanism leaks through its rounding as the
floating-point Gaussian does (Ilvento 2020).  The draw here is exact: a uniform candidate ``k``
(an exact integer) is accepted with probability ``exp(-eta (max U - U_k))``, a Bernoulli of a
rational exponent drawn exactly by Canonne, Kamath & Steinke (2020, Algorithm 1); rejection
sampling returns ``k`` with probability exactly proportional to ``exp(eta U_k)``.  The utilities
are integers (counts, and the Brier gain in steps of ``2^-10``); each row's score and Brier term
are functions of that row and of public values only, so the sensitivities hold whatever the
floating-point rounding of ``u``.

**Why not a larger grid, or a noisy accuracy curve.**  The mechanism's loss grows with
``ln K / eta`` only, against the square root of the number of histogram cells an accuracy
curve from noisy counts adds up.  Replayed on cached small fits (6 seeds, held-out accuracy,
the same 5% share): breast cancer at epsilon = 0.5 / 1 / 2 0.684 / 0.871 / 0.931 (kept offset)
-> 0.766 / 0.911 / 0.936; digits "8" at epsilon = 2 0.922 -> 0.939; german credit at
epsilon = 2 0.665 -> 0.694.  A finer grid (down to ``2^-16``) lost 3 points on breast cancer at
epsilon = 0.5 (the many cuts near 0 pull the draw to the kept offset); an equal-width grid of 65
cuts on ``[-1, 1]`` predicted a single class in more draws (54% against 42%).

**Why a private slope.**  Without it ``predict_proba`` is the logistic of the raw score, which
is of order ``1 / sqrt(d)``: every probability near 1/2 and a Brier score of about 0.245 on
breast cancer and 0.23 on digits whatever the ranking.  Replayed (6 seeds x 30 draws, epsilon
= 0.5 / 1 / 2), the slope's 10% took Brier scores to 0.206 / 0.096 / 0.077 (breast cancer),
0.099 / 0.086 / 0.053 (digits) and 0.256 / 0.241 / 0.226 (german credit, whose ranking is
weak: no better than the flat 0.25 at epsilon = 0.5), while the cut's accuracy moved by less
than 0.4 point.  Slopes up to 2^12 made german credit overconfident (0.265 at epsilon = 0.5);
slopes only up to 2^6 cost breast cancer at epsilon = 1-2.  At epsilon = 0.1 on a few hundred
rows the slope's budget cannot tell slopes apart, and the probabilities are overconfident
(benchmark Brier 0.28-0.35 against 0.25 for a flat 1/2); a base measure favouring flat slopes or
the cut 0 was tried and lost more elsewhere (breast cancer at epsilon = 0.5: 0.858 -> 0.751).

**Why the drawn slope is pulled toward a public one.**  At epsilon <= 2 on a few hundred rows
the slope's mechanism can barely tell its 15-19 slopes apart (session 21, german and a 353-row
diabetes table at epsilon = 1: the best slope is drawn with probability 0.08-0.09, a uniform
pick 0.05-0.07, and 29-46% of the draws take a slope at least 4 times the best), so the
probabilities came out flat (slopes 1-1.4: ``p`` about 1/2 for every row) or 0/1 (slope 512)
at random.  The probabilities therefore use ``sqrt(a * 2 sqrt(d))``, which halves the
draw's log-distance to the public slope ``2 sqrt(d)``: post-processing of the released slope (no
cost), the cut and so ``predict``, accuracy and AUC unchanged.  Replayed on the same fits (8
seeds each; docs/utility-measurements.md, session 21) the mean Brier score fell in 19 of 21
small settings at epsilon 0.5-5 (german at epsilon = 1 0.234 -> 0.216, the diabetes table 0.216
-> 0.203, breast cancer at epsilon = 2 0.097 -> 0.082; it rose by 0.002 on the two german
sets at epsilon = 0.5).  The centre ``2 sqrt(d)`` was chosen among ``0.5``, ``1`` and ``2``
times ``sqrt(d)`` on those epsilon = 1-5 rows (``sqrt(d)`` alone cost the well-ranked sets:
breast cancer at epsilon = 5 0.036 -> 0.069).  It is still above the constant base-rate
predictor's Brier score in about half the seeds on german and the diabetes table at epsilon = 1.

References
----------
F. McSherry, K. Talwar. "Mechanism design via differential privacy." FOCS 2007.
D. Durfee, R. Rogers. "Practical differentially private top-k selection with pay-what-you-get
composition." NeurIPS 2019.
M. Cesar, R. Rogers. "Bounding, concentrating, and truncating: unifying privacy loss composition
for data analytics." ALT 2021.
C. Ilvento. "Implementing the exponential mechanism with base-2 differential privacy." CCS 2020.
C. Canonne, G. Kamath, T. Steinke. "The discrete Gaussian for differential privacy."
NeurIPS 2020, Algorithm 1.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.special import expit

from accounting import ComposedEvent, ExponentialMechanismEvent
from dpboost.mechanisms import _bernoulli_exp_neg_scalar, _uniform_below

__all__ = ["OUTER_MASS", "OUTER_SCALE", "SLOPE_SHARE", "ThresholdFit", "brier_utilities",
           "candidate_cuts", "candidate_slopes", "cut_utilities", "cut_weights", "floor_eta",
           "prior_slope",
           "private_threshold", "sample_exponential", "threshold_etas", "threshold_event"]

ETA_GRID = 2 ** 52  # every eta is a multiple of 2^-52, rounded down
SLOPE_SHARE = 0.1  # the slope's share of the budget; the cut gets the rest
PRIOR_SLOPE_FACTOR = 2.0  # the public slope 2 sqrt(d) the probabilities lean on (halfway, in log)
BRIER_GRID = 2 ** 10  # the Brier utility is counted in steps of 2^-10 ...
BRIER_SENSITIVITY = BRIER_GRID + 2  # ... so one row moves it by at most 2^10 + 2 steps
OUTER_SCALE = 1.5  # cuts with |t| > 1.5 / sqrt(d) are the outer cuts ...
OUTER_MASS = 0.5  # ... and each side's outer cuts together weigh half an inner cut


@dataclass(frozen=True)
class ThresholdFit:
    """The released cut and slope of ``u``, the public grid sizes, the two draws'
    ``epsilon_0``, and the public slope the probabilities lean on.

    ``slope`` is the drawn one (on the public grid); the probabilities are
    ``P(y = 1) = sigmoid(probability_slope (u - threshold))`` with ``probability_slope =
    sqrt(slope * prior_slope)``, the geometric mean of the draw and the public
    ``prior_slope = 2 sqrt(d)`` (post-processing; see the module docstring).
    """

    threshold: float
    slope: float
    n_candidates: int
    n_slopes: int
    epsilon: float
    slope_epsilon: float
    prior_slope: float | None = None

    @property
    def probability_slope(self) -> float:
        """``sqrt(slope * prior_slope)`` (``slope`` when no prior slope is set)."""
        return self.slope if self.prior_slope is None else math.sqrt(self.slope
                                                                     * self.prior_slope)


def _grid_exponent(d: int) -> int:
    """``J``: ``2^(-J)`` is the power of two at or below ``1 / (8 sqrt d)``."""
    return max(1, math.ceil(math.log2(8.0 * math.sqrt(max(int(d), 1)))))


def candidate_cuts(d: int) -> np.ndarray:
    """The public cuts: ``0`` and ``+-2^(-k/4)`` down to ``2^(-J)`` at or below ``1/(8 sqrt d)``.

    Examples
    --------
    >>> c = candidate_cuts(31)
    >>> c.size, float(c.min()), float(c.max()), float(c[c > 0].min())
    (51, -1.0, 1.0, 0.015625)
    """
    g = 2.0 ** (-np.arange(4 * _grid_exponent(d) + 1) / 4.0)
    return np.concatenate([-g, [0.0], g[::-1]])


def cut_weights(d: int) -> np.ndarray:
    """The public base measure of the cut draw: integer weights, one per candidate cut.

    A cut with ``|t| <= OUTER_SCALE / sqrt(d)`` (an *inner* cut) weighs ``2 m``, each of the
    ``m`` outer cuts on either side weighs 1, so the outer cuts of one side together weigh
    ``OUTER_MASS = 1/2`` of one inner cut (all ones when there are no outer cuts).

    Examples
    --------
    >>> w, c = cut_weights(31), candidate_cuts(31)
    >>> int(w.max()), int(w[c > 0.27].sum()), int(w[c == 0][0])
    (16, 8, 16)
    """
    cuts = candidate_cuts(d)
    outer = np.abs(cuts) > OUTER_SCALE / math.sqrt(max(int(d), 1))
    m = int(np.count_nonzero(outer & (cuts > 0)))  # the grid is symmetric
    if m == 0:
        return np.ones(cuts.size, dtype=np.int64)
    inner = round(m / OUTER_MASS)
    return np.where(outer, 1, inner).astype(np.int64)


def candidate_slopes(d: int) -> np.ndarray:
    """The public slopes: ``2^(j/2)`` from 1 to ``2^(J + 2)``, four times the reciprocal of the
    smallest cut (a log-odds of 4 across the finest scale of the scores).

    Examples
    --------
    >>> s = candidate_slopes(31)
    >>> s.size, float(s.min()), float(s.max())
    (17, 1.0, 256.0)
    """
    return 2.0 ** (np.arange(2 * (_grid_exponent(d) + 2) + 1) / 2.0)


def floor_eta(eta: float) -> Fraction:
    """``eta`` rounded down to a multiple of ``2^-52`` (an exact rational, so the exponential
    mechanism's acceptance probabilities are drawn exactly and never cost more than planned)."""
    return Fraction(math.floor(eta * ETA_GRID * (1 - 1e-15)), ETA_GRID)


def threshold_etas(rho: float) -> tuple[Fraction, Fraction]:
    """The two draws' exact ``eta``: the cut's ``sqrt(2 (1 - s) rho)`` per correct row and the
    slope's ``sqrt(2 s rho) / (2^10 + 2)`` per Brier step (``s = SLOPE_SHARE``), each rounded
    down to a multiple of ``2^-52``, so that together they never cost more than ``rho``."""
    return (floor_eta(math.sqrt(2.0 * (1.0 - SLOPE_SHARE) * rho)),
            floor_eta(math.sqrt(2.0 * SLOPE_SHARE * rho) / BRIER_SENSITIVITY))


def threshold_event(rho: float) -> ComposedEvent:
    """The event of :func:`private_threshold` with budget ``rho``: two exponential mechanisms,
    ``epsilon_0 = 2 eta Delta`` each (``Delta`` the utility's sensitivity in its own steps).

    Examples
    --------
    >>> from accounting import ZCDPAccountant
    >>> ev = threshold_event(0.0002)
    >>> ZCDPAccountant().compose(ev).rho <= 0.0002
    True
    """
    cut, slope = threshold_etas(rho)
    return ComposedEvent((ExponentialMechanismEvent(epsilon=epsilon_up(2 * cut)),
                          ExponentialMechanismEvent(epsilon=epsilon_up(2 * slope
                                                                       * BRIER_SENSITIVITY))))


def epsilon_up(exact: Fraction) -> float:
    """The float nearest ``exact`` from above: an event's epsilon_0 is never below what the
    mechanism spends (``float()`` rounds to nearest: ``2 eta Delta`` came out 2^-50 short).

    Examples
    --------
    >>> epsilon_up(Fraction(1, 3)) >= Fraction(1, 3) > float(Fraction(1, 3))
    True
    """
    value = float(exact)
    return math.nextafter(value, math.inf) if Fraction(value) < exact else value


def cut_utilities(u: np.ndarray, y_pm: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Rows each cut classifies correctly (positive when ``u > t``), as int64 counts.

    Examples
    --------
    >>> cut_utilities(np.array([-0.5, 0.1, 0.4]), np.array([-1, -1, 1]), np.array([0.0, 0.2]))
    array([2, 3])
    """
    order = np.argsort(u, kind="stable")
    pos = np.asarray(y_pm)[order] > 0
    below = np.searchsorted(np.asarray(u)[order], cuts, side="right")  # rows with u <= t
    cum_pos = np.concatenate([[0], np.cumsum(pos)])
    cum_neg = np.arange(pos.size + 1) - cum_pos
    return (cum_neg[below] + cum_pos[-1] - cum_pos[below]).astype(np.int64)


def brier_utilities(u: np.ndarray, y_pm: np.ndarray, cut: float,
                    slopes: np.ndarray) -> np.ndarray:
    """``floor(2^10 sum_i (1 - (p_i - y_i)^2))`` per slope, ``p_i = sigmoid(a (u_i - cut))``.

    Each row's term lies in ``[0, 1]`` and depends on that row alone; the sum is correctly
    rounded (``math.fsum``: relative error ``2^-53``), so replacing one row moves it by at most
    1 plus two roundings (below ``2^-11`` for ``n < 2^40``), and the integer by at most
    ``2^10 + 2`` (``BRIER_SENSITIVITY``).

    Examples
    --------
    >>> brier_utilities(np.array([-0.5, 0.5]), np.array([-1, 1]), 0.0, np.array([1.0, 64.0]))
    array([1756, 2048])
    """
    y01 = (np.asarray(y_pm) > 0).astype(np.float64)
    out = []
    for a in slopes:
        p = expit(a * (np.asarray(u, dtype=np.float64) - cut))
        out.append(math.floor(BRIER_GRID * math.fsum(1.0 - (p - y01) ** 2)))
    return np.array(out, dtype=np.int64)


def private_threshold(u: np.ndarray, y_pm: np.ndarray, rho: float, d: int, *,
                      rng: np.random.Generator) -> ThresholdFit:
    """Draw a cut of the scores ``u``, then a slope, by the exponential mechanism: ``rho``-zCDP.

    Parameters
    ----------
    u : ndarray of shape (n,)
        Scores of the training rows (a function of the row and of released values only).
    y_pm : ndarray of shape (n,)
        Labels in ``{-1, +1}``.
    rho : float > 0
        The zCDP budget (see the module docstring; the event is :func:`threshold_event`).
    d : int
        Number of features the scores are computed from (public; sets the grids).
    rng : numpy.random.Generator

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> u = np.r_[rng.normal(-0.1, 0.05, 900), rng.normal(0.1, 0.05, 100)]
    >>> y = np.r_[-np.ones(900), np.ones(100)]
    >>> fit = private_threshold(u, y, 0.005, 31, rng=rng)
    >>> bool(-0.05 < fit.threshold < 0.15), fit.n_candidates, fit.n_slopes
    (True, 51, 17)
    """
    u = np.asarray(u, dtype=np.float64)
    cuts, slopes = candidate_cuts(d), candidate_slopes(d)
    eta_cut, eta_slope = threshold_etas(rho)
    t = float(cuts[sample_exponential(cut_utilities(u, y_pm, cuts), eta_cut, rng=rng,
                                      weights=cut_weights(d))])
    a = float(slopes[sample_exponential(brier_utilities(u, y_pm, t, slopes), eta_slope,
                                        rng=rng)])
    return ThresholdFit(t, a, cuts.size, slopes.size, float(2 * eta_cut),
                        float(2 * eta_slope * BRIER_SENSITIVITY), prior_slope(d))


def prior_slope(d: int) -> float:
    """The public slope ``2 sqrt(d)`` a drawn slope is pulled halfway to, on a log scale.

    >>> prior_slope(16)
    8.0
    """
    return PRIOR_SLOPE_FACTOR * math.sqrt(max(int(d), 1))


def sample_exponential(utility: np.ndarray, eta: Fraction, *, rng: np.random.Generator,
                       weights: np.ndarray | None = None) -> int:
    """An index ``k`` with probability exactly proportional to ``weights_k exp(eta utility_k)``.

    Rejection sampling: ``k`` drawn from the public base measure (uniform when ``weights`` is
    None, else proportional to the positive integer ``weights``, exactly) is accepted with
    probability ``exp(-eta (max utility - utility_k))``, drawn exactly (CKS20 Algorithm 1) since
    ``eta`` is rational and the utilities are integers.  A data-independent base measure leaves
    the privacy of the exponential mechanism unchanged (McSherry & Talwar 2007 define it with
    one): for neighbouring data the log-ratio of the probabilities of ``k`` is
    ``eta (U_k - U'_k)`` plus a constant, so it spans at most ``2 eta Delta`` over ``k``, the
    same ``epsilon_0``-bounded range.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> draws = [sample_exponential(np.array([0, 2]), Fraction(1, 2), rng=rng) for _ in range(4000)]
    >>> bool(abs(np.mean(draws) - 1 / (1 + np.exp(-1))) < 0.03)
    True
    """
    gaps = (int(np.max(utility)) - np.asarray(utility, dtype=np.int64)).tolist()  # exact ints
    cum = None if weights is None else np.cumsum(np.asarray(weights, dtype=np.int64)).tolist()
    if cum is not None and (len(cum) != len(gaps) or min(np.asarray(weights)) < 1):
        raise ValueError("weights must be positive integers, one per utility")
    while True:
        k = (_uniform_below(len(gaps), rng) if cum is None
             else bisect.bisect_right(cum, _uniform_below(cum[-1], rng)))
        if _bernoulli_exp_neg_scalar(eta.numerator * gaps[k], eta.denominator, rng):
            return k
