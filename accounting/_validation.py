"""Argument checks for :mod:`accounting` (the house message template, no :mod:`dpboost` import).

The sentence is the one used everywhere in dpboost::

    The 'noise_multiplier' parameter of GaussianEvent must be a float in (0, inf]. Got -1 instead.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["METHODS", "check_int", "check_method", "check_real", "house_message", "interval"]

#: Conversion methods understood by the accountant, in the order they are reported.
METHODS = ("paper", "cks", "exact")


def interval(low: float | None, high: float | None, closed: str = "neither") -> str:
    """Render an interval such as ``(0, 1]``; ``closed`` is neither, left, right or both."""
    left = "[" if closed in ("left", "both") else "("
    right = "]" if closed in ("right", "both") else ")"
    lo = "-inf" if low is None else ("inf" if low == math.inf else f"{low:g}")
    hi = "inf" if high is None or high == math.inf else f"{high:g}"
    return f"{left}{lo}, {hi}{right}"


def house_message(name: str, owner: str, expected: str, value: object) -> str:
    """The one error sentence of dpboost and accounting (see the module docstring)."""
    return f"The {name!r} parameter of {owner} must be {expected}. Got {value!r} instead."


def check_real(
    value: object,
    name: str,
    owner: str,
    *,
    low: float | None = None,
    high: float | None = None,
    closed: str = "neither",
) -> float:
    """Return ``value`` as a float or raise ``TypeError``/``ValueError`` with the house template.

    ``high=math.inf`` with ``closed`` in ``{"right", "both"}`` admits infinity; NaN is never
    admitted.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        expected = f"a float in {interval(low, high, closed)}"
        raise TypeError(house_message(name, owner, expected, value))
    out = float(value)
    lo_ok = low is None or (out >= low if closed in ("left", "both") else out > low)
    hi_ok = (
        (out < math.inf)
        if high is None
        else (out <= high if closed in ("right", "both") else out < high)
    )
    if not (lo_ok and hi_ok) or math.isnan(out):
        expected = f"a float in {interval(low, high, closed)}"
        raise ValueError(house_message(name, owner, expected, value))
    return out


def check_int(value: object, name: str, owner: str, *, low: int = 0) -> int:
    """Return ``value`` as an int ``>= low`` (bools and floats rejected with ``TypeError``)."""
    expected = f"an int in [{low}, inf)"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(house_message(name, owner, expected, value))
    if int(value) < low:
        raise ValueError(house_message(name, owner, expected, value))
    return int(value)


def check_method(value: object, owner: str, *, allow_best: bool = True) -> str:
    """Check a conversion method name."""
    choices = METHODS + (("best",) if allow_best else ())
    expected = "one of " + ", ".join(repr(c) for c in choices)
    if not isinstance(value, str):
        raise TypeError(house_message("method", owner, expected, value))
    if value not in choices:
        raise ValueError(house_message("method", owner, expected, value))
    return value
