"""Reading raw tables (CSV, Parquet) through pyarrow and pandas, with one-line errors on top.

CSV files may be comma, semicolon, tab, pipe or whitespace separated (a schema's declaration, or
else the first non-blank line, outside quotes: :mod:`dpboost.separators`), quoted (a quoted
value may hold the separator and line breaks), gzip-compressed, UTF-8 with or without a
byte-order mark, with CRLF line endings, empty cells, stray spaces and string values; a file
without a header takes its column names from ``names`` (a schema's ``"names"``).  Separated
files go through :func:`pyarrow.csv.read_csv` (multi-threaded; a row with too few or too many
fields is an error, and the message names its line); whitespace-separated files through
:func:`pandas.read_csv`.  Parquet files (by suffix
``.parquet``/``.pq`` or by their ``PAR1`` magic) through pyarrow as a CSV reads (stripped names,
bytes as UTF-8 text: :mod:`dpboost.parquet_columns`), and a folder of them as one table
(:mod:`dpboost.parquet_folder`).

Text must be UTF-8: another encoding is a one-line error naming the file, never a guess.
Values that pyarrow would read as dates or times are kept as their text, so a category
``2020-01-01`` matches its declaration.  A repeated header name is an error only when that
column is read.

What a reader infers from the contents (the separator, the column names in the header) shapes
nothing that is released unless the caller lets it: :class:`~dpboost.tabular.TabularEncoder`
takes the columns it uses, and their order, from the schema.
"""

from __future__ import annotations

import gzip
import itertools
import os
import re
from collections import Counter
from pathlib import Path

from dpboost import parquet_folder as folder
from dpboost.arrow_csv import read_arrow_csv
from dpboost.cell_text import category_key, is_decimal_number
from dpboost.csv_errors import arrow_error as _arrow_error
from dpboost.csv_errors import decode_error as _decode_error
from dpboost.csv_errors import open_bytes
from dpboost.csv_errors import open_text as _open_text
from dpboost.csv_errors import refuse_archive, repeated_names_error
from dpboost.column_check import check_columns
from dpboost.pandas_csv import BLANK, file_quotes_after_space, read_spaced, read_whitespace
from dpboost.record_lines import first_record
from dpboost.separators import (SEPARATOR_NAMES, file_delimiter, outside_quotes,
                                sniff_delimiter, split_fields)
from dpboost.width_hints import width_hint

__all__ = ["csv_layout", "field_count", "header_names", "line_of", "read_table",
           "sniff_delimiter", "table_format"]

_PARQUET_SUFFIXES = (".parquet", ".pq")


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


def table_format(path: str | os.PathLike, *, declared: str | None = None) -> str:
    """``"parquet"``, ``"libsvm"`` or ``"csv"``: by suffix, then by declaration, then by content.

    ``declared``: what the caller's public declarations say the file is.  ``"table"`` (a schema
    declares the file's columns or ``"names"``): a table whatever its first line holds; only a
    LIBSVM suffix makes it ``"libsvm"`` (which :func:`read_table` refuses).  ``"libsvm"`` (an
    index base is declared): LIBSVM unless its suffix names a table.  None: a name with no
    known suffix is LIBSVM when its first line reads ``label idx:value ...``
    (:func:`dpboost.data.detect_format`), a choice made from a row: in a headerless file, times
    of day (``1 09:00 17:30``) in the first row made the file LIBSVM and dropped the schema (a
    model of another shape than its neighbour's), and a comment on a LIBSVM file's first line
    made it CSV.  A ``.csv``/``.tsv`` suffix is never overruled by content, and a file of
    another name is Parquet only when it starts AND ends with Parquet's magic ``PAR1`` (a
    first cell ``PAR1`` made a CSV file Parquet).
    """
    from dpboost.data import _CSV_SUFFIXES, _LIBSVM_SUFFIXES, detect_format

    path = Path(path)
    if path.is_dir():  # its Parquet files as one table; a folder without any is one line
        return "parquet" if folder.folder_files(path) else "csv"
    if not path.is_file():
        raise FileNotFoundError(f"No such file: {path}")
    name = path.name.lower()
    if name.endswith(_PARQUET_SUFFIXES):
        return "parquet"
    with open(path, "rb") as handle:
        magic = handle.read(8)
        handle.seek(max(0, path.stat().st_size - 4))
        tail = handle.read(4)
    refuse_archive(path, magic)
    if name.endswith(_CSV_SUFFIXES):
        return "csv"
    if magic[:4] == b"PAR1" and tail == b"PAR1":
        return "parquet"
    if declared is not None:
        return "libsvm" if declared == "libsvm" or name.endswith(_LIBSVM_SUFFIXES) else "csv"
    return detect_format(path)


def _first_lines(path: Path, k: int = 2, separator=None) -> list[tuple[int, str]]:
    """The first ``k`` non-blank lines with their 1-based line numbers (text that is not UTF-8
    named by its record line under a declared ``separator``: :func:`undecodable_line`).

    A first line ``sep=;`` (a spreadsheet's separator hint) is refused in one line: read as
    the header it would set the separator and the column names.
    """
    out: list[tuple[int, str]] = []
    with open(path, "rb") as handle:  # a workbook or a ZIP archive, whatever its name
        refuse_archive(path, handle.read(8))
    try:
        with _open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                line = line.rstrip("\r\n")
                if line.strip():
                    out.append((number, line))
                    if len(out) == k:
                        break
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile) as exc:
        raise _decode_error(path, exc, separator) from None
    if out and re.fullmatch(r"sep=.?", out[0][1].strip(), flags=re.IGNORECASE):
        raise ValueError(f"{path}, line {out[0][0]}: {out[0][1].strip()!r} is a spreadsheet's "
                         "separator hint, not a header; delete that line (the separator is "
                         "read from the header line).")
    return out


def header_names(path: str | os.PathLike, header: bool | str = True,
                 separator: str | None = None) -> list[str] | None:
    """The stripped column names of a CSV file's header row, or None if it has none.

    ``header="infer"``: a first row is a header if one of its cells is not a number where the
    second row has a number (or, for a one-row file, if none of its cells is a number).
    """
    path = Path(path)
    if table_format(path) == "parquet":
        from dpboost.parquet_columns import file_names

        return folder.folder_names(path) if path.is_dir() else file_names(path)
    lines = _first_lines(path)
    if not lines:
        raise ValueError(f"{path} is empty: no rows to read.")
    if header:
        _check_header_line(path, lines[0])
    delimiter = file_delimiter(path, lines[0][1], separator=separator)
    first = split_fields(lines[0][1], delimiter)
    if header == "infer":
        second = split_fields(lines[1][1], delimiter) if len(lines) > 1 else None
        header = (not any(is_decimal_number(c) for c in first) if second is None else
                  any(not is_decimal_number(a) and is_decimal_number(b)
                      for a, b in zip(first, second)))
    return first if header else None


def _check_header_line(path: Path, line: tuple[int, str]) -> None:
    """Refuse a header line that opens a quoted name and ends inside it: a spreadsheet's
    wrapped header cell (``id,age,"inc<line break>ome",...``).  Read line by line, the names
    were cut there, and the missing-column hint said to delete the first of "two header
    rows", the header itself."""
    number, text = line
    if text.count('"') % 2 and re.search(r'(^|[,;\t|])\s*"[^"]*$', text):
        raise ValueError(f"{path}, line {number}: a quoted name of the header row holds a line "
                         "break (a wrapped header cell?); write each column name on one line.")


def field_count(path: str | os.PathLike, decimal: str = ".",
                separator: str | None = None) -> int:
    """Number of fields in the first non-blank line of a CSV file (the second must agree).

    ``separator``: a schema's declared separator (:func:`~dpboost.separators.file_delimiter`).
    """
    lines = _first_lines(Path(path))
    if not lines:
        raise ValueError(f"{path} is empty: no rows to read.")
    _check_first_two(Path(path), lines, decimal, separator)
    return len(first_record(Path(path), lines[0][1],
                            file_delimiter(path, lines[0][1], decimal, separator)))


def _check_first_two(path: Path, lines, decimal: str = ".", separator: str | None = None,
                     names=None) -> None:
    """Refuse a first record whose width differs from the second's, read with the separator
    of the first, or a first line without the separator of the second.  Widths are not
    compared when ``names`` are declared: the width is then public, and each row is judged
    against it alone (:func:`_check_width` line 1, the parser every other); line 1 of a
    headerless file is a private row, whose width and '#' blamed line 2 (red team, session
    26).  The separators still are: line 1 sets the file's (session 23).

    A title or a note above the table (UCI adult.test's ``|1x3 Cross validator``) sets the
    separator and the width of every row; the error used to blame line 2, or a cell of line
    1, and ``predict --label`` said the label column was absent.  A declared ``separator`` is
    not compared with line 2's: it decides.
    """
    if len(lines) < 2:
        return
    delimiter = file_delimiter(path, lines[0][1], decimal, separator)
    if delimiter is None:
        records = [(n, len(split_fields(line, None))) for n, line in lines]
    else:  # records, so that a quoted line break does not cut the second one
        from dpboost.record_lines import is_blank, numbered_records

        with _open_text(path) as handle:
            records = list(itertools.islice(((n, len(f)) for n, _, _, f in numbered_records(
                handle, delimiter) if not is_blank(f)), 2))
    second = lines[1][1]
    found = sniff_delimiter(second, decimal)
    # outside quotes: a first row '"a,z" b 1' above rows 'a, b, 1' read them all as
    # whitespace-separated (fields 'a,' and 'b,': every category "other"), red team round 3
    other = (separator is None and found is not None and found != delimiter
             and found not in outside_quotes(lines[0][1])
             and (delimiter not in second if delimiter is not None  # each has only its own
                  else not re.search(r"\d,\d", second)))  # not a decimal comma: 1,5 1,7
    if names is not None and not other:  # declared: each row against them alone
        return
    if len(records) == 2 and (records[0][1] != records[1][1] or other):
        (n1, k1), (n2, k2) = records
        hint = width_hint(lines, records, delimiter, other)
        if other:  # line 1 has none of the separators line 2 has
            name = SEPARATOR_NAMES[found]
            raise ValueError(f"{path}: line {n2} is separated by {name}, but line {n1} holds "
                             f"none (the separator is read from line {n1}). {hint}")
        raise ValueError(f"{path}, line {n2}: expected {k1} fields (as in the first row), "
                         f"found {k2}. {hint}")


def csv_layout(path: str | os.PathLike, names=None, columns=None, decimal: str = ".",
               separator: str | None = None) -> tuple[str | None, list[str], int]:
    """``(delimiter, column names, lines to skip)`` of a CSV file, as :func:`read_table` sees it.

    For readers that split a file into blocks (dask): the delimiter from the first line
    (None = whitespace), the header's stripped names without a byte-order mark (or ``names``
    for a headerless file, checked against the width), and the lines before the first data
    row.  As in :func:`read_table`, a repeated header name is an error only if it is one of
    ``columns`` (None: every column is read); the repeats of an unread name are suffixed so a
    parser takes them (``a,b,y,,`` has two columns named ``""``).
    """
    path = Path(path)
    lines = _first_lines(path, 2, separator)
    if not lines:
        raise ValueError(f"{path} is empty: no rows to read.")
    _check_first_two(path, lines, decimal, separator, names)
    delimiter = file_delimiter(path, lines[0][1], decimal, separator)
    first = first_record(path, lines[0][1], delimiter)
    if names is None:
        _check_header_line(path, lines[0])
        _check_unique(path, first, columns)
        if len(lines) < 2:  # as read_table says it
            raise ValueError(f"{path} has a header row but no data rows.")
        return delimiter, _unread_repeats_renamed(first), lines[0][0]
    names = [str(n) for n in names]
    _check_width(path, first, names, lines[0][0])
    _check_not_a_header(path, first, names, lines[0][0])
    return delimiter, names, lines[0][0] - 1


def line_of(path: str | os.PathLike, row: int, *, header: bool,
            separator: str | None = None) -> int | None:
    """The record line (1-based) of data row ``row`` (0-based, blank lines skipped): every
    record above it counts as one line, the blank lines and the header as in the file.

    Not the physical line: that moves with the line breaks quoted in the rows ABOVE, so a
    refusal of this row would differ between neighbouring files (:mod:`dpboost.record_lines`
    says why, and equals it wherever no value above spans lines).  Records are split as
    the readers split them, quotes after a separator's spaces (``30, "clerk"``) too; a line
    of empty cells (``,,``) is a row.
    """
    from dpboost.record_lines import is_blank, numbered_records

    path = Path(path)
    lines = _first_lines(path, 1)
    delimiter = file_delimiter(path, lines[0][1], separator=separator) if lines else None
    seen = -1 if header else 0
    with _open_text(path) as handle:  # whitespace: a quote left open is refused, so lines
        records = (((n, [t] if t.strip(BLANK) else []) for n, t in enumerate(handle, start=1))
                   if delimiter is None else
                   ((n, f) for n, _, _, f in numbered_records(handle, delimiter)))
        for number, fields in records:
            if not is_blank(fields):
                if seen == row:
                    return number
                seen += 1
    return None


def frame_line(path: str | os.PathLike, frame, row: int) -> int | None:
    """:func:`line_of` for row ``row`` of ``frame``, read from ``path`` by :func:`read_table`:
    with the header and the separator it was read with; None for a Parquet file (no lines)."""
    if table_format(path) == "parquet":
        return None
    return line_of(path, row, header=frame.attrs.get("dpboost_header", True),
                   separator=frame.attrs.get("dpboost_separator"))


def read_table(path: str | os.PathLike, *, names=None, columns=None, na_values=(),
               header: bool | str = True, text_columns=(), decimal: str = ".",
               column_na_values=None, separator: str | None = None):
    """Read a CSV or Parquet file into a pandas DataFrame with stripped column names.

    Parameters
    ----------
    path : str or path-like
    names : list of str or None
        Column names of a file WITHOUT a header row (a schema's ``"names"``).  Its length
        must equal the number of fields per row.
    columns : list of str or None
        Read only these columns, at least one and each once (each must exist: the message
        names a missing one).
    na_values : sequence of str or None
        Strings that mean "missing" besides the empty cell (None: nothing is missing, an
        empty cell is read as the text ``""``).
    column_na_values : dict or None
        ``{column: strings}`` that mean "missing" in that column only (a schema's
        :attr:`~dpboost.schema.Schema.column_na_values`); a text cell matches a string by
        :func:`~dpboost.cell_text.category_key` (``"999"`` matches ``999.0``).  Cells of
        numbers are left to the encoder, which matches them too.
    header : bool or "infer", default=True
        Whether the first non-blank row holds column names (ignored when ``names`` is given).
    text_columns : sequence of str or None
        Columns to keep as text (no type inference), e.g. a label column (None: none).
    decimal : {".", ","}, default="."
        The decimal mark of the numbers (a schema's ``"decimal"``): ``","`` reads ``12,5`` as
        12.5, as a spreadsheet writes it in many locales (usually with ``;`` separators).
    separator : one of :data:`~dpboost.separators.SEPARATORS` or None
        The field separator a schema declares (its ``"separator"``); None: a ``.tsv`` file's
        is a tab, another file's is sniffed from its first line.  Not used for Parquet.

    Returns
    -------
    pandas.DataFrame
        ``attrs["dpboost_header"]``: whether a header row was read, and
        ``attrs["dpboost_separator"]``: the declared ``separator`` (both for :func:`line_of`);
        ``attrs["dpboost_typed"]``: the columns whose type no cell chose (text, Parquet's).

    Raises
    ------
    ValueError
        Empty file; a row with the wrong number of fields (names the line); a requested
        column absent (names it and lists the columns); ``columns`` empty or repeating a name.
    """
    import pandas as pd

    if columns is not None:
        columns = _check_selection(columns)
    path = Path(path)
    if isinstance(text_columns, str):  # a name read letter by letter ('007' read as 7)
        raise TypeError(f"The 'text_columns' parameter of read_table must be a list of "
                        f"column names. Got {text_columns!r} instead.")
    text_columns = () if text_columns is None else tuple(text_columns)  # as na_values=None
    fmt = table_format(path, declared="table")  # by the caller's declaration, not by a row
    if fmt == "libsvm":
        raise ValueError(f"{path} looks like a LIBSVM file, not a table; declare its "
                         "dimension with --n-features/--index-base or a schema with "
                         "'n_features'.")
    if fmt == "parquet":
        from dpboost.parquet_columns import read_columns

        check_columns(path, columns, header_names(path))
        frame = (folder.read_folder(path, columns) if path.is_dir() else  # stripped names,
                 read_columns(path, columns, pandas_metadata=True))  # bytes as text
        na = [] if na_values is None else ["", *na_values]
        for name in frame.columns:  # text cells that mean "missing", as in a CSV
            if na and (frame[name].dtype == object or pd.api.types.is_string_dtype(frame[name])):
                frame[name] = frame[name].mask(frame[name].isin(na))
        _mask_column_na(frame, column_na_values, decimal)
        frame.attrs.update(dpboost_header=True, dpboost_typed=ColumnNames(frame.columns))
        return frame
    lines = _first_lines(path, 2, separator)
    if not lines:
        raise ValueError(f"{path} is empty: no rows to read.")
    _check_first_two(path, lines, decimal, separator, names)
    delimiter = file_delimiter(path, lines[0][1], decimal, separator)  # line 1 may be a row
    first = first_record(path, lines[0][1], delimiter)
    width = len(first)
    if names is not None:
        names = [str(n) for n in names]
        _check_width(path, first, names, lines[0][0])
        _check_not_a_header(path, first, names, lines[0][0])
        skip, has_header = lines[0][0] - 1, False
    else:
        found = header_names(path, header, separator)
        has_header = found is not None
        names = found if has_header else [str(j) for j in range(width)]
        skip = lines[0][0] if has_header else lines[0][0] - 1
        if has_header:
            _check_unique(path, names, columns)
    if has_header and len(lines) < 2:
        raise ValueError(f"{path} has a header row but no data rows.")
    check_columns(path, columns, names, header=has_header, separator=separator)
    names = _unread_repeats_renamed(names)
    na = [] if na_values is None else ["", *na_values]
    if delimiter is not None:
        from dpboost.csv_blocks import ends_in_quoted_value, unclosed_quote_error

        if ends_in_quoted_value(path, delimiter, _is_gzip(path)):  # pyarrow reads, pandas not
            raise unclosed_quote_error(path, delimiter)
    if delimiter is None:
        frame = read_whitespace(path, names, skip, columns, na, text_columns, decimal)
    elif file_quotes_after_space(path, delimiter):  # 30, "clerk", "no" on any line
        frame = read_spaced(path, names, skip, delimiter, columns, na, text_columns, decimal)
    else:
        frame = _read_arrow(path, names, skip, delimiter, columns, na, text_columns, decimal)
    _mask_column_na(frame, column_na_values, decimal)
    frame.attrs.update(dpboost_header=has_header, dpboost_typed=ColumnNames(text_columns),
                       dpboost_separator=separator)
    return frame


class ColumnNames(tuple):
    """Column names a reader keeps in a frame's ``attrs``: a tuple that deep-copies as itself.

    pandas deep-copies ``attrs`` into every Series it makes, so a plain tuple of k names was
    copied on each of k column reads (``frame[c]``): ``dpboost schema`` on a file of 5,000
    integer columns spent 46 of its 73 profiled seconds copying names.  A tuple of strings
    never changes, so every Series may share this one."""

    __slots__ = ()

    def __deepcopy__(self, memo) -> "ColumnNames":
        return self


def _mask_column_na(frame, column_na_values, decimal: str) -> None:
    """Mark missing, in place, the text cells of each column that are one of its own
    ``na_values`` (compared by :func:`~dpboost.cell_text.category_key`)."""
    import pandas as pd

    for name, tokens in (column_na_values or {}).items():
        if name not in frame.columns or not tokens:
            continue
        values = frame[name]
        if values.dtype == object or pd.api.types.is_string_dtype(values):
            keys = {category_key(t, decimal) for t in tokens} - {None}
            hit = values.map(lambda v: isinstance(v, str) and category_key(v, decimal) in keys)
            frame[name] = values.mask(hit.astype(bool))


def _check_selection(columns) -> list[str]:
    """``columns`` of :func:`read_table` as a list: non-empty (pyarrow reads every column for
    an empty list) and without a repeated name (pyarrow's raw ``KeyError`` otherwise)."""
    if isinstance(columns, str):
        raise TypeError("The 'columns' parameter of read_table must be a list of column names. "
                        f"Got {columns!r} instead.")
    columns = list(columns)
    if not columns or len(set(columns)) != len(columns):
        raise ValueError("The 'columns' parameter of read_table must list at least one column, "
                         f"each once. Got {columns!r} instead.")
    return columns


def _check_width(path: Path, first: list[str], names: list[str], line: int) -> None:
    """A headerless file's first row must have one field per name of the schema's 'names'."""
    if len(first) == len(names):
        return
    extra = len(first) - len(names)
    trailing = len(first) - len(list(itertools.dropwhile(
        lambda cell: not cell.strip(), reversed(first))))  # empty fields at the end
    hint = (f" Line {line} starts with '#', a comment: delete it." if first and
            first[0].lstrip().startswith("#") else  # that row's own text, never another's
            f" Its last {f'{extra} fields are' if extra > 1 else 'field is'} empty (a "
            "separator at the end of each row?): add a name for each to 'names'; columns "
            "the schema does not declare are not used." if 0 < extra <= trailing else
            " Give every field a name in 'names', in the file's order (a name the schema's "
            "'columns' do not declare is not used): 'names' are positions, so a field left "
            "unnamed would shift the names after it." if extra > 0 else
            " Delete from 'names' the columns the file does not hold (a headerless test "
            "file for predict may leave out only the label).")
    raise ValueError(f"{path} has {len(first)} fields per row (line {line}) but the schema's "
                     f"'names' lists {len(names)}.{hint}")


def _check_not_a_header(path: Path, first: list[str], names: list[str], line: int) -> None:
    """A schema's ``names`` are for a file WITHOUT a header: refuse a first row that repeats them.

    Read as data, the header would fail later with a puzzling "non-numeric value 'age'" (or,
    in an all-text file, become a training row).
    """
    if [cell.strip().lstrip("\ufeff") for cell in first] == [n.strip() for n in names]:
        raise ValueError(f"{path}: line {line} repeats the schema's 'names', so the file has a "
                         "header row; delete 'names' from the schema (it names the columns of "
                         f"a file without a header), or delete line {line} from the file (as "
                         "for 'dpboost predict': a model keeps the 'names' it was trained "
                         "with).")


def _check_unique(path: Path, names: list[str], wanted) -> None:
    """A repeated header name is ambiguous only if that column is read: refuse it then."""
    read = set(names) if wanted is None else set(wanted)
    counts = Counter(names)  # names.count(n) for each n: 10,000 names read 10^8 times
    repeated = sorted({n for n in names if counts[n] > 1 and n in read})
    if repeated:  # columns without a name at the end: trailing separators, said so
        raise repeated_names_error(path, names, repeated)


def _unread_repeats_renamed(names: list[str]) -> list[str]:
    """Suffix the repeats of a name (never read: see :func:`_check_unique`) for the parsers."""
    seen: set[str] = set()
    out = []
    for name in names:
        out.append(name if name not in seen else f"{name}\x00{len(out)}")
        seen.add(name)
    return out


def _read_arrow(path, names, skip, delimiter, columns, na, text_columns, decimal="."):
    import pyarrow as pa

    try:
        table = _arrow_table(path, names, skip, delimiter, columns, na, text_columns, decimal)
        temporal = [f.name for f in table.schema if pa.types.is_temporal(f.type)]
        # pyarrow reads the text 0x10 as 16 in a column it infers as integers (and as text
        # where one cell is a decimal): read such columns as text, which the numeric checks
        # refuse with the cell's line, whenever the file holds "0x" at all
        hexed = [f.name for f in table.schema if pa.types.is_integer(f.type)]
        hexed = hexed if hexed and _mentions_hex(path) else []
        if temporal or hexed:  # keep dates and times as the text they were written as
            table = _arrow_table(path, names, skip, delimiter, columns, na,
                                 [*text_columns, *temporal, *hexed], decimal)
    except pa.ArrowInvalid as exc:
        raise _arrow_error(path, exc, delimiter, skip) from None
    except (OSError, EOFError) as exc:  # a truncated or damaged gzip stream
        raise _decode_error(path, exc) from None
    binary = [f.name for f in table.schema if pa.types.is_binary(f.type)]
    if binary:  # pyarrow reads text that is not UTF-8 as bytes: never guess the encoding
        raise ValueError(f"{path} is not UTF-8 text (column {binary[0]!r} holds other "
                         "bytes); re-save it as UTF-8.")
    frame = table.to_pandas()
    for name in frame.columns:  # pyarrow keeps stray spaces around text; drop them
        if pa.types.is_string(table.schema.field(name).type):
            frame[name] = frame[name].str.strip()
    return frame


def _mentions_hex(path) -> bool:
    """Whether the (decompressed) file holds ``0x`` or ``0X`` anywhere: one byte scan."""
    import pyarrow as pa

    tail = b""
    with _arrow_stream(path) as stream:
        while chunk := stream.read(1 << 24):
            block = tail + chunk
            if b"0x" in block or b"0X" in block:
                return True
            tail = chunk[-1:]
    return False


def _arrow_stream(path):
    """The file's bytes for pyarrow, gzip undone.

    pyarrow's own gzip stream refuses a gzip file padded with zero bytes after its last member
    ("unknown compression method"), which GNU gzip and Python's :mod:`gzip` read whole (tape
    blocks pad so); the ``--workers`` reader (Python's) trained on such a file where this one
    refused it (red team, session 29).  A file whose last 8 bytes are zero is read through
    Python's gzip, whose damage is worded as everywhere (:func:`dpboost.csv_errors.open_bytes`).
    A member ends with its CRC-32 and length, both zero for an empty member, which Python reads
    as well; other files keep pyarrow's faster stream.
    """
    import pyarrow as pa

    if not _is_gzip(path):
        return pa.input_stream(str(path), compression=None)
    with open(path, "rb") as handle:
        handle.seek(max(0, Path(path).stat().st_size - 8))
        padded = handle.read() == bytes(8)
    return open_bytes(Path(path)) if padded else pa.input_stream(str(path), compression="gzip")


def _arrow_table(path, names, skip, delimiter, columns, na, text_columns, decimal="."):
    import pyarrow as pa
    import pyarrow.csv as pcsv

    parse = pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True,
                              invalid_row_handler=_skip_blank_row)
    convert = pcsv.ConvertOptions(
        include_columns=None if columns is None else list(columns), null_values=na,
        strings_can_be_null=bool(na), quoted_strings_can_be_null=bool(na),
        column_types={c: pa.string() for c in text_columns}, decimal_point=decimal)
    return read_arrow_csv(  # a row longer than pyarrow's 1 MiB block: a larger block
        path, lambda: _arrow_stream(path),
        {"column_names": names, "skip_rows": skip, "encoding": "utf8"}, parse, convert)


def _skip_blank_row(row) -> str:
    """pyarrow's verdict on a row with the wrong number of fields: skip it if it is blank.

    A line of spaces is skipped like an empty line, as :func:`line_of`, the header search
    and the dask reader (pandas) skip it; any other row is an error naming its line (a line
    of form feeds or no-break spaces too: :data:`~dpboost.pandas_csv.BLANK`).
    """
    return "skip" if not row.text.strip(BLANK) else "error"
