"""Noise calibration: the smallest noise multiplier that meets a target (epsilon, delta).

The returned noise always meets the target (checked before returning) and is within 1e-6
relative of the smallest noise that does: a bracket is grown geometrically from the closed form
of Lemma 15 and then refined by Brent's method on ``log z``.

Examples
--------
>>> res = calibrate_noise(target_epsilon=1.0, target_delta=1e-6, count=100, method="exact")
>>> round(res.noise_multiplier, 4), res.converged, res.epsilon <= 1.0
(42.2468, True, True)

References
----------
Balle & Wang (2018), Thm 8 and Algorithm 1 (analytic calibration of the Gaussian mechanism);
Bun, Carmosino & Sorrell (2020), Lemma 15; Canonne, Kamath & Steinke (2020), Prop. 12 / Cor. 13.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from accounting import conversions
from accounting._validation import MAX_COUNT, METHODS, check_int, check_method, check_real
from accounting.exceptions import ConvergenceError, UnsupportedEventError


def _brentq():
    """scipy.optimize.brentq, imported on first use (keeps ``import accounting`` light)."""
    from scipy.optimize import brentq

    return brentq


__all__ = ["CalibrationResult", "calibrate_noise", "gaussian_epsilon"]

#: Supported range of ``target_epsilon`` (outside it the noise over- or underflows doubles).
MIN_TARGET_EPSILON = 1e-9
MAX_TARGET_EPSILON = 1e6

_RTOL = 1e-9  # relative tolerance of Brent's method on z (target: 1e-6)

#: Mechanisms calibrate_noise knows, and the conversion methods that apply to each: the exact GDP
#: profile is the continuous Gaussian's only (the discrete Gaussian is accounted through zCDP).
MECHANISM_METHODS = {"gaussian": METHODS, "discrete_gaussian": ("paper", "cks")}


@dataclass(frozen=True)
class CalibrationResult:
    """Result of :func:`calibrate_noise`.

    Attributes
    ----------
    noise_multiplier : float
        Noise multiplier (sigma / L2 sensitivity) that meets the target.
    epsilon : float
        Epsilon achieved at ``target_delta`` with that noise (``<= target_epsilon``).
    iterations : int
        Accountant evaluations used (bracketing plus Brent).
    converged : bool
        Whether Brent's method met its tolerance (if not, the noise still meets the target but
        may exceed the smallest valid one by more than 1e-6).
    method : str
        Conversion method (for ``"best"``, the one that gave the smallest noise).
    target_epsilon, target_delta : float
    count : int
    """

    noise_multiplier: float
    epsilon: float
    iterations: int
    converged: bool
    method: str
    target_epsilon: float
    target_delta: float
    count: int


def gaussian_epsilon(noise_multiplier: float, count: int, delta: float, method: str) -> float:
    """Epsilon of ``count`` Gaussian rounds with the given noise by one method (no validation)."""
    if noise_multiplier == math.inf:
        return 0.0
    if method == "exact":
        return conversions.gdp_epsilon(math.sqrt(count) / noise_multiplier, delta)
    rho = 0.5 * count / noise_multiplier / noise_multiplier
    if method == "cks":
        return conversions.cks_epsilon(rho, delta)
    return conversions.zcdp_to_epsilon_paper(rho, delta)


def _paper_noise(target_epsilon: float, target_delta: float, count: int) -> float:
    """Closed form of Lemma 15: rho = (sqrt(L + eps) - sqrt(L))^2, z = sqrt(count / (2 rho))."""
    L = -math.log(target_delta)
    sqrt_rho = target_epsilon / (math.sqrt(L + target_epsilon) + math.sqrt(L))
    return math.sqrt(0.5 * count) / sqrt_rho


@functools.lru_cache(maxsize=256)  # pure and deterministic: grid searches and audits re-ask
def _calibrate_one(eps: float, delta: float, count: int, method: str) -> CalibrationResult:
    calls = 0

    def f(log_z: float) -> float:
        nonlocal calls
        calls += 1
        return gaussian_epsilon(math.exp(log_z), count, delta, method) - eps

    start = math.log(_paper_noise(eps, delta, count))
    hi = start
    while f(hi) > 0.0:
        hi += math.log(2.0)
        if hi > 700:
            raise ConvergenceError(
                f"No noise multiplier up to {math.exp(hi):.3g} meets epsilon={eps!r}",
                bracket=(math.exp(start), math.exp(hi)),
            )
    lo = hi - math.log(2.0)
    while f(lo) <= 0.0:
        lo -= math.log(2.0)
        if lo < -700:
            raise ConvergenceError(
                f"Calibration for epsilon={eps!r} found no lower bracket",
                bracket=(math.exp(lo), math.exp(hi)),
            )
    try:
        root, info = _brentq()(
            f, lo, hi, xtol=_RTOL * 1e-3, rtol=_RTOL, maxiter=200, full_output=True, disp=False
        )
    except (ValueError, RuntimeError) as exc:  # pragma: no cover - f changes sign by construction
        raise ConvergenceError(
            f"Brent's method failed: {exc}", bracket=(math.exp(lo), math.exp(hi))
        ) from exc
    converged = bool(info.converged)
    z = math.exp(root + 2 * _RTOL * max(1.0, abs(root)))
    achieved = gaussian_epsilon(z, count, delta, method)
    calls += 1
    step = 1e-9
    while achieved > eps:  # conservative nudge: never return a noise that misses the target
        z *= 1.0 + step
        step *= 2.0  # geometric: bounded, and exp(hi) (checked to meet the target) caps it
        if z >= math.exp(hi):
            z = math.exp(hi)
        achieved = gaussian_epsilon(z, count, delta, method)
        calls += 1
    # not converged (never seen): the noise still meets the target but may not be the smallest
    return CalibrationResult(
        noise_multiplier=z,
        epsilon=achieved,
        iterations=calls,
        converged=converged,
        method=method,
        target_epsilon=eps,
        target_delta=delta,
        count=count,
    )


def calibrate_noise(
    target_epsilon: float,
    target_delta: float,
    count: int = 1,
    method: str = "best",
    *,
    mechanism: str = "gaussian",
) -> CalibrationResult:
    """Smallest noise multiplier for ``count`` Gaussian rounds to be DP.

    DP here means (target_epsilon, target_delta)-DP.

    Parameters
    ----------
    target_epsilon : float in [1e-9, 1e6]
        (:data:`MIN_TARGET_EPSILON`, :data:`MAX_TARGET_EPSILON`): the supported range.
    target_delta : float in (0, 1)
    count : int in [1, 10**15]
        Number of adaptively composed Gaussian mechanisms sharing the noise multiplier (the
        bound, :data:`accounting._validation.MAX_COUNT`, keeps it an exact double).
    method : {"best", "exact", "cks", "paper"}
        Conversion used; ``"best"`` returns the smallest noise over the methods that apply.
    mechanism : {"gaussian", "discrete_gaussian"}, default "gaussian"
        ``"gaussian"``: ``GaussianEvent`` rounds (every method applies).  ``"discrete_gaussian"``:
        ``DiscreteGaussianEvent`` rounds, accounted through zCDP (``"paper"``, ``"cks"``);
        ``method="exact"`` then raises :class:`UnsupportedEventError`.

    Returns
    -------
    CalibrationResult
        ``noise_multiplier`` meets the target (verified) and is within 1e-6 relative of the
        smallest one that does.

    Raises
    ------
    ConvergenceError
        With the bracket tried, if no bracket is found or Brent's method fails.

    References
    ----------
    Balle & Wang (2018), Thm 8; Bun, Carmosino & Sorrell (2020), Lemma 15; Canonne, Kamath &
    Steinke (2020), Prop. 12 / Cor. 13.
    """
    eps = check_real(
        target_epsilon,
        "target_epsilon",
        "calibrate_noise",
        low=MIN_TARGET_EPSILON,
        high=MAX_TARGET_EPSILON,
        closed="both",
    )
    delta = check_real(target_delta, "target_delta", "calibrate_noise", low=0, high=1)
    count = check_int(count, "count", "calibrate_noise", low=1, high=MAX_COUNT)
    method = check_method(method, "calibrate_noise")
    if not isinstance(mechanism, str) or mechanism not in MECHANISM_METHODS:  # a list: unhashable
        raise ValueError(
            "The 'mechanism' parameter of calibrate_noise must be one of "
            f"{sorted(MECHANISM_METHODS)}. Got {mechanism!r} instead."
        )
    methods = MECHANISM_METHODS[mechanism]
    if method != "best" and method not in methods:
        raise UnsupportedEventError(
            f"The {method!r} conversion does not apply to the {mechanism!r} mechanism "
            f"(use one of {list(methods)} or 'best')."
        )
    if method != "best":
        return _calibrate_one(eps, delta, count, method)
    results = [_calibrate_one(eps, delta, count, m) for m in methods]
    best = min(results, key=lambda r: r.noise_multiplier)
    calls = sum(r.iterations for r in results)
    return CalibrationResult(
        noise_multiplier=best.noise_multiplier,
        epsilon=best.epsilon,
        iterations=calls,
        converged=all(r.converged for r in results),
        method=best.method,
        target_epsilon=eps,
        target_delta=delta,
        count=count,
    )
