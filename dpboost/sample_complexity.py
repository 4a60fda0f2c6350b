"""The paper's sample-complexity statements as functions, term by term.

Generalization (Lemma 29, Theorems 28 and 19), Appendix C's Claims 1-4 and the sample complexity
of Theorems 30 and 33 of Bun, Carmosino & Sorrell (2020), built on the rounds, noise and privacy of
:mod:`dpboost.theory`; every constant is explicit and every function cites its statement.

**Theorem 28.**  The paper prints ``sqrt(2d/n ln(34en/d) log(578n) + ln(4/delta))``; Bartlett and
Shawe-Taylor's bound is ``sqrt((2/n)(d ln(34en/d) log2(578n) + ln(4/delta)))`` (as printed, the
bound exceeds 1 whenever ``delta < 4/e``).  We implement the original.

**Sensitivity.**  ``sensitivity="paper"`` uses the paper's L2 sensitivity ``4/(kappa n)``
(Theorem 27 with the slickness of Lemma 25), ``"tight"`` the value ``2/(kappa n)`` proved in
:class:`dpboost.weak_learners.GaussianCenteringHalfspace`.

All logarithms are natural unless stated otherwise.

References
----------
.. [BCS20] M. Bun, M. L. Carmosino, J. Sorrell. Efficient, Noise-Tolerant, and Private Learning via
   Boosting. COLT 2020 (arXiv:2002.01100).
.. [BST98] P. Bartlett, J. Shawe-Taylor. Generalization performance of support vector machines and
   other pattern classifiers, 1998.
.. [BNSSSU16] R. Bassily et al. Algorithmic stability for adaptive data analysis. STOC 2016.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from accounting._validation import house_message
from dpboost._validation import check_choice, check_scalar
from dpboost.theory import (
    DEFAULT_C,
    _algorithm5,
    _finite_positive,
    _ln_inv,
    _positive,
    _sigma_util,
    _sqrt_max_rho,
    _unit,
)

__all__ = [
    "SampleComplexity",
    "claim1_privacy_samples",
    "claim2_bad_noise_probability",
    "claim2_noise_rate",
    "claim2_noise_samples",
    "claim3_bad_gaussian_probability",
    "claim4_generalization_samples",
    "lemma29_fat_shattering",
    "theorem19_deviation",
    "theorem19_samples",
    "theorem28_error_bound",
    "theorem28_samples",
    "theorem30_sample_complexity",
    "theorem33_sample_complexity",
]

_SENSITIVITY_FACTOR = {"paper": 4.0, "tight": 2.0}


# ---------------------------------------------------------------------------------------------
# Generalization: Lemma 29, Theorem 28, Theorem 19
# ---------------------------------------------------------------------------------------------


def lemma29_fat_shattering(gamma: float) -> float:
    """Fat-shattering dimension bound ``4 / gamma^2`` of ``{x -> z.x : ||z|| <= 2}``.

    [BCS20]_ Lemma 29."""
    g = _positive(gamma, "gamma", "lemma29_fat_shattering")
    return 4.0 / g / g  # inf past float range (``**`` would raise OverflowError)


def theorem28_error_bound(n_samples: float, fat_dimension: float, margin_error: float,
                          confidence: float) -> float:
    """Bartlett & Shawe-Taylor bound on the test error.

    Test error <= ``k/n + sqrt((2/n)(d ln(34en/d) log2(578n) + ln(4/delta)))``.

    ``margin_error`` is ``k/n``, the fraction of training points with margin below ``gamma``;
    ``fat_dimension`` is ``d = fat(gamma/16)``; holds with probability ``1 - confidence``.
    For ``n <= max(d, 1)`` (outside the theorem) the bound is vacuous and 1.0 is returned; just
    above ``d`` the formula itself exceeds 1 (also vacuous) and is returned as computed.  At
    ``n = inf`` it is ``k/n``.

    References
    ----------
    [BCS20]_ Theorem 28, correcting the placement of ``ln(4/delta)`` per [BST98]_.
    """
    owner = "theorem28_error_bound"
    n = _positive(n_samples, "n_samples", owner)
    d = _positive(fat_dimension, "fat_dimension", owner)
    k = check_scalar(margin_error, "margin_error", owner, low=0.0, high=1.0, closed="both")
    delta = _unit(confidence, "confidence", owner)
    if n <= max(d, 1.0):
        return 1.0
    if math.isinf(n):
        return k
    complexity = d * math.log(34.0 * math.e * n / d) * math.log2(578.0 * n)
    return k + math.sqrt(2.0 / n * (complexity + math.log(4.0) + _ln_inv(delta)))


def _smallest_n(predicate, start: float = 1.0) -> float:
    """Smallest real ``n >= start`` with ``predicate(n)`` for a predicate monotone in ``n``."""
    lo, hi = start, start
    while not predicate(hi):
        lo, hi = hi, hi * 2.0
        if hi > 1e300:
            return math.inf
    if hi == start:
        return start
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if predicate(mid):
            hi = mid
        else:
            lo = mid
        if hi / lo < 1 + 1e-12:
            break
    return hi


def theorem28_samples(target_error: float, fat_dimension: float, margin_error: float,
                      confidence: float) -> float:
    """Smallest ``n`` at which :func:`theorem28_error_bound` is at most ``target_error``.

    Inf if never.

    References
    ----------
    [BCS20]_ Theorem 28.
    """
    owner = "theorem28_samples"
    target = _unit(target_error, "target_error", owner)
    k = check_scalar(margin_error, "margin_error", owner, low=0.0, high=1.0, closed="both")
    d = _positive(fat_dimension, "fat_dimension", owner)
    delta = _unit(confidence, "confidence", owner)
    if k >= target:
        return math.inf
    return _smallest_n(lambda n: theorem28_error_bound(n, d, k, delta) <= target,
                       start=max(d, 1.0))


def theorem19_deviation(epsilon: float) -> float:
    """Deviation ``18 eps`` of a privately chosen statistical query.

    [BCS20]_ Theorem 19, [BNSSSU16]_."""
    eps = check_scalar(epsilon, "epsilon", "theorem19_deviation", low=0.0, high=1.0 / 3.0)
    return 18.0 * eps


def theorem19_samples(epsilon: float, delta: float) -> float:
    """Samples ``log(4 eps/delta)/eps^2`` needed by Theorem 19.

    Valid for ``0 < eps < 1/3``, ``0 < delta < eps/4``.

    Then ``P[|q(S) - q(D)| >= 18 eps] <= delta/eps``.

    Examples
    --------
    >>> round(theorem19_samples(0.1, 0.4 * math.exp(-3)), 9)
    300.0

    References
    ----------
    [BCS20]_ Theorem 19 (Bassily et al. 2016).
    """
    return _theorem19_samples(epsilon, delta, "theorem19_samples")


def _theorem19_samples(epsilon: object, delta: object, owner: str) -> float:
    eps = check_scalar(epsilon, "epsilon", owner, low=0.0, high=1.0 / 3.0)
    delta = check_scalar(delta, "delta", owner, low=0.0, high=eps / 4.0)
    ratio = 4.0 * eps / delta
    log_ratio = math.log(ratio) if math.isfinite(ratio) else math.log(4.0 * eps) - math.log(delta)
    return log_ratio / eps / eps


# ---------------------------------------------------------------------------------------------
# Appendix C, Claims 1-4
# ---------------------------------------------------------------------------------------------


def claim1_privacy_samples(epsilon: float, delta: float, margin: float, accuracy: float,
                           failure_probability: float, c: float = DEFAULT_C,
                           sensitivity: str = "paper") -> float:
    """Smallest ``n`` at which HS-StL with Algorithm 5's settings is ``(eps, delta)``-DP.

    ``T`` rounds of the Gaussian weak learner with std ``sigma_util`` and L2 sensitivity
    ``f/(kappa n)`` (``f = 4`` for ``"paper"``, 2 for ``"tight"``) are
    ``rho_T = T f^2 / (2 (kappa n sigma)^2)``-zCDP (Theorem 27, Lemma 14); Lemma 15 turns this into
    ``(eps, delta)``-DP once ``rho_T <= lemma15_max_rho(eps, delta)``, i.e.
    ``n >= f sqrt(T / (2 rho_max)) / (kappa sigma)``, which is
    ``Theta(sqrt(log(1/alpha) log(1/delta) log(log(1/alpha)/(beta tau^2))) / (eps alpha tau^2))``.

    References
    ----------
    [BCS20]_ Claim 1 (Appendix C) and the privacy part of Theorem 30.
    """
    return _claim1(epsilon, delta, margin, accuracy, failure_probability, c, sensitivity,
                   "claim1_privacy_samples")


def _claim1(epsilon, delta, margin, accuracy, failure_probability, c, sensitivity,
            owner: str) -> float:
    """:func:`claim1_privacy_samples`, its errors naming ``owner`` (the public caller)."""
    eps = _positive(epsilon, "epsilon", owner)
    delta = _unit(delta, "delta", owner)
    beta = _unit(failure_probability, "failure_probability", owner)
    c = _finite_positive(c, "c", owner)
    factor = _SENSITIVITY_FACTOR[check_choice(sensitivity, "sensitivity", owner,
                                              tuple(_SENSITIVITY_FACTOR))]
    p = _algorithm5(margin, accuracy, owner)
    sigma = _sigma_util(p.margin, p.n_rounds, beta, c)
    # n = f sqrt(T / (2 rho_max)) / (kappa sigma), divided in steps so that rho_max (~eps^2)
    # cannot underflow to 0 (ZeroDivisionError at eps = 1e-170); 0 at eps = inf, inf past range
    denominator = _sqrt_max_rho(eps, _ln_inv(delta)) * p.kappa * sigma
    if denominator == 0.0:
        return math.inf
    return factor * math.sqrt(p.n_rounds / 2.0) / denominator


def claim2_noise_rate(accuracy: float, margin: float) -> float:
    """Label-noise rate ``eta = alpha tau / 32`` tolerated by HS-StL ([BCS20]_ Claim 2)."""
    return _claim2_rate(accuracy, margin, "claim2_noise_rate")


def _claim2_rate(accuracy: object, margin: object, owner: str) -> float:
    alpha = _unit(accuracy, "accuracy", owner)
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    return alpha * tau / 32.0


def claim2_bad_noise_probability(n_samples: float, accuracy: float, margin: float) -> float:
    """Chernoff bound ``exp(-alpha tau n / 96)`` on ``P[F >= alpha tau n / 16]``.

    At ``eta = alpha tau/32``.

    References
    ----------
    [BCS20]_ Claim 2 (Chernoff with ``delta = 1``: ``P[F >= 2 E F] <= exp(-E F / 3)``).
    """
    owner = "claim2_bad_noise_probability"
    n = _positive(n_samples, "n_samples", owner)
    return math.exp(-n * _claim2_rate(accuracy, margin, owner) / 3.0)


def claim2_noise_samples(accuracy: float, margin: float, failure_probability: float,
                         k1: float = 4.0) -> float:
    """``n > 96 ln(k1/beta) / (alpha tau)`` makes ``P[BN] <= beta/k1``.

    [BCS20]_ Claim 2; Theorem 33 uses ``k1 = 4``.

    Examples
    --------
    >>> round(claim2_noise_samples(0.5, 0.5, math.exp(-1), k1=1.0), 9)
    384.0
    """
    owner = "claim2_noise_samples"
    alpha = _unit(accuracy, "accuracy", owner)
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    beta = _unit(failure_probability, "failure_probability", owner)
    k1 = check_scalar(k1, "k1", owner, low=1.0, closed="left")
    if beta >= k1:
        return 0.0
    # log(k1) - log(beta): both terms have opposite signs (no cancellation), and k1/beta would
    # overflow for subnormal beta or lose the digits of log(k1/beta) as beta -> k1 = 1
    return 96.0 * (math.log(k1) - math.log(beta)) / alpha / tau


def claim3_bad_gaussian_probability(n_rounds: int, per_round_failure: float) -> float:
    """``P[BG] = 1 - (1 - xi)^T <= T xi``: some round's noise destroys the advantage.

    [BCS20]_ Claim 3.

    At Algorithm 5's ``sigma`` the per-round failure is ``xi = beta/(3T)``, so ``P[BG] <= beta/3``.
    """
    owner = "claim3_bad_gaussian_probability"
    rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    xi = check_scalar(per_round_failure, "per_round_failure", owner, low=0.0, high=1.0,
                      closed="both")
    return -math.expm1(rounds * math.log1p(-xi)) if xi < 1 else 1.0


def claim4_generalization_samples(epsilon: float, delta: float) -> float:
    """Samples for Claim 4: Theorem 19's ``log(4 eps/delta)/eps^2``.

    Claim 4: test error <= train error + 18 eps w.p. ``1 - delta/eps``."""
    return _theorem19_samples(epsilon, delta, "claim4_generalization_samples")


# ---------------------------------------------------------------------------------------------
# Theorems 30 and 33: sample complexity term by term
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleComplexity:
    """Sample-complexity terms of a theorem, so a plot can show which dominates.

    ``terms`` maps a name (``"privacy"``, ``"accuracy"``, ``"generalization"``, ``"noise"``) to
    the number of samples that part of the proof needs.  The proof needs all of them at once, so
    the bound is ``maximum``; ``total`` (the sum) is the paper's ``Omega(sum)`` form.
    """

    theorem: str
    terms: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return float(sum(self.terms.values()))

    @property
    def maximum(self) -> float:
        return float(max(self.terms.values()))

    @property
    def dominant(self) -> str:
        return max(self.terms, key=self.terms.__getitem__)

    def __getitem__(self, name: str) -> float:
        return self.terms[name]


def theorem30_sample_complexity(epsilon: float, delta: float, margin: float, accuracy: float,
                                failure_probability: float, c: float = DEFAULT_C,
                                sensitivity: str = "paper") -> SampleComplexity:
    """Theorem 30's sample complexity with the proof's constants, term by term.

    * ``privacy``: :func:`claim1_privacy_samples` at ``(eps, delta)``.
    * ``accuracy``: Theorem 28 with ``d = fat(gamma/16) <= 4/(gamma/16)^2`` (Lemma 29),
      ``gamma = tau/8``, margin errors ``k/n <= 2 kappa = alpha/2`` and confidence ``beta/3``:
      the smallest ``n`` with bound ``<= alpha``.
    * ``noise``: the Chernoff term ``24 log(3/beta)/(kappa tau)`` of Theorem 30's proof (at most
      ``kappa tau n/4`` labels corrupted at ``eta <= kappa tau/8``).

    References
    ----------
    [BCS20]_ Theorem 30 with Theorem 28, Lemma 29, Theorem 27 and Lemma 15.
    """
    owner = "theorem30_sample_complexity"
    p = _algorithm5(margin, accuracy, owner)
    beta = _unit(failure_probability, "failure_probability", owner)
    if beta / 3.0 == 0.0:
        raise ValueError(house_message("failure_probability", owner, "a float in (0, 1) whose "
                                       "third (Theorem 28's confidence) is a positive float",
                                       failure_probability))
    privacy = _claim1(epsilon, delta, margin, accuracy, beta, c, sensitivity, owner)
    d = lemma29_fat_shattering(p.gamma / 16.0)
    accuracy_n = theorem28_samples(p.accuracy, d, 2.0 * p.kappa, beta / 3.0)
    noise = 24.0 * (math.log(3.0) - math.log(beta)) / p.kappa / p.margin
    return SampleComplexity("Theorem 30",
                            {"privacy": privacy, "accuracy": accuracy_n, "noise": noise})


def theorem33_sample_complexity(epsilon: float, delta: float, margin: float, accuracy: float,
                                failure_probability: float, c: float = DEFAULT_C,
                                sensitivity: str = "paper") -> SampleComplexity:
    """Theorem 33's (privacy-only) sample complexity with the proof's constants, term by term.

    The proof runs HS-StL at ``eps_T = phi = min(eps, alpha/36)`` and
    ``delta_T = min(delta, phi beta / 4)`` (so Theorem 19's failure ``delta_T/eps_T <= beta/4``
    and its deviation ``18 eps_T <= alpha/2``).  Terms:

    * ``privacy``: Claim 1 at ``(eps, delta_T)`` - the ``1/(eps alpha tau^2)`` term;
    * ``accuracy``: Claim 1 at ``(alpha/36, delta_T)`` - the ``1/(alpha^2 tau^2)`` term;
    * ``generalization``: Claim 4, ``log(4 phi/delta_T)/phi^2`` - the ``1/eps^2 + 1/alpha^2`` term;
    * ``noise``: Claim 2, ``96 ln(4/beta)/(alpha tau)`` at ``eta = alpha tau/32``.

    ``maximum`` is what the proof needs (privacy and accuracy together are Claim 1 at ``phi``).

    Examples
    --------
    >>> sc = theorem33_sample_complexity(0.001, 1e-6, 0.1, 0.1, 0.05)
    >>> sc.dominant
    'privacy'

    References
    ----------
    [BCS20]_ Theorem 33 and Claims 1-4 (Appendix C).
    """
    owner = "theorem33_sample_complexity"
    eps = _positive(epsilon, "epsilon", owner)
    delta = _unit(delta, "delta", owner)
    p = _algorithm5(margin, accuracy, owner)
    alpha = p.accuracy
    beta = _unit(failure_probability, "failure_probability", owner)
    phi = min(eps, alpha / 36.0)
    delta_t = min(delta, phi * beta / 4.0)
    terms = {
        "privacy": _claim1(eps, delta_t, margin, alpha, beta, c, sensitivity, owner),
        "accuracy": _claim1(alpha / 36.0, delta_t, margin, alpha, beta, c, sensitivity, owner),
        "generalization": _theorem19_samples(phi, delta_t, owner),
        "noise": claim2_noise_samples(alpha, margin, beta, k1=4.0),
    }
    return SampleComplexity("Theorem 33", terms)
