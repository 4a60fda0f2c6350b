r"""CSV rows without the header's number of fields, found under ``--workers`` as in memory.

The in-memory reader refuses a row of too few or too many fields in one line naming it.  The
block reader of ``--workers`` (pandas' C parser, block by block) fails on a row of too many
fields but fills a short row's missing cells with ``""``, exactly as it reads an empty cell,
so a short row trained as a row of missing values.  :func:`row_checks` adds one task per
block of the file that counts each line's fields in the raw bytes; the encoding of a
partition waits for its block's check, so a short row stops the read before any fit (and
before the ledger is charged).  The check raises :class:`ShortRowError`, which names no
line: the client then finds the line by one scan of the file (:func:`ragged_row_error`, on
the error path only), worded as the in-memory reader words it.

**Lines end at ``\n``, ``\r\n`` and a lone ``\r``**, in the checks as in both readers.  The
in-memory readers cut lines so (Python's universal newlines, pyarrow), and so does pandas' C
parser inside a block (a lone ``\r`` between two rows, ``\r\r\n``, a blank line ``\r``, a
``\r`` ending the file: the same rows as in memory; inside a quoted value it is kept, as in
memory).  The checks used to cut at ``\n`` only: ``1,2,yes\r3,4,no`` counted as one line of 5
fields and ``train --workers`` refused a file that trains in memory (or, with a quote in the
block, failed with an internal error: the csv module refuses a lone ``\r`` in an unquoted
field of a line cut at ``\n``).  The blocks are cut at a ``\n`` that ends a record
(:mod:`dpboost.csv_blocks`), so a block always ends at a line end, outside a quoted value.  A
lone ``\r`` ending a line ABOVE the data (every old-Mac file's header) is still refused
under ``--workers``, naming the line (:func:`dpboost.readers.csv_layout`): pandas'
``skiprows`` runs a skipped line ``\r`` on to the next line end, and a file with no ``\n`` at
all is one block, read whole by one worker (not out of core).  Sweep of 50 random files with
1-3 lone ``\r`` (session 26; ``train`` in memory and with ``--workers 2``): 33 outcomes
differed before (27 internal errors, 6 refusals of a ``\r`` above the data), 6 after, those 6
(4 old-Mac files, a header ending in ``\r``, a line ``\r`` above the header): refused under
``--workers`` in one line naming line 1, trained in memory.  Session 28: the blocks are read
as the in-memory pandas reader reads text (:func:`dpboost.csv_blocks.parse_block`), so those
6 and a row starting with its separator after a blank line ending in a lone ``\r`` (which
pandas read one column left, refused here until then) read as in memory.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

import dpboost.csv_errors  # noqa: F401  (raises the csv module's field size limit)
from dpboost.csv_blocks import after_lines
from dpboost.pandas_csv import BLANK, whitespace_fault, whitespace_row_error
from dpboost.record_lines import split_records

__all__ = ["ShortRowError", "block_ok", "ragged_row_error", "row_checks", "wrong_width_error"]


class ShortRowError(ValueError):
    """A block of the CSV holds a row without the header's number of fields (no line named:
    the client finds it, :func:`ragged_row_error`)."""


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


def _line_ends(data: np.ndarray) -> np.ndarray:
    r"""The index of each line's last byte in ``data`` (bytes): a ``\n``, a lone ``\r`` (not
    followed by ``\n``), or the last byte of a block that does not end in either."""
    newline, ret = data == 10, data == 13
    ret[:-1] &= ~newline[1:]  # the \r of \r\n: the line ends at its \n
    ends = np.flatnonzero(newline | ret)
    if len(data) and not (newline[-1] or ret[-1]):
        ends = np.append(ends, len(data))
    return ends


def _bad_line_in(block: bytes, delimiter: str, width: int) -> bool:
    r"""Whether a non-blank line of ``block`` has other than ``width`` fields (lines cut at
    ``\n``, ``\r\n`` and a lone ``\r``, as both readers cut them; a quote after a
    separator's spaces opens a value, as in memory: :mod:`dpboost.record_lines`)."""
    if b'"' in block or len(delimiter.encode()) != 1:  # quoted fields: records, not lines
        reader = csv.reader(_text_lines(block), delimiter=delimiter, skipinitialspace=True)
        odd = [r for r in reader if len(r) != width]
        if any(any(f.strip(BLANK) for f in r) for r in odd):
            return True
        # cells of spaces and tabs only: blank if its text is (a line "\t" of a tab-separated
        # file, as pyarrow skips it), a row if not ('""'): told apart by the records' text
        return bool(odd) and any(len(fields) != width and "".join(text).strip(BLANK)
                                 for fields, text in split_records(_text_lines(block),
                                                                   delimiter)
                                 if fields is not None)
    data = np.frombuffer(block, dtype=np.uint8)
    ends = _line_ends(data)
    starts = np.concatenate([[0], ends[:-1] + 1]) if len(ends) else ends
    marks = np.flatnonzero(data == delimiter.encode()[0])
    counts = np.searchsorted(marks, ends) - np.searchsorted(marks, starts)
    return any(block[starts[i]:ends[i]].strip(BLANK.encode())
               for i in np.flatnonzero(counts != width - 1))


def block_ok(block: bytes, delimiter: str | None, width: int, skip: int) -> bool:
    """True, or raise :class:`ShortRowError` when a row of ``block`` (after ``skip`` lines:
    the header, in the first block) has other than ``width`` fields.  A worker's task."""
    if delimiter is None:  # whitespace-separated: its lines counted as in memory
        if _bad_whitespace_line(block, width, skip):
            raise ShortRowError(f"a row of the CSV does not have {width} fields")
        return True
    block = after_lines(block, skip)  # as the block is parsed (dpboost.csv_blocks)
    if _bad_line_in(block, delimiter, width):
        raise ShortRowError(f"a row of the CSV does not have {width} fields")
    return True


def row_checks(blocks: list, delimiter: str | None, width: int, skip: int) -> list:
    """One delayed :func:`block_ok` per block (delayed bytes, the first holding the ``skip``
    lines above the data), so check ``i`` covers partition ``i``."""
    import dask

    check = dask.delayed(block_ok, pure=True)
    return [check(b, delimiter, width, skip if i == 0 else 0) for i, b in enumerate(blocks)]


def _first_bad(path, delimiter: str | None, width: int, skip: int):
    """``(line, fields, physical line)`` of the first record after ``skip`` lines without
    ``width`` fields (whitespace-separated: ``fields`` is
    :func:`~dpboost.pandas_csv.whitespace_fault`'s, a count, ``"tab"`` or ``"quote"``)."""
    from dpboost.csv_errors import bad_record, open_text

    with open_text(Path(path)) as handle:
        if delimiter is None:  # whitespace-separated: the in-memory reader's rule
            for number, text in enumerate(handle, start=1):
                fault = None if number <= skip else whitespace_fault(text, width)
                if fault is not None:
                    return number, fault, number
            return None
    bad = bad_record(Path(path), delimiter, width, skip)  # record line, physical, fields
    return None if bad is None else (bad[0], bad[2], bad[1])


def ragged_row_error(path, delimiter: str | None, width: int, skip: int) -> ValueError:
    """The one-line error for a CSV row without ``width`` fields, as the in-memory reader
    words it: the file and the line, never the row.  Found by one scan of the file (error
    path only): the block reader failed with a traceback (``internal error (ParserError)``)
    on a row of too many fields.  When no record is of the wrong width, the block reader read
    one otherwise than the csv module: a one-line refusal, which no file we know of reaches.
    (Before, dask cut blocks at the first ``\\n`` after each offset, quoted or not, and a quoted
    line break right after a cut split its row: red team, session 27, 6 of 60 positions of one
    such row with 1,000-byte blocks.  The blocks are now cut where a record ends,
    :mod:`dpboost.csv_blocks`.)  Worded as memory words it (:func:`wrong_width_error`)."""
    return wrong_width_error(path, delimiter, width, skip) or ValueError(
        f"{path}: every row has {width} fields (as in the first row) when the file is read "
        "whole, but not as the block reader of --workers read it; read the file without "
        "--workers, or convert it to Parquet.")  # every record has its width in memory


def wrong_width_error(path, delimiter: str | None, width: int, skip: int
                      ) -> ValueError | None:
    """The in-memory reader's error for the file's first record (after ``skip`` lines)
    without ``width`` fields, worded as memory words it (a last line asked about as a note or
    a total below the table); None when every record has its width."""
    from dpboost.csv_errors import field_count_error, last_text_line

    bad = _first_bad(path, delimiter, width, skip)
    if bad is None:
        return None
    if delimiter is None:
        return whitespace_row_error(path, bad[0], bad[1], width)
    return field_count_error(path, bad[0], width, bad[1], whitespace=False,
                             last=last_text_line(Path(path)) == bad[2])
