"""CSV rows without the header's number of fields, found under ``--workers`` as in memory.

The in-memory reader refuses a row of too few or too many fields in one line naming it.  The
block reader of ``--workers`` (pandas' C parser, block by block) fails on a row of too many
fields but fills a short row's missing cells with ``""``, exactly as it reads an empty cell,
so a short row trained as a row of missing values.  :func:`row_checks` adds one task per
block of the file that counts each line's fields in the raw bytes; the encoding of a
partition waits for its block's check, so a short row stops the read before any fit (and
before the ledger is charged).  The check raises :class:`ShortRowError`, which names no
line: the client then finds the line by one scan of the file (:func:`ragged_row_error`, on
the error path only), worded as the in-memory reader words it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

import dpboost.csv_errors  # noqa: F401  (raises the csv module's field size limit)
from dpboost.pandas_csv import (BLANK, records_quote_after_space, spaced_quote_bytes,
                                whitespace_fault, whitespace_row_error)

__all__ = ["SPACED_QUOTES", "ShortRowError", "SpacedQuoteError", "block_ok", "ragged_row_error",
           "row_checks", "short_row_before"]


class ShortRowError(ValueError):
    """A block of the CSV holds a row without the header's number of fields (no line named:
    the client finds it, :func:`ragged_row_error`)."""


class SpacedQuoteError(ValueError):
    """A block of the CSV puts spaces between a separator and a quoted value (``30, "b"``),
    which the block reader keeps as quotes: refused (:data:`SPACED_QUOTES`) wherever the row
    is, not only when it is one of the first lines (then one row decided whether every other
    row of the file was refused or read with its quotes)."""


#: The refusal of a file holding a quoted value after spaces, under ``--workers``.
SPACED_QUOTES = ("{path} puts spaces between its separators and quoted values (a, \"b\"), "
                 "which the block reader of --workers keeps as quotes; delete those spaces, "
                 "or read the file without --workers.")


def _text_lines(block: bytes) -> io.StringIO:
    """The lines of ``block`` cut as the in-memory reader cuts a file (``newline=""``: at
    ``\\n``, ``\\r`` and ``\\r\\n``; ``str.splitlines()`` also cut at form feeds, vertical tabs
    and more)."""
    return io.StringIO(block.decode("utf-8", errors="replace"), newline="")


def _bad_whitespace_line(block: bytes, width: int, skip: int) -> bool:
    """Whether the in-memory reader refuses a line of whitespace-separated ``block`` after
    ``skip`` lines (:func:`~dpboost.pandas_csv.whitespace_fault`, lines cut alike)."""
    lines = _text_lines(block)
    for _ in range(skip):
        lines.readline()
    return any(whitespace_fault(line, width) is not None for line in lines)


def _bad_line_in(block: bytes, delimiter: str, width: int) -> bool:
    """Whether a non-blank line of ``block`` has other than ``width`` fields."""
    if b'"' in block or len(delimiter.encode()) != 1:  # quoted fields: records, not lines
        reader = csv.reader(io.StringIO(block.decode("utf-8", errors="replace")),
                            delimiter=delimiter)
        return any(len(r) != width and not (len(r) <= 1 and not (r and r[0].strip(BLANK)))
                   for r in reader)
    data = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(data == 10)
    if len(data) and data[-1] != 10:
        ends = np.append(ends, len(data))
    starts = np.concatenate([[0], ends[:-1] + 1]) if len(ends) else ends
    marks = np.flatnonzero(data == delimiter.encode()[0])
    counts = np.searchsorted(marks, ends) - np.searchsorted(marks, starts)
    return any(block[starts[i]:ends[i]].strip(BLANK.encode())
               for i in np.flatnonzero(counts != width - 1))


def block_ok(block: bytes, delimiter: str | None, width: int, skip: int) -> bool:
    """True, or raise :class:`ShortRowError` when a row of ``block`` (after ``skip`` lines:
    the header, in the first block) has other than ``width`` fields, or
    :class:`SpacedQuoteError` when one holds a quoted value after spaces.  A worker's task."""
    if delimiter is None:  # whitespace-separated: its lines counted as in memory
        if _bad_whitespace_line(block, width, skip):
            raise ShortRowError(f"a row of the CSV does not have {width} fields")
        return True
    if skip:
        parts = block.split(b"\n", skip)
        block = parts[-1] if len(parts) > skip else b""
    if _bad_line_in(block, delimiter, width):
        raise ShortRowError(f"a row of the CSV does not have {width} fields")
    if (spaced_quote_bytes(delimiter).search(block)
            and records_quote_after_space(io.StringIO(block.decode("utf-8", errors="replace")),
                                          delimiter)):  # not inside a quoted value
        raise SpacedQuoteError("a row of the CSV holds a quoted value after spaces")
    return True


def row_checks(path: str, blocksize: int | None, gzip: bool, delimiter: str | None,
               width: int, skip: int) -> list:
    """One delayed :func:`block_ok` per block of ``path``, cut as ``dask.dataframe.read_csv``
    cuts it (the same ``read_bytes`` call), so check ``i`` covers partition ``i``."""
    import dask
    from dask.bytes import read_bytes

    _, blocks = read_bytes(str(path), delimiter=b"\n", blocksize=blocksize, sample=False,
                           compression="gzip" if gzip else None)
    blocks = [b for file_blocks in blocks for b in file_blocks]
    check = dask.delayed(block_ok, pure=True)
    return [check(b, delimiter, width, skip if i == 0 else 0) for i, b in enumerate(blocks)]


def _first_bad(path, delimiter: str | None, width: int, skip: int):
    """``(line, fields)`` of the first record after ``skip`` lines without ``width`` fields
    (whitespace-separated: ``fields`` is :func:`~dpboost.pandas_csv.whitespace_fault`'s, a
    count, ``"tab"`` or ``"quote"``)."""
    from dpboost.csv_errors import bad_record, open_text

    with open_text(Path(path)) as handle:
        if delimiter is None:  # whitespace-separated: the in-memory reader's rule
            for number, text in enumerate(handle, start=1):
                fault = None if number <= skip else whitespace_fault(text, width)
                if fault is not None:
                    return number, fault
            return None
        bad = bad_record(Path(path), delimiter, width, skip)  # its record line, fields
        return None if bad is None else (bad[0], bad[2])


def ragged_row_error(path, delimiter: str | None, width: int, skip: int, *,
                     header: bool) -> ValueError:
    """The one-line error for a CSV row without ``width`` fields, as the in-memory reader
    words it: the file and the line, never the row.  Found by one scan of the file (error
    path only): the block reader failed with a traceback (``internal error (ParserError)``)
    on a row of too many fields."""
    from dpboost.csv_errors import field_count_error

    bad = _first_bad(path, delimiter, width, skip)
    what = "as in the first row" if header else "the schema's names"
    if bad is None:
        return ValueError(f"{path}: a row does not have {width} fields ({what}); read the "
                          "file without --workers to find its line.")
    if delimiter is None:
        return whitespace_row_error(path, bad[0], bad[1], width, what=what)
    return field_count_error(path, bad[0], width, bad[1], whitespace=False, what=what)


def short_row_before(path: str, schema, row: int) -> ValueError | None:
    """The in-memory reader's error for a row short of fields at or before data row ``row``.

    The block reader fills a short row's missing cells with ``""``, so ``train --workers``
    said "The label is missing at line N: remove the rows without one" of a row that lacked
    fields; the file is scanned on this error path only.  None when no such row comes first
    (or the first data row is itself short: a headerless test file may leave out the label).
    """
    from dpboost.readers import csv_layout, line_of

    header = schema.names is None
    try:
        delimiter, names, skip = csv_layout(path, schema.names, decimal=schema.decimal,
                                            separator=schema.separator)
        bad = _first_bad(path, delimiter, len(names), skip)
        at = line_of(path, row, header=header, separator=schema.separator)
    except (OSError, ValueError):
        return None
    if bad is None or at is None or bad[0] > at or bad[0] == line_of(
            path, 0, header=header, separator=schema.separator):
        return None
    return ragged_row_error(path, delimiter, len(names), skip, header=header)
