"""Currency signs, percent signs and units a numeric column declares: ``"prefix"``/``"suffix"``.

A spreadsheet export writes ``12%``, ``$1,200.50``, ``€3.5`` or ``1.5 kg``.  A numeric column
of the schema may declare the symbols its cells carry, ``"prefix": "$"`` or ``"suffix": ["%",
" pct"]`` (a text or a list of texts); each cell loses one declared prefix (after an optional
sign: ``-$5`` is -5) and one declared suffix, spaces around them included, before the
declared thousands separator is dropped and the number is read.  The number is read as
written: ``12%`` is 12 (declare ``[0, 100]``), ``1.5 kg`` is 1.5.  Parentheses around a
number are its minus sign, as accounting exports write them and as a spreadsheet reads them:
``(45.00)``, ``($1,234.00)`` and ``$(1,234.00)`` are negative, declared symbols or not (a
draft had read ``($11,650.14)`` as +11650.14, declaring ``"($"`` a prefix and ``)`` a
suffix).  A cell without a symbol is read as it is; a cell with another symbol stays an error
whose hint names the declaration, never the cell.  The declaration is public (a unit of the
data dictionary), and stripping is the same function of each cell whatever the other rows
hold.
"""

from __future__ import annotations

import re

__all__ = ["check_symbols", "detect_symbols", "strip_symbols"]

#: Characters a declared symbol may not hold: they belong to the number (parentheses are its
#: accounting minus sign).
_NUMBER_CHARS = set("0123456789+-()")

#: A number in accounting parentheses, ``(45.00)``: the inside holds no sign or parenthesis.
_PARENTHESES = re.compile(r"\(\s*([^()+\-\u2212]*?\d[^()+\-\u2212]*?)\s*\)")


def check_symbols(value, key: str, where: str) -> tuple[str, ...]:
    """The declared ``key`` (``"prefix"``/``"suffix"``) of ``where`` as a tuple of texts.

    Examples
    --------
    >>> check_symbols("$", "prefix", "x"), check_symbols(["%", " pct"], "suffix", "x")
    (('$',), ('%', 'pct'))
    """
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise ValueError(f"The '{key}' of {where} in the schema must be a text or a list of "
                         f"texts (\"{key}\": \"$\"). Got {value!r} instead.")
    out = []
    for item in items:
        text = item.strip() if isinstance(item, str) else None
        if not text or set(text) & _NUMBER_CHARS or len(text) > 20 or set(text) <= set(".,'"):
            raise ValueError(f"The '{key}' of {where} in the schema must list symbols without "
                             f"digits or signs, such as \"$\", \"%\" or \"kg\". Got {item!r} "
                             "instead." + (" Parentheses around a number are read as its "
                                           "minus sign, (45.00) as -45, without a declaration."
                                           if text and set(text) & set("()") else ""))
        out.append(text)
    if len(set(out)) < len(out):
        raise ValueError(f"The '{key}' of {where} in the schema lists a symbol twice: "
                         f"{out}.")
    return tuple(out)


def strip_symbols(text: str, prefixes=(), suffixes=()) -> str:
    """``text`` (stripped) without one declared prefix (after an optional sign) and one
    declared suffix, and with accounting parentheses written as a minus sign; anything else as
    it is.

    Examples
    --------
    >>> strip_symbols("$1,200.50", ("$",)), strip_symbols("-$5", ("$",))
    ('1,200.50', '-5')
    >>> strip_symbols("12 %", (), ("%",)), strip_symbols("€3.5", ("$",)), strip_symbols("7", ("$",))
    ('12', '€3.5', '7')
    >>> strip_symbols("($1,200.50)", ("$",)), strip_symbols("$(5)", ("$",)), strip_symbols("(5)")
    ('-1,200.50', '-5', '-5')
    >>> strip_symbols("-(5)"), strip_symbols("(-5)"), strip_symbols("(a)")
    ('-(5)', '(-5)', '(a)')
    """
    text = text.strip()
    outside = _PARENTHESES.fullmatch(text)  # ($1,200.50)
    if outside:
        return "-" + _strip(outside.group(1), prefixes, suffixes)
    out = _strip(text, prefixes, suffixes)
    inside = _PARENTHESES.fullmatch(out) if out != text else None  # $(1,200.50)
    return "-" + inside.group(1) if inside else out


def _strip(text: str, prefixes, suffixes) -> str:
    """:func:`strip_symbols` without the parentheses."""
    sign, rest = (text[0], text[1:].lstrip()) if text[:1] in "+-" and text[1:2] else ("", text)
    for p in sorted(prefixes, key=len, reverse=True):
        if rest.startswith(p):
            rest = rest[len(p):].lstrip()
            break
    else:
        sign, rest = "", text
    for s in sorted(suffixes, key=len, reverse=True):
        if rest.endswith(s) and len(rest) > len(s):
            rest = rest[:-len(s)].rstrip()
            break
    return sign + rest


#: A number written for people, with a symbol before and/or after it: sign, prefix, digits
#: (with ',', '.', "'" or spaces between them), suffix.
_WRAPPED = re.compile(r"([+-]?)\s*([^\d\s+\-.,']{1,5})?\s*([+-]?\d[\d.,' ]*\d|[+-]?\d)\s*"
                      r"([^\d\s+\-.,']{1,5}|[^\d\s+\-.,'][^\d+\-.,']{0,10}[^\d\s+\-.,'])?")


#: Letters a draft takes for a currency (before or after a number) or a unit (after it):
#: other letters around digits are more likely a code (ICD-9 ``V57.89``, ``city12``, ``12A``).
_CURRENCIES = {"usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "cny", "inr", "sek", "nok",
               "dkk", "us$", "c$", "a$", "r$", "rs", "rs."}
_UNITS = _CURRENCIES | {
    "kg", "g", "mg", "lb", "lbs", "oz", "t", "cm", "mm", "m", "km", "in", "ft", "mi", "ml", "l",
    "h", "hr", "hrs", "min", "mins", "s", "sec", "ms", "d", "days", "yrs", "years", "pct",
    "°c", "°f", "kcal", "cal", "bpm", "mmhg", "kwh", "w", "kw", "mb", "gb", "kb"}


def _plausible(symbol: str, units: set) -> bool:
    """A symbol without letters (``$``, ``%``, ``€``) or a listed currency or unit."""
    return not any(c.isalpha() for c in symbol) or symbol.lower() in units


def detect_symbols(cells, is_number) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The prefixes and suffixes (at most 3 of each) that, stripped, leave a number
    (``is_number`` of the rest) in every one of ``cells`` (texts, stripped, none empty), when
    at least half the cells carry one; None otherwise.  A symbol with letters must be a
    common currency or unit (``kg``, ``USD``): ``V57.89`` is a code, not 57.89.  For a draft
    (it reads the data; a schema may declare any symbol by hand).

    Examples
    --------
    >>> detect_symbols(["12%", "0%", "3.5%"], lambda t: t.replace(".", "").isdigit())
    ((), ('%',))
    >>> detect_symbols(["12", "7"], str.isdigit), detect_symbols(["a1b2"], str.isdigit)
    (None, None)
    >>> detect_symbols(["250.1", "V57.89", "428"], lambda t: t.replace(".", "").isdigit())
    >>> detect_symbols(["$5", "($7)", "$(2)"], lambda t: t.lstrip("-").isdigit())
    (('$',), ())
    """
    prefixes: set = set()
    suffixes: set = set()
    carried = 0
    for cell in cells:  # accounting parentheses are a sign (strip_symbols), not a symbol
        match = _WRAPPED.fullmatch(re.sub(r"^([^()]*)\(([^()]*)\)$", r"\1\2", cell))
        if match is None:
            return None
        _, prefix, _, suffix = match.groups()
        suffix = suffix.strip() if suffix else None
        if (prefix and not _plausible(prefix, _CURRENCIES)) or (
                suffix and not _plausible(suffix, _UNITS)):
            return None
        prefixes |= {prefix} if prefix else set()
        suffixes |= {suffix} if suffix else set()
        carried += bool(prefix or suffix)
        if len(prefixes) > 3 or len(suffixes) > 3:
            return None
    if 2 * carried < len(cells):
        return None
    found = tuple(sorted(prefixes)), tuple(sorted(suffixes))
    if not all(is_number(strip_symbols(c, *found)) for c in cells):
        return None
    return found
