"""The paper's quantitative statements as functions, with every constant explicit.

Each function implements one statement of Bun, Carmosino & Sorrell (2020), "Efficient, Noise-Tolerant,
and Private Learning via Boosting" and cites it.  Where the paper is internally inconsistent we follow
the *proof*, and where it leaves a constant open we make it an explicit, documented argument:

* **Learning rate.**  Algorithm 5 (HS-StL) sets ``lambda = tau/8``, but Theorem 24 and the proof of
  Lemma 38 need ``lambda = gamma/4`` with the weak learner's advantage ``gamma = tau/8``, i.e.
  ``lambda = tau/32``.  :func:`algorithm5_parameters` returns the proof's value.
* **Rounds.**  Theorem 24 asks for ``T >= 16 log(1/kappa)/gamma^2``; with ``gamma = tau/8`` this is
  Algorithm 5's ``T = 1024 log(1/kappa)/tau^2`` (Claim 3's ``512 log(1/kappa)/tau^2`` uses the
  constant 8 instead of 16 and is not used here).
* **The constant c of Theorem 27.**  The advantage of the noisy weak learner loses the projection
  ``nu . u`` of the Gaussian noise on the target direction, a ``N(0, sigma^2)`` variable.  Only the
  lower tail hurts and ``P[N(0, sigma^2) <= -sigma sqrt(2 log(1/xi))] <= xi`` (Chernoff), so
  ``c = sqrt(2)`` makes the paper's ``tau/4 - c sigma sqrt(log(1/xi))`` hold with probability
  ``1 - xi``; the two-sided statement ``P[|nu . u| >= sigma sqrt(2 log(2/xi))] <= xi`` is the same
  constant with ``log(2/xi)``.  ``c`` is an argument everywhere (default ``sqrt(2)``).
* **Per-round failure.**  Algorithm 5's ``sigma`` has ``log(3072 log(1/kappa)/(beta tau^2)) =
  log(3 T / beta)``: failure probability ``xi = beta/(3T)`` per round, ``beta/3`` over ``T`` rounds.
* **Theorem 28.**  The paper prints ``sqrt(2d/n ln(34en/d) log(578n) + ln(4/delta))``; Bartlett and
  Shawe-Taylor's bound is ``sqrt((2/n)(d ln(34en/d) log2(578n) + ln(4/delta)))`` (as printed, the
  bound exceeds 1 whenever ``delta < 4/e``).  We implement the original.
* **Sensitivity.**  The paper's per-round privacy ``rho = 8/(kappa n sigma)^2`` (Theorem 27 with the
  slickness ``s = 1/(kappa n)`` of Lemma 25) is an L2 sensitivity of ``4/(kappa n)``; the tight value
  is ``2/(kappa n)`` (proof in :class:`dpboost.weak_learners.GaussianCenteringHalfspace`).  Sample-complexity functions take ``sensitivity="paper"|"tight"``.
* **zCDP to DP** uses Lemma 15 exactly, ``eps = rho + 2 sqrt(rho log(1/delta))``, not the proof's
  simplification ``3 sqrt(rho log(1/delta))``.

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

from dpboost._validation import check_choice, check_scalar

__all__ = [
    "DEFAULT_C",
    "Algorithm5Parameters",
    "SampleComplexity",
    "algorithm5_parameters",
    "claim1_privacy_samples",
    "claim2_bad_noise_probability",
    "claim2_noise_rate",
    "claim2_noise_samples",
    "claim3_bad_gaussian_probability",
    "claim4_generalization_samples",
    "lemma15_epsilon",
    "lemma15_max_rho",
    "lemma29_fat_shattering",
    "lemma34_regret",
    "lemma38_margin",
    "sigma_util",
    "theorem19_deviation",
    "theorem19_samples",
    "theorem24_learning_rate",
    "theorem24_rounds",
    "theorem27_advantage",
    "theorem27_rho",
    "theorem28_error_bound",
    "theorem28_samples",
    "theorem30_sample_complexity",
    "theorem33_sample_complexity",
]

#: Theorem 27's open constant, for a one-sided Gaussian tail with log(1/xi) (module docstring).
DEFAULT_C = math.sqrt(2.0)

_SENSITIVITY_FACTOR = {"paper": 4.0, "tight": 2.0}


def _unit(value: object, name: str, owner: str) -> float:
    return check_scalar(value, name, owner, low=0.0, high=1.0)


def _positive(value: object, name: str, owner: str) -> float:
    return check_scalar(value, name, owner, low=0.0)


# ---------------------------------------------------------------------------------------------
# Algorithm 5 and Theorem 24 / Lemma 38 / Lemma 34
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Algorithm5Parameters:
    """Settings of HS-StL (Algorithm 5) as the proofs of Theorem 24 and Lemma 38 need them.

    Attributes
    ----------
    margin, accuracy : float
        The inputs ``tau`` and ``alpha``.
    kappa : float
        Density ``alpha / 4``.
    gamma : float
        Advantage of the noisy weak learner at ``sigma_util``: ``tau / 8`` (Theorem 27, Claim 3).
    learning_rate : float
        ``gamma / 4 = tau / 32`` (Theorem 24, Lemma 38), not the Algorithm 5 text's ``tau / 8``.
    n_rounds : int
        ``ceil(16 log(1/kappa) / gamma^2) = ceil(1024 log(1/kappa) / tau^2)``.
    """

    margin: float
    accuracy: float
    kappa: float
    gamma: float
    learning_rate: float
    n_rounds: int

    def sigma_util(self, failure_probability: float, c: float = DEFAULT_C) -> float:
        """:func:`sigma_util` at these settings."""
        return sigma_util(self.margin, self.n_rounds, failure_probability, c=c)


def theorem24_rounds(advantage: float, kappa: float) -> float:
    """Rounds after which LazyBregBoost has margin ``gamma`` on all but ``kappa n`` points.

    ``T = 16 log(1/kappa) / gamma^2`` (Theorem 24; Lemma 38 with ``lambda = gamma/4``).

    Examples
    --------
    >>> round(theorem24_rounds(0.5, math.exp(-1)), 6)
    64.0

    References
    ----------
    [BCS20]_ Theorem 24 and Lemma 38.
    """
    owner = "theorem24_rounds"
    gamma = check_scalar(advantage, "advantage", owner, low=0.0, high=0.5, closed="right")
    kappa = _unit(kappa, "kappa", owner)
    return 16.0 * math.log(1.0 / kappa) / gamma**2


def theorem24_learning_rate(advantage: float) -> float:
    """Learning rate ``lambda = gamma / 4`` of LB-NxM in Theorem 24 / Lemma 38 ([BCS20]_)."""
    gamma = check_scalar(advantage, "advantage", "theorem24_learning_rate", low=0.0, high=0.5,
                         closed="right")
    return gamma / 4.0


def lemma38_margin(advantage: float, kappa: float, n_rounds: float, learning_rate: float) -> float:
    """Margin guaranteed on all but ``kappa n`` training points after ``T`` rounds.

    The proof of Lemma 38 gives ``gamma <= theta/2 + lambda + log(1/kappa)/(T lambda)``, so the
    averaged hypothesis has margin at least
    ``theta = 2 (gamma - lambda - log(1/kappa) / (T lambda))`` on all but ``kappa n`` points
    (Theorem 24's "good margin"; the value may be negative when ``T`` is too small, meaning no
    guarantee).  At ``T = 16 log(1/kappa)/gamma^2`` and ``lambda = gamma/4`` it equals ``gamma``.

    Examples
    --------
    >>> g, k = 0.1, 0.05
    >>> round(lemma38_margin(g, k, theorem24_rounds(g, k), g / 4), 12)
    0.1

    References
    ----------
    [BCS20]_ Lemma 38 (Appendix D) and Theorem 24.
    """
    owner = "lemma38_margin"
    gamma = check_scalar(advantage, "advantage", owner, low=0.0, high=0.5, closed="right")
    kappa = _unit(kappa, "kappa", owner)
    rounds = _positive(n_rounds, "n_rounds", owner)
    lam = _positive(learning_rate, "learning_rate", owner)
    return 2.0 * (gamma - lam - math.log(1.0 / kappa) / (rounds * lam))


def lemma34_regret(learning_rate: float, kappa: float, n_rounds: float, n_samples: float,
                   divergence: float | None = None) -> float:
    """Average regret of the lazy dense update strategy against a fixed kappa-dense measure.

    ``(1/T) sum_t M(mu_t, Q_t) - (1/T) sum_t M(mu, Q_t) <= lambda + KL(mu || mu_1)/(lambda kappa n T)``
    with ``mu_1 = kappa`` everywhere.  ``divergence`` is ``KL(mu || mu_1)``; by default the
    comparator of Lemma 38 (uniform on a set of ``kappa n`` points), ``kappa n log(1/kappa)``, which
    gives ``lambda + log(1/kappa)/(lambda T)``.

    Examples
    --------
    >>> round(lemma34_regret(0.1, math.exp(-1), 100, 1000), 12)
    0.2

    References
    ----------
    [BCS20]_ Lemma 34 (proved in Appendix E).
    """
    owner = "lemma34_regret"
    lam = _positive(learning_rate, "learning_rate", owner)
    kappa = _unit(kappa, "kappa", owner)
    rounds = _positive(n_rounds, "n_rounds", owner)
    n = _positive(n_samples, "n_samples", owner)
    if divergence is None:
        kl = kappa * n * math.log(1.0 / kappa)
    else:
        kl = check_scalar(divergence, "divergence", owner, low=0.0, closed="left")
    return lam + kl / (lam * kappa * n * rounds)


def algorithm5_parameters(margin: float, accuracy: float) -> Algorithm5Parameters:
    """HS-StL's ``kappa``, ``gamma``, ``learning_rate`` and ``n_rounds`` for margin ``tau``, accuracy ``alpha``.

    ``kappa = alpha/4``, ``gamma = tau/8``, ``learning_rate = gamma/4`` (the proof's value, see the
    module docstring) and ``n_rounds = ceil(16 log(1/kappa)/gamma^2)``.

    Examples
    --------
    >>> p = algorithm5_parameters(margin=0.5, accuracy=0.4)
    >>> p.kappa, p.gamma, p.learning_rate, p.n_rounds
    (0.1, 0.0625, 0.015625, 9432)

    References
    ----------
    [BCS20]_ Algorithm 5, Theorem 24, Lemma 38.
    """
    owner = "algorithm5_parameters"
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    alpha = _unit(accuracy, "accuracy", owner)
    kappa = alpha / 4.0
    gamma = tau / 8.0
    rounds = int(math.ceil(theorem24_rounds(gamma, kappa) - 1e-9))
    return Algorithm5Parameters(margin=tau, accuracy=alpha, kappa=kappa, gamma=gamma,
                                learning_rate=gamma / 4.0, n_rounds=rounds)


def sigma_util(margin: float, n_rounds: int, failure_probability: float,
               c: float = DEFAULT_C) -> float:
    """Largest noise std at which every round keeps advantage ``tau/8`` w.p. ``1 - beta/3``.

    ``sigma = tau / (8 c sqrt(log(3 T / beta)))``: with ``xi = beta/(3T)`` Theorem 27's advantage
    ``tau/4 - c sigma sqrt(log(1/xi))`` equals ``tau/8`` and a union bound over ``T`` rounds fails
    with probability at most ``beta/3`` (Algorithm 5, whose ``3072 log(1/kappa)/(beta tau^2)`` is
    ``3T/beta``).  ``c`` is Theorem 27's open constant (module docstring).

    Examples
    --------
    >>> s = sigma_util(0.1, 1000, 0.05)
    >>> round(theorem27_advantage(0.1, s, 0.05 / 3000), 12)
    0.0125

    References
    ----------
    [BCS20]_ Algorithm 5, Theorem 27, Claim 3.
    """
    owner = "sigma_util"
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    beta = _unit(failure_probability, "failure_probability", owner)
    c = _positive(c, "c", owner)
    return tau / (8.0 * c * math.sqrt(math.log(3.0 * rounds / beta)))


# ---------------------------------------------------------------------------------------------
# Theorem 27 and Lemma 15
# ---------------------------------------------------------------------------------------------


def theorem27_rho(n_samples: float, kappa: float, sigma: float, slickness: float = 0.0) -> float:
    """Per-round zCDP of the Gaussian weak learner: ``rho = 2 (1/(kappa n) + s)^2 / sigma^2``.

    With the slickness ``s = 1/(kappa n)`` of Lemma 25 this is the paper's ``8/(kappa n sigma)^2``;
    ``s = 0`` gives the tight sensitivity ``2/(kappa n)``.

    Examples
    --------
    >>> round(theorem27_rho(100, 0.5, 0.1, slickness=1 / 50), 12)
    0.32

    References
    ----------
    [BCS20]_ Theorem 27 (privacy) and Lemma 25.
    """
    owner = "theorem27_rho"
    n = _positive(n_samples, "n_samples", owner)
    kappa = check_scalar(kappa, "kappa", owner, low=0.0, high=1.0, closed="right")
    sigma = _positive(sigma, "sigma", owner)
    s = check_scalar(slickness, "slickness", owner, low=0.0, closed="left")
    return 2.0 * (1.0 / (kappa * n) + s) ** 2 / sigma**2


def theorem27_advantage(margin: float, sigma: float, failure_probability: float,
                        c: float = DEFAULT_C) -> float:
    """Advantage of the noisy weak learner w.p. ``1 - xi``: ``tau/4 - c sigma sqrt(log(1/xi))``.

    Examples
    --------
    >>> round(theorem27_advantage(0.4, 0.01, math.exp(-2), c=1.0), 12)
    0.085857864376

    References
    ----------
    [BCS20]_ Theorem 27 (advantage), with the constant ``c`` documented in the module docstring.
    """
    owner = "theorem27_advantage"
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    sigma = check_scalar(sigma, "sigma", owner, low=0.0, closed="left")
    xi = _unit(failure_probability, "failure_probability", owner)
    c = _positive(c, "c", owner)
    return tau / 4.0 - c * sigma * math.sqrt(math.log(1.0 / xi))


def lemma15_epsilon(rho: float, delta: float) -> float:
    """``eps = rho + 2 sqrt(rho log(1/delta))`` ([BCS20]_ Lemma 15, from Bun & Steinke 2016)."""
    owner = "lemma15_epsilon"
    rho = check_scalar(rho, "rho", owner, low=0.0, closed="left")
    delta = _unit(delta, "delta", owner)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def lemma15_max_rho(epsilon: float, delta: float) -> float:
    """Largest ``rho`` whose Lemma 15 conversion is at most ``epsilon``: ``(sqrt(L+eps) - sqrt(L))^2``.

    Examples
    --------
    >>> round(lemma15_epsilon(lemma15_max_rho(1.0, 1e-6), 1e-6), 12)
    1.0
    """
    owner = "lemma15_max_rho"
    eps = _positive(epsilon, "epsilon", owner)
    big_l = math.log(1.0 / _unit(delta, "delta", owner))
    # (sqrt(L+eps) - sqrt(L))^2 written without cancellation.
    return (eps / (math.sqrt(big_l + eps) + math.sqrt(big_l))) ** 2


# ---------------------------------------------------------------------------------------------
# Generalization: Lemma 29, Theorem 28, Theorem 19
# ---------------------------------------------------------------------------------------------


def lemma29_fat_shattering(gamma: float) -> float:
    """Fat-shattering dimension bound ``4 / gamma^2`` of ``{x -> z.x : ||z|| <= 2}`` ([BCS20]_ Lemma 29)."""
    g = _positive(gamma, "gamma", "lemma29_fat_shattering")
    return 4.0 / g**2


def theorem28_error_bound(n_samples: float, fat_dimension: float, margin_error: float,
                          confidence: float) -> float:
    """Bartlett & Shawe-Taylor: test error <= ``k/n + sqrt((2/n)(d ln(34en/d) log2(578n) + ln(4/delta)))``.

    ``margin_error`` is ``k/n``, the fraction of training points with margin below ``gamma``;
    ``fat_dimension`` is ``d = fat(gamma/16)``; holds with probability ``1 - confidence``.
    For ``n <= d`` the bound is vacuous and 1.0 is returned.

    References
    ----------
    [BCS20]_ Theorem 28, correcting the placement of ``ln(4/delta)`` per [BST98]_.
    """
    owner = "theorem28_error_bound"
    n = _positive(n_samples, "n_samples", owner)
    d = _positive(fat_dimension, "fat_dimension", owner)
    k = check_scalar(margin_error, "margin_error", owner, low=0.0, high=1.0, closed="both")
    delta = _unit(confidence, "confidence", owner)
    if n <= d:
        return 1.0
    complexity = d * math.log(34.0 * math.e * n / d) * math.log2(578.0 * n)
    return k + math.sqrt(2.0 / n * (complexity + math.log(4.0 / delta)))


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
    """Smallest ``n`` at which :func:`theorem28_error_bound` is at most ``target_error`` (inf if never).

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
    return _smallest_n(lambda n: theorem28_error_bound(n, d, k, delta) <= target, start=d)


def theorem19_deviation(epsilon: float) -> float:
    """Deviation ``18 eps`` of a privately chosen statistical query ([BCS20]_ Theorem 19, [BNSSSU16]_)."""
    eps = check_scalar(epsilon, "epsilon", "theorem19_deviation", low=0.0, high=1.0 / 3.0)
    return 18.0 * eps


def theorem19_samples(epsilon: float, delta: float) -> float:
    """Samples ``log(4 eps/delta)/eps^2`` needed by Theorem 19 (``0 < eps < 1/3``, ``0 < delta < eps/4``).

    Then ``P[|q(S) - q(D)| >= 18 eps] <= delta/eps``.

    Examples
    --------
    >>> round(theorem19_samples(0.1, 0.4 * math.exp(-3)), 9)
    300.0

    References
    ----------
    [BCS20]_ Theorem 19 (Bassily et al. 2016).
    """
    owner = "theorem19_samples"
    eps = check_scalar(epsilon, "epsilon", owner, low=0.0, high=1.0 / 3.0)
    delta = check_scalar(delta, "delta", owner, low=0.0, high=eps / 4.0)
    return math.log(4.0 * eps / delta) / eps**2


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
    owner = "claim1_privacy_samples"
    eps = _positive(epsilon, "epsilon", owner)
    delta = _unit(delta, "delta", owner)
    beta = _unit(failure_probability, "failure_probability", owner)
    factor = _SENSITIVITY_FACTOR[check_choice(sensitivity, "sensitivity", owner,
                                              tuple(_SENSITIVITY_FACTOR))]
    p = algorithm5_parameters(margin, accuracy)
    sigma = sigma_util(p.margin, p.n_rounds, beta, c=c)
    rho_max = lemma15_max_rho(eps, delta)
    return factor * math.sqrt(p.n_rounds / (2.0 * rho_max)) / (p.kappa * sigma)


def claim2_noise_rate(accuracy: float, margin: float) -> float:
    """Label-noise rate ``eta = alpha tau / 32`` tolerated by HS-StL ([BCS20]_ Claim 2)."""
    owner = "claim2_noise_rate"
    alpha = _unit(accuracy, "accuracy", owner)
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    return alpha * tau / 32.0


def claim2_bad_noise_probability(n_samples: float, accuracy: float, margin: float) -> float:
    """Chernoff bound ``exp(-alpha tau n / 96)`` on ``P[F >= alpha tau n / 16]`` at ``eta = alpha tau/32``.

    References
    ----------
    [BCS20]_ Claim 2 (Chernoff with ``delta = 1``: ``P[F >= 2 E F] <= exp(-E F / 3)``).
    """
    n = _positive(n_samples, "n_samples", "claim2_bad_noise_probability")
    return math.exp(-n * claim2_noise_rate(accuracy, margin) / 3.0)


def claim2_noise_samples(accuracy: float, margin: float, failure_probability: float,
                         k1: float = 4.0) -> float:
    """``n > 96 ln(k1/beta) / (alpha tau)`` makes ``P[BN] <= beta/k1`` ([BCS20]_ Claim 2; Theorem 33 uses ``k1 = 4``).

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
    return 96.0 * math.log(k1 / beta) / (alpha * tau)


def claim3_bad_gaussian_probability(n_rounds: int, per_round_failure: float) -> float:
    """``P[BG] = 1 - (1 - xi)^T <= T xi``: some round's noise destroys the advantage ([BCS20]_ Claim 3).

    At Algorithm 5's ``sigma`` the per-round failure is ``xi = beta/(3T)``, so ``P[BG] <= beta/3``.
    """
    owner = "claim3_bad_gaussian_probability"
    rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    xi = check_scalar(per_round_failure, "per_round_failure", owner, low=0.0, high=1.0,
                      closed="both")
    return -math.expm1(rounds * math.log1p(-xi)) if xi < 1 else 1.0


def claim4_generalization_samples(epsilon: float, delta: float) -> float:
    """Samples for Claim 4 (test error <= train error + 18 eps w.p. ``1 - delta/eps``): Theorem 19's ``log(4 eps/delta)/eps^2``."""
    return theorem19_samples(epsilon, delta)


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
    p = algorithm5_parameters(margin, accuracy)
    beta = _unit(failure_probability, "failure_probability", owner)
    privacy = claim1_privacy_samples(epsilon, delta, margin, accuracy, beta, c=c,
                                     sensitivity=sensitivity)
    d = lemma29_fat_shattering(p.gamma / 16.0)
    accuracy_n = theorem28_samples(p.accuracy, d, 2.0 * p.kappa, beta / 3.0)
    noise = 24.0 * math.log(3.0 / beta) / (p.kappa * p.margin)
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
    alpha = _unit(accuracy, "accuracy", owner)
    beta = _unit(failure_probability, "failure_probability", owner)
    phi = min(eps, alpha / 36.0)
    delta_t = min(delta, phi * beta / 4.0)
    terms = {
        "privacy": claim1_privacy_samples(eps, delta_t, margin, alpha, beta, c=c,
                                          sensitivity=sensitivity),
        "accuracy": claim1_privacy_samples(alpha / 36.0, delta_t, margin, alpha, beta, c=c,
                                           sensitivity=sensitivity),
        "generalization": claim4_generalization_samples(phi, delta_t),
        "noise": claim2_noise_samples(alpha, margin, beta, k1=4.0),
    }
    return SampleComplexity("Theorem 33", terms)
