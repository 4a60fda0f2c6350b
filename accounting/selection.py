r"""Private selection among private candidates: the truncated-negative-binomial event (PS22).

A base algorithm ``Q`` (train one randomly chosen configuration, score it privately) is run a
random number ``K`` of times and only the best run is released.  Papernot & Steinke (2022,
"Hyperparameter Tuning with Renyi Differential Privacy", ICLR, arXiv:2110.03620), **Theorem 2**:

    Let ``Q`` satisfy ``(lambda, eps)``-RDP and ``(lambda_hat, eps_hat)``-RDP for some
    ``lambda in (1, inf)``, ``lambda_hat in [1, inf)``.  Let ``K`` follow the truncated
    negative binomial distribution ``D_{eta, gamma}`` (``eta > -1``, ``gamma in (0, 1)``).
    Then "run ``Q`` ``K`` times and return the best" satisfies ``(lambda, eps')``-RDP with

    .. math::
        \varepsilon' = \varepsilon + (1 + \eta)\Big(1 - \frac{1}{\hat\lambda}\Big)\hat\varepsilon
        + \frac{(1 + \eta)\log(1/\gamma)}{\hat\lambda} + \frac{\log \mathbb{E}[K]}{\lambda - 1}.

For a ``rho``-zCDP base (``eps = rho lambda`` at every order) the middle terms are
``(1 + eta) (rho (lambda_hat - 1) + log(1/gamma) / lambda_hat)``, smallest at
``lambda_hat = max(1, sqrt(log(1/gamma) / rho))``, which :func:`selection_rdp` uses (any
``lambda_hat >= 1`` is valid, so the choice only tightens the bound).

``D_{eta, gamma}``:
``P[K = k] = (1 - gamma)^k / (gamma^{-eta} - 1) * prod_{l < k} (l + eta)/(l + 1)``
for ``k >= 1``; ``eta = 1`` is the geometric distribution ``P[K = k] = gamma (1 - gamma)^{k-1}``
with ``E[K] = 1 / gamma``; ``eta = 0`` is the logarithmic distribution.

The RDP curve is converted to ``(epsilon, delta)`` with Canonne, Kamath & Steinke (2020,
Prop. 12), valid for any RDP curve order by order:
``epsilon = inf_alpha eps'(alpha) + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)``
(method ``"cks"``), or Mironov (2017, Prop. 3): ``eps'(alpha) + log(1/delta) / (alpha - 1)``
(method ``"paper"``).  Every ``alpha`` gives a valid bound, so a numerical minimiser can only be
pessimistic, never optimistic, once each value it compares is rounded up (:func:`selection_rdp`,
:func:`rdp_epsilon`).

References
----------
N. Papernot, T. Steinke. "Hyperparameter Tuning with Renyi Differential Privacy." ICLR 2022,
Theorem 2 and Section 2.
J. Liu, K. Talwar. "Private selection from private candidates." STOC 2019.
C. Canonne, G. Kamath, T. Steinke. "The Discrete Gaussian for Differential Privacy." 2020,
Prop. 12.  I. Mironov. "Renyi Differential Privacy." CSF 2017, Prop. 3.

Examples
--------
>>> ev = TNBSelectionEvent(rho=0.01, eta=1.0, gamma=0.2)
>>> round(ev.expected_runs, 6)
5.0
>>> 0 < rdp_epsilon(lambda a: selection_rdp(ev, a), 1e-6, "cks") < 3
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from accounting._validation import check_real
from accounting.events import DPEvent

__all__ = ["TNBSelectionEvent", "padding_runs", "rdp_delta", "rdp_epsilon", "selection_rdp",
           "tnb_pmf", "tnb_tails"]


@dataclass(frozen=True)
class TNBSelectionEvent(DPEvent):
    """Best of ``K ~ D_{eta, gamma}`` runs of a ``rho``-zCDP base algorithm (PS22, Theorem 2).

    Not a zCDP mechanism (its RDP curve has a ``log E[K] / (alpha - 1)`` term), so
    :class:`~accounting.zcdp.ZCDPAccountant` composes it as an RDP curve
    (:func:`selection_rdp`) and converts with :func:`rdp_epsilon`.
    """

    rho: float
    eta: float
    gamma: float

    def __post_init__(self) -> None:
        rho = check_real(self.rho, "rho", "TNBSelectionEvent", low=0)
        eta = check_real(self.eta, "eta", "TNBSelectionEvent", low=-1, high=math.inf)
        gamma = check_real(self.gamma, "gamma", "TNBSelectionEvent", low=0, high=1)
        object.__setattr__(self, "rho", rho)
        object.__setattr__(self, "eta", eta)
        object.__setattr__(self, "gamma", gamma)

    @property
    def expected_runs(self) -> float:
        """``E[K]``: ``eta (1 - gamma) / (gamma (1 - gamma^eta))``.

        It is ``(1/gamma - 1)/log(1/gamma)`` at 0."""
        g, eta = self.gamma, self.eta
        if eta == 0:
            return (1.0 / g - 1.0) / math.log(1.0 / g)
        # 1 - gamma**eta as -expm1(eta log gamma): the difference cancels for small eta (at
        # eta = 1e-7 it lost 1e-10 relative, which made rdp_epsilon optimistic by as much)
        return eta * (1.0 - g) / (g * -math.expm1(eta * math.log(g)))

    def to_dict(self) -> dict:
        return {"type": "TNBSelectionEvent", "rho": self.rho, "eta": self.eta,
                "gamma": self.gamma}


def tnb_pmf(k: int, eta: float, gamma: float) -> float:
    """``P[K = k]`` of the truncated negative binomial ``D_{eta, gamma}`` (``k >= 1``)."""
    if k < 1:
        return 0.0
    if eta == 0:
        return (1.0 - gamma) ** k / (k * math.log(1.0 / gamma))
    # for eta in (-1, 0) the first factor and the normaliser are both negative
    log_p = k * math.log1p(-gamma) - math.log(abs(gamma**-eta - 1.0))
    for ell in range(k):
        log_p += math.log(abs(ell + eta) / (ell + 1))
    return math.exp(log_p)


def tnb_tails(eta: float, gamma: float, bound: float, *, limit: int = 10**6) -> list[float]:
    """Upper bounds on ``P[K > k]`` for ``K ~ D_{eta, gamma}``, ``k = 0, 1, ...``, until one is
    at most ``bound``.

    The pmf is walked by its recurrence ``p_{k+1} = p_k r_k`` with
    ``r_k = (1 - gamma)(k + eta)/(k + 1)`` up to an index ``m`` where the remainder
    ``sum_{j > m} p_j <= p_m r / (1 - r)``, ``r = max(r_m, 1 - gamma) < 1``, is below
    ``1e-6 bound`` (``r_j <= 1 - gamma`` for ``eta <= 1``; ``r_j`` decreases in ``j`` for
    ``eta > 1``, so ``r_j <= r_m`` for ``j >= m``).  Each tail is then a suffix sum plus that
    remainder bound: summed from the small end, with no ``1 - CDF`` cancellation, and never
    below the exact tail (times ``1 + 1e-9`` for the rounding of the sums).  Raises
    ``ValueError`` if the walk passes ``limit``.
    """
    p, k, pmf = tnb_pmf(1, eta, gamma), 1, [0.0]
    while True:
        if k > limit:
            raise ValueError(f"P[K > k] for K ~ D(eta={eta!r}, gamma={gamma!r}) needs a walk "
                             f"past k = {limit:,} to fall below {bound:.3g}.")
        pmf.append(p)
        r_k = (1.0 - gamma) * (k + eta) / (k + 1)
        r = max(r_k, 1.0 - gamma)
        if r < 1.0 and p * r / (1.0 - r) <= 1e-6 * bound:
            break
        p *= r_k
        k += 1
    tails = [0.0] * len(pmf)
    acc = p * r / (1.0 - r)  # the remainder beyond the last index walked
    for j in range(len(pmf) - 1, -1, -1):
        tails[j] = acc * (1.0 + 1e-9)
        acc += pmf[j]
    # tails[j] = P[K > j] for j = 0 .. m (tails[0] = 1 up to rounding)
    cut = next(j for j, t in enumerate(tails) if t <= bound)
    return tails[:cut + 1]


def padding_runs(eta: float, gamma: float, tail: float, *,
                 limit: int = 10**6) -> tuple[int, float]:
    """``(k_pad, P[K > k_pad])``: the smallest ``k_pad >= 1`` with ``P[K > k_pad] <= tail``.

    ``tail`` in ``(0, 1)``; the probability returned is an upper bound
    (:func:`tnb_tails`, which raises past ``limit``).  Used to pad a private selection to
    ``max(K, k_pad)`` runs, so that its wall time is a public constant except with
    probability ``P[K > k_pad]``.

    Examples
    --------
    >>> k, p = padding_runs(1.0, 0.5, 1e-3)  # geometric: P[K > k] = 0.5**k
    >>> k, round(p / 0.5**k, 6)
    (10, 1.0)
    """
    tail = check_real(tail, "tail", "padding_runs", low=0, high=1)
    tails = tnb_tails(eta, gamma, tail, limit=limit)
    k = max(1, len(tails) - 1)
    return k, tails[k]


def selection_rdp(event: TNBSelectionEvent, alpha: float) -> float:
    """``eps'(alpha)`` of Theorem 2 for a ``rho``-zCDP base (``lambda_hat`` chosen optimally).

    Rounded up: the floating-point value is raised by ``1e-14`` times itself (its terms are
    non-negative, so this bounds their rounding) plus ``1e-14 / (alpha - 1)``, which bounds the
    error of ``log E[K]`` (a few unit roundoffs of ``E[K]``, absolute after the log) divided by
    ``alpha - 1``. The result is never below the exact ``eps'(alpha)`` (checked against 50-digit
    arithmetic in the tests).
    """
    rho, eta, g = event.rho, event.eta, event.gamma
    log_inv_g = math.log(1.0 / g)
    # sqrt(a) / sqrt(rho), not sqrt(a / rho): the quotient overflows for a denormal rho, and
    # lam_hat = inf would then drop the middle term (an optimistic curve)
    lam_hat = max(1.0, math.sqrt(log_inv_g) / math.sqrt(rho)) if rho > 0 else math.inf
    middle = 0.0 if lam_hat == math.inf else rho * (lam_hat - 1.0) + log_inv_g / lam_hat
    value = (rho * alpha + (1.0 + eta) * middle
             + math.log(event.expected_runs) / (alpha - 1.0))
    return value + 1e-14 * value + 1e-14 / (alpha - 1.0)


def _nan_to_inf(f: Callable[[float], float]) -> Callable[[float], float]:
    """``f`` with NaN (e.g. ``inf - inf`` for a non-private curve at ``epsilon = inf``) read as
    ``+inf``: the minimum is then never taken at a NaN, so the bound stays conservative."""

    def g(a: float) -> float:
        value = f(a)
        return math.inf if math.isnan(value) else value

    return g


def _minimise(f: Callable[[float], float]) -> float:
    """``min f(alpha)`` over ``alpha > 1``: a log grid, then a golden-section refinement."""
    grid = [1.0 + math.exp(t / 8.0) for t in range(-80, 90)]
    f = _nan_to_inf(f)
    values = [f(a) for a in grid]
    i = min(range(len(grid)), key=values.__getitem__)
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    best = values[i]
    phi = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(60):
        a = hi - phi * (hi - lo)
        b = lo + phi * (hi - lo)
        fa, fb = f(a), f(b)
        best = min(best, fa, fb)
        if fa < fb:
            hi = b
        else:
            lo = a
    return best


def _up(value: float, scale: float) -> float:
    """``value + 1e-15 * scale``, except ``-inf`` (an unbounded ``epsilon``) stays ``-inf``."""
    return value if value == -math.inf else value + 1e-15 * scale


def _log_one_minus_inv(u: float) -> float:
    """``log(1 - 1/alpha)`` at ``alpha = 1 + u``, without cancellation near ``alpha = 1``."""
    return -math.log1p(1.0 / u) if u >= 1.0 else math.log(u) - math.log1p(u)


def rdp_epsilon(curve: Callable[[float], float], delta: float, method: str = "cks") -> float:
    """Smallest epsilon (over orders) for an RDP curve: CKS20 Prop. 12 or Mironov Prop. 3.

    ``curve(alpha)`` must not be below the exact RDP at ``alpha`` (:func:`selection_rdp` rounds
    up). Every order gives a valid bound, so only the floating-point evaluation has to be made
    conservative: as in :func:`accounting.conversions.cks_epsilon`, each value is raised by
    ``1e-15`` (about 9 unit roundoffs) times the sum of the magnitudes that enter it, and
    ``log(1 - 1/alpha)`` is formed from ``u = alpha - 1`` (exact for ``alpha`` in [1, 2]).
    """
    log_delta = math.log(delta)
    if method == "cks":
        def f(a):
            u = a - 1.0
            c, t2, log_a = curve(a), _log_one_minus_inv(a - 1.0), math.log1p(u)
            scale = abs(c) + abs(t2) + (abs(log_delta) + log_a) / u
            return _up(c + t2 - (log_delta + log_a) / u, scale)
    else:
        def f(a):
            u = a - 1.0
            c = curve(a)
            return _up(c - log_delta / u, abs(c) + abs(log_delta) / u)
    # clipped after the minimum (the same value), so that a NaN is not hidden by max(0, NaN) = 0
    return max(0.0, _minimise(f))


def rdp_delta(curve: Callable[[float], float], epsilon: float, method: str = "cks") -> float:
    """Smallest delta for an RDP curve at ``epsilon``.

    The same two conversions, solved for delta, rounded up as :func:`rdp_epsilon` is: ``log
    delta`` is raised by ``1e-15`` times the magnitudes that enter it, plus ``1e-15`` for
    ``exp``."""
    if method == "cks":
        def f(a):  # log delta = (a-1)(tau - eps) + a log(1 - 1/a) - log(a - 1) (CKS20 Prop. 12)
            u = a - 1.0
            c, t2, log_u = curve(a), _log_one_minus_inv(u), math.log(u)
            scale = u * (abs(c) + abs(epsilon)) + a * abs(t2) + abs(log_u)
            return _up(u * (c - epsilon) + a * t2 - log_u, scale + 1.0)
    else:
        def f(a):
            u = a - 1.0
            c = curve(a)
            return _up(u * (c - epsilon), u * (abs(c) + abs(epsilon)) + 1.0)
    return min(1.0, math.exp(min(0.0, _minimise(f))))
