"""Empirical privacy audit: lower bounds on epsilon from repeated runs on a neighbouring pair.

A mechanism that is (epsilon, delta)-DP forces every test that tries to tell which of two
neighbouring datasets it saw to have false-positive and false-negative rates with
``FPR + e^epsilon * FNR >= 1 - delta`` and the symmetric inequality (Kairouz, Oh & Viswanath
2015).  Running the mechanism many times on each dataset, counting a test's errors and taking
Clopper-Pearson upper confidence limits on both rates turns any observed pair of rates into a
lower bound on epsilon that holds with 95% confidence (Jagielski, Ullman & Oprea 2020; Nasr et
al. 2021).  The threshold of the test is chosen on a separate set of calibration runs, so the
bound on the evaluation runs stays valid.

Audited here: one round of the Gaussian weak learner at worst-case neighbours and measures, and a
whole LazyBregBoost run of ``n_rounds`` rounds, both with the likelihood-ratio test, which is the
strongest distinguisher between two Gaussians of the same covariance.  The module also holds the
adversarial search for the sensitivity and slickness maxima of one boosting round
(:func:`search_sensitivity`).

References
----------
Bun, Carmosino & Sorrell (2020), "Efficient, noise-tolerant, and private learning via boosting",
Lemma 25 (slickness 1/(kappa n)) and Theorem 27 (private weak halfspace learner).
Jagielski, Ullman & Oprea (2020), "Auditing differentially private machine learning: how private
is private SGD?", NeurIPS.  Nasr, Song, Thakurta, Papernot & Carlini (2021), "Adversary
instantiation: lower bounds for differentially private machine learning", IEEE S&P.
Clopper & Pearson (1934), "The use of confidence or fiducial limits illustrated in the case of
the binomial", Biometrika 26.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy import stats

from accounting import calibrate_noise
from dpboost._validation import check_random_state, check_scalar
from dpboost.boost import boost
from dpboost.lazy_breg import LazyBregBoost
from dpboost.weak_learners import GaussianCenteringHalfspace, HalfspaceHypothesis, centering_sum

#: Defaults of the audit.  A 2x error in the noise (or the sensitivity) doubles mu; at
#: (eps, delta) = (2, 1e-3) the analytic power to flag it is > 0.9999 with 20,000 runs of one round
#: and 20,000 runs of a 3-round boosting run (the claim is the target epsilon, and the discrete
#: release is calibrated through zCDP, so the correct mechanism sits further below the claim) (:func:`expected_power`; measured by
#: benchmarks/bench_audit.py).  At delta = 1e-5 the same power needs about 100,000 runs: the
#: privacy loss there lives in tails that only many runs can see.
DEFAULT_EPSILON = 2.0
DEFAULT_DELTA = 1e-3
DEFAULT_RUNS = 20_000
DEFAULT_RUN_RUNS = 20_000
#: End-to-end audit (each run is a whole ``fit``): 4,000 fits of 8 rounds catch a missing clip
#: (row 0 at 4R) and a calibration over 1 round instead of 8 (tests/audit/test_audit_mutants.py).
DEFAULT_ESTIMATOR_RUNS = 4_000

__all__ = [
    "AuditResult",
    "DistinguisherResult",
    "SensitivityResult",
    "audit_estimator",
    "audit_multiclass_round",
    "audit_round",
    "audit_run",
    "clopper_pearson",
    "continuous_output_possible",
    "coordinate_log_likelihood_ratios",
    "distinguish",
    "distinguish_best",
    "epsilon_lower_bound",
    "expected_power",
    "gaussian_log_likelihood_ratio",
    "grid_output_possible",
    "neighbour_gap",
    "rotation",
    "round_audit_pair",
    "run_audit_pair",
    "search_sensitivity",
]


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def clopper_pearson(successes: int, trials: int, *, confidence: float = 0.95) -> tuple[float, float]:
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
    """Probability that an audit of a test with N(0,1) vs N(shift,1) scores flags ``epsilon_claimed``.

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


# --------------------------------------------------------------------------------------------
# Mechanisms under audit
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditResult:
    """Result of :func:`audit_round` or :func:`audit_run`.

    ``passed`` is ``epsilon_lower <= epsilon_claimed``; ``epsilon_claimed`` is the epsilon the
    user asked for (the target), never what the audited code's own accountant reports.
    """

    epsilon_lower: float
    epsilon_claimed: float
    delta: float
    runs: int
    passed: bool
    setting: str
    n_rounds: int
    noise_multiplier: float
    threshold: float
    false_positive_rate: float
    false_negative_rate: float
    distance_over_sensitivity: float
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict; the first five keys are the documented CLI output."""
        out = asdict(self)
        return {k: out[k] for k in ("epsilon_lower", "epsilon_claimed", "delta", "runs",
                                    "passed")} | {k: v for k, v in out.items()
                                                  if k not in ("epsilon_lower", "epsilon_claimed",
                                                               "delta", "runs", "passed")}


class _OneOverKappaNSensitivity(GaussianCenteringHalfspace):
    """BROKEN on purpose (tests only): sensitivity taken as R/(kappa n) instead of 2R/(kappa n)."""

    def sensitivity(self, n: int) -> float:
        return self.norm_bound / (self.kappa * n)


def _learner(noise_multiplier: float, kappa: float, norm_bound: float,
             variant: str | None) -> GaussianCenteringHalfspace:
    """The weak learner that is actually run; ``variant`` is the private broken-variant hook."""
    if variant is None:
        return GaussianCenteringHalfspace(noise_multiplier, kappa, norm_bound)
    if variant == "half_noise":
        return GaussianCenteringHalfspace(noise_multiplier / 2.0, kappa, norm_bound)
    if variant == "half_sensitivity":
        return _OneOverKappaNSensitivity(noise_multiplier, kappa, norm_bound)
    raise ValueError(f"unknown broken variant {variant!r}")


def _claim(epsilon: float, delta: float, n_rounds: int) -> tuple[float, float]:
    """The noise a correct implementation uses for ``(epsilon, delta)``, and the claim to test.

    The claim is the user's **target** epsilon, not what an accountant says about the noise it
    chose: an optimistic conversion would certify its own too-small noise, so comparing against
    the accountant's report could never catch it.
    """
    z = calibrate_noise(target_epsilon=epsilon, target_delta=delta, count=n_rounds,
                        mechanism="discrete_gaussian").noise_multiplier
    return z, epsilon


def rotation(dimension: int) -> np.ndarray:
    """The orthonormal Hadamard matrix ``H / sqrt(d)`` (``d`` a power of two; Sylvester).

    The audit pairs are rotated by it, so the two datasets' centres differ by a vector whose
    every coordinate has the same magnitude ``|Delta| / sqrt(d)``: a coordinate left without
    noise (or with too little) is seen by the likelihood-ratio test.

    Examples
    --------
    >>> Q = rotation(4)
    >>> bool(np.allclose(Q @ Q.T, np.eye(4))), bool(np.allclose(np.abs(Q), 0.5))
    (True, True)
    """
    if dimension < 1 or dimension & (dimension - 1):
        raise ValueError(f"The 'dimension' of an audit pair must be a power of two. "
                         f"Got {dimension!r} instead.")
    H = np.ones((1, 1))
    while H.shape[0] < dimension:
        H = np.block([[H, H], [H, -H]])
    return H / math.sqrt(dimension)


def round_audit_pair(n: int, kappa: float, norm_bound: float = 1.0, learning_rate: float = 1.0,
                     dimension: int = 4):
    """Worst-case neighbours and measures for one round: ``||z - z'|| = 2R/(kappa n)`` exactly.

    Before rotation, rows ``j != 0`` are ``R e_2`` with label +1; row 0 is ``R e_1`` with label
    +1 in D and -1 in D' (a flipped label).  The history is ``k`` copies of a hypothesis that
    classifies every ``R e_2`` row correctly (gain 1) and gives row 0 the value 0 (gain 1/2
    under either label), with ``k`` just large enough for LB-NxM to cap row 0 at ``mu(0) = 1``
    in both datasets.  The other rows then have equal measures in D and D', so
    ``z - z' = (2R/(kappa n)) e_1``.  Everything is then rotated by :func:`rotation`
    (``dimension`` >= 2 coordinates), so ``z - z'`` has equal weight on every coordinate.

    Returns ``(X, y, y_prime, hypotheses)``; D = (X, y), D' = (X, y_prime).
    """
    if kappa * n <= 1.0:
        raise ValueError(f"round_audit_pair needs kappa * n > 1; got kappa={kappa}, n={n}.")
    if dimension < 2:
        raise ValueError(f"round_audit_pair needs dimension >= 2. Got {dimension!r} instead.")
    Q = rotation(dimension)
    X = np.zeros((n, dimension))
    X[0, 0] = norm_bound
    X[1:, 1] = norm_bound
    y = np.ones(n)
    y_prime = y.copy()
    y_prime[0] = -1.0
    # row 0 is capped once exp(lambda k / 2) (kappa n - 1) / (n - 1) >= 1
    k = math.ceil(2.0 * math.log((n - 1) / (kappa * n - 1)) / learning_rate) + 1
    w = np.zeros(dimension)
    w[1] = 2.0 / norm_bound
    h = HalfspaceHypothesis(Q.T @ w)  # (x Q) . (Q^T w) = x . w
    return X @ Q, y, y_prime, [h] * max(k, 1)


def run_audit_pair(n: int, norm_bound: float = 1.0, dimension: int = 4, row_norm=None):
    """Neighbours for a whole run: row 0 is ``r u`` labelled +1 (D) or -1 (D'), the rest 0.

    ``u`` is the first row of :func:`rotation` (every coordinate ``+-1/sqrt(d)``) and ``r`` is
    ``row_norm`` (default ``norm_bound``; larger values exercise the estimator's clipping).
    Zero rows carry no signal, so the centres differ by ``(mu_hat(0) + mu_hat'(0)) R u``; with
    ``kappa`` near 1 that is close to the sensitivity in every round, whatever the history.
    Returns ``(X, y, y_prime)``.
    """
    X = np.zeros((n, dimension))
    X[0] = (norm_bound if row_norm is None else row_norm) * rotation(dimension)[0]
    y = np.ones(n)
    y_prime = y.copy()
    y_prime[0] = -1.0
    return X, y, y_prime


def _result(setting, dist: DistinguisherResult, eps_claimed, delta, runs, n_rounds, z,
            ratio, details) -> AuditResult:
    return AuditResult(
        epsilon_lower=float(dist.epsilon_lower), epsilon_claimed=float(eps_claimed),
        delta=float(delta), runs=int(runs), passed=bool(dist.epsilon_lower <= eps_claimed),
        setting=setting, n_rounds=int(n_rounds), noise_multiplier=float(z),
        threshold=dist.threshold, false_positive_rate=dist.false_positives / dist.negatives,
        false_negative_rate=dist.false_negatives / dist.positives,
        distance_over_sensitivity=float(ratio), details=details)


def _check_audit_args(owner, epsilon, delta, runs, n, kappa):
    epsilon = check_scalar(epsilon, "epsilon", owner, low=0)
    if not math.isfinite(epsilon):
        raise ValueError(f"The 'epsilon' parameter of {owner} must be a float in (0, inf). "
                         f"Got {epsilon!r} instead.")
    delta = check_scalar(delta, "delta", owner, low=0, high=1)
    runs = check_scalar(runs, "runs", owner, kind="int", low=100, closed="left")
    n = check_scalar(n, "n", owner, kind="int", low=2, closed="left")
    kappa = check_scalar(kappa, "kappa", owner, low=0, high=1)
    return epsilon, delta, runs, n, kappa


def audit_round(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_RUNS,
    n: int = 20,
    kappa: float = 0.5,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """Audit one round of :class:`GaussianCenteringHalfspace` at the worst case.

    The learner's noise is calibrated to ``(epsilon, delta)`` for one round;
    it is run ``runs / 2`` times on each dataset of :func:`round_audit_pair`, whose measures
    (computed by the real LB-NxM) put the two centres exactly one sensitivity ``2R/(kappa n)``
    apart.  The test is the Gaussian likelihood ratio, the most powerful test for this pair
    (Neyman-Pearson), and :func:`distinguish` turns it into a 95%-confidence lower bound.

    Returns
    -------
    AuditResult

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Theorem 27; Jagielski, Ullman & Oprea (2020).
    """
    return _audit_round(epsilon=epsilon, delta=delta, runs=runs, n=n, kappa=kappa,
                        norm_bound=norm_bound, random_state=random_state)


def _audit_round(*, epsilon, delta, runs, n, kappa, norm_bound, random_state,
                 _variant: str | None = None) -> AuditResult:
    owner = "audit_round"
    epsilon, delta, runs, n, kappa = _check_audit_args(owner, epsilon, delta, runs, n, kappa)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    z, eps_claimed = _claim(epsilon, delta, 1)
    claimed = GaussianCenteringHalfspace(z, kappa, norm_bound)
    learner = _learner(z, kappa, norm_bound, _variant)
    X, y, y_prime, history = round_audit_pair(n, kappa, norm_bound)
    nxm = LazyBregBoost(kappa, 1.0)
    mu_d, mu_p = nxm.recompute(X, y, history), nxm.recompute(X, y_prime, history)
    mu_d, mu_p = mu_d / mu_d.sum(), mu_p / mu_p.sum()
    c_d, c_p = centering_sum(X, y, mu_d), centering_sum(X, y_prime, mu_p)
    ratio = float(np.linalg.norm(c_d - c_p)) / claimed.sensitivity(n)
    sigma = claimed.sigma(n, X.shape[1])
    half = runs // 2
    scores = []
    for labels, mu in ((y, mu_d), (y_prime, mu_p)):
        released = np.array([learner.fit(X, labels, mu, rng=rng).coef for _ in range(half)])
        scores.append(coordinate_log_likelihood_ratios(released * norm_bound**2, c_d, c_p,
                                                       sigma))
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    return _result("round", dist, eps_claimed, delta, 2 * half, 1, z, ratio,
                   {"n": n, "kappa": kappa, "norm_bound": norm_bound})


def audit_run(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_RUN_RUNS,
    n_rounds: int = 3,
    n: int = 10,
    kappa: float = 0.99,
    learning_rate: float = 0.01,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """Audit a whole LazyBregBoost run of ``n_rounds`` rounds from its released vectors.

    Each run calls :func:`dpboost.boost.boost` with LB-NxM and the Gaussian learner calibrated
    to ``(epsilon, delta)`` over ``n_rounds`` rounds, on D or D' of :func:`run_audit_pair`.
    The auditor knows both datasets, replays LB-NxM on the released history under each, and
    sums the per-round Gaussian log-likelihood ratios: the likelihood ratio of the whole
    transcript, hence the most powerful test.  Round 1's measure is uniform, so the centres
    differ by at most ``2R/n = kappa * 2R/(kappa n)``; ``kappa`` near 1 and a small learning
    rate keep every round near the sensitivity.

    Returns
    -------
    AuditResult

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Algorithms 1-2 and 4, Theorem 27; Nasr et al. (2021).
    """
    return _audit_run(epsilon=epsilon, delta=delta, runs=runs, n_rounds=n_rounds, n=n,
                      kappa=kappa, learning_rate=learning_rate, norm_bound=norm_bound,
                      random_state=random_state)


def _capped_scaling_rows(log_weights: np.ndarray, kappa: float) -> np.ndarray:
    """Capped scaling (Lemma 9) of every row of ``log_weights`` at once (the auditor's replay).

    Sort each row in decreasing order; with the ``k`` largest entries capped at 1 the rest are
    scaled by ``c_k = (kappa n - k) / sum_{j >= k} exp(a_j)``, and the right ``k`` is the smallest
    one whose largest uncapped entry stays below 1.  Cross-checked against
    :func:`dpboost.projection.capped_scaling` in the tests.
    """
    rows, n = log_weights.shape
    order = np.argsort(-log_weights, axis=1)
    a = np.take_along_axis(log_weights, order, axis=1)
    shift = a[:, :1]
    e = np.exp(a - shift)
    tail = np.cumsum(e[:, ::-1], axis=1)[:, ::-1]  # sum_{j >= k} e_j
    k = np.arange(n)
    room = kappa * n - k
    log_room = np.log(np.where(room > 0, room, 1.0))
    log_c = log_room[None, :] - np.log(tail) - shift  # log c_k
    valid = (room > 0)[None, :] & (a + log_c < 1e-12)
    first = np.argmax(valid, axis=1)
    c = log_c[np.arange(rows), first][:, None]
    sorted_mu = np.where(k[None, :] < first[:, None], 1.0, np.minimum(1.0, np.exp(a + c)))
    out = np.empty_like(sorted_mu)
    np.put_along_axis(out, order, sorted_mu, axis=1)
    return out


def _replay_centres(X, y, coefs, kappa, learning_rate):
    """Noiseless centres ``c_t`` under (X, y) for each run's released history, shape (runs, T, d)."""
    runs, n_rounds, _ = coefs.shape
    gain = np.zeros((runs, len(y)))
    centres = np.empty_like(coefs)
    yx = y[:, None] * X
    for t in range(n_rounds):
        mu = _capped_scaling_rows(math.log(kappa) - learning_rate * gain, kappa)
        centres[:, t] = (mu / mu.sum(axis=1, keepdims=True)) @ yx
        h = np.clip(coefs[:, t] @ X.T, -1.0, 1.0)  # HalfspaceHypothesis on every row
        gain += 1.0 - 0.5 * np.abs(h - y[None, :])  # LB-NxM gain (round_gain)
    return centres


def _transcript_scores(coefs, X, y, y_prime, kappa, learning_rate, sigma, norm_bound):
    """Per-run scores of released histories: the whole-transcript log-likelihood ratio and each
    coordinate's share (summed over rounds), replayed under D = (X, y) and D' = (X, y_prime);
    also the mean squared distance of the replayed centres (for ``distance_over_sensitivity``).
    """
    c_d = _replay_centres(X, y, coefs, kappa, learning_rate)
    c_p = _replay_centres(X, y_prime, coefs, kappa, learning_rate)
    llr = coordinate_log_likelihood_ratios(coefs * norm_bound**2, c_d, c_p, sigma)
    return llr.sum(axis=1), float(np.mean(np.sum((c_d - c_p) ** 2, axis=2)))


def _audit_run(*, epsilon, delta, runs, n_rounds, n, kappa, learning_rate, norm_bound,
               random_state, _variant: str | None = None) -> AuditResult:
    owner = "audit_run"
    epsilon, delta, runs, n, kappa = _check_audit_args(owner, epsilon, delta, runs, n, kappa)
    n_rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    z, eps_claimed = _claim(epsilon, delta, n_rounds)
    claimed = GaussianCenteringHalfspace(z, kappa, norm_bound)
    learner = _learner(z, kappa, norm_bound, _variant)
    X, y, y_prime = run_audit_pair(n, norm_bound)
    sigma = claimed.sigma(n, X.shape[1])
    half = runs // 2
    scores = []
    sq_dist = 0.0
    for labels in (y, y_prime):
        coefs = np.array([[h.coef for h in boost(
            X, labels, measure_producer=LazyBregBoost(kappa, learning_rate),
            weak_learner=learner, n_rounds=n_rounds, rng=rng)] for _ in range(half)])
        run_scores, run_sq = _transcript_scores(coefs, X, y, y_prime, kappa, learning_rate,
                                                sigma, norm_bound)
        scores.append(run_scores)
        sq_dist += run_sq
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    ratio = math.sqrt(sq_dist / 2.0) / claimed.sensitivity(n)
    return _result("run", dist, eps_claimed, delta, 2 * half, n_rounds, z, ratio,
                   {"n": n, "kappa": kappa, "learning_rate": learning_rate,
                    "norm_bound": norm_bound})


def audit_estimator(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_ESTIMATOR_RUNS,
    n_rounds: int = 8,
    n: int = 10,
    kappa: float = 0.9,
    learning_rate: float = 0.01,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """End-to-end audit: train :class:`~dpboost.estimator.PrivateHalfspaceClassifier` itself.

    Each run is a full ``fit`` (validation, clipping, calibration, the learner it builds, the
    boosting loop, the safe release) on D or D' of :func:`run_audit_pair` with row 0 placed
    *outside* the ball (norm ``4R``), so the estimator must clip it.  The auditor replays a
    correct implementation (row clipped to ``R``, LB-NxM with the given ``kappa`` and learning
    rate) on each released ``hypothesis_coefs_`` and sums the per-round Gaussian log-likelihood
    ratios with the noise a correct implementation uses for the user's ``(epsilon, delta)``.
    A bug in clipping, in the calibration count or in how the learner is built moves the
    released centres away from the replay or shrinks the noise, and the lower bound then
    exceeds the target.

    Returns
    -------
    AuditResult
        ``setting="estimator"``.

    References
    ----------
    Jagielski, Ullman & Oprea (2020); Nasr et al. (2021).
    """
    from dpboost.estimator import PrivateHalfspaceClassifier

    owner = "audit_estimator"
    epsilon, delta, runs, n, kappa = _check_audit_args(owner, epsilon, delta, runs, n, kappa)
    n_rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    z, eps_claimed = _claim(epsilon, delta, n_rounds)
    claimed = GaussianCenteringHalfspace(z, kappa, norm_bound)
    X, y, y_prime = run_audit_pair(n, norm_bound, row_norm=4.0 * norm_bound)
    X_clipped, _, _ = run_audit_pair(n, norm_bound)
    sigma = claimed.sigma(n, X.shape[1])
    half = runs // 2
    scores = []
    sq_dist = 0.0
    for labels in (y, y_prime):
        coefs = np.empty((half, n_rounds, X.shape[1]))
        for r in range(half):
            clf = PrivateHalfspaceClassifier(
                epsilon, delta, n_rounds=n_rounds, kappa=kappa, learning_rate=learning_rate,
                norm_bound=norm_bound, classes=[-1.0, 1.0], random_state=rng)
            coefs[r] = clf.fit(X, labels).hypothesis_coefs_
        run_scores, run_sq = _transcript_scores(coefs, X_clipped, y, y_prime, kappa,
                                                learning_rate, sigma, norm_bound)
        scores.append(run_scores)
        sq_dist += run_sq
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    ratio = math.sqrt(sq_dist / 2.0) / claimed.sensitivity(n)
    return _result("estimator", dist, eps_claimed, delta, 2 * half, n_rounds, z, ratio,
                   {"n": n, "kappa": kappa, "learning_rate": learning_rate,
                    "norm_bound": norm_bound, "row_norm": 4.0 * norm_bound})


def audit_multiclass_round(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_RUNS,
    n: int = 20,
    n_classes: int = 10,
    kappa: float = 0.5,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """Audit one round of the joint multiclass learner (all K class centres in one release).

    The learner's noise is calibrated to ``(epsilon, delta)`` for one round *without any
    factor of K*; :func:`dpboost.multiclass.multiclass_round_pair` puts the two datasets' K x d
    centre matrices exactly ``2R/(kappa n)`` apart (the sensitivity the release claims), and the
    likelihood-ratio test over all ``K d`` coordinates (or the best single one, chosen on the
    calibration runs) lower-bounds epsilon.  A learner that needed ``sqrt(K)`` more noise would
    fail here.

    Returns
    -------
    AuditResult
        ``setting="multiclass-round"``.
    """
    from dpboost.multiclass import (
        JointGaussianCentering,
        MulticlassLazyBregBoost,
        class_sums,
        multiclass_round_pair,
    )

    owner = "audit_multiclass_round"
    epsilon, delta, runs, n, kappa = _check_audit_args(owner, epsilon, delta, runs, n, kappa)
    n_classes = check_scalar(n_classes, "n_classes", owner, kind="int", low=2, closed="left")
    rng = check_random_state(random_state, owner=owner)
    z, eps_claimed = _claim(epsilon, delta, 1)
    learner = JointGaussianCentering(z, kappa, n_classes, norm_bound)
    X, X_prime, y, history = multiclass_round_pair(n, kappa, n_classes, norm_bound)
    nxm = MulticlassLazyBregBoost(kappa, 1.0)
    mu_d, mu_p = nxm.recompute(X, y, history), nxm.recompute(X_prime, y, history)
    mu_d, mu_p = mu_d / mu_d.sum(), mu_p / mu_p.sum()
    c_d = class_sums(X, y, mu_d, n_classes).ravel()
    c_p = class_sums(X_prime, y, mu_p, n_classes).ravel()
    ratio = float(np.linalg.norm(c_d - c_p)) / learner.sensitivity(n)
    sigma = learner.mechanism(n, X.shape[1]).sigma
    half = runs // 2
    scores = []
    for data, mu in ((X, mu_d), (X_prime, mu_p)):
        released = np.array([learner.fit(data, y, mu, rng=rng).coef.ravel()
                             for _ in range(half)])
        scores.append(coordinate_log_likelihood_ratios(released * norm_bound**2, c_d, c_p,
                                                       sigma))
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    return _result("multiclass-round", dist, eps_claimed, delta, 2 * half, 1, z, ratio,
                   {"n": n, "n_classes": n_classes, "kappa": kappa, "norm_bound": norm_bound})


# --------------------------------------------------------------------------------------------
# Sensitivity and slickness search
# --------------------------------------------------------------------------------------------


def neighbour_gap(X, y, X_prime, y_prime, hypotheses, *, kappa: float,
                  learning_rate: float) -> tuple[float, float]:
    """Total variation between LB-NxM's normalised measures on S, S' and ``||z - z'||``.

    Returns ``(tv, distance)`` with ``tv = 1/2 sum |mu_hat - mu_hat'|`` (Lemma 25 bounds it by
    ``1/(kappa n)``) and ``distance = ||z(S) - z(S')||`` of the centering sums (at most
    ``2R/(kappa n)``; the paper's Theorem 27 bound is ``4R/(kappa n)``).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, 1.0])
    >>> tv, dist = neighbour_gap(X, y, X, -y, [], kappa=0.5, learning_rate=1.0)
    >>> tv, round(dist, 12)
    (0.0, 1.414213562373)
    """
    nxm = LazyBregBoost(kappa, learning_rate)
    mu = nxm.recompute(X, y, hypotheses)
    mu_prime = nxm.recompute(X_prime, y_prime, hypotheses)
    mu_hat, mu_hat_prime = mu / mu.sum(), mu_prime / mu_prime.sum()
    tv = 0.5 * float(np.abs(mu_hat - mu_hat_prime).sum())
    dist = float(np.linalg.norm(centering_sum(X, y, mu_hat)
                                - centering_sum(X_prime, y_prime, mu_hat_prime)))
    return tv, dist


@dataclass(frozen=True)
class SensitivityResult:
    """Maxima found by :func:`search_sensitivity`, as multiples of the bounds.

    ``max_tv_ratio`` = max TV * kappa n (Lemma 25: <= 1); ``max_distance_ratio`` = max
    ``||z - z'|| * kappa n / (2R)`` (<= 1); ``by_strategy`` holds each strategy's maxima.
    """

    max_tv_ratio: float
    max_distance_ratio: float
    pairs: int
    passed: bool
    by_strategy: dict

    def to_dict(self) -> dict:
        return asdict(self)


def _ball(rng, m, d, radius, on_sphere=False):
    v = rng.normal(size=(m, d))
    v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-300)
    r = np.ones((m, 1)) if on_sphere else rng.uniform(0, 1, (m, 1)) ** (1.0 / d)
    return radius * r * v


def _random_pair(rng, n, d, R, strategy):
    """One neighbouring pair and history for ``strategy`` (see :func:`search_sensitivity`)."""
    X = _ball(rng, n, d, R, on_sphere=strategy in ("norm_bound", "capped"))
    y = rng.choice([-1.0, 1.0], n)
    hyps = [HalfspaceHypothesis(w) for w in rng.normal(0, 3.0 / R, (int(rng.integers(0, 8)), d))]
    if strategy == "capped":
        # every row but 0 is classified correctly by the history; row 0 is orthogonal to it
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        X = R * np.outer(y, u)
        X[0] = _ball(rng, 1, d, R, on_sphere=True)[0]
        X[0] -= (X[0] @ u) * u
        X[0] *= R / max(np.linalg.norm(X[0]), 1e-300)
        hyps = [HalfspaceHypothesis(2.0 * u / R)] * int(rng.integers(1, 40))
        i = 0
    else:
        i = int(rng.integers(n))
    X2, y2 = X.copy(), y.copy()
    if strategy == "random":
        X2[i] = _ball(rng, 1, d, R)[0]
        y2[i] = rng.choice([-1.0, 1.0])
    elif strategy == "flipped":
        y2[i] = -y[i]
    else:  # norm_bound and capped: flip the signed point, norm kept at the bound
        if rng.random() < 0.5:
            y2[i] = -y[i]
        else:
            X2[i] = -X[i]
    return X, y, X2, y2, hyps


def search_sensitivity(
    *,
    pairs: int = 2000,
    n: int = 12,
    d: int = 3,
    kappa: float = 0.5,
    learning_rate: float = 1.0,
    norm_bound: float = 1.0,
    random_state=None,
) -> SensitivityResult:
    """Search neighbouring samples for the largest TV and ``||z - z'||`` of one LB-NxM round.

    Four strategies share the pairs equally: ``random`` (random points, labels, history and
    replacement), ``flipped`` (the replaced point keeps its features and flips its label),
    ``norm_bound`` (every row on the sphere of radius R, the replaced point negated or flipped)
    and ``capped`` (the history classifies every other row correctly and is orthogonal to the
    replaced row, so LB-NxM caps it at weight 1 in both samples; then the flip moves the centre
    by exactly ``2R/(kappa n)``, showing that bound is tight).

    Returns
    -------
    SensitivityResult
        ``passed`` when no ratio exceeds 1 (up to 1e-9).

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Lemma 25 (slickness), Theorem 27.
    """
    owner = "search_sensitivity"
    pairs = check_scalar(pairs, "pairs", owner, kind="int", low=4, closed="left")
    n = check_scalar(n, "n", owner, kind="int", low=2, closed="left")
    d = check_scalar(d, "d", owner, kind="int", low=2, closed="left")
    kappa = check_scalar(kappa, "kappa", owner, low=0, high=1)
    if kappa * n <= 1:
        raise ValueError(f"search_sensitivity needs kappa * n > 1; got kappa={kappa}, n={n}.")
    learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    strategies = ("random", "flipped", "norm_bound", "capped")
    found = {s: [0.0, 0.0] for s in strategies}
    for k in range(pairs):
        strategy = strategies[k % len(strategies)]
        X, y, X2, y2, hyps = _random_pair(rng, n, d, norm_bound, strategy)
        tv, dist = neighbour_gap(X, y, X2, y2, hyps, kappa=kappa, learning_rate=learning_rate)
        best = found[strategy]
        best[0] = max(best[0], tv * kappa * n)
        best[1] = max(best[1], dist * kappa * n / (2.0 * norm_bound))
    max_tv = max(v[0] for v in found.values())
    max_dist = max(v[1] for v in found.values())
    return SensitivityResult(
        max_tv_ratio=max_tv, max_distance_ratio=max_dist, pairs=pairs,
        passed=bool(max_tv <= 1 + 1e-9 and max_dist <= 1 + 1e-9),
        by_strategy={s: {"max_tv_ratio": v[0], "max_distance_ratio": v[1]}
                     for s, v in found.items()})


# --------------------------------------------------------------------------------------------
# Floating-point attack (Mironov 2012)
# --------------------------------------------------------------------------------------------


def grid_output_possible(value: np.ndarray, granularity: float) -> np.ndarray:
    """Whether each released value can come out of :class:`~dpboost.mechanisms.LatticeGaussian`.

    The discrete Gaussian has every integer in its support, so a value is possible under *any*
    dataset iff it lies on the public grid ``g Z``: the release itself says nothing about which
    neighbour produced it beyond its (accounted) probability.
    """
    q = np.asarray(value, dtype=np.float64) / granularity
    return np.isfinite(q) & (q == np.round(q))


def continuous_output_possible(value: float, centre: float, sigma: float,
                               max_steps: int = 64) -> bool:
    """Mironov's test: could ``fl(centre + fl(sigma * x))`` equal ``value`` for some double x?

    The naive release ``centre + numpy normal(0, sigma)`` can only produce the doubles
    ``fl(c + fl(sigma x))``.  This enumerates the doubles ``s`` with ``fl(centre + s) == value``
    (at most ``max_steps`` each way; beyond that it answers True, conservatively) and checks
    whether one of them is ``fl(sigma x)`` for a double ``x`` near ``s / sigma``.  A False for
    the centre of D' on a value released under D rules D' out with certainty.

    References
    ----------
    I. Mironov, "On significance of the least significant bits for differential privacy",
    CCS 2012.
    """
    s0 = value - centre
    candidates = []
    for direction in (-math.inf, math.inf):
        s = s0 if direction > 0 else math.nextafter(s0, direction)
        for _ in range(max_steps):
            if centre + s != value:
                break
            candidates.append(s)
            s = math.nextafter(s, direction)
        else:
            return True
    for s in candidates:
        x = s / sigma
        for _ in range(3):
            x = math.nextafter(x, -math.inf)
        for _ in range(7):
            if sigma * x == s:
                return True
            x = math.nextafter(x, math.inf)
    return False
