"""The statistics of the privacy audit: confidence limits, epsilon lower bounds, distinguishers.

A mechanism that is (epsilon, delta)-DP forces every test between two neighbouring datasets to
have false-positive and false-negative rates with ``FPR + e^epsilon FNR >= 1 - delta`` (and the
symmetric inequality; Kairouz, Oh & Viswanath 2015).  Clopper-Pearson upper limits on both
rates, from runs held out from the choice of threshold, turn observed error counts into a lower
bound on epsilon with 95% confidence (Jagielski, Ullman & Oprea 2020).  The mechanisms under
audit are in :mod:`dpboost.audit`.

References
----------
Jagielski, Ullman & Oprea (2020), "Auditing differentially private machine learning", NeurIPS.
Clopper & Pearson (1934), Biometrika 26.  Kairouz, Oh & Viswanath (2015), ICML.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpboost._validation import check_scalar

__all__ = [
    "DistinguisherResult",
    "clopper_pearson",
    "coordinate_log_likelihood_ratios",
    "distinguish",
    "distinguish_best",
    "epsilon_detectable",
    "epsilon_lower_bound",
    "expected_power",
    "gaussian_log_likelihood_ratio",
    "runs_to_detect",
]


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def clopper_pearson(
    successes: int, trials: int, *, confidence: float = 0.95
) -> tuple[float, float]:
    """Two-sided Clopper-Pearson (exact binomial) confidence interval for a proportion.

    Each end is a one-sided limit at level ``1 - (1 - confidence) / 2``, so two upper limits
    used together (union bound) hold jointly with probability at least ``confidence``.

    Parameters
    ----------
    successes, trials : int
        Observed count and number of trials, ``0 <= successes <= trials``, ``trials >= 1``.
    confidence : float
        Two-sided confidence level in (0, 1).

    Returns
    -------
    (low, high) : tuple of float

    References
    ----------
    Clopper & Pearson (1934), Biometrika 26, 404-413.

    Examples
    --------
    >>> lo, hi = clopper_pearson(0, 10)
    >>> lo, round(hi, 4)
    (0.0, 0.3085)
    """
    from scipy import stats  # here, not at import: the CLI's parser imports this module

    trials = check_scalar(trials, "trials", "clopper_pearson", kind="int", low=1, closed="left")
    successes = check_scalar(successes, "successes", "clopper_pearson", kind="int", low=0,
                             high=trials, closed="both")
    confidence = check_scalar(confidence, "confidence", "clopper_pearson", low=0, high=1)
    tail = (1.0 - confidence) / 2.0
    low = 0.0 if successes == 0 else float(stats.beta.ppf(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(
        stats.beta.ppf(1.0 - tail, successes + 1, trials - successes))
    return low, high


def _upper_limits(counts: np.ndarray, trials: int, confidence: float) -> np.ndarray:
    """Vectorised upper Clopper-Pearson limits (one-sided level 1 - (1 - confidence)/2)."""
    from scipy import stats  # here, not at import: the CLI's parser imports this module

    counts = np.asarray(counts)
    tail = (1.0 - confidence) / 2.0
    safe = np.minimum(counts, trials - 1)
    high = stats.beta.ppf(1.0 - tail, safe + 1, trials - safe)
    return np.where(counts >= trials, 1.0, high)


def _epsilon_from_limits(fpr_hi, fnr_hi, delta: float):
    """max of log((1 - delta - FNR_hi)/FPR_hi) and log((1 - delta - FPR_hi)/FNR_hi), floor 0."""
    fpr_hi = np.asarray(fpr_hi, dtype=float)
    fnr_hi = np.asarray(fnr_hi, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(1.0 - delta - fnr_hi > 0,
                         np.log(np.maximum(1.0 - delta - fnr_hi, 1e-300) / fpr_hi), -np.inf)
        second = np.where(1.0 - delta - fpr_hi > 0,
                          np.log(np.maximum(1.0 - delta - fpr_hi, 1e-300) / fnr_hi), -np.inf)
    return np.maximum(np.maximum(first, second), 0.0)


def epsilon_lower_bound(
    false_positives: int,
    negatives: int,
    false_negatives: int,
    positives: int,
    *,
    delta: float,
    confidence: float = 0.95,
) -> float:
    """Epsilon lower bound implied by a test's error counts, valid with probability ``confidence``.

    ``eps_lower = max(log((1 - delta - FNR_hi) / FPR_hi), log((1 - delta - FPR_hi) / FNR_hi), 0)``
    where ``FPR_hi`` and ``FNR_hi`` are upper Clopper-Pearson limits.  The threshold of the test
    must not have been chosen on these same counts (see :func:`distinguish`).

    Parameters
    ----------
    false_positives, negatives : int
        Runs on dataset D that the test attributed to D', and the number of runs on D.
    false_negatives, positives : int
        Runs on D' that the test attributed to D, and the number of runs on D'.
    delta : float
        The claimed delta, in [0, 1).
    confidence : float
        Joint confidence of the two upper limits (each is one-sided at 1 - (1-confidence)/2).

    References
    ----------
    Kairouz, Oh & Viswanath (2015), Theorem 2.1 (hypothesis-testing view of DP); Jagielski,
    Ullman & Oprea (2020), Section 3 (Clopper-Pearson audit).

    Examples
    --------
    >>> epsilon_lower_bound(0, 1000, 0, 1000, delta=0.0) > 5
    True
    >>> epsilon_lower_bound(500, 1000, 500, 1000, delta=0.0)
    0.0
    """
    owner = "epsilon_lower_bound"
    negatives = check_scalar(negatives, "negatives", owner, kind="int", low=1, closed="left")
    positives = check_scalar(positives, "positives", owner, kind="int", low=1, closed="left")
    false_positives = check_scalar(false_positives, "false_positives", owner, kind="int", low=0,
                                   high=negatives, closed="both")
    false_negatives = check_scalar(false_negatives, "false_negatives", owner, kind="int", low=0,
                                   high=positives, closed="both")
    delta = check_scalar(delta, "delta", owner, low=0, high=1, closed="left")
    confidence = check_scalar(confidence, "confidence", owner, low=0, high=1)
    fpr_hi = _upper_limits(false_positives, negatives, confidence)
    fnr_hi = _upper_limits(false_negatives, positives, confidence)
    return float(_epsilon_from_limits(fpr_hi, fnr_hi, delta))


def epsilon_detectable(negatives: int, positives: int, *, delta: float,
                       confidence: float = 0.95) -> float:
    """The largest epsilon lower bound these evaluation runs can give: that of a perfect test.

    :func:`epsilon_lower_bound` with no error at all (``0`` false positives and negatives) on
    ``negatives`` and ``positives`` runs.  Every test on these runs, whatever the mechanism,
    ends at or below it, so an audit whose claimed epsilon is at or above it cannot fail: it
    is inconclusive, not passed (a mechanism with a thousandth of its noise "passed" a claim
    of 8 on 20,000 runs, whose ceiling is 7.68).

    Examples
    --------
    >>> round(epsilon_detectable(8000, 8000, delta=1e-5), 2)
    7.68
    """
    return epsilon_lower_bound(0, negatives, 0, positives, delta=delta, confidence=confidence)


def runs_to_detect(epsilon: float, delta: float, *, calibration_fraction: float = 0.2,
                   confidence: float = 0.95) -> int:
    """The fewest runs (half on each dataset) whose :func:`epsilon_detectable` exceeds ``epsilon``.

    Evaluation runs per dataset are ``half - int(half * calibration_fraction)``, as in
    :func:`distinguish`.  Found by doubling, then bisection on the (increasing) ceiling.

    Examples
    --------
    >>> runs_to_detect(8.0, 1e-5)
    27496
    """
    def ceiling(runs: int) -> float:
        half = runs // 2
        m = half - int(half * calibration_fraction)
        return epsilon_detectable(m, m, delta=delta, confidence=confidence) if m >= 1 else 0.0

    lo, hi = 2, 4
    while ceiling(hi) <= epsilon and hi < 2**62:
        lo, hi = hi, 2 * hi
    while hi - lo > 2:  # even counts only: runs split in two halves
        mid = (lo + hi) // 4 * 2
        lo, hi = (mid, hi) if ceiling(mid) <= epsilon else (lo, mid)
    return hi


@dataclass(frozen=True)
class DistinguisherResult:
    """Outcome of :func:`distinguish` on the evaluation runs.

    ``threshold`` was chosen on the calibration runs; the test says "D'" when score > threshold.
    """

    epsilon_lower: float
    threshold: float
    false_positives: int
    negatives: int
    false_negatives: int
    positives: int
    calibration_runs: int


def distinguish(
    scores_d: np.ndarray,
    scores_dprime: np.ndarray,
    *,
    delta: float,
    confidence: float = 0.95,
    calibration_fraction: float = 0.2,
    n_thresholds: int = 400,
) -> DistinguisherResult:
    """Lower-bound epsilon from scores of runs on D and on D' (higher score = "looks like D'").

    The first ``calibration_fraction`` of each score array picks the threshold that maximises
    the Clopper-Pearson epsilon bound there; the bound is then computed on the remaining runs
    only, so the selection does not bias it.  The runs must be independent and in random order
    (they are, when each comes from a fresh draw of the mechanism).

    Parameters
    ----------
    scores_d, scores_dprime : array of float, shape (runs_d,), (runs_dprime,)
        Test statistic of each run on D and on D'.
    delta : float
        Claimed delta in [0, 1).
    confidence : float
        Joint confidence level of the bound.
    calibration_fraction : float
        Share of each array used to choose the threshold, in (0, 1).
    n_thresholds : int
        Number of candidate thresholds (quantiles of the pooled calibration scores).

    Returns
    -------
    DistinguisherResult

    References
    ----------
    Jagielski, Ullman & Oprea (2020), Algorithm 2 (threshold on held-out runs).
    """
    scores_d = np.asarray(scores_d, dtype=float).ravel()
    scores_dprime = np.asarray(scores_dprime, dtype=float).ravel()
    if not (np.isfinite(scores_d).all() and np.isfinite(scores_dprime).all()):
        raise ValueError("Audit scores contain NaN or infinity; the distinguisher is broken.")
    split_d = int(len(scores_d) * calibration_fraction)
    split_p = int(len(scores_dprime) * calibration_fraction)
    if min(split_d, split_p, len(scores_d) - split_d, len(scores_dprime) - split_p) < 1:
        raise ValueError("distinguish needs at least one calibration and one evaluation run "
                         f"per dataset; got {len(scores_d)} and {len(scores_dprime)} runs.")
    eval_d, eval_p = scores_d[split_d:], scores_dprime[split_p:]
    threshold, _ = _calibrate_threshold(scores_d[:split_d], scores_dprime[:split_p], delta,
                                        confidence, n_thresholds)
    false_positives = int(np.count_nonzero(eval_d > threshold))
    false_negatives = int(np.count_nonzero(eval_p <= threshold))
    eps = epsilon_lower_bound(false_positives, len(eval_d), false_negatives, len(eval_p),
                              delta=delta, confidence=confidence)
    return DistinguisherResult(eps, threshold, false_positives, len(eval_d), false_negatives,
                               len(eval_p), split_d + split_p)


def _calibrate_threshold(cal_d, cal_p, delta, confidence, n_thresholds) -> tuple[float, float]:
    """The threshold with the largest Clopper-Pearson bound on the calibration runs, and it."""
    cal_d, cal_p = np.sort(cal_d), np.sort(cal_p)
    pooled = np.concatenate([cal_d, cal_p])
    candidates = np.unique(np.quantile(pooled, np.linspace(0.0, 1.0, n_thresholds)))
    fp = cal_d.size - np.searchsorted(cal_d, candidates, side="right")  # D scored above
    fn = np.searchsorted(cal_p, candidates, side="right")  # D' scored at or below threshold
    eps_cal = _epsilon_from_limits(_upper_limits(fp, cal_d.size, confidence),
                                   _upper_limits(fn, cal_p.size, confidence), delta)
    best = int(np.argmax(eps_cal))
    return float(candidates[best]), float(eps_cal[best])


def distinguish_best(scores_d: np.ndarray, scores_dprime: np.ndarray, *, delta: float,
                     confidence: float = 0.95,
                     calibration_fraction: float = 0.2) -> DistinguisherResult:
    """:func:`distinguish` over several statistics: the calibration runs pick one, then as usual.

    ``scores_d`` and ``scores_dprime`` have shape ``(runs, k)``: ``k`` statistics of each run
    (e.g. the whole likelihood ratio and each coordinate's share of it).  The statistic and its
    threshold are both chosen on the first ``calibration_fraction`` of the runs, so the bound on
    the remaining runs stays valid without a multiple-testing correction.  A coordinate that
    escaped the noise separates the datasets perfectly on its own, which the whole likelihood
    ratio (computed for the claimed noise) would dilute.
    """
    scores_d = np.asarray(scores_d, dtype=float)
    scores_dprime = np.asarray(scores_dprime, dtype=float)
    split_d = int(len(scores_d) * calibration_fraction)
    split_p = int(len(scores_dprime) * calibration_fraction)
    best = max(range(scores_d.shape[1]), key=lambda j: _calibrate_threshold(
        scores_d[:split_d, j], scores_dprime[:split_p, j], delta, confidence, 400)[1])
    return distinguish(scores_d[:, best], scores_dprime[:, best], delta=delta,
                       confidence=confidence, calibration_fraction=calibration_fraction)


def coordinate_log_likelihood_ratios(released: np.ndarray, mean_d: np.ndarray,
                                     mean_dprime: np.ndarray, sigma: float) -> np.ndarray:
    """The whole Gaussian log-likelihood ratio followed by each coordinate's term (last axis).

    Returns shape ``(..., 1 + d)``; the first column is :func:`gaussian_log_likelihood_ratio`.
    """
    diff = np.asarray(mean_dprime, dtype=float) - np.asarray(mean_d, dtype=float)
    centre = 0.5 * (np.asarray(mean_d, dtype=float) + np.asarray(mean_dprime, dtype=float))
    terms = (np.asarray(released, dtype=float) - centre) * diff / sigma**2
    return np.concatenate([terms.sum(axis=-1, keepdims=True), terms], axis=-1)


def gaussian_log_likelihood_ratio(released: np.ndarray, mean_d: np.ndarray,
                                  mean_dprime: np.ndarray, sigma: float) -> np.ndarray:
    """log p_{D'}(released) - log p_D(released) for N(mean, sigma^2 I) releases.

    Works on the last axis; leading axes (runs, rounds) broadcast.  Written as
    ``<released - (m + m')/2, m' - m> / sigma^2``, which avoids the cancellation of the
    difference of two squared distances.

    Examples
    --------
    >>> float(gaussian_log_likelihood_ratio(np.array([1.0]), np.array([0.0]), np.array([1.0]), 1.0))
    0.5
    """
    released = np.asarray(released, dtype=float)
    mean_d = np.asarray(mean_d, dtype=float)
    mean_dprime = np.asarray(mean_dprime, dtype=float)
    diff = mean_dprime - mean_d
    centre = 0.5 * (mean_d + mean_dprime)
    return np.sum((released - centre) * diff, axis=-1) / sigma**2


def expected_power(
    shift: float,
    *,
    epsilon_claimed: float,
    delta: float,
    runs: int,
    confidence: float = 0.95,
    calibration_fraction: float = 0.2,
    threshold: float | None = None,
) -> float:
    """Probability that an audit flags ``epsilon_claimed``.

    The audit is of a test with N(0,1) vs N(shift,1) scores.

    The likelihood-ratio statistic of a Gaussian mechanism is exactly Gaussian: after
    standardisation, N(0, 1) on D and N(shift, 1) on D' with ``shift = mu`` the GDP parameter
    of the mechanism actually run.  With ``m`` evaluation runs per dataset, the false-positive
    and false-negative counts at threshold ``t`` are independent binomials, and the audit flags
    the claim when :func:`epsilon_lower_bound` exceeds ``epsilon_claimed``; this function sums
    that event exactly over both binomials.  With ``threshold=None`` it returns the maximum
    over a grid of thresholds (the power of an oracle threshold; the calibrated threshold of
    :func:`distinguish` does slightly worse, which the benchmark measures).

    Examples
    --------
    >>> expected_power(0.0, epsilon_claimed=0.5, delta=1e-5, runs=2000) < 0.05
    True
    """
    from scipy import stats  # here, not at import: the CLI's parser imports this module

    m_d = int(runs / 2 - int(runs / 2 * calibration_fraction))
    m = max(m_d, 1)
    if threshold is None:
        def at(t):
            return expected_power(shift, epsilon_claimed=epsilon_claimed, delta=delta,
                                  runs=runs, confidence=confidence,
                                  calibration_fraction=calibration_fraction, threshold=t)
        coarse = np.arange(0.0, 6.0 + shift, 0.25)
        best = float(coarse[int(np.argmax([at(t) for t in coarse]))])
        return max(at(t) for t in np.arange(best - 0.25, best + 0.26, 0.05))
    fpr = float(stats.norm.sf(threshold))
    fnr = float(stats.norm.cdf(threshold - shift))
    counts = np.arange(m + 1)
    p_fp = stats.binom.pmf(counts, m, fpr)
    p_fn = stats.binom.pmf(counts, m, fnr)
    keep_fp, keep_fn = p_fp > 1e-13, p_fn > 1e-13
    eps = _epsilon_from_limits(_upper_limits(counts[keep_fp], m, confidence)[:, None],
                               _upper_limits(counts[keep_fn], m, confidence)[None, :], delta)
    weight = p_fp[keep_fp][:, None] * p_fn[keep_fn][None, :]
    return float(np.sum(weight * (eps > epsilon_claimed)))
