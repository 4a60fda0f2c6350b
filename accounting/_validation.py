"""Argument checks for :mod:`accounting` (the house message template, no :mod:`dpboost` import).

The sentence is the one used everywhere in dpboost::

    The 'noise_multiplier' parameter of GaussianEvent must be a float in (0, inf]. Got -1 instead.
"""

from __future__ import annotations

import math
import numbers

__all__ = [
    "MAX_COUNT",
    "METHODS",
    "PURE_METHODS",
    "check_int",
    "check_method",
    "check_real",
    "house_message",
    "interval",
]

#: Conversion methods understood by the accountant, in the order they are reported.
METHODS = ("paper", "cks", "exact")

#: The same conversions applied to the events without a pure epsilon, plus the pure events'
#: epsilons by basic composition (see :class:`accounting.zcdp.ZCDPAccountant`).
PURE_METHODS = ("pure+paper", "pure+cks", "pure+exact")

#: Largest repetition count an event or an accountant accepts. Counts multiply floats (``rho``,
#: ``mu^2``, an RDP curve); every int up to 2**53 ~ 9.0e15 is an exact double, so up to 10**15
#: a count is used without rounding, and a product of nested counts stays far from overflow for
#: realistic nesting. Larger counts (``10**400`` made ``int * float`` raise OverflowError) are
#: refused at construction with ValueError; no mechanism is run 10**15 times.
MAX_COUNT = 10**15


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


def check_int(
    value: object, name: str, owner: str, *, low: int = 0, high: int | None = None
) -> int:
    """Return ``value`` as an int in ``[low, high]`` (bools and floats: ``TypeError``).

    ``high=None`` is unbounded; a bound of 10**k is written ``10**k`` in the message.
    """
    hi = "inf)" if high is None else f"{_int_text(high)}]"
    expected = f"an int in [{low}, {hi}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(house_message(name, owner, expected, value))
    if int(value) < low or (high is not None and int(value) > high):
        raise ValueError(house_message(name, owner, expected, _Shown.of(int(value))))
    return int(value)


class _Shown:
    """An int shown as ``about 10**k`` when it has more than 30 digits (``repr`` of a huge int
    is long, and past 4300 digits raises ValueError itself)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    @classmethod
    def of(cls, n: int) -> object:
        if n.bit_length() <= 100:
            return n
        return cls(f"{'-' if n < 0 else ''}about 10**{int(n.bit_length() * math.log10(2))}")


def _int_text(n: int) -> str:
    k = len(str(n)) - 1
    return f"10**{k}" if n > 1000 and n == 10**k else str(n)


def check_method(
    value: object, owner: str, *, allow_best: bool = True, extra: tuple[str, ...] = ()
) -> str:
    """Check a conversion method name (one of ``METHODS + extra``, or ``"best"``)."""
    choices = METHODS + tuple(extra) + (("best",) if allow_best else ())
    expected = "one of " + ", ".join(repr(c) for c in choices)
    if not isinstance(value, str):
        raise TypeError(house_message("method", owner, expected, value))
    if value not in choices:
        raise ValueError(house_message("method", owner, expected, value))
    return value
