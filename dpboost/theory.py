"""The paper's quantitative statements as functions, with every constant explicit.

Each function implements one statement of Bun, Carmosino & Sorrell (2020), "Efficient,
Noise-Tolerant, and Private Learning via Boosting" and cites it: here the rounds, the noise and the
privacy of one run (Algorithm 5, Theorems 24 and 27, Lemmas 15, 34 and 38); the sample complexity
built on them (generalization, Appendix C's Claims 1-4, Theorems 30 and 33) is in
:mod:`dpboost.sample_complexity`.  Where the paper is internally inconsistent we follow the
*proof*, and where it leaves a constant open we make it an explicit, documented argument:

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
* **Sensitivity.**  The paper's per-round privacy ``rho = 8/(kappa n sigma)^2`` (Theorem 27 with the
  slickness ``s = 1/(kappa n)`` of Lemma 25) is an L2 sensitivity of ``4/(kappa n)``; the tight
  value is ``2/(kappa n)`` (proof in :class:`dpboost.weak_learners.GaussianCenteringHalfspace`); the
  sample-complexity functions (:mod:`dpboost.sample_complexity`) take
  ``sensitivity="paper"|"tight"``.
* **zCDP to DP** uses Lemma 15 exactly, ``eps = rho + 2 sqrt(rho log(1/delta))``, not the proof's
  simplification ``3 sqrt(rho log(1/delta))``.

All logarithms are natural unless stated otherwise.

References
----------
.. [BCS20] M. Bun, M. L. Carmosino, J. Sorrell. Efficient, Noise-Tolerant, and Private Learning via
   Boosting. COLT 2020 (arXiv:2002.01100).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from accounting._validation import house_message
from dpboost._validation import check_scalar

__all__ = [
    "DEFAULT_C",
    "Algorithm5Parameters",
    "algorithm5_parameters",
    "lemma15_epsilon",
    "lemma15_max_rho",
    "lemma34_regret",
    "lemma38_margin",
    "sigma_util",
    "theorem24_learning_rate",
    "theorem24_rounds",
    "theorem27_advantage",
    "theorem27_rho",
]


def __getattr__(name: str):
    """A name that moved to :mod:`dpboost.sample_complexity` (its ``__all__``), with a
    DeprecationWarning; the list lives there only."""
    if not name.startswith("_"):
        import warnings

        from dpboost import sample_complexity

        if name in sample_complexity.__all__:
            warnings.warn(f"dpboost.theory.{name} moved to dpboost.sample_complexity.{name}",
                          DeprecationWarning, stacklevel=2)
            return getattr(sample_complexity, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Theorem 27's open constant, for a one-sided Gaussian tail with log(1/xi) (module docstring).
DEFAULT_C = math.sqrt(2.0)

def _unit(value: object, name: str, owner: str) -> float:
    return check_scalar(value, name, owner, low=0.0, high=1.0)


def _positive(value: object, name: str, owner: str) -> float:
    return check_scalar(value, name, owner, low=0.0)


def _finite_positive(value: object, name: str, owner: str) -> float:
    return check_scalar(value, name, owner, low=0.0, high=math.inf)


def _ln_inv(x: float) -> float:
    """``log(1/x)`` as ``-log(x)``: ``1/x`` overflows for subnormal ``x`` and loses the digits of
    ``log(1/x)`` as ``x -> 1`` (relative error 1e-4 at ``x = 1 - 1e-12``)."""
    return -math.log(x)


def _ratio(numerator: float, *denominators: float) -> float:
    """``numerator / prod(denominators)`` (all >= 0, denominators > 0) without a spurious
    ZeroDivisionError, OverflowError or intermediate overflow: inf only beyond float range."""
    den = 1.0
    for d in denominators:  # every partial product normal: else digits are lost on the way
        den *= d
        if not sys.float_info.min <= den < math.inf:
            break
    else:
        return numerator / den
    if numerator == 0.0:
        return 0.0
    log_value = math.log(numerator) - math.fsum(math.log(d) for d in denominators)
    return math.inf if log_value > _LOG_FLOAT_MAX else math.exp(log_value)


_LOG_FLOAT_MAX = math.log(sys.float_info.max)


def _sqrt_max_rho(epsilon: float, big_l: float) -> float:
    """``sqrt(rho)`` solving ``rho + 2 sqrt(rho L) = eps``: ``eps / (sqrt(L + eps) + sqrt(L))``."""
    if math.isinf(epsilon):
        return math.inf
    return epsilon / (math.sqrt(big_l + epsilon) + math.sqrt(big_l))


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
    return 16.0 * _ln_inv(kappa) / gamma / gamma  # inf, not ZeroDivisionError, past float range


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
    return 2.0 * (gamma - lam - _ratio(_ln_inv(kappa), rounds, lam))


def lemma34_regret(learning_rate: float, kappa: float, n_rounds: float, n_samples: float,
                   divergence: float | None = None) -> float:
    """Average regret of the lazy dense update strategy against a fixed kappa-dense measure.

    ``(1/T) sum_t M(mu_t, Q_t) - (1/T) sum_t M(mu, Q_t)
    <= lambda + KL(mu || mu_1)/(lambda kappa n T)``
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
    if divergence is None:  # KL = kappa n log(1/kappa): kappa n cancels (also at n = inf)
        return lam + _ratio(_ln_inv(kappa), lam, rounds)
    kl = check_scalar(divergence, "divergence", owner, low=0.0, high=math.inf, closed="left")
    return lam + _ratio(kl, lam, kappa, n, rounds)


def algorithm5_parameters(margin: float, accuracy: float) -> Algorithm5Parameters:
    """HS-StL's ``kappa``, ``gamma``, ``learning_rate`` and ``n_rounds``.

    For margin ``tau`` and accuracy ``alpha``.

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
    return _algorithm5(margin, accuracy, "algorithm5_parameters")


def _algorithm5(margin: object, accuracy: object, owner: str) -> Algorithm5Parameters:
    """:func:`algorithm5_parameters`, its errors naming ``owner`` (the public caller)."""
    tau = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    alpha = _unit(accuracy, "accuracy", owner)
    kappa = alpha / 4.0
    gamma = tau / 8.0
    if kappa == 0.0:
        raise ValueError(house_message("accuracy", owner, "a float in (0, 1) whose quarter "
                                       "kappa = accuracy/4 is a positive float", accuracy))
    t = 16.0 * _ln_inv(kappa) / gamma / gamma if gamma > 0.0 else math.inf
    if not math.isfinite(t):
        raise ValueError(house_message("margin", owner, "a float in (0, 1] for which Algorithm "
                                       "5's 1024 log(4/accuracy)/margin^2 rounds are a finite "
                                       "float", margin))
    rounds = int(math.ceil(t - 1e-9))
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
    c = _finite_positive(c, "c", owner)
    return _sigma_util(tau, rounds, beta, c)


def _sigma_util(tau: float, rounds: int, beta: float, c: float) -> float:
    # log(3T/beta) summed: 3T/beta overflows for subnormal beta or T beyond 1e308 (an int)
    return tau / 8.0 / c / math.sqrt(math.log(3.0) + math.log(rounds) - math.log(beta))


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
    sigma = _finite_positive(sigma, "sigma", owner)
    s = check_scalar(slickness, "slickness", owner, low=0.0, high=math.inf, closed="left")
    ratio = (_ratio(1.0, kappa, n) + s) / sigma
    return 2.0 * ratio * ratio  # inf past float range (``**`` would raise OverflowError)


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
    c = _finite_positive(c, "c", owner)
    return tau / 4.0 - c * sigma * math.sqrt(_ln_inv(xi))


def lemma15_epsilon(rho: float, delta: float) -> float:
    """``eps = rho + 2 sqrt(rho log(1/delta))`` ([BCS20]_ Lemma 15, from Bun & Steinke 2016)."""
    owner = "lemma15_epsilon"
    rho = check_scalar(rho, "rho", owner, low=0.0, closed="left")
    delta = _unit(delta, "delta", owner)
    return rho + 2.0 * math.sqrt(rho * _ln_inv(delta))


def lemma15_max_rho(epsilon: float, delta: float) -> float:
    """Largest ``rho`` whose Lemma 15 conversion is at most ``epsilon``.

    It is ``(sqrt(L+eps) - sqrt(L))^2``.

    Examples
    --------
    >>> round(lemma15_epsilon(lemma15_max_rho(1.0, 1e-6), 1e-6), 12)
    1.0
    """
    owner = "lemma15_max_rho"
    eps = _positive(epsilon, "epsilon", owner)
    big_l = _ln_inv(_unit(delta, "delta", owner))
    # (sqrt(L+eps) - sqrt(L))^2 written without cancellation; inf at eps = inf (not inf/inf = NaN)
    root = _sqrt_max_rho(eps, big_l)
    return root * root
