"""A thousands separator the schema declares (``"thousands": ","``), and nothing guessed.

A spreadsheet or an accounting export writes ``1,234,567`` or (with a decimal comma)
``1.234.567,89``.  Without a declaration such a cell is an error that says what to change;
with one, a cell whose separators stand between every group of three digits (after a first
group of one to three digits that does not start with 0) is read without them, and a cell with
the separator anywhere else (``12,34``, ``0,125``) stays an error, so a decimal comma is never
read as a thousands separator by mistake.  A grouped number with a
currency sign, a unit or accounting parentheses around it (``$1,234.50``, ``1,234 USD``,
``(1,234.00)``) loses its separators but keeps the rest, so it stays an error whose message
names the sign, not the separator.
"""

from __future__ import annotations

import re

__all__ = ["THOUSANDS_SEPARATORS", "drop_thousands"]

#: The separators a schema may declare; ``" "`` stands for any space (a no-break space too).
THOUSANDS_SEPARATORS = (",", ".", "'", " ")

_SPACES = " \u00a0\u202f"


def _grouped(thousands: str, decimal: str) -> re.Pattern:
    """A number whose separators stand between every group of three digits."""
    sep = f"[{_SPACES}]" if thousands == " " else re.escape(thousands)
    # the first group never starts with 0: "0,125" is a decimal comma (or a typo), not 125
    return re.compile(rf"[+-]?[1-9]\d{{0,2}}(?:{sep}\d{{3}})+(?:{re.escape(decimal)}\d*)?")


def _wrapped(thousands: str, decimal: str) -> re.Pattern:
    """A grouped number between text without digits: ``$1,234.50``, ``(1,234)``, ``1,234 kg``."""
    return re.compile(rf"(\D*?)({_grouped(thousands, decimal).pattern})(\D*)")


def drop_thousands(text: str | None, thousands: str | None, decimal: str = "."):
    """``text`` without its declared thousands separators, or None when one is out of place
    (a value that is not text, no declaration or no separator: ``text`` as it is).

    Examples
    --------
    >>> drop_thousands("1,234,567.5", ","), drop_thousands("1.234,5", ".", ",")
    ('1234567.5', '1234,5')
    >>> drop_thousands("12,34", ","), drop_thousands("900", ","), drop_thousands("1 000", " ")
    (None, '900', '1000')
    >>> drop_thousands("0,125", ","), drop_thousands("-0.500", ".", ","), drop_thousands(
    ...     "000.123", ".", ",")
    (None, None, None)
    >>> drop_thousands("$1,234.50", ","), drop_thousands("(1,234)", ","), drop_thousands(
    ...     "$12,34", ",")
    ('$1234.50', '(1234)', None)
    """
    if not isinstance(text, str) or thousands is None:
        return text
    chars = _SPACES if thousands == " " else thousands
    if not any(c in text for c in chars):
        return text
    if _grouped(thousands, decimal).fullmatch(text):
        return re.sub(f"[{re.escape(chars)}]", "", text)
    wrapped = _wrapped(thousands, decimal).fullmatch(text)
    if wrapped is None:
        return None
    before, number, after = wrapped.groups()  # the sign or unit stays: the cell stays an error
    return before + re.sub(f"[{re.escape(chars)}]", "", number) + after
