"""Numbering a CSV file's records so that a message about one row never depends on another.

A refusal names the line of the row it refuses.  Counted as physical lines, that number is
a function of every row above: a quoted value holding a line break in an earlier, valid row
(``30,"multi<line break>line",no``) moves every later row down one line, so two files that
differ in that one row, both refused for the same later row, printed "line 5" and "line 6"
(red team, session 26).  The neighbouring files must get the same message.  The physical
line of row k cannot be told without reading how many lines the rows above it span, so the
line named here is the RECORD LINE: the lines above the first record (blank lines, the
header) and the blank lines between records counted one each, as in the file, and every
record counted as ONE line, whatever line breaks its quoted values hold.  That is:

* a function of the failing row's position and the file's layout outside the rows (blank
  lines, the header), never of the content of another row: replacing any other row by one
  whose values hold line breaks leaves it unchanged (tests compare neighbouring files);
* the row number a spreadsheet shows for the record (it shows a multi-line cell in one row);
* the physical line in a text editor whenever no value above the record spans lines (every
  file without quoted line breaks: the number every earlier message printed).

Records are split as the readers split them: by the separator, a quote opening a value after
spaces that follow a separator (``30, "clerk"``, :func:`dpboost.pandas_csv.read_spaced`)
as after the separator itself; a blank record is an empty line or one of spaces, never
``,,`` (a row of empty cells).
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterable, Iterator

import dpboost.csv_errors  # noqa: F401  (sets the csv module's field size limit)
from dpboost.pandas_csv import BLANK

__all__ = ["first_record", "is_blank", "numbered_records", "record_text", "split_records"]


def is_blank(fields: list[str]) -> bool:
    """Whether a record of :func:`numbered_records` is a blank line, not a row (it yields no
    fields for one)."""
    return not fields


def numbered_records(lines: Iterable[str], delimiter: str
                     ) -> Iterator[tuple[int, int, str, list[str]]]:
    r"""``(record line, physical line, first physical line's text, fields)`` of each record,
    blank ones included, of the text ``lines`` (a file opened with ``newline=""``).

    Examples
    --------
    >>> rows = 'a,y\n30,"x\ny",no\n\n40, "p\nq", r\nxx,1\n'.splitlines(keepends=True)
    >>> [(n, p) for n, p, _, _ in numbered_records(rows, ",")]
    [(1, 1), (2, 2), (3, 4), (4, 5), (5, 7)]
    """
    physical = 1
    for number, (fields, text) in enumerate(split_records(lines, delimiter), start=1):
        if fields is None:  # lines the csv module left unread: no record
            return
        # blank as every reader takes it: one line of BLANK characters only; a line of form
        # feeds or no-break spaces, or '""', is a row of one field (Python's strip() and the
        # csv module's [''] took both for blank, so a refused row's message followed a later
        # row's reader; red team, session 26)
        blank = len(text) == 1 and not text[0].strip(BLANK)
        yield number, physical, text[0] if text else "", [] if blank else fields
        physical += len(text)


def split_records(lines: Iterable[str], delimiter: str
                  ) -> Iterator[tuple[list[str] | None, list[str]]]:
    r"""``(fields, physical lines)`` of each record of the text ``lines`` (a file opened with
    ``newline=""``), split as the readers split them (a quote after a separator's spaces
    opens a value); last, ``(None, lines)`` for any lines the csv module read past its last
    record.

    >>> list(split_records(['a, "b\n', 'c"\n', '\r', ',1\n'], ","))
    [(['a', 'b\nc'], ['a, "b\n', 'c"\n']), ([], ['\r']), (['', '1'], [',1\n'])]
    """
    consumed: list[str] = []

    def read() -> Iterator[str]:
        for text in lines:
            consumed.append(text)
            yield text

    for fields in csv.reader(read(), delimiter=delimiter, skipinitialspace=True):
        yield fields, consumed[:]
        consumed.clear()
    if consumed:
        yield None, consumed[:]


def record_text(lines: Iterable[str], line: int, delimiter: str | None) -> str | None:
    r"""The first physical line (line end dropped) of the record at record line ``line``, or
    None; whitespace-separated text (``delimiter`` None) is numbered by its lines, since its
    readers refuse a quoted value left open at a line's end.

    >>> record_text(['a,y\n', '"x\n', 'y",1\n', 'b,2\n'], 3, ",")
    'b,2'
    """
    if delimiter is None:
        found = next(itertools.islice(lines, line - 1, None), None)
    else:
        found = next((text for number, _, text, _ in numbered_records(lines, delimiter)
                      if number == line), None)
    return None if found is None else found.rstrip("\r\n")


def first_record(path, first_line: str, delimiter: str | None) -> list[str]:
    """The fields of the first non-blank record of the CSV file at ``path``, whose first
    non-blank line is ``first_line``: a quoted line break does not end it, where splitting
    ``first_line`` did (a headerless file whose first row held one was refused as a row short
    of its 'names', while one in row 5 trained: red team, session 32).  The file is read
    again only when ``first_line`` holds a quote."""
    from pathlib import Path

    from dpboost.csv_errors import open_text
    from dpboost.separators import split_fields

    if delimiter is not None and '"' in first_line:
        with open_text(Path(path)) as handle:
            first = next((f for _, _, _, f in numbered_records(handle, delimiter)
                          if not is_blank(f)), None)
        if first is not None:
            return first
    return split_fields(first_line, delimiter)
