"""Pure conversion functions: zCDP or Gaussian DP to (epsilon, delta)-DP, in log space.

Three conversions, loosest first; each cites the result it implements.

* ``paper``: Lemma 15 of Bun, Carmosino & Sorrell (2020) (from Bun & Steinke 2016, Prop. 1.3),
  ``epsilon = rho + 2 sqrt(rho log(1/delta))``.
* ``cks``: Canonne, Kamath & Steinke (2020), Proposition 12 / Corollary 13, the sharper
  conversion of a ``rho``-zCDP (Renyi curve ``alpha rho``) guarantee.
* ``exact``: for a composition of Gaussian mechanisms, which is ``mu``-GDP with
  ``mu^2 = sum count / z^2`` (Dong, Roth & Su 2019, Cor. 3.3), the exact privacy profile
  ``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`` (Balle & Wang 2018, Thm 8;
  Dong, Roth & Su 2019, Cor. 2.13).

The exact profile is evaluated without ever forming ``e^eps``: with ``a = mu/2 - eps/mu`` and
``b = a - mu`` one has ``b^2 - a^2 = 2 eps`` and so

    delta = 1/2 exp(-a^2/2) [erfcx(-a/sqrt2) - erfcx(-b/sqrt2)],

whose bracket is computed as a difference when the two terms differ by a factor two or more and
otherwise as the integral of ``-erfcx'`` (positive, no cancellation) by Gauss-Legendre
quadrature. ``log delta`` is accurate to a few ulps for ``mu`` in [1e-12, 1e3] and any
``eps >= 0``.

References
----------
.. [BCS20] M. Bun, M. Carmosino, J. Sorrell. Efficient, noise-tolerant, and private learning via
   boosting. COLT 2020. Lemmas 14-15.
.. [BS16] M. Bun, T. Steinke. Concentrated differential privacy. TCC 2016.
.. [CKS20] C. Canonne, G. Kamath, T. Steinke. The discrete Gaussian for differential privacy.
   NeurIPS 2020, arXiv:2004.00010, Proposition 12 and Corollary 13.
.. [BW18] B. Balle, Y.-X. Wang. Improving the Gaussian mechanism for differential privacy:
   analytical calibration and optimal denoising. ICML 2018, Theorem 8.
.. [DRS19] J. Dong, A. Roth, W. Su. Gaussian differential privacy. arXiv:1905.02383,
   Corollary 2.13 and Corollary 3.3.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from accounting._validation import check_real


def _brentq():
    """scipy.optimize.brentq, imported on first use (keeps ``import accounting`` light)."""
    from scipy.optimize import brentq

    return brentq


__all__ = [
    "MAX_EPSILON",
    "cks_delta",
    "cks_epsilon",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_log_delta",
    "zcdp_to_delta_paper",
    "zcdp_to_epsilon_paper",
]

#: Largest epsilon the exact solver searches for; beyond it ``gdp_epsilon`` raises ValueError.
MAX_EPSILON = 1e12

_SQRT2 = math.sqrt(2.0)
_U_MAX = 1e300  # largest alpha - 1 the CKS searches consider
_TWO_OVER_SQRTPI = 2.0 / math.sqrt(math.pi)
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(20)


def _check_rho(rho: object, owner: str) -> float:
    return check_real(rho, "rho", owner, low=0, high=math.inf, closed="both")


def _check_delta(delta: object, owner: str) -> float:
    return check_real(delta, "delta", owner, low=0, high=1)


def _check_epsilon(epsilon: object, owner: str) -> float:
    return check_real(epsilon, "epsilon", owner, low=0, high=math.inf, closed="both")


def _check_mu(mu: object, owner: str) -> float:
    return check_real(mu, "mu", owner, low=0, high=math.inf, closed="both")


# --------------------------------------------------------------------------- paper (Lemma 15)


def zcdp_to_epsilon_paper(rho: float, delta: float) -> float:
    """``epsilon = rho + 2 sqrt(rho log(1/delta))`` (Lemma 15 of [BCS20], Prop. 1.3 of [BS16]).

    Examples
    --------
    >>> round(zcdp_to_epsilon_paper(100 / (2 * 42.25**2), 1e-6), 6)
    1.272157
    """
    rho = _check_rho(rho, "zcdp_to_epsilon_paper")
    delta = _check_delta(delta, "zcdp_to_epsilon_paper")
    if rho == 0.0:
        return 0.0
    # sqrt(rho) sqrt(L) rather than sqrt(rho L): the product neither overflows (huge rho) nor
    # loses digits as a denormal (tiny rho); inf for rho = inf
    return rho + 2.0 * math.sqrt(rho) * math.sqrt(-math.log(delta))


def zcdp_to_delta_paper(rho: float, epsilon: float) -> float:
    """Inverse of :func:`zcdp_to_epsilon_paper`: ``delta = exp(-(eps - rho)^2 / (4 rho))``.

    Returns 1.0 (no guarantee) when ``epsilon <= rho``. Lemma 15 of [BCS20].
    """
    rho = _check_rho(rho, "zcdp_to_delta_paper")
    epsilon = _check_epsilon(epsilon, "zcdp_to_delta_paper")
    if rho == 0.0:
        return 0.0
    if epsilon <= rho or rho == math.inf:
        return 1.0
    if epsilon == math.inf:
        return 0.0
    t = (epsilon - rho) / (2.0 * math.sqrt(rho))
    return math.exp(-t * t)  # t * t may overflow to inf: delta = 0.0, no exception


# --------------------------------------------------------------------------- CKS20


def _expm1(x: float) -> float:
    """``expm1`` that returns ``inf`` instead of raising OverflowError."""
    return math.expm1(x) if x < 709.0 else math.inf


def _cks_eps_at(rho: float, log_delta: float, u: float) -> float:
    """CKS20 Cor. 13 at ``alpha = 1 + u``: ``a rho + log(1 - 1/a) - (log delta + log a)/(a-1)``.

    Every ``alpha > 1`` gives a valid bound, so only the floating-point evaluation has to be made
    conservative: ``log(1 - 1/a)`` is formed as ``-log1p(1/u)`` (no cancellation at large ``u``)
    and the result is raised by ``1e-15`` (about 9 unit roundoffs) times the sum of the
    magnitudes that enter it, ``|t1| + |t2| + (|log delta| + log a) / u``, which bounds the
    rounding error of the evaluation and the sum (``log delta + log a`` may cancel, so its
    error is bounded by its parts, not by its value).
    """
    log_alpha = math.log1p(u)
    t1 = (1.0 + u) * rho
    t2 = -math.log1p(1.0 / u) if u >= 1.0 else math.log(u) - log_alpha
    t3 = -(log_delta + log_alpha) / u
    scale = abs(t1) + abs(t2) + (abs(log_delta) + log_alpha) / u
    return (t1 + t2 + t3) + 1e-15 * scale


def cks_epsilon(rho: float, delta: float) -> float:
    """Smallest epsilon of Canonne, Kamath & Steinke (2020), Prop. 12 / Cor. 13.

    ``epsilon = inf_{alpha > 1} alpha rho + log(1 - 1/alpha) - (log delta + log alpha)/(alpha-1)``.
    The objective's derivative vanishes where ``(alpha - 1)^2 rho + log alpha = log(1/delta)``,
    a unique root found by Brent's method on ``u = alpha - 1``; every ``alpha`` gives a valid
    bound, and the result is clipped at 0.

    The root is bracketed in closed form, with no search loop, for every ``rho`` in
    ``[0, inf]`` (denormal and huge included): with ``L = log(1/delta)``, the root lies in
    ``[min(sqrt(L/4)/sqrt(rho), expm1(L/2)), min(sqrt(L)/sqrt(rho), expm1(L))]``, where the
    stationarity function is ``<= -L/4`` at the lower end and ``>= 0`` at the upper one (and
    ``sqrt(L)/sqrt(rho)`` never overflows, unlike ``sqrt(L/rho)``).  The objective is evaluated
    at the root found and at ``alpha - 1 = sqrt(L/rho)`` (which alone gives the Lemma 15 value),
    conservatively rounded, and the result is capped by :func:`zcdp_to_epsilon_paper`
    (Lemma 15 of [BCS20], Prop. 1.3 of [BS16]): the CKS bound is never larger in exact
    arithmetic, and the cap is a valid upper bound whenever the float evaluation is not.
    For ``rho <~ delta^2`` the bound is 0 (the composition's privacy loss is below ``delta``).

    Examples
    --------
    >>> round(cks_epsilon(100 / (2 * 42.25**2), 1e-6), 6)
    1.077769
    >>> cks_epsilon(1e-310, 1e-6)  # a noise multiplier of 1e155: returns at once
    0.0
    """
    rho = _check_rho(rho, "cks_epsilon")
    delta = _check_delta(delta, "cks_epsilon")
    if rho == 0.0:
        return 0.0
    if rho == math.inf:
        return math.inf
    log_delta = math.log(delta)
    L = -log_delta
    sqrt_rho = math.sqrt(rho)  # >= 2.2e-162 for rho >= 5e-324: no overflow below

    def g(u: float) -> float:  # u (u rho) rather than u u rho: no intermediate overflow
        return u * (u * rho) + math.log1p(u) - L

    u_opt = math.sqrt(L) / sqrt_rho  # the Lemma 15 order: g(u_opt) >= log1p(u_opt) > 0
    u_hi = min(u_opt, _expm1(L))  # g(expm1(L)) = expm1(L)^2 rho >= 0
    u_lo = min(0.5 * u_opt, _expm1(0.5 * L))  # g(u_lo) <= L/4 + L/2 - L < 0
    g_lo, g_hi = g(u_lo), g(u_hi)
    if not (g_lo < 0.0 < g_hi) or u_lo <= 0.0:
        u = u_hi if g_hi == 0.0 else u_opt  # root at the end, or a degenerate bracket
    else:
        u = _brentq()(g, u_lo, u_hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=200)
    best = min(_cks_eps_at(rho, log_delta, u), _cks_eps_at(rho, log_delta, u_opt))
    if math.isnan(best):  # pragma: no cover - no finite input reaches it; never report NaN
        best = math.inf
    return max(min(best, zcdp_to_epsilon_paper(rho, delta)), 0.0)


def cks_delta(rho: float, epsilon: float) -> float:
    """Smallest delta of Canonne, Kamath & Steinke (2020), Proposition 12, for a given epsilon.

    ``delta = inf_{alpha > 1} exp((alpha-1)(alpha rho - eps)) / alpha * (1 - 1/alpha)^(alpha-1)``;
    the log of the objective is minimised where ``(2 alpha - 1) rho + log(1 - 1/alpha) = eps``.
    Clipped at 1.

    Every ``alpha > 1`` gives a valid bound, so only the floating-point evaluation has to be made
    conservative, as in :func:`_cks_eps_at`: ``log delta`` is raised by ``1e-15`` (about 9 unit
    roundoffs) times the sum of the magnitudes that enter it, plus ``1e-15`` for the rounding of
    ``exp``. Without the margin the result came out up to 1e-13 relative (6e-14 absolute near
    ``delta = 1``) below the 60-digit value.

    Examples
    --------
    >>> round(cks_delta(100 / (2 * 42.25**2), 1.0777695), 8)
    1e-06
    """
    rho = _check_rho(rho, "cks_delta")
    epsilon = _check_epsilon(epsilon, "cks_delta")
    if rho == 0.0:
        return 0.0
    if rho == math.inf:
        return 1.0
    if epsilon == math.inf:
        return 0.0

    def h(u: float) -> float:  # derivative of the log objective in alpha, alpha = 1 + u
        return (2.0 * u + 1.0) * rho - math.log1p(1.0 / u) - epsilon

    u_hi = min(max(epsilon / (2.0 * rho), 1.0), _U_MAX)
    while h(u_hi) <= 0.0 and u_hi < _U_MAX:
        u_hi = min(2.0 * u_hi, _U_MAX)
    u_lo = min(u_hi, 1.0)
    while h(u_lo) >= 0.0 and u_lo > 1e-300:
        u_lo *= 0.5
    if h(u_lo) >= 0.0:  # minimiser below 1e-300: alpha -> 1, where the bound is trivial
        u = u_lo
    elif h(u_hi) <= 0.0:  # minimiser beyond 1e300: delta is far below every float
        u = u_hi
    else:
        u = _brentq()(h, u_lo, u_hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    log_alpha = math.log1p(u)
    t1, t2 = (1.0 + u) * rho, math.log1p(1.0 / u)
    log_d = u * (t1 - epsilon - t2) - log_alpha
    if log_d == -math.inf:  # u * (-eps) overflowed: log delta < -1e308 even with the margin
        return 0.0
    m = 1e-15 * u  # scaled first: u * (t1 + eps) alone may overflow where log_d does not
    log_d += (m * t1 + m * epsilon + m * t2) + 1e-15 * log_alpha + 1e-15  # rounds up
    if math.isnan(log_d):  # pragma: no cover - no finite input reaches it; never report NaN
        return 1.0
    return math.exp(min(log_d, 0.0))


# --------------------------------------------------------------------------- exact GDP


def _erfcx_slope(t: np.ndarray) -> np.ndarray:
    """``-d/dt erfcx(t) = 2/sqrt(pi) - 2 t erfcx(t)`` (positive).

    Without cancellation for large t."""
    t = np.asarray(t, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # huge t: replaced by the series below
        out = _TWO_OVER_SQRTPI - 2.0 * t * special.erfcx(t)
    big = t >= 8.0
    if np.any(big):
        # asymptotic series: 2/sqrt(pi) * sum_{k>=1} (-1)^(k+1) (2k-1)!! / (2 t^2)^k
        tb = t[big]
        with np.errstate(over="ignore"):  # t > 1e154: x = 0 and the slope underflows to 0
            x = 1.0 / (2.0 * tb * tb)
        term = np.ones_like(tb)
        total = np.zeros_like(tb)
        for k in range(1, 25):
            term = term * (2 * k - 1) * x
            total += term if k % 2 else -term
        out[big] = _TWO_OVER_SQRTPI * total
    return out


def _erfcx_gap(x: float, h: float) -> float:
    """``erfcx(x) - erfcx(x + h)`` for ``h > 0``, accurate in relative terms (the result is > 0).

    The width ``h`` is passed on its own so that it is not recomputed as a difference of two
    rounded numbers (which would lose all its digits when ``h`` is tiny).
    """
    fx = float(special.erfcx(x))
    fy = float(special.erfcx(x + h))
    if fy <= 0.5 * fx:
        return fx - fy
    # near-equal terms: integrate the positive slope -erfcx' (analytic; for large t it behaves
    # like 1/(sqrt(pi) t^2)) over panels of width <= max(1, x/2)
    n_panels = max(1, math.ceil(h / max(1.0, 0.5 * abs(x))))
    width = h / n_panels
    total = 0.0
    for i in range(n_panels):
        nodes = x + width * (i + 0.5 + 0.5 * _GL_NODES)
        total += 0.5 * width * float(np.dot(_GL_WEIGHTS, _erfcx_slope(nodes)))
    return total


def _log_ndtr_diff(a: float, mu: float) -> float:
    """``log(Phi(a) - e^eps Phi(a - mu))`` with ``eps = mu (mu/2 - a)``; see module docstring."""
    x = -a / _SQRT2
    h = mu / _SQRT2
    if a > 0.0:
        t1 = float(special.ndtr(a))
        t2 = 0.5 * math.exp(-0.5 * a * a) * float(special.erfcx(x + h))
        if t2 <= 0.5 * t1:
            return math.log(t1 - t2)
    gap = _erfcx_gap(x, h)
    if gap <= 0.0:  # the (positive) gap underflowed: delta < gap / 2 is below every float
        return -math.inf
    return math.log(0.5) - 0.5 * a * a + math.log(gap)


def gdp_log_delta(mu: float, epsilon: float) -> float:
    """Natural log of the exact delta of a ``mu``-GDP mechanism at ``epsilon``.

    ``delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`` (Balle & Wang 2018, Thm 8;
    Dong, Roth & Su 2019, Cor. 2.13), evaluated without forming ``e^eps``.
    Returns ``-inf`` for ``mu = 0`` or ``epsilon = inf``, and 0 for ``mu = inf``.

    Examples
    --------
    >>> import math
    >>> round(math.exp(gdp_log_delta(1.0, 1.0)), 8)
    0.12693674
    """
    mu = _check_mu(mu, "gdp_log_delta")
    epsilon = _check_epsilon(epsilon, "gdp_log_delta")
    if mu == 0.0 or epsilon == math.inf:
        return -math.inf
    if mu == math.inf:
        return 0.0
    a = 0.5 * mu - epsilon / mu
    if not math.isfinite(a):  # eps/mu overflowed: delta is far below every float
        return -math.inf
    return min(_log_ndtr_diff(a, mu), 0.0)


def gdp_delta(mu: float, epsilon: float) -> float:
    """Exact delta of a ``mu``-GDP mechanism at ``epsilon`` (Balle & Wang 2018, Thm 8).

    May underflow to 0.0 when the true delta is below the smallest float; use
    :func:`gdp_log_delta` to keep the digits.
    """
    return math.exp(gdp_log_delta(mu, epsilon))


def gdp_epsilon(mu: float, delta: float) -> float:
    """Smallest epsilon with ``delta(epsilon) <= delta`` for a ``mu``-GDP mechanism.

    Solves ``log delta(eps) = log delta`` (the profile is decreasing in ``eps``) with a
    geometrically grown bracket and Brent's method, then returns the upper end so that the
    returned epsilon is never below the true one (Balle & Wang 2018, Thm 8; Dong, Roth & Su 2019,
    Cor. 2.13).

    Raises
    ------
    ValueError
        If the answer exceeds :data:`MAX_EPSILON`.

    Examples
    --------
    >>> round(gdp_epsilon(10 / 42.25, 1e-6), 6)
    0.999918
    """
    mu = _check_mu(mu, "gdp_epsilon")
    delta = _check_delta(delta, "gdp_epsilon")
    if mu == 0.0:
        return 0.0
    if mu == math.inf:
        return math.inf
    # log(delta) is itself rounded (half an ulp either way) and log delta(eps) is accurate to a
    # few ulps: aim 4 ulps below, so the true delta(eps) never exceeds delta (without it a
    # 1e-300-GDP mechanism at delta = 5e-324 came out 6e-14 relative over the target)
    target = math.log(delta)
    target -= 4.0 * math.ulp(target)
    if gdp_log_delta(mu, 0.0) <= target:
        return 0.0

    def f(eps: float) -> float:
        return gdp_log_delta(mu, eps) - target

    # the Lemma-15-type value mu^2/2 + mu sqrt(2 log(1/delta)) is an upper bound on epsilon
    hi = 0.5 * mu * mu + mu * math.sqrt(-2.0 * target)
    while f(min(hi, MAX_EPSILON)) > 0.0:
        if hi >= MAX_EPSILON:
            raise ValueError(
                f"The exact epsilon of a {mu!r}-GDP mechanism at delta={delta!r} "
                f"exceeds {MAX_EPSILON:g}, which gdp_epsilon does not support."
            )
        hi *= 2.0
    hi = min(hi, MAX_EPSILON)
    lo = hi
    while f(lo) <= 0.0:
        lo *= 0.5
        if lo < 1e-300:
            return lo * 2.0
    # xtol relative to the bracket: an absolute 1e-300 is 10% of a root near 1e-299 (mu ~ 1e-300)
    root = _brentq()(f, lo, hi, xtol=4 * np.finfo(float).eps * lo,
                     rtol=4 * np.finfo(float).eps, maxiter=500)
    step = 1e-15
    while f(root) > 0.0:  # conservative: never report an epsilon whose delta exceeds the target
        # geometric steps (at most ~50 before reaching hi, where f(hi) <= 0 was checked)
        root = max(math.nextafter(root, math.inf), root * (1.0 + step))
        step *= 2.0
        if root >= hi:
            return hi
    # f itself is evaluated in floating point: near the root its rounding can make f(root) <= 0
    # while the true delta(root) still exceeds the target (seen for mu >= 3e4, where epsilon is
    # ~mu^2/2).  Two more ulps up keep the conversion from ever being optimistic.
    return math.nextafter(math.nextafter(root, math.inf), math.inf)
