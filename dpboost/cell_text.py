"""How the text of one table cell is read: a category key, a NaN text, a decimal number.

The schema's declarations and the cells of a file must be keyed by one rule, or a declared
category silently never matches (``"2"`` against ``2.0``, ``"1,5"`` against ``1.5`` under a
decimal comma, a 17-digit code read through a float).  The readers, the schema, the encoder
and the CLI all take their rules from here.
"""

from __future__ import annotations

import datetime
import math
import re
import unicodedata

import numpy as np

__all__ = ["AMBIGUOUS", "DATE_ADVICE", "DECIMAL_COMMA", "NA_WORDS", "DeclaredValues",
           "category_key", "category_text", "control_hint", "first_non_number",
           "is_decimal_number", "is_nan_text"]

#: What to do with a column of dates: the one advice of a schema's ``"type": "date"``, a draft's
#: date column and a cell that reads as a date.
DATE_ADVICE = ("write it in the file as a number of days since a public date (computed before "
               "training), or as a year, and declare it 'numeric' with public bounds; or "
               "declare it 'ordinal' or 'categorical' over a list of public dates; or 'drop' it")

#: A number written with a decimal comma, read under ``"decimal": ","``: ``1,5`` -> ``1.5``,
#: ``9,83E-05`` -> ``9.83E-05`` (a decimal-comma spreadsheet's small numbers, user trial,
#: session 26), ``5,`` -> ``5.``.
DECIMAL_COMMA = re.compile(r"^\s*([+-]?\d*),(\d*(?:[eE][+-]?\d+)?)\s*$")

#: Words (compared in lower case) that usually mean "missing" among numbers: a numeric column's
#: error suggests listing them in 'na_values', and a draft lists them there.
NA_WORDS = ("na", "n/a", "n.a.", "null", "none", "missing", "unknown", "nan", "nil", "?", "-",
            "--", ".",  # SAS and Stata write a missing number as "."
            "k.a.", "k. a.", "n.v.", "n.d.",  # German and French exports (user trial, s. 26)
            "#n/a", "#na", "#null!", "#div/0!", "#value!", "#ref!", "#num!", "#name?")  # Excel

#: Text that is an integer, possibly written with a zero fraction (``12``, ``-3``, ``7.00``);
#: ASCII digits only, as a numeric column reads them (``\d`` alone also took a full-width
#: ``２`` as 2: red team s33 R1, finding 2).
_INTEGER_TEXT = re.compile(r"[+-]?\d+(?:\.0*)?", re.ASCII)


def category_key(value, decimal: str = ".") -> str | None:
    """The canonical text of a category or label value, or None for a missing value.

    Strings are stripped (``""`` is missing); ``true``/``false`` in any case and Python bools
    become ``"true"``/``"false"``; numbers that are integers become their exact integer text
    (``2``, ``2.0`` and ``"2"`` all match, and so do ``2**60`` and ``"1152921504606846976"``:
    integer text is read exactly, never through a float), other numbers their shortest
    ``repr``; a date (a Parquet column's) its ISO text, without the time at midnight.  Text
    is compared in Unicode's composed form (NFC), so an accent saved decomposed matches.  The
    same rule is applied to the schema's declared values and to the data, so a CSV read as
    text, as ints, or as bools matches the same declaration.

    With ``decimal=","`` (a schema's ``"decimal": ","``) a text ``1,5`` first becomes ``1.5``,
    the rule the readers apply to the cells of such a file, so ``"1,5"``, ``"1.5"`` and
    ``1.5`` match.

    Examples
    --------
    >>> [category_key(v) for v in ("A11 ", 2.0, "2", True, "TRUE", float("nan"), "")]
    ['A11', '2', '2', 'true', 'true', None, None]
    >>> category_key("1,5"), category_key("1,5", decimal=","), category_key(" 7.00 ")
    ('1,5', '1.5', '7')
    >>> import datetime
    >>> category_key(datetime.datetime(2020, 1, 1)), category_key(datetime.date(2020, 6, 15))
    ('2020-01-01', '2020-06-15')
    """
    if value is None:
        return None
    if isinstance(value, datetime.date):  # a Parquet date or time stamp, as a CSV writes it
        return _date_key(value)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return None
        return str(int(value)) if value.is_integer() else repr(value)
    text = str(value).strip()
    if not text:
        return None
    if not text.isascii():  # 'São' typed (composed) matches 'São' saved decomposed (NFD)
        text = unicodedata.normalize("NFC", text)
    if text.lower() in ("true", "false"):
        return text.lower()
    if decimal == ",":
        text = DECIMAL_COMMA.sub(r"\1.\2", text)
    if _INTEGER_TEXT.fullmatch(text):
        try:
            return str(int(text.split(".")[0]))
        except ValueError:  # more digits than Python converts (4300): keep the text
            return text
    if not _NUMBER_TEXT.fullmatch(text):  # float() also reads 1_0 as 10 and a full-width １
        return text
    number = float(text)
    if math.isnan(number) or text.lower() in ("inf", "-inf", "infinity", "-infinity", "+inf"):
        return text
    return category_key(number)


def category_text(value, decimal: str = ".") -> str | None:
    """The text of a declared category or of a text cell as written, or None when empty.

    A string is stripped and put in Unicode's composed form (NFC), and under
    ``decimal=","`` a ``1,5`` becomes ``1.5`` (as the readers write such a cell); nothing else
    changes, so ``"02134"``, ``"250.10"`` and ``"TRUE"`` keep their zeros and case.  Any other
    value (a number, a bool, a date) has no text of its own: its :func:`category_key`.

    Examples
    --------
    >>> [category_text(v) for v in (" 02134 ", "250.10", "TRUE", 2.0, True, "")]
    ['02134', '250.10', 'TRUE', '2', 'true', None]
    """
    if not isinstance(value, str):
        return category_key(value, decimal)
    text = value.strip()
    if not text:
        return None
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    return DECIMAL_COMMA.sub(r"\1.\2", text) if decimal == "," else text


#: What :meth:`DeclaredValues.index` returns for a cell that is not text (a number, a bool, a
#: date) whose :func:`category_key` two or more declared values share: it cannot say which.
AMBIGUOUS = -2


class DeclaredValues:
    """How cells match a declared list of categories, ordinal levels or label classes.

    A cell that is **text** matches the declared value with the same :func:`category_text`
    (stripped, NFC: ``"02134"`` is not ``"2134"``, ``"250.1"`` is neither ``"250.10"`` nor
    ``"250.100"``, ``"428.0"`` is not ``"428"``); failing that, it matches by its
    :func:`category_key` only a declared value that is *not* text (a JSON number such as
    ``7``, or a bool) or a ``true``/``false`` in another case (``"true"`` is a declared
    ``"TRUE"``), if exactly one has that key.  Codes are text: an undeclared code that
    reads as the number of a declared one is "other", never that code.  A cell that is
    **not text** (a number of a Parquet or DataFrame column, a bool, a date) has only its
    key, so it matches the declared value with that key (``428`` and ``428.0`` match
    ``"428"``), and is :data:`AMBIGUOUS` when several share it (``7`` against ``"007"`` and
    ``"7"``).  Declared values must differ as text (:func:`category_text`); they may share
    a key.

    So a declared *text* that reads as a number (``"1.0"``, ``"007"``) can match a cell
    differently as a number and as the text it came from, and ``pandas.read_csv`` picks a
    column's type from every cell: one row ``x`` turned a column of codes 1/2 from numbers
    (matching ``"1.0"``) into text (``"1"``: "other"), and the fits were told apart in 198 of
    200 (epsilon >= 2.85 against 1; session 21).  No rule fixes this here: a number has lost
    its spelling, so agreeing with every text would mean matching texts by number, which
    ``"007"`` is not ``"7"`` forbids.  The encoder warns instead, from the schema and the
    frame's provenance (:mod:`dpboost.tabular_warnings`); the readers keep such columns as
    text (``text_columns``).

    Examples
    --------
    >>> zips = DeclaredValues(["02134", "2134", "007"])
    >>> [zips.index(v) for v in ("02134", "2134", "007", "7", " 7.0 ", 7, 2134)]
    [0, 1, 2, -1, -1, 2, -2]
    >>> zips.sharing(2134)
    ['02134', '2134']
    >>> DeclaredValues(["2", "TRUE"]).index(2.0), DeclaredValues(["2", "TRUE"]).index(True)
    (0, 1)
    >>> DeclaredValues([7, "TRUE"]).index(" 7.0 "), DeclaredValues(["7", "TRUE"]).index("true")
    (0, 1)
    """

    def __init__(self, values, decimal: str = ".") -> None:
        self.values, self.decimal = tuple(values), decimal
        self.by_text = {category_text(v, decimal): j for j, v in enumerate(self.values)}
        self.keys: dict = {}  # key -> positions of the declared values that have it
        for j, v in enumerate(self.values):
            self.keys.setdefault(category_key(v, decimal), []).append(j)
        self.by_key = {k: js[0] for k, js in self.keys.items() if len(js) == 1}

    def index(self, value) -> int:
        """The position of the declared value ``value`` matches, -1 for none, or
        :data:`AMBIGUOUS` (a cell that is not text, whose key several declared values share)."""
        key = category_key(value, self.decimal)
        if isinstance(value, str):
            j = self.by_text.get(category_text(value, self.decimal))
            if j is not None:
                return j
            j = self.by_key.get(key, -1)  # a text matches a declared text by its text only
            return j if j >= 0 and (key in ("true", "false")
                                    or not isinstance(self.values[j], str)) else -1
        j = self.by_key.get(key, -1)
        if j < 0 and not isinstance(value, str) and key in self.keys:
            return AMBIGUOUS
        return j

    def sharing(self, value) -> list:
        """The declared values whose key is that of ``value`` (public: from the declaration)."""
        return [self.values[j] for j in self.keys.get(category_key(value, self.decimal), [])]


def _date_key(value: datetime.date) -> str | None:
    """``2020-01-01`` for a date or a time stamp at midnight, ``2020-01-01 10:30:00`` for
    another time (pandas' ``NaT`` is missing): the text a CSV holds, so a Parquet column of
    time stamps matches the dates a schema declares.  A stamp with a time zone at midnight in
    its own zone is that date too (red team s34: ``datetime64[us, UTC]`` dates were read as
    ``1970-01-01 00:00:00+00:00``, none of the declared dates, so every row was "other", in
    silence at train); at another time it keeps its offset."""
    if value != value:  # NaT
        return None
    if not isinstance(value, datetime.datetime):
        return value.isoformat()
    if value.time() == datetime.time(0):  # the wall-clock time in the stamp's own zone
        return value.date().isoformat()
    return value.isoformat(sep=" ")


def is_nan_text(value) -> bool:
    """Whether ``value`` is the text of a NaN: ``nan`` in any case, signed or not, spaced or not.

    Such a cell means *missing* in a numeric column and, unless the schema declares that exact
    text as one of its categories (or classes), in a categorical column and a label column
    too, whichever reader produced the table (pyarrow reads it as a float NaN in a column of
    numbers, pandas and dask keep the text).

    Examples
    --------
    >>> [is_nan_text(v) for v in ("NaN", " nan ", "-NAN", "nano", "", float("nan"))]
    [True, True, True, False, False, False]
    """
    return isinstance(value, str) and value.strip().lower() in ("nan", "+nan", "-nan")


#: A number as the schema's encoder reads one (``pandas.to_numeric``): decimal digits with an
#: optional sign, point and exponent, or inf / infinity / nan.  Python's ``float`` also takes
#: ``1_000`` (a digit separator) and would let it through.
_NUMBER_TEXT = re.compile(r"\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)\s*",
                          re.IGNORECASE | re.ASCII)


def is_decimal_number(text: str) -> bool:
    """Whether ``text`` is a decimal number (``1_000`` and ``0x10`` are not).

    Examples
    --------
    >>> [is_decimal_number(t) for t in ("1.5e-3", " -2 ", "inf", "1_000", "0x10", "", "1,5")]
    [True, True, True, False, False, False, False]
    >>> is_decimal_number("２")      # a full-width digit: not a number, as in a numeric column
    False
    """
    return _NUMBER_TEXT.fullmatch(text) is not None


def first_non_number(cells) -> tuple[int, str] | None:
    """The first cell of a pandas column that is no decimal number, as ``(row, what)`` with
    ``what`` "is empty" or "holds a non-numeric value"; None when every cell is a number.

    For messages that name a line, never the cell (``train`` and ``predict`` share it).

    Examples
    --------
    >>> import pandas as pd
    >>> first_non_number(pd.Series(["1", " 2 ", None])), first_non_number(pd.Series(["1", "x"]))
    ((2, 'is empty'), (1, 'holds a non-numeric value'))
    """
    text = cells.astype(str).tolist()  # pandas 3 keeps a missing cell missing (not "nan")
    bad = np.flatnonzero(~np.fromiter((isinstance(v, str) and is_decimal_number(v)
                                       for v in text), dtype=bool, count=len(text))
                         | cells.isna().to_numpy())
    if not bad.size:
        return None
    row = int(bad[0])
    cell = cells.iloc[row]
    empty = cell is None or (isinstance(cell, float) and math.isnan(cell)) or (
        isinstance(cell, str) and not cell.strip())
    return row, "is empty" if empty else "holds a non-numeric value"


def control_hint(value) -> str | None:
    r"""What a refusal of ``value`` (a label outside the classes) adds when the cell holds a
    control character (Unicode category Cc: a NUL, a backspace, DEL, C1 codes), which editors
    do not show, so the cell looks like a class: the character, named by its escape (session
    35).

    Examples
    --------
    >>> control_hint("yes\x00")
    "it holds the control character '\\x00', which editors do not show: remove it from the file"
    >>> control_hint("yes") is None, control_hint(1.5) is None
    (True, True)
    """
    if not isinstance(value, str):
        return None
    char = next((c for c in value if unicodedata.category(c) == "Cc"), None)  # as csv_errors
    return (None if char is None else
            f"it holds the control character {char!r}, which editors do not show: remove it "
            "from the file")
