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
import warnings
from dataclasses import asdict, dataclass, field

import numpy as np

from accounting import calibrate_noise
from dpboost._validation import check_random_state, check_scalar
from dpboost.audit_statistics import (
    DistinguisherResult,
    clopper_pearson,
    coordinate_log_likelihood_ratios,
    distinguish,
    distinguish_best,
    epsilon_detectable,
    epsilon_lower_bound,
    expected_power,
    gaussian_log_likelihood_ratio,
    runs_to_detect,
)
from dpboost.boost import boost
from dpboost.exceptions import ClippedRowsWarning
from dpboost.float_attack import continuous_output_possible, grid_output_possible
from dpboost.lazy_breg import LazyBregBoost
from dpboost.sensitivity_search import SensitivityResult, neighbour_gap, search_sensitivity
from dpboost.weak_learners import GaussianCenteringHalfspace, HalfspaceHypothesis, centering_sum

#: Defaults of the audit.  A 2x error in the noise (or the sensitivity) doubles mu; at
#: (eps, delta) = (2, 1e-3) the analytic power to flag it is > 0.9999 with 20,000 runs of one round
#: and 20,000 runs of a 3-round boosting run (the claim is the target epsilon, and the discrete
#: release is calibrated through zCDP, so the correct mechanism sits further below the claim;
#: :func:`expected_power`, measured by benchmarks/bench_audit.py).  At delta = 1e-5 the same
#: power needs about 100,000 runs: the privacy loss there lives in tails that only many runs
#: can see.
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
# Mechanisms under audit
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditResult:
    """Result of :func:`audit_round` or :func:`audit_run`.

    ``passed`` is ``epsilon_lower <= epsilon_claimed``; ``epsilon_claimed`` is the epsilon the
    user asked for (the target), never what the audited code's own accountant reports.
    ``epsilon_detectable`` is the largest lower bound these runs could give (a perfect test,
    :func:`~dpboost.audit_statistics.epsilon_detectable`); when the claim is at or above it no
    mechanism could fail, so ``conclusive`` is false and the audit says nothing: more runs
    (``runs_needed``) are required before a pass means anything.  ``conclusive`` is necessary,
    not sufficient: just under the ceiling only a near-perfect test fails, so a mechanism with
    half its noise (true epsilon 17.7) passed a claim of 8 on ``runs_needed`` = 27,496 runs.
    The power against a given error is :func:`~dpboost.audit_statistics.expected_power`.
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
    epsilon_detectable: float = math.inf
    runs_needed: int = 0

    @property
    def conclusive(self) -> bool:
        """Whether these runs could have shown more than the claimed epsilon (see above)."""
        return self.epsilon_claimed < self.epsilon_detectable

    @property
    def verdict(self) -> str:
        """``"FAILED"``, ``"PASSED"``, or ``"INCONCLUSIVE"`` (a pass no mechanism could fail)."""
        if not self.passed:
            return "FAILED"
        return "PASSED" if self.conclusive else "INCONCLUSIVE"

    def to_dict(self) -> dict:
        """JSON-ready dict; the first five keys are the documented CLI output."""
        out = asdict(self) | {"conclusive": self.conclusive, "verdict": self.verdict}
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
        distance_over_sensitivity=float(ratio), details=details,
        epsilon_detectable=epsilon_detectable(dist.negatives, dist.positives, delta=delta),
        runs_needed=runs_to_detect(eps_claimed, delta))


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
    """Noiseless centres ``c_t`` under (X, y) for each run's released history.

    Shape (runs, T, d)."""
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
            with warnings.catch_warnings():  # the pair's rows lie outside R on purpose
                warnings.simplefilter("ignore", ClippedRowsWarning)
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
