r"""Settings that adapt privately: the budget split, a private class count, kappa and T.

``PrivateHalfspaceClassifier`` (practical mode, ``kappa`` and ``n_rounds`` not given) learns
its density ``kappa`` and its number of rounds ``T`` from the data *privately*, and spends part
of the budget on the private calibration of its scores (:mod:`dpboost.private_platt`).

**Budget split (declared shares of rho).**  The target ``(epsilon, delta)`` is turned into the
largest total ``rho`` whose zCDP-to-DP conversion (CKS20 Prop. 12 / Cor. 13, or Lemma 15) meets
it; every mechanism below is a discrete Gaussian, ``rho`` adds up under adaptive composition
(Bun & Steinke 2016, Lemma 2.3), so the run meets the target exactly when the shares sum to 1:

* ``SHARE_MEAN = 0.03``: the mean of the rows (sensitivity ``2R/n``), the centre of the
  input map (:mod:`dpboost.input_map`: rows ``[(x - m_hat)/2, c_0]``); on small data it takes
  more, from the rounds, up to 0.10 (:func:`dpboost.input_map.mean_rho`: the share whose
  expected noise norm is ``0.2 R``, a public rule on ``n``, ``d`` and ``rho``);
* ``SHARE_COUNT = 0.02``: the count of positive labels (replace-one sensitivity 1);
* ``SHARE_NORMS = 0.02``: the histogram of row norms on a public grid (sensitivity sqrt 2),
  which sets the input scale (see below);
* ``SHARE_CALIBRATION = 0.05``: the histogram of scores by label (sensitivity sqrt 2);
* ``SHARE_WHITENING = 0.05``: the second-moment matrix of the rows (sensitivity sqrt 2 R^2),
  for the shrinkage whitening of the input map (:mod:`dpboost.whitening`), only where ``n`` is
  large enough for it (:func:`dpboost.whitening.worthwhile`); otherwise the rounds keep it;
* the rest (0.83, or more when a step is skipped, or less when the mean takes more): the
  ``T`` boosting rounds.

**A private input scale.**  The noise is calibrated to the bound ``R``, but public-constant
preprocessing (dividing by ``sqrt(d)``) leaves most rows well inside the ball, wasting signal:
on letter the 90th percentile of the row norms is 0.61.  A private histogram of the norms on
the grid ``R 2^{-j/4}`` gives the bin holding the 75th percentile; rows are multiplied by
``s = R / (its upper edge)`` (``s >= 1``) and clipped back to ``R``, and ``s`` is folded into
``coef_`` (so prediction stays linear).  Measured (prototype, 3 seeds, epsilon = 1, then the
90th percentile): letter "A" accuracy 0.964 -> 0.983, breast cancer 0.70 -> 0.79; a9a (all
norms 1) unchanged.  *Which percentile* is a bias-variance trade (clipping a quarter of the
rows shrinks their pull on the centre, the larger ``s`` lifts every other row above the
noise); adaptive clipping in DP learning targets the median (Andrew et al. 2021).  Measured,
75th against 90th percentile, 3 seeds, held-out accuracy (AUC): covtype at epsilon
0.5 / 1 / 2 / 5 0.7440 / 0.7444 / 0.7496 / 0.7490 -> 0.7442 / 0.7481 / 0.7524 / 0.7517;
letter E, H, Q, U, X, Z against the rest, mean AUC 0.868 / 0.887 / 0.899 / 0.906 ->
0.875 / 0.892 / 0.902 / 0.907 (mean accuracy within 0.1 point; +0.2 at epsilon = 1);
digits "8" AUC at epsilon 1 / 2 / 5 0.898 / 0.931 / 0.973 -> 0.904 / 0.948 / 0.975 (0.683 ->
0.667 at 0.5); breast cancer at epsilon 2 0.876 -> 0.925, at epsilon 1 0.913 -> 0.899 (AUC
0.984 -> 0.989); german credit within 0.9 point either way; online-shoppers and letter "A"
within 0.1 point; a9a identical (its norms fall in one bin).  The median gave the same
figures wherever it was measured (epsilon 1 and 5), except breast cancer at epsilon 5
(0.927 -> 0.937); the 75th percentile clips fewer rows where the norms spread more.

**Why kappa follows the minority rate (root cause of the collapse).**  LB-NxM hands the weak
learner a *kappa-dense* measure: entries capped at 1, total ``kappa n``.  If the minority class
holds a fraction ``p < kappa`` of the sample, even a measure that puts the cap 1 on every
minority example gives it at most ``p / kappa`` of the mass, so the centre
``z = sum_i mu_hat(i) y_i x_i`` is dominated by the majority class whatever the hypotheses do:
the weak learner learns "distance from the weighted majority centroid", not the contrast
between the classes, and (Theorem 24) a hypothesis that errs on the whole minority already meets
the ``kappa`` error guarantee.  Measured on letter "A" against the rest (15,000 training rows,
4.1% positive, rows in the unit ball, ``T = 100``, 3 seeds): held-out ROC AUC **0.32** at
``kappa = 0.25`` (worse than chance, at every epsilon from 0.5 to 5, and also non-privately),
**0.975** at ``kappa = 0.1`` and **0.977** at ``kappa = 0.04``.  The rule
``kappa = min(0.25, p_hat)`` with ``p_hat`` the private minority rate removed that failure; it
changes nothing on balanced data (a9a: ``p = 0.24``).

**A class-balanced first measure, and kappa = 2 p_hat.**  A small ``kappa`` is only half of the
fix: LB-NxM's first measure is uniform (every entry ``kappa``, far below the cap 1), so the
centre carries the class contrast ``Delta`` with weight ``2p(1 - p)`` while its noise is
calibrated to a measure that may put the cap on a single row.  The boosting therefore starts
from a *class-balancing prior* (:func:`class_balancing_gain`, passed to
:class:`~dpboost.lazy_breg.LazyBregBoost`): the majority class's rows start with the gain
``ln(r) / lambda``, ``r`` the private majority/minority ratio, so the first measure holds
``kappa n / 2`` on each class.  On centred rows its centre is about ``Delta / 2`` for any
``kappa <= 2p`` while the noise falls as ``1 / kappa``, so the densest balanced measure,
``kappa = 2 p_hat`` (every minority row at the cap), has the best signal-to-noise ratio:
``kappa = min(0.25, 2 p_hat)``.  Measured, 3 seeds, epsilon = 1, held-out ROC AUC (accuracy):
uniform first measure and ``kappa = p_hat`` / balanced and ``kappa = p_hat`` / balanced and
``kappa = 2 p_hat``: a9a with positives subsampled to 5% (26,021 rows) 0.773 / 0.859 / 0.877,
to 2% 0.573 / 0.778 / 0.834 (logistic regression 0.90); online-shoppers (15.5%) 0.885 (0.881) /
0.888 (0.883) / 0.905 (0.894); letter one-vs-rest for A, E, M, Z, Q, H (about 4%), mean AUC
0.901 / 0.902 / 0.911, accuracy never lower with both changes (A 0.991 -> 0.992, M 0.985 ->
0.990).  Balanced data (a9a, covtype) is unchanged.  The prior is used only when the private
calibration sets the threshold: without it, the offset of ``w`` is the measures' class balance,
and a balanced measure predicts the two classes about equally often (german credit at
epsilon = 2, 750 rows: 50% positive predictions and accuracy 0.56, against 0.65 without it).

**A denser measure on small data (SNR floor).**  The noise on the final halfspace is of order
``2R sqrt(d) / (kappa n sqrt(2 rho_T))`` whatever ``T`` (see below), so ``kappa`` is the one
lever on it.  On centred rows (:mod:`dpboost.input_map`) a measure denser than the minority
rate no longer tracks the majority, so ``kappa`` is raised until the public signal-to-noise
ratio ``q`` below reaches 10: ``kappa = max(min(0.25, 2 p_hat), min(0.75, 10 sqrt(d) /
(n sqrt(2 rho_T))))``.  It binds only on small data (breast cancer, 427 rows: 0.62 at
epsilon = 1; digits: 0.28; letter, shoppers, a9a, covtype: never).  Measured, centred rows,
epsilon = 1, 3 seeds (before the balancing prior), held-out ROC AUC with ``kappa = p_hat`` /
with the floor: breast cancer 0.851 / 0.939, digits "8" 0.759 / 0.867, german credit
0.602 / 0.663; letter "A" 0.974 / 0.978.

*Its price on small imbalanced data (session 27).*  Above ``2 p`` the measure cannot be
balanced (each minority row is capped at 1), so the centre's share ``(kappa - 2p) / kappa`` of
majority mass carries the private mean's error ``e = m_hat - m`` (rows ``(x - m_hat) / 2``),
in the same direction every round: averaging the ``T`` rounds does not shrink it.  On 200
breast-cancer rows with 7 positives at epsilon = 2 (``kappa`` 0.74, ``||e||`` 0.32-0.52 R),
``w`` had cosine 0.64-0.97 with ``e`` over 8 seeds and held-out ROC AUC 0.06-0.99, 5 of 8
below 0.3.  Capping ``kappa`` at ``2 p_hat`` was measured and not adopted (12 seeds, epsilon
0.5 / 1 / 2): it cut the fits predicting a single class (digits "8": 12 -> 2 of 12 at 0.5;
400 digits rows 12 -> 7 / 9 / 6; german credit 8 -> 4 at 0.5; 1,500 shoppers rows 10 -> 2 at
0.5) but lowered the mean AUC in 18 of 27 settings (nine tasks of 250-2,000 rows; digits "8" at 1
0.873 -> 0.846, 400 digits rows at 0.5 0.555 -> 0.482, german 0.572 -> 0.565) and raised it
in 2 (digits "8" at 0.5 0.693 -> 0.734, 1,500 shoppers rows at 0.5 0.738 -> 0.746), equal in 7:
the ``1 / kappa`` noise it adds outweighs the bias it removes.

**A denser balanced measure while the noise dominates (q < 100).**  The floor above asks for
``q >= 10``, but ``q`` counts the noise against ``R``, not against the class contrast, which on
real rows is a few tenths of ``R`` (measured on the benchmark's rows: 0.11 on covtype, 0.15 on
german credit, 0.30 on a9a): at ``q = 20`` the noise on ``w`` is still of the order of its
signal.  So while the density ``k_100`` at which ``q = 100`` lies above 0.25, the balanced
``kappa`` rises towards it, up to ``2 p_hat`` (the measure stays class-balanced) and at most
``NOISY_MAX_KAPPA = 0.3``: ``kappa = max(min(0.25, 2 p_hat), min(2 p_hat, 0.3, k_100),
min(0.75, k_10))``.  It binds where balanced data meets a small ``epsilon n``; imbalanced data
(``2 p_hat <= 0.25``: letter, digits) and large ``epsilon n`` (a9a, covtype and online-shoppers
at epsilon >= 1) are unchanged.

*Why only 0.3.*  ``kappa`` is also the share of hard rows the measure can single out: a measure
of density ``kappa`` gives a subset holding a fraction ``f`` of the rows at most ``f / kappa``
of its mass.  On the skewed margin data of ``dpboost demo`` the centroid errs on a 20% minority
that boosting must weigh up, so ``kappa`` has to stay below 0.4: there (12 seeds, d = 20,
held-out accuracy, ``kappa`` capped at 0.25 / 0.3 / 0.4 / 0.5) 1,200 rows at epsilon = 1 gave
0.954 / 0.976 / 0.931 / 0.888 and 3,000 rows at epsilon = 1 0.9998 / 0.9992 / 0.929 / 0.884.
Real data gains more from 0.5, measured (accuracy / ROC AUC, 0.25 -> 0.3 -> 0.5; german credit
and breast cancer 8 seeds, the rest 3-4):

* german credit (750 rows, 30% positive) at epsilon = 5: 0.716 / 0.712 -> 0.724 / 0.741 ->
  0.752 / 0.772;
* covtype at epsilon = 0.1: 0.701 / 0.772 -> 0.707 / 0.781 -> 0.733 / 0.807; covtype with 4,000
  rows at epsilon = 1: 0.617 / 0.672 -> 0.656 / 0.712 -> 0.696 / 0.765;
* a9a with 2,500 rows at epsilon = 1: 0.798 -> 0.814 -> 0.823; a9a with 8,000 rows at
  epsilon = 0.5: 0.820 -> 0.827; online-shoppers at epsilon = 0.5: 0.884 -> 0.887 -> 0.891;
* breast cancer at epsilon = 5: 0.959 -> 0.958 -> 0.953;
* across balances (0.25 -> 0.3; a9a and covtype subsampled to 15%, 30% and 45% positive, 2,000
  and 8,000 rows, epsilon 0.5 / 1 / 2, 4 seeds: 36 settings, 27 of them changed): accuracy
  +0.24 points on average (from -1.0 to +1.7), ROC AUC +0.005 (from -0.015 to +0.035).

The cap is public and cannot see which kind of data it meets, so it protects the margin data
the algorithm is built for (the previous cap, 0.25, already allowed a hard share down to
12.5%) and takes the part of the gain that costs nothing there.  Stopping at ``q = 60``
instead of 100 kept less of the gain (covtype with 4,000 rows at epsilon = 2, 8 seeds, with the
0.5 cap: 0.699 against 0.720).

**Rounds that grow with epsilon n.**  Per round, the noise on the centre has norm about
``sqrt(d) z Delta`` with ``Delta = 2R/(kappa n)`` and ``z = sqrt(T / (2 rho_T))``, while the
noise on the average ``w = mean_t z_hat_t`` does not depend on ``T``.  Rounds help while the
per-round noise stays below the signal, i.e. while ``T`` is at most of the order of
``q = kappa n sqrt(2 rho_T) / sqrt(d)`` (a signal-to-noise ratio, public).  Measured on a9a
subsamples (``n`` = 2,000 / 8,000 / 32,561, epsilon 0.5 / 1 / 5; ``kappa = 0.25``) and on
letter "A" (``kappa = 0.1``, epsilon 0.5 / 1 / 5), 3 seeds, the best ``T`` in
{10, 30, 100, 300, 1000} was within a factor 1.5 of ``2 q`` in 8 of 11 settings and within a
factor 2.1 in all 11 (a9a at epsilon = 5 wants ``T >= 300``, which the time cap allows only
for small ``n d``).  Hence
``T = clip(round(2 q), 30, min(T_max, 300))`` with ``T_max = clip(7.5e8 / (n d), 150, 1000)``
(the 300 below; a fit
took near 2 s at n = 50,000, d = 100, and takes about 1 s since the mapped rows are
column-major; twice that cap moved covtype by -0.15 to +0.06 points and a9a by -0.1 to -0.06
at epsilon = 1 / 2 / 5, 3 seeds, so it stays).  The floor 30 (not 10) protects data with a
strong margin, where rounds pay even at a low signal-to-noise ratio: on the skewed margin data
of ``dpboost demo`` (n = 960, d = 20, epsilon = 1, 12 seeds) T = 29 / 30 / 100 gave 0.965 /
0.988 / 0.994, while on a9a subsamples of 2,000 rows T = 10 / 30 / 100 gave 0.818 / 0.816 /
0.795.

*At most 300 learned rounds (session 39).*  ``2 q`` grows with ``epsilon n / sqrt(d)``, and on
tables with few features it asked for 400-1,000 rounds, where more rounds cost accuracy at any
``epsilon``: a red team's GSS abortion item (27,595 rows, 41% positive) fell from 0.898-0.902
at epsilon = 0.5 (232 rounds) to 0.889-0.892 at epsilon = 2 (696 rounds; logistic regression
0.899).  The noise on ``w`` does not grow with ``T``, so this is the booster: past a few hundred
rounds the measures chase the rows no halfspace separates and the mean centre follows them.
Measured, cap 300 against none, held-out accuracy / ROC AUC in points, mean of seeds 0-2, on
every task and epsilon in {1, 2, 5} where the rule exceeded 300 (57 fits of 19 cells; 17 tasks
tried): GSS +0.35 / +0.71 / +0.97 accuracy at epsilon 1 / 2 / 5; randhie at epsilon 1 (490
rounds) +0.51 / +2.46; fair at 5 -0.21 / +1.21; online-shoppers at 5 -0.05 / +0.39; HI's
insurance at 1 and 2 +0.28 / +0.19 and +0.25 / +0.19; mpls at 1 +0.12 / +0.27; letter "A",
nass, the margin data of ``dpboost demo`` (432 rounds at 5: accuracy 1.0 either way) and the
rest within 0.1; on average +0.16 / +0.28, two fits of 57 lower by more than 0.3 in accuracy
and two in AUC.  Nothing changes where the rule stays at or below 300 (a9a, covtype, tv16,
fert, lend, mpls2 and the small margin task at every epsilon measured).  A cap of 200 gained
more on GSS and randhie but lost 0.1-0.7 AUC on online-shoppers at epsilon = 2 and up to 0.4
accuracy on covtype; multiclass fits keep ``T_max`` (chem97 and DoctorContacts moved either
way by about a point with a cap of 300).

References
----------
Bun, Carmosino & Sorrell (COLT 2020), Theorem 24 (the kappa error guarantee).
Bun & Steinke (2016), Lemma 2.3 (composition of zCDP).
Canonne, Kamath & Steinke (NeurIPS 2020), Theorem 14 and Prop. 12 / Cor. 13.
Andrew, Thakkar, McMahan & Ramaswamy (NeurIPS 2021), "Differentially private learning with
adaptive clipping" (clipping at a quantile of the norms; the median by default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from accounting import (
    ComposedEvent,
    DiscreteGaussianEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    calibrate_noise,
)
from dpboost.mechanisms import lattice_variance, sample_discrete_gaussian

__all__ = [
    "MAX_KAPPA",
    "MAX_LEARNED_ROUNDS",
    "MIN_ROUNDS",
    "NOISY_MAX_KAPPA",
    "NOISY_SNR_TARGET",
    "SHARE_CALIBRATION",
    "SHARE_COUNT",
    "SHARE_MEAN",
    "SHARE_NORMS",
    "SHARE_WHITENING",
    "BudgetSplit",
    "adaptive_kappa",
    "adaptive_rounds",
    "class_balancing_gain",
    "norm_histogram_event",
    "private_count",
    "private_norm_scale",
    "snr_rounds",
    "split_budget",
]

SHARE_COUNT = 0.02
SHARE_NORMS = 0.02
SHARE_CALIBRATION = 0.05
NORM_QUANTILE = 0.75
NORM_BINS = 41  # edges R 2^{-j/4}, j = 0..40 (down to R / 1024), one bin below
MAX_KAPPA = 0.25
BALANCED_KAPPA_FACTOR = 2.0
MAX_SNR_KAPPA = 0.75
SNR_TARGET = 10.0
NOISY_MAX_KAPPA = 0.3
NOISY_SNR_TARGET = 100.0
SHARE_MEAN = 0.03
SHARE_WHITENING = 0.05
MIN_ROUNDS = 30
ROUNDS_PER_SNR = 2.0
#: The most rounds the binary rule learns (module docstring, "Rounds that grow ...").
MAX_LEARNED_ROUNDS = 300


@dataclass(frozen=True)
class BudgetSplit:
    """The total zCDP budget of a run and its declared shares (all public).

    Attributes
    ----------
    rho : float
        Total ``rho`` meeting ``(epsilon, delta)`` by ``method``.
    rho_count, rho_calibration, rho_rounds : float
        The shares (``0.0`` for a step that is skipped); they sum to ``rho``.
    method : str
        The zCDP-to-DP conversion that turned the target into ``rho``.
    """

    rho: float
    rho_count: float
    rho_calibration: float
    rho_rounds: float
    method: str
    rho_norms: float = 0.0
    rho_mean: float = 0.0
    rho_whitening: float = 0.0

    def shares(self) -> dict:
        """``{"count": .., "calibration": .., "rounds": ..}`` as fractions of ``rho``."""
        return {"count": self.rho_count / self.rho,
                "calibration": self.rho_calibration / self.rho,
                "rounds": self.rho_rounds / self.rho}


def norm_histogram_event(rho: float) -> DiscreteGaussianEvent:
    """The row-norm histogram's event: sensitivity sqrt 2, variance ``s^2 >= 1 / rho``."""
    t, m = lattice_variance(math.sqrt(1.0 / rho))
    return DiscreteGaussianEvent(noise_multiplier=math.sqrt(t * m / 2.0))


def private_norm_scale(X: np.ndarray, norm_bound: float, rho: float, *,
                       rng: np.random.Generator) -> float:
    """Input scale ``s >= 1`` mapping the private 75th percentile of the row norms to ``R``.

    Rows must already satisfy ``||x|| <= R``.  Bin ``j`` holds norms in
    ``(R 2^{-(j+1)/4}, R 2^{-j/4}]`` (the last bin everything below ``R / 1024``); replacing
    one row moves one unit between bins, so discrete Gaussian noise with ``s^2 >= 1 / rho`` per
    bin is ``rho``-zCDP (CKS20 Theorem 14).  Scanning from the top, the first bin where the
    noisy cumulative count reaches ``(1 - 0.75) n`` gives the scale ``R / (its upper edge)``.

    Examples
    --------
    >>> X = np.full((5000, 4), 0.1)     # every norm 0.2
    >>> private_norm_scale(X, 1.0, 0.5, rng=np.random.default_rng(0)) >= 4.0
    True
    """
    return norm_scale_from_counts(norm_bin_counts(X, norm_bound), X.shape[0], rho, rng=rng)


def norm_bin_counts(X: np.ndarray, norm_bound: float) -> np.ndarray:
    """The exact (noise-free) row-norm histogram of :func:`private_norm_scale`: ``NORM_BINS``
    integers, additive over any split of the rows (the dask backend sums them per chunk)."""
    norms = np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64)) / norm_bound
    with np.errstate(divide="ignore"):
        j = np.floor(-4.0 * np.log2(np.maximum(norms, 1e-300)))
    j = np.clip(j, 0, NORM_BINS - 1).astype(np.int64)
    return np.bincount(j, minlength=NORM_BINS)


def norm_scale_from_counts(counts: np.ndarray, n: int, rho: float, *,
                           rng: np.random.Generator) -> float:
    """The release of :func:`private_norm_scale` from the exact histogram ``counts`` of ``n``
    rows: the one definition every backend calls (its event is :func:`norm_histogram_event`)."""
    t, m = lattice_variance(math.sqrt(1.0 / rho))
    noisy = np.asarray(counts) + sample_discrete_gaussian(t * m, NORM_BINS, rng=rng)
    reach = np.flatnonzero(np.cumsum(noisy) >= (1.0 - NORM_QUANTILE) * n)
    top = int(reach[0]) if reach.size else 0
    return float(2.0 ** (top / 4.0))


def split_budget(target_epsilon: float, target_delta: float, *, count: bool,
                 calibration: bool, method: str = "best", norms: bool = False,
                 mean: bool = False, whitening: bool = False) -> BudgetSplit:
    """The largest total ``rho`` meeting the target, and its declared shares.

    ``rho = 1 / (2 z^2)`` with ``z`` the smallest noise multiplier of one discrete Gaussian
    meeting ``(target_epsilon, target_delta)`` (:func:`accounting.calibrate_noise`, zCDP
    conversions only).  A mechanism that is ``rho_i``-zCDP for every ``i`` composes to
    ``sum rho_i`` (Bun & Steinke 2016, Lemma 2.3), so shares summing to 1 meet the target.

    Examples
    --------
    >>> b = split_budget(1.0, 1e-6, count=True, calibration=True)
    >>> {k: round(v, 2) for k, v in b.shares().items()}
    {'count': 0.02, 'calibration': 0.05, 'rounds': 0.93}
    """
    cal = calibrate_noise(target_epsilon, target_delta, count=1, method=method,
                          mechanism="discrete_gaussian")
    rho = 0.5 / cal.noise_multiplier**2
    rc = SHARE_COUNT * rho if count else 0.0
    rk = SHARE_CALIBRATION * rho if calibration else 0.0
    rn = SHARE_NORMS * rho if norms else 0.0
    rmean = SHARE_MEAN * rho if mean else 0.0
    rw = SHARE_WHITENING * rho if whitening else 0.0
    return BudgetSplit(rho=rho, rho_count=rc, rho_calibration=rk,
                       rho_rounds=rho - rc - rk - rn - rmean - rw, method=cal.method,
                       rho_norms=rn, rho_mean=rmean, rho_whitening=rw)


def noise_multiplier_for(rho: float, count: int = 1) -> float:
    """``z = sqrt(count / (2 rho))``.

    ``count`` releases of ``DiscreteGaussianEvent(z)`` cost rho."""
    return math.sqrt(count / (2.0 * rho))


def rounds_event(rho_rounds: float, n_rounds: int) -> SelfComposedEvent:
    """The boosting rounds' event.

    ``T`` discrete Gaussian releases costing ``rho_rounds`` in all."""
    return SelfComposedEvent(
        DiscreteGaussianEvent(noise_multiplier_for(rho_rounds, n_rounds)), count=n_rounds)


def conservative(events: list, target_epsilon: float, target_delta: float,
                 method: str) -> bool:
    """Whether the composition of ``events`` meets the target by ``method``.

    Checked, not assumed."""
    acc = ZCDPAccountant()
    for ev in events:
        acc.compose(ev)
    return acc.get_epsilon(target_delta, method=method) <= target_epsilon


def private_count(y_pm: np.ndarray, rho: float, *, rng: np.random.Generator
                  ) -> tuple[int, DiscreteGaussianEvent]:
    """The number of ``+1`` labels plus discrete Gaussian noise (replace-one sensitivity 1).

    ``N_Z(0, s^2)`` with ``s^2 >= 1 / (2 rho)`` is ``rho``-zCDP for a sensitivity-1 integer
    count (CKS20 Theorem 14); the output is an integer, so no floating-point value of the data
    reaches it.

    Examples
    --------
    >>> y = np.array([1, -1, -1, 1, 1])
    >>> c, ev = private_count(y, 0.5, rng=np.random.default_rng(0))
    >>> isinstance(c, int), ev.noise_multiplier >= 1.0
    (True, True)
    """
    t, m = lattice_variance(math.sqrt(0.5 / rho))
    noise = int(sample_discrete_gaussian(t * m, 1, rng=rng)[0])
    exact = int(np.count_nonzero(np.asarray(y_pm) > 0))
    return exact + noise, DiscreteGaussianEvent(noise_multiplier=math.sqrt(t * m))


def class_balancing_gain(noisy_positives: int, n: int, learning_rate: float
                         ) -> tuple[float, float]:
    """``(g_pos, g_neg)``: the majority class starts with gain ``ln(r) / lambda``, the other 0.

    ``r = (1 - p_hat) / p_hat`` (or its inverse) with ``p_hat`` the private positive rate,
    clipped to ``[1/n, 1 - 1/n]``; ``lambda`` the learning rate.  With it the first measure
    ``kappa exp(-lambda L_0)`` puts equal mass on the two classes (before the cap binds);
    post-processing of the private count, so it costs nothing (see the module docstring).

    Examples
    --------
    >>> g = class_balancing_gain(100, 1000, 5.0)          # 10% positive
    >>> g[0], round(g[1], 4), round(math.exp(5.0 * g[1]), 6)
    (0.0, 0.4394, 9.0)
    >>> class_balancing_gain(500, 1000, 5.0)
    (0.0, 0.0)
    """
    if n < 2:  # [1/n, 1 - 1/n] is empty: no balance can be read from one row
        return (0.0, 0.0)
    p = min(max(noisy_positives / n, 1.0 / n), 1.0 - 1.0 / n)
    g = abs(math.log((1.0 - p) / p)) / learning_rate
    return (0.0, float(g)) if p < 0.5 else (float(g), 0.0)


def adaptive_kappa(noisy_positives: int, n: int, d: int | None = None,
                   rho_rounds: float | None = None) -> float:
    """``kappa = max(min(0.25, 2 p_hat), min(2 p_hat, 0.3, 100 k_1), min(0.75, 10 k_1))``.

    ``p_hat`` is the private minority rate (``2 p_hat``: the densest class-balanced measure,
    with the prior of :func:`class_balancing_gain`); ``k_1 = sqrt(d) / (n sqrt(2 rho_T))`` is
    the density at which the public signal-to-noise ratio ``q`` of :func:`adaptive_rounds` is 1,
    so ``10 k_1`` and ``100 k_1`` are where it reaches 10 and 100 (both terms are omitted when
    ``d`` or ``rho_rounds`` is not given).  The noise on the final halfspace scales as
    ``1 / kappa``: while ``q < 100`` the balanced density rises from 0.25 towards ``2 p_hat``
    (at most 0.3, see the module docstring), and below ``q = 10`` even past it (up to 0.75; on
    centred rows, :mod:`dpboost.input_map`, ``kappa`` above the minority rate no longer
    collapses).  Always ``kappa n >= 2``.

    Examples
    --------
    >>> adaptive_kappa(40, 1000), adaptive_kappa(700, 1000), adaptive_kappa(-3, 1000)
    (0.08, 0.25, 0.002)
    >>> round(adaptive_kappa(150, 427, 32, 0.9 * 0.0213), 2)    # breast cancer, epsilon = 1
    0.68
    >>> round(adaptive_kappa(225, 750, 71, 0.9 * 0.40), 2)      # german credit, epsilon = 5
    0.3
    >>> adaptive_kappa(7800, 32561, 124, 0.9 * 0.02)             # a9a, epsilon = 1: q >= 100
    0.25
    """
    p = min(max(noisy_positives / n, 0.0), 1.0)
    minority = min(p, 1.0 - p)
    balanced = max(BALANCED_KAPPA_FACTOR * minority, 2.0 / n)
    kappa = min(MAX_KAPPA, balanced)
    if d is not None and rho_rounds:
        k_1 = math.sqrt(d) / (n * math.sqrt(2.0 * rho_rounds))
        kappa = max(kappa, min(balanced, NOISY_MAX_KAPPA, NOISY_SNR_TARGET * k_1),
                    min(MAX_SNR_KAPPA, SNR_TARGET * k_1))
    return float(kappa)


def max_rounds(n: int, d: int) -> int:
    """``T_max = clip(7.5e8 / (n max(d, 10)), 150, 1000)``: about 1 s of boosting on this machine
    (2 s before the mapped rows were column-major; doubling it measured no gain)."""
    return int(min(1000, max(150, 7.5e8 / (n * max(d, 10)))))


def adaptive_rounds(kappa: float, n: int, d: int, rho_rounds: float) -> int:
    """``T = clip(round(2 kappa n sqrt(2 rho_T) / sqrt(d)), 30, min(T_max, 300))`` (see module
    docstring; the multiclass rule keeps ``T_max`` alone).

    Examples
    --------
    >>> adaptive_rounds(0.25, 8000, 124, 0.5 * 0.2367**2)   # a9a-sized, epsilon = 1
    85
    >>> adaptive_rounds(0.25, 16_000, 10, 0.02)   # randhie-sized, epsilon = 1: 2q = 506
    300
    """
    return min(MAX_LEARNED_ROUNDS, snr_rounds(kappa, n, d, rho_rounds))


def snr_rounds(kappa: float, n: int, d: int, rho_rounds: float) -> int:
    """``clip(round(2 kappa n sqrt(2 rho_T) / sqrt(d)), 30, T_max)``, without the binary cap of
    300: at ``kappa = 1`` the most rounds any learned ``T`` can reach, a multiclass one too
    (its width ``K d`` is at least ``d``; :meth:`dpboost.budget_plan.RunPlan.check_drawable`).

    >>> snr_rounds(0.25, 16_000, 10, 0.02), adaptive_rounds(0.25, 16_000, 10, 0.02)
    (506, 300)
    """
    q = kappa * n * math.sqrt(2.0 * rho_rounds) / math.sqrt(max(d, 1))
    return int(min(max_rounds(n, d), max(MIN_ROUNDS, round(ROUNDS_PER_SNR * q))))


def composed(events: list) -> ComposedEvent:
    """One event for the whole run (its parts in the order they touched the data)."""
    return ComposedEvent(tuple(events))
