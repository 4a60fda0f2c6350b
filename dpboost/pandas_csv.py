"""The CSV layouts :mod:`dpboost.readers` reads through pandas rather than pyarrow.

* Whitespace-separated files (UCI's ``german.data``, ``auto-mpg.data``): fields are runs of
  non-blank characters, a quoted value (spaces and all) one field.
* Separated files that put a space between the separator and a quoted value
  (``30, "clerk", "no"``, as UCI adult-style exports and hand-written files do): pyarrow
  keeps such a value's quotes as text (``'"clerk"'``, which matches no declared category,
  and a header name ``'"job"'`` that matches no schema column); pandas skips the spaces
  (``skipinitialspace``) and reads the quotes as quotes.

In both, a row with another number of fields than the first is an error naming its line
(pandas would fill a short row with missing values), and no message holds a cell.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from dpboost.csv_errors import (decode_error, field_count_error, last_text_line, open_bytes,
                                 open_text)

__all__ = ["BLANK", "blank_lines_as_newlines", "empty_tab_field", "file_quotes_after_space",
           "open_quote", "quoted_after_space", "read_spaced", "read_whitespace",
           "records_quote_after_space", "spaced_quote_bytes", "whitespace_fault",
           "whitespace_fields", "whitespace_row_error"]

#: An empty field between tabs, or a tab at a line's start or end: a whitespace reader drops
#: it and shifts the columns after it (see :func:`empty_tab_field`).
_EMPTY_TAB = re.compile(r"\t[ ]*\t|^[ ]*\t|\t[ ]*$")


def empty_tab_field(line: str) -> bool:
    r"""Whether ``line`` (its end of line stripped) holds an empty tab-separated field.

    A file is read as whitespace-separated when its first line says so
    (:func:`dpboost.readers.sniff_delimiter`), and a whitespace reader drops an empty tab
    field, so such a line's later cells move one column left.  For a file without a header the
    first line is a data row: a red-team pair (session 22) whose first row alone switched
    between tab and whitespace reading re-read every other row ``y<TAB><TAB>5 7`` (column ``b``
    missing against ``b = 5``), and the fits were told apart at epsilon >= 3.1 against a
    claimed 1.  Under whitespace reading such a line is refused, so one row can no longer
    change how another is read without an error.

    >>> [empty_tab_field(t) for t in ("a\t\tb", "\ta b", "a b\t", "a\tb", "a  b")]
    [True, True, True, False, False]
    """
    return "\t" in line and _EMPTY_TAB.search(line.rstrip("\r\n")) is not None


#: A whitespace-separated field: a run of non-blank characters and quoted parts, so that
#: ``"chevrolet malibu"`` is one field, as pandas reads it.
_WHITESPACE_FIELD = re.compile(r'(?:"[^"]*"|[^\s"]+)+')


def whitespace_fields(line: str) -> list[str]:
    """The fields of a whitespace-separated line, a quoted value (spaces and all) one field.

    Examples
    --------
    >>> whitespace_fields('18 8 "chevrolet chevelle malibu"')
    ['18', '8', '"chevrolet chevelle malibu"']
    """
    if '"' not in line:  # the same fields (re's \s is str.isspace), five times faster
        return line.split()
    return _WHITESPACE_FIELD.findall(line)


#: A field of a whitespace-separated line as pandas' tokenizer reads it (``sep=r"\s+"``:
#: only spaces and tabs separate; a quote opens a value only at a field's start, and a quote
#: not doubled closes it; a quote inside an unquoted field is text).
_PANDAS_FIELD = r'"(?:[^"]|"")*"(?!")[^ \t]*|[^ \t"][^ \t]*'
#: A line's fields as pandas reads them, up to a quote left open.
_PANDAS_FIELDS = re.compile(rf"(?:[ \t]*(?:{_PANDAS_FIELD}))*[ \t]*")
_PANDAS_FIELD_RE = re.compile(_PANDAS_FIELD)
#: A blank character that pandas does not take for a separator (form feed, vertical tab,
#: no-break space...), though :func:`whitespace_fields` (and ``str.split``) does.
_ODD_BLANK = re.compile(r"[^\S \t\r\n]")


def open_quote(line: str) -> bool:
    r"""Whether pandas' whitespace reader leaves a quoted value of ``line`` open at its end.

    pandas then reads the following lines into that value up to the next quote, so a row
    ``63 "sales 59 yes`` (four fields by :func:`whitespace_fields`) took the rows after it
    into its ``job`` cell: one row changed how others were read (their encoding, and the
    number of rows).  Under ``--workers`` the blocks are cut at newlines, so such a value was
    read otherwise again.  The rule is pandas' tokenizer (a test compares it with pandas over
    random lines).

    >>> open_quote('63 "sales 59 yes'), open_quote('63 "sales x" 59 yes'), open_quote('5\'10"')
    (True, False, False)
    """
    line = line.rstrip("\r\n")
    return _PANDAS_FIELDS.match(line).end() < len(line)


def whitespace_fault(line: str, width: int) -> str | int | None:
    r"""What the whitespace reader refuses in ``line``, one definition for every reader.

    None: ``line`` is blank (only :data:`BLANK` characters, as pandas skips it) or has
    ``width`` fields, counted by :func:`whitespace_fields` and as pandas reads them (a form
    feed inside ``clerk\f59`` separates for the first and not for pandas, which read the row
    one cell short and filled it with a missing value); ``"tab"``: an empty tab field
    (:func:`empty_tab_field`); ``"quote"``: a quoted value left open (:func:`open_quote`);
    else the number of fields.  The in-memory reader and the block check of ``--workers``
    (:mod:`dpboost.cli._csv_rows`) both call it, on lines cut alike (``newline=""``: at
    ``\n``, ``\r`` and ``\r\n``), so neither refuses a row the other trains (red team,
    session 25: the block check split with ``str.split()`` and refused ``63 "sales x" 59``).

    >>> [whitespace_fault(t, 3) for t in ('a "b c" d', "a\t\tb", 'a "b c', "a b", "a b\fc")]
    [None, 'tab', 'quote', 2, 2]
    >>> whitespace_fault(" \t\n", 3), whitespace_fault("\f\n", 3), whitespace_fault("a b c\f", 3)
    (None, 1, None)
    """
    if not line.strip(BLANK):
        return None
    if empty_tab_field(line):
        return "tab"
    if '"' in line and open_quote(line):
        return "quote"
    found = len(whitespace_fields(line))
    if '"' in line or _ODD_BLANK.search(line):  # the two counts may differ: pandas' first
        read = len(_PANDAS_FIELD_RE.findall(line.rstrip("\r\n")))
        found = found if read == width else read
    return None if found == width else found


def whitespace_row_error(path, number: int, fault: str | int, width: int) -> ValueError:
    """The one-line error for :func:`whitespace_fault`'s ``fault`` at line ``number``: the
    file and the line, never the row."""
    if fault == "tab":
        return ValueError(f"{path}, line {number}: an empty field between tabs (or a tab at "
                          "the line's start or end) in a file read as whitespace-separated, "
                          "where it would shift the columns: fill the field, or write every "
                          "line with one separator.")
    if fault == "quote":
        return ValueError(f"{path}, line {number}: a double quote opens a value that does not "
                          "close on its line, which would read the next lines into it; close "
                          "the quote (\"blue collar\"), or delete it.")
    return field_count_error(path, number, width, fault, whitespace=True)


def quoted_after_space(lines, delimiter: str) -> bool:
    """Whether one of ``lines`` has a quoted value after spaces that follow a separator.

    Examples
    --------
    >>> quoted_after_space(['"age", "job"', '30, "clerk"'], ","), quoted_after_space(
    ...     ['age,"job"', '30, clerk'], ",")
    (True, False)
    """
    return records_quote_after_space(lines, delimiter)


#: What a blank line may hold: a line of only these is skipped by every reader (pyarrow's, the
#: pandas one and the block check of ``--workers``); a line of form feeds, vertical tabs or
#: no-break spaces is a one-field row, refused for its width.  Python's ``str.strip()`` took
#: those for blank in one reader and pandas read them as a row in the other (red team,
#: session 24: one neighbour trained, the other refused).
BLANK = " \t\r\n"


def records_quote_after_space(handle, delimiter: str) -> bool:
    """Whether a record read from ``handle`` (text) has a field of spaces then a quote.

    The records are read as the csv module reads them, so a separator, spaces and a quote
    INSIDE a quoted value (a cell ``note, "x"`` written quoted) do not count: the byte pattern of
    :func:`spaced_quote_bytes` is a fast filter only (red team, session 24: such a cell in a
    dropped column made ``--workers`` refuse the file).
    """
    return any(field[:1].isspace() and field.lstrip().startswith('"')
               for record in csv.reader(handle, delimiter=delimiter) for field in record)


def spaced_quote_bytes(delimiter: str) -> re.Pattern:
    """A separator or a line's start, spaces or tabs, then a double quote (the layout of
    ``30, "clerk"``, or ``  "clerk",30``), in raw bytes: a whole file
    (:func:`file_quotes_after_space`) or a block of it (:mod:`dpboost.cli._csv_rows`), each
    starting at a line's start.  The line's start counts since session 26: pyarrow read
    ``  "yes",30`` with its quotes (a label outside the classes) and pandas without them, so
    another row's ``, "x"`` decided between a refusal and a fit (red team).

    >>> bool(spaced_quote_bytes(",").search(b'30, "clerk"')), bool(
    ...     spaced_quote_bytes(";").search(b'a;"b"'))
    (True, False)
    >>> bool(spaced_quote_bytes(",").search(b'a,b\\n  "yes",30')), bool(
    ...     spaced_quote_bytes(",").search(b'a,b x "yes"'))
    (True, False)
    """
    return re.compile(rb"(?:^|(?<=[\r\n])|" + re.escape(delimiter.encode()) + rb')[ \t]+"',
                      re.MULTILINE)


def file_quotes_after_space(path, delimiter: str, chunk: int = 1 << 20) -> bool:
    """Whether any line of the file puts spaces between a separator and a quote.

    The reader is chosen by this, from the whole file: chosen from its first lines, one row
    decided how every other row was read (a red-team pair, session 22: the first data row
    ``50, "clerk"`` against ``50,clerk``, every other row ``61, "sales"``; with the quotes
    kept, every other row's job and label read as undeclared, and the fits were told apart,
    epsilon >= 1.21 against a claimed 1).  Now a row decides only how it is read itself:
    the two readers give the same cells for a row without such a quote.  One regex pass over
    the bytes (gzip undone; the reader then says whether they are UTF-8), ``chunk`` at a
    time.
    """
    pattern = spaced_quote_bytes(delimiter)
    tail = b""
    path = Path(path)
    with open_bytes(path) as handle:
        while True:
            block = handle.read(chunk)
            if not block:
                return False
            text = tail + block
            if (b' "' in text or b'\t"' in text) and pattern.search(text):  # a fast filter
                try:  # then the records, quotes understood
                    with open_text(path) as records:
                        return records_quote_after_space(records, delimiter)
                except UnicodeDecodeError as exc:
                    raise decode_error(path, exc) from None
            tail = text[text.rfind(b"\n") + 1:]  # the cut line's start: never across lines


def blank_lines_as_newlines(lines, delimiter: str | None, width: int | None = None):
    r"""The text of ``lines`` (a file opened with ``newline=""``) with each blank line (spaces
    and tabs only, outside quoted values) written as ``"\n"``, record by record.

    pandas' C parser, after a blank line that ends in a lone ``\r`` (``\r``, ``" \r"``, an
    old-Mac blank line), drops the empty first field of a row that starts with the separator:
    ``\r,1,0`` then read as ``1,0,<missing>``, its cells one column left.  pyarrow, the csv
    module and :mod:`dpboost.record_lines` read ``<missing>,1,0``.  The pandas readers
    (:func:`read_spaced`, chosen for the whole file when ANY row holds ``5, "0"``, and
    :func:`read_whitespace`) never see such a line: a red-team pair (session 26), 150 rows
    ``\r,1,0`` read shifted or not as one other row held ``5, "0"`` or ``5,0``, so one row
    relabelled 150 others.  A differential fuzz (random small files of lone ``\r``, ``\r\n``
    and ``\n`` ends, blank lines of spaces and tabs, empty first fields, quoted values
    holding ``\r``, ``\n`` and separators: 4000 files) found 61 files read otherwise by
    pyarrow and by :func:`read_spaced` before, none after; every misread was a row starting
    with the separator right after such a blank line.  None was found in whitespace-separated
    text (an exhaustive search of short rows), whose blank lines are written as ``"\n"`` too,
    so that no pandas read sees such a line.  Rows keep their own text and
    line ends (a lone ``\r`` ending a row is read right), and a ``\r`` inside a quoted value
    stays a ``\r``, so the cells are those pyarrow reads.  With ``width`` (the table's number
    of fields), a line of spaces and tabs only whose fields are not ``width`` is blank too, as
    pyarrow skips it (:func:`dpboost.readers._skip_blank_row`): a line ``\t`` of a
    tab-separated file, which pandas read as a row of empty cells (red team, session 28: under
    ``--workers`` a refusal, or under ``predict --workers`` one prediction too many, every later
    one a row off).  Blank lines stay lines, so pandas'
    line numbers are unchanged.  ``delimiter`` None: whitespace-separated text, whose quoted
    values never span lines (:func:`open_quote` refuses them first), line by line.

    >>> import io
    >>> text = '\r,1,0\n" \r",0,1\n\t\r5,0,5\r'
    >>> "".join(blank_lines_as_newlines(io.StringIO(text, newline=""), ","))
    '\n,1,0\n" \r",0,1\n\n5,0,5\r'
    """
    if delimiter is None:
        yield from ("\n" if not line.strip(BLANK) else line for line in lines)
        return
    from dpboost.record_lines import split_records  # (it imports this module)

    for fields, record in split_records(lines, delimiter):
        text = "".join(record)
        blank = fields is not None and not text.strip(BLANK) and (
            len(fields) <= 1 or (width is not None and len(fields) != width))
        yield "\n" if blank else text


class _TextStream:
    """A text file over an iterator of strings, for ``pandas.read_csv`` (which reads it by
    ``read(size)``)."""

    def __init__(self, pieces) -> None:
        self._pieces = iter(pieces)
        self._rest = ""

    def read(self, size: int = -1) -> str:
        parts, total = [self._rest], len(self._rest)
        for piece in self._pieces:
            parts.append(piece)
            total += len(piece)
            if 0 <= size <= total:
                break
        text = "".join(parts)
        cut = len(text) if size is None or size < 0 else size
        self._rest = text[cut:]
        return text[:cut]

    def __iter__(self):
        return iter(lambda: self.read(1 << 16), "")


def _read(path: Path, sep: str, names, skip, columns, na, text_columns, decimal, **options):
    """pandas' read of a table whose widths are checked; one-line errors without a cell.

    The ``skip`` lines before the data are skipped here, by the line rule of every other
    reader (:func:`~dpboost.csv_errors.open_text`: a line ends at ``\\n``, ``\\r\\n`` or a lone
    ``\\r``), and pandas reads from the first data row on.  pandas' own ``skiprows`` counts
    otherwise: a skipped line that starts with a lone ``\\r`` runs on to the next line's end,
    so a file starting ``\\r\\r\\n`` (or ``\\r`` before its header) lost its first data row,
    silently (session 25: 199 of 200 rows trained).

    pandas reads the rest through :func:`blank_lines_as_newlines`: a blank line ending in a
    lone ``\\r`` made it drop the empty first field of the row after it (see there).
    """
    import pandas as pd

    try:
        with open_text(path) as handle:
            for _ in range(skip):
                handle.readline()
            text = _TextStream(blank_lines_as_newlines(handle, None if sep == r"\s+" else sep,
                                                       len(names)))
            return pd.read_csv(text, sep=sep, header=None, names=names,
                               usecols=None if columns is None else list(columns),
                               na_values=na, keep_default_na=False, index_col=False,
                               decimal=decimal, low_memory=False,  # no chunk-wise DtypeWarning
                               dtype={c: str for c in text_columns} or None, **options)
    except (pd.errors.ParserError, ValueError) as exc:
        match = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
        if match:  # pandas numbers the lines it read, after the skipped ones
            raise ValueError(f"{path}, line {skip + int(match.group(2))}: expected "
                             f"{match.group(1)} fields (as in the first row), found "
                             f"{match.group(3)}.") from None
        first = re.sub(r"'[^']*'|: .*$", "", str(exc).splitlines()[0])  # never a cell
        raise ValueError(f"{path} could not be read ({first}).") from None


def read_whitespace(path, names, skip, columns, na, text_columns, decimal="."):
    """A whitespace-separated file as a DataFrame (``names``: its columns)."""
    _check_whitespace_widths(path, len(names), skip)  # first: pandas warns on a bad row
    return _read(path, r"\s+", names, skip, columns, na, text_columns, decimal)


def read_spaced(path, names, skip, delimiter, columns, na, text_columns, decimal="."):
    """A ``delimiter``-separated file with spaces before quoted values, as a DataFrame whose
    text cells are stripped."""
    import pandas as pd

    _check_spaced_widths(path, delimiter, len(names), skip)
    frame = _read(path, delimiter, names, skip, columns, na, text_columns, decimal,
                  skipinitialspace=True, quotechar='"')
    for name in frame.columns:  # spaces before a separator stay in the cell; drop them
        if frame[name].dtype == object or pd.api.types.is_string_dtype(frame[name]):
            # value by value: an object column may hold Python ints (a number beyond int64,
            # 2**64), where .str.strip() was an internal error (red team, session 24)
            frame[name] = frame[name].map(lambda v: v.strip() if isinstance(v, str) else v)
    return frame


def _check_whitespace_widths(path: Path, width: int, skip: int) -> None:
    """pandas fills a short whitespace-separated row with NaN; refuse it instead.

    Otherwise one row could set the separator (by being the first line) and turn every other
    row into missing values without a word: the model would depend on that row alone.
    """
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            fault = None if number <= skip else whitespace_fault(line, width)
            if fault is not None:
                raise whitespace_row_error(path, number, fault, width)


def _check_spaced_widths(path: Path, delimiter: str, width: int, skip: int) -> None:
    """The same for a separated file, its records split as pandas splits them."""
    with open_text(path) as handle:
        for _ in range(skip):
            handle.readline()
        from dpboost.record_lines import is_blank, numbered_records

        for number, physical, _, record in numbered_records(handle, delimiter):
            if not is_blank(record) and len(record) != width:  # named by its record line
                raise field_count_error(path, skip + number, width, len(record),
                                        whitespace=False,
                                        last=last_text_line(path) == skip + physical)
