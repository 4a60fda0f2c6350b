"""The cells of one column as the encoder reads them: numbers, missing values, categories.

:class:`~dpboost.tabular.TabularEncoder` and the data owner's checks
(:mod:`dpboost.tabular_checks`) read a column by these rules, so an encoded value and a
warning about it never disagree on what is missing, clipped or undeclared.
"""

from __future__ import annotations

import datetime
import functools
import re
from typing import TYPE_CHECKING

import numpy as np

from dpboost.cell_text import (
    AMBIGUOUS,
    DATE_ADVICE,
    DECIMAL_COMMA,
    NA_WORDS,
    DeclaredValues,
    control_hint,
    category_key,
    category_text,
    is_decimal_number,
    is_nan_text,
)

from dpboost.number_symbols import strip_symbols
from dpboost.thousands import drop_thousands

if TYPE_CHECKING:
    from dpboost.schema import Schema

__all__ = ["PLAIN_NUMBER", "BadValueError", "declared_text", "na_keys", "parse_numbers"]

class BadValueError(ValueError):
    """A value the schema cannot encode (text in a numeric column, an undeclared label), or a
    label an estimator cannot fit (missing, or text among numbers: ``column="y"``).

    ``column`` and ``row`` (0-based position in the table) say where, so a file reader can
    translate the row to a line number.  The error pickles whole, so one raised on a dask
    worker reaches the client with its ``column`` and ``row``.

    Examples
    --------
    >>> error = BadValueError("The label 'x' at row 2 is not declared.", column="y", row=2)
    >>> str(error.moved(12)), error.moved(12).row
    ("The label 'x' at row 12 is not declared.", 12)
    """

    def __init__(self, message: str, *, column: str, row: int) -> None:
        super().__init__(message)
        self.column, self.row = column, row

    def __reduce__(self):
        return (functools.partial(type(self), column=self.column, row=self.row), self.args,
                self.__dict__)

    def moved(self, row: int, prefix: str = "") -> BadValueError:
        """The same error at row ``row`` (of a whole file rather than of a part of it)."""
        text = str(self).replace(f"at row {self.row}", f"at row {row}", 1)
        return type(self)(prefix + text, column=self.column, row=row)

    def in_parquet(self) -> str:
        """The message with its row named as a Parquet file's row is named to its owner
        (:func:`~dpboost.parquet_columns.row_words`: from 1, with the pandas index)."""
        from dpboost.parquet_columns import row_words

        return str(self).replace(f"at row {self.row}", f"at {row_words(self.row)}", 1)


#: Text a numeric column reads as a number (as a spreadsheet does): any case.
_BOOLEANS = {"true": "1", "false": "0"}


#: A date or a time stamp as files write them: 2020-05-27, 27/05/2020, 2020-05-27 10:00.
_DATE_TEXT = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}.*)?")

_DATE_HINT = f"; it reads as a date: {DATE_ADVICE}"


def _number_hint(value: str, decimal: str = ".") -> str:
    """What to change when a cell is a number written for people: ``1,234``, ``12,5``, ``40%``,
    ``12 kg``, ``$5``.  None is guessed (``1,234`` is a thousand or a decimal): the file or the
    schema must say.  The hint never holds the cell (a cell's content is private): it says
    what kind of text it is.

    Examples
    --------
    >>> _number_hint("1,234").split(":")[0]
    '; it reads as a number written with a comma (a thousands separator or a decimal comma)'
    >>> _number_hint("41.5%").split(":")[0], _number_hint("forty")
    ('; it reads as a number with a unit, a currency or a percent sign', '')
    """
    if re.fullmatch(r"[+-]?\d{1,3}([ \u00a0\u202f']\d{3})+([.,]\d+)?", value):
        return ("; it reads as a number with spaces or apostrophes between groups of digits "
                "(a thousands separator): re-save the column without them, or add "
                "\"thousands\": \" \" (or \"'\") to the schema")
    if _negative_hint(value):
        return _negative_hint(value)
    core = re.sub(r"^[$€£¥\s]+|[^\d.,]+$", "", value)  # without a unit, %, or currency
    unit = value.replace(core, "", 1).strip() if core else ""
    if decimal == "," and "." in core and re.fullmatch(r"[+-]?[\d.,]*\d", core):
        return _DOT_UNDER_DECIMAL_COMMA
    if "," in core and re.fullmatch(r"[+-]?[\d.,]*\d", core):
        return _comma_hint(core, decimal) + (
            "; declare its unit, currency or percent sign too, as the column's \"prefix\" "
            "or \"suffix\" (or write the number alone), and give the column's 'lower' and "
            "'upper' in that unit" if unit else "")
    if unit and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", core):
        return ("; it reads as a number with a unit, a currency or a percent sign: declare the "
                "sign in the column's \"prefix\" or \"suffix\" (\"suffix\": \"%\" reads 12% as "
                "12), or write the number alone, and give the column's 'lower' and 'upper' in "
                "that unit")
    return ""


def _negative_hint(value: str) -> str:
    """The hint for a negative number written with a typographic minus (``−5%``, ``– 3``) or
    a trailing minus (``45.00-``, as SAP exports write it), whatever symbols surround it.

    >>> [bool(_negative_hint(v)) for v in ("45.00-", "\u2212$5", "5-3", "12-01-2020", "-5")]
    [True, True, False, False, False]
    """
    if re.fullmatch(r"[^\d\u2212\u2013-]{0,5}[\u2212\u2013]\s*[^\d]{0,5}\d[\d.,' ]*[^\d]{0,5}",
                    value) or re.fullmatch(r"[^\d-]{0,5}\d[\d.,' ]*[^\d-]{0,5}-", value):
        return ("; it reads as a negative number written with a typographic minus sign or a "
                "trailing minus: write it with a leading '-' (a hyphen-minus); accounting "
                "parentheses, (45.00), are read as a minus sign")
    return ""


def _comma_hint(core: str, decimal: str) -> str:
    """The hint of :func:`_number_hint` for a number written with commas (``core``: the cell
    without a unit or a currency sign)."""
    if decimal == ",":  # the schema declares the comma: several of them separate thousands
        return ("; it reads as a number with thousands separators: with \"decimal\": \",\" "
                "numbers are read with one decimal comma and no thousands separators: "
                "re-save the column without the separators, or add \"thousands\": \".\" "
                "to the schema if the dots separate thousands")
    if core.count(",") == 1 and "." not in core:
        return ("; it reads as a number written with a comma (a thousands separator or a "
                "decimal comma): numbers are read with a decimal point and no thousands "
                "separators: if the comma separates thousands, re-save the column without "
                "them or add \"thousands\": \",\" to the schema; if it is a decimal comma, "
                "declare \"decimal\": \",\" in the schema")
    return ("; it reads as a number with thousands separators: numbers are read with a "
            "decimal point and no thousands separators: re-save the file with a number "
            "format without separators, or declare the file's marks in the schema (1,234.5: "
            "add \"thousands\": \",\"; 1.234,5: \"thousands\": \".\" and \"decimal\": \",\")")


def na_keys(na_values, decimal: str = ".") -> frozenset:
    """The :func:`category_key` of each text of ``na_values``: a cell whose key is one of
    them is missing (``"999"`` matches ``999``, ``999.0`` and ``" 999.0 "``)."""
    return frozenset(category_key(v, decimal) for v in na_values) - {None}


def _is_na(values, keys: frozenset, decimal: str = ".") -> np.ndarray:
    """Which cells of ``values`` have their :func:`category_key` in ``keys`` (bool array)."""
    if not keys:
        return np.zeros(len(values), dtype=bool)
    codes, uniques = _factorize(values)
    hit = np.array([category_key(u, decimal) in keys for u in uniques] + [False])
    return hit[codes]


def _numeric_values(series, name: str, na_values: tuple[str, ...],
                    decimal: str, thousands: str | None,
                    symbols: tuple[tuple[str, ...], tuple[str, ...]]) -> np.ndarray:
    """float64 values with NaN for missing; one-line error naming a non-numeric cell.

    ``true``/``false`` (any case, or a bool) read as 1 and 0, as :func:`category_key`
    matches them; an empty cell, one of ``na_values`` (the column's, by :func:`na_keys`) or
    the text ``NaN`` in any case (:func:`~dpboost.schema.is_nan_text`) is missing.  A
    declared ``thousands`` separator is dropped where it groups digits by three
    (:func:`~dpboost.thousands.drop_thousands`); anywhere else the cell is an error.
    ``symbols``: the column's declared ``(prefixes, suffixes)``, stripped first
    (:func:`~dpboost.number_symbols.strip_symbols`: ``$1,200.50`` is 1200.5, and accounting
    parentheses are a minus sign, ``($45.00)`` is -45, declared symbols or not), as the
    encoder and the owner checks of :mod:`dpboost.tabular_checks` both read them.

    Text becomes a number by one parser, cell by cell (:func:`parse_numbers`), so a cell's
    value never depends on the other cells of its column.  A file read through a schema keeps
    every column as text (:attr:`~dpboost.schema.Schema.text_columns`); a column of floats
    (a DataFrame's, a Parquet file's) is taken as it is.
    """
    import pandas as pd

    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return _finite(_na_numbers_missing(series.to_numpy(dtype=np.float64, na_value=np.nan),
                                           na_values), name)
    if decimal == "." and thousands is None and not (symbols[0] or symbols[1]) and (
            pd.api.types.is_string_dtype(series)):
        # each step below leaves a plain number as it is (and an empty cell is missing), so a
        # column of only those is read here without them: the same values, only faster
        values, plain = parse_numbers(series)
        empty = series.isna().to_numpy(dtype=bool) | (series == "").to_numpy(dtype=bool)
        if bool((plain | empty).all()):
            keys = na_keys(na_values, decimal)
            missing = empty | (_is_na(series.where(~empty, None), keys, decimal) if keys
                               else False)
            return _finite(_na_numbers_missing(np.where(missing, np.nan, values), na_values),
                           name)
    text = series.astype(object).where(series.notna(), None)
    text = text.map(lambda v: None if v is None else str(v).strip())
    missing = ((text == "") | text.map(is_nan_text).astype(bool)
               | _is_na(text, na_keys(na_values, decimal), decimal))
    text = text.where(~missing, None)
    text = text.map(lambda v: _BOOLEANS.get(v.lower(), v) if isinstance(v, str) else v)
    # declared symbols: $12 is 12, 40% is 40; declared or not, (45.00) is -45 (accounting);
    # a cell by cell pass only when there is something to strip (a column of plain numbers
    # read as text, "?" among them say, takes no regex per cell)
    if symbols[0] or symbols[1] or any(isinstance(v, str) and "(" in v for v in text):
        text = text.map(lambda v: strip_symbols(v, *symbols) if isinstance(v, str) else v)
    misplaced = np.zeros(len(text), dtype=bool)
    if thousands is not None:  # declared: 1,234,567 is 1234567; 12,34 stays an error
        grouped = text.map(lambda v: drop_thousands(v, thousands, decimal))
        misplaced = (grouped.isna() & text.notna()).to_numpy(dtype=bool)
        text = grouped.where(~misplaced, text)
    dotted = np.zeros(len(text), dtype=bool)
    if decimal == ",":  # 12,5 is 12.5; a '.' in text is a thousands separator or a guess
        was_text = series.astype(object).map(lambda v: isinstance(v, str)).to_numpy(dtype=bool)
        dotted = was_text & text.map(lambda v: isinstance(v, str) and "." in v).to_numpy(
            dtype=bool) & text.notna().to_numpy()
        text = text.map(lambda v: DECIMAL_COMMA.sub(r"\1.\2", v) if isinstance(v, str) else v)
    values, plain = parse_numbers(text)
    bad = (~plain & text.notna().to_numpy()) | dotted | misplaced
    values = _na_numbers_missing(values, na_values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        _finite(values[:row], name)  # the first refused cell is named, an infinity too (a
        # later non-number hid an earlier one: red team, session 26)
        hint = (f"; it holds the declared thousands separator {thousands!r} elsewhere than "
                "between groups of three digits after a first group not starting with 0: "
                "correct the cell (a separator is never read as a decimal mark)"
                if misplaced[row] else
                _DOT_UNDER_DECIMAL_COMMA if dotted[row]
                else _negative_hint(text.iloc[row]) or _symbol_hint(text.iloc[row], symbols)
                or _not_a_number_hint(text.iloc[row], decimal))  # never the cell itself
        raise BadValueError(f"Column {name!r} is declared numeric but the cell at row {row} is "
                            f"not a number{hint}.", column=name, row=row)
    return _finite(values, name)


#: What :func:`parse_numbers` reads as a number: a sign, digits with at most one point and an
#: exponent, or an infinity in any case (which :func:`_finite` then refuses by name).
PLAIN_NUMBER = r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity))"


def parse_numbers(cells) -> tuple[np.ndarray, np.ndarray]:
    """``(values, plain)``: each cell of ``cells`` (text or None) that is wholly a
    :data:`PLAIN_NUMBER`, as the float64 nearest to it (NaN elsewhere), and which cells were.

    One parser, cell by cell: pyarrow's cast, correctly rounded.  Until session 26 a file's
    numeric column was typed by pyarrow's guess from all its cells, and read by pandas'
    ``to_numeric`` when any cell was not a plain number (``true``, ``(45)``, a column's
    missing-value marker).  So one row chose the parser for every other row, and the two
    differ: ``to_numeric`` reads ``+0.24391087688713198`` one unit in the last place off
    (2,087 of 60,000 random signed decimals), which moved 100 rows across a public bin edge
    on it, and refuses a number of more than 4,300 digits that pyarrow reads (red team,
    session 26).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:  # a pandas column of text: its pyarrow array as it is
        text = pa.array(cells, from_pandas=True).cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        text = pa.array(np.asarray(cells, dtype=object), type=pa.string(), from_pandas=True)
    plain = pc.fill_null(pc.match_substring_regex(text, f"^(?:{PLAIN_NUMBER})$"), False)
    numbers = pc.cast(pc.if_else(plain, text, pa.scalar(None, pa.string())), pa.float64())
    return (numbers.to_numpy(zero_copy_only=False).astype(np.float64, copy=False),
            plain.to_numpy(zero_copy_only=False).astype(bool, copy=False))


def _finite(values: np.ndarray, name: str) -> np.ndarray:
    """``values``, refusing an infinity: ``inf``, ``-Infinity`` or ``1e400`` (a ratio with a
    zero denominator, as pandas writes it) was read as a number and clipped to the declared
    bound, a value the row never had."""
    infinite = np.isinf(values)
    if infinite.any():
        row = int(np.flatnonzero(infinite)[0])
        raise BadValueError(f"Column {name!r} is declared numeric but the cell at row {row} is "
                            "infinite (inf, Infinity, or a number beyond 1.8e308, as a division "
                            "by zero writes it): correct the cell, or leave it empty to mark it "
                            "missing.", column=name, row=row)
    return values


def _symbol_hint(value: str, symbols: tuple) -> str:
    """The hint for a cell of a column declaring ``prefix``/``suffix`` that still carries a
    symbol (another currency, another unit): it names the declaration, never the cell."""
    if not (symbols[0] or symbols[1]) or not re.search(r"\d", value) or re.fullmatch(
            r"[+-]?[\d.,' ]*", value):
        return ""
    declared = " and ".join(f"'{k}' {list(v)}" for k, v in zip(("prefix", "suffix"), symbols)
                            if v)
    return ("; it carries a unit, currency or percent sign other than the column's declared "
            f"{declared}: add that symbol to the declaration if it means the same unit, or "
            "correct the cell")


#: Why a cell holding a '.' is refused under ``"decimal": ","``: ``1.234`` was read as 1.234
#: where the file meant 1234 (a German thousands separator), silently.
_DOT_UNDER_DECIMAL_COMMA = (
    "; it holds a '.' where the decimal mark is ',' (\"decimal\": \",\"), so the '.' is a "
    "thousands separator (1.234 for 1234) or a decimal point, and neither is guessed: "
    "re-save the column with decimal commas and no thousands separators (1234,5), or add "
    "\"thousands\": \".\" to the schema if the dots separate thousands")


def _not_a_number_hint(value: str, decimal: str = ".") -> str:
    """What to change for a cell of a numeric column that is not a number, by the kind of text
    it is (a missing-value marker, a date, a number written for people, a word), never by
    the text itself: the message names the column and the line, and a cell's content is
    private.

    Examples
    --------
    >>> _not_a_number_hint("NA")
    "; it reads as a missing-value marker: list that text in the schema's 'na_values'"
    """
    na_hint = "; it reads as a missing-value marker: list that text in the schema's 'na_values'"
    if control := control_hint(value):  # a NUL or another character editors do not show
        return f"; {control}"
    if value.lower() in NA_WORDS:
        return na_hint
    if _DATE_TEXT.fullmatch(value):
        return _DATE_HINT
    if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[AaPp][Mm])?", value):
        return ("; it reads as a time of day or a duration: write it as a number (minutes, "
                "say) with public bounds, or declare the column \"categorical\"")
    if any(c.isdigit() for c in value):
        return _number_hint(value, decimal)
    if len(value) <= 3 and not value.isalpha():
        return na_hint
    return ("; if the column holds words, declare it \"categorical\" with its list of "
            "categories; if that text means a missing value, list it in the schema's "
            "'na_values'")


_INFINITY = re.compile(r"[+-]?(inf|infinity)", re.IGNORECASE)


def _na_numbers_missing(values: np.ndarray, na_values: tuple[str, ...]) -> np.ndarray:
    """``values`` with NaN where a value equals a number of the schema's ``na_values``.

    A sentinel such as ``"999"`` means missing wherever its number appears: a CSV reader
    turns the text ``999`` into a missing cell, but a Parquet column of numbers (or a CSV cell
    ``999.0``) holds the number itself, which was clipped as a value instead.
    """
    sentinels = [float(v) for v in na_values  # an infinity too, declared "inf" or "-Infinity"
                 if (is_decimal_number(v) or _INFINITY.fullmatch(v.strip())) and not is_nan_text(v)]
    if not sentinels:
        return values
    return np.where(np.isin(values, sentinels), np.nan, values)


def _factorize(values, what: str = "A categorical column"):
    """(codes with -1 for missing, uniques) of a 1-d sequence, in O(n) via pandas.

    A cell holding a list, a dict or another unhashable value is a ``TypeError`` naming
    ``what`` (``"Column 'job'"``) and the row, never pandas' bare "unhashable type".
    """
    import pandas as pd

    try:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object) if not hasattr(
            values, "dtype") else values, use_na_sentinel=True)
    except TypeError:
        cells = list(values)
        row = next((k for k, v in enumerate(cells) if not _hashable(v)), None)
        if row is None:
            raise
        raise TypeError(f"{what} holds a {type(cells[row]).__name__} at row {row}; a "
                        "category or label must be a text, a number or a boolean.") from None
    return np.asarray(codes), list(uniques)


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _missing_categories(uniques, declared: DeclaredValues, schema: Schema,
                        name: str) -> np.ndarray:
    """Which distinct values of categorical column ``name`` mean *missing* (an empty cell, one
    of its ``na_values`` (:meth:`~dpboost.schema.Schema.na_values_of`), or NaN text unless
    ``declared`` holds it), plus a trailing True for the code -1 of :func:`_factorize`: index
    it with the codes.

    A text cell written exactly as a declared value is that value, even when its number is
    an ``na_values`` token: ``"0999"`` is the declared code ``"0999"``, not the missing
    ``"999"`` (:func:`declared_text`).
    """
    tokens = schema.na_values_of(name)
    keys = na_keys(tokens, schema.decimal)
    found = []
    for u in uniques:
        key = category_key(u, schema.decimal)
        found.append(key is None or (key in keys and not declared_text(u, declared, tokens))
                     or (is_nan_text(u) and key not in declared.keys))
    return np.array(found + [True])


def declared_text(value, declared: DeclaredValues, tokens=()) -> bool:
    """Whether ``value`` is a text cell written exactly as one of the ``declared`` values
    (stripped, NFC) and not exactly as one of the ``na_values`` ``tokens``: such a cell is
    that value whatever the tokens say of its number (``"0999"`` against ``"999"``).  A cell
    written as a token is missing, as a reader makes it.

    Examples
    --------
    >>> codes = DeclaredValues(["0999", "0100"])
    >>> declared_text(" 0999 ", codes), declared_text("999", codes), declared_text(999, codes)
    (True, False, False)
    >>> declared_text("0999", codes, tokens=["0999"])
    False
    """
    if not isinstance(value, str):
        return False
    text = category_text(value, declared.decimal)
    return text in declared.by_text and all(
        category_text(t, declared.decimal) != text for t in tokens)


def _declared_positions(codes, uniques, gone, declared: DeclaredValues, what: str,
                        column: str, noun: str = "categories") -> np.ndarray:
    """Each row's position in ``declared`` (-1: undeclared or missing), from the
    :func:`_factorize` ``codes``/``uniques`` and ``gone`` (which uniques are missing).

    A cell that is not text (a number of a Parquet or DataFrame column) whose key two declared
    values share (``7`` against ``"007"`` and ``"7"``) cannot be placed: a
    :class:`BadValueError` names ``what`` (``"Column 'zip'"``), the row and the declared
    values (public), never the cell.
    """
    lookup = np.array([-1 if g else declared.index(u) for u, g in zip(uniques, gone)] + [-1])
    shared = np.flatnonzero(lookup == AMBIGUOUS)
    if shared.size:
        row = int(np.flatnonzero(np.isin(codes, shared))[0])
        value = uniques[codes[row]]
        kind = ("boolean" if isinstance(value, (bool, np.bool_)) else
                "date" if isinstance(value, datetime.date) else "number")
        raise BadValueError(
            f"{what} holds a {kind} at row {row} that matches the declared {noun} "
            f"{declared.sharing(value)} alike (they differ only as text): store the column "
            "as text (a string column in Parquet, dtype=str in pandas) so that each cell "
            "names one of them.", column=column, row=row)
    return lookup[codes]
