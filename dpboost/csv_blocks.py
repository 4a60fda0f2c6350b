r"""Cutting a CSV file into blocks at record boundaries, for the block reader of ``--workers``.

``dask.dataframe.read_csv`` cuts a file into blocks at the first ``\n`` after each multiple of
the block size, quoted or not.  A quoted value holding a line break just after such an offset
(``7,"line one<line break>line two",yes``) was split across two blocks; the two halves parsed
as rows of the wrong width, and ``train --workers`` refused a file that trains in memory, while
its neighbour, the same file with a space for that line break, trained: one row decided the
outcome (red team, session 27: 6 of 60 positions of such a row refused with 1,000-byte blocks;
two 130 MB neighbours, one refused, one trained).  Reading a file with a quoted line break as
one block was tried and undone (a stray quote, ``5'11"``, sent a 277 MB file to one worker,
which ran out of memory, because that scan counted every quote).  :func:`record_cuts` cuts only
where a record ends, as the block reader itself reads the quotes, so no record is ever split:
the blocks are the same records as the whole file, whatever the rows hold.

**How quotes are read** (pandas' C parser, the block reader; Python's ``csv`` module agrees):
a quote opens a quoted value only at the start of a field (the start of the file or of a line,
or after the separator, spaces skipped: ``30, "clerk"``, as the in-memory readers and
:mod:`dpboost.record_lines` read it, pandas with ``skipinitialspace``; for whitespace-separated
files, after a space or tab); anywhere else it is an ordinary character (``5'11"``).  Inside
a quoted value, two quotes are one quote character and a quote followed by anything else
closes the value.  So a RUN of ``L``
consecutive quotes acts on the state "inside a quoted value or not" as:

* ``L`` even: no change (inside: ``L/2`` quote characters; outside: an empty quoted value and
  quote characters, or ordinary characters);
* ``L`` odd at the start of a field: a flip (outside: opened, the rest in pairs; inside:
  closed after the pairs);
* ``L`` odd elsewhere: outside afterwards (inside: closed after the pairs; outside: ordinary
  characters).

A flip or a reset per run makes the state after every run a prefix computation (the flips
counted since the last reset, modulo 2), done with numpy (:func:`record_ends`).  A line feed
is a record end when the state before it is "outside".  A reset settles the state whatever it
was before, so the state at a cut's offset is read from a window just before it, not from the
start of the file (:func:`record_cuts`: 72 cuts of a 75 MB file of quoted text in 54 ms; a
file without quotes costs one backward search for a quote per cut, in C).  Cuts are at line
feeds only, as dask's: a file without ``\n`` (lone ``\r`` line ends) is one block.
"""

from __future__ import annotations

import gzip
import io
import os
import re

import numpy as np

from dpboost.arrow_csv import MAX_BLOCK

__all__ = ["UTF8_BOM", "WINDOW", "after_lines", "ends_in_quoted_value", "parse_block",
           "read_block", "record_cuts", "record_ends", "unclosed_quote_error"]

#: The byte-order mark some editors write first: the first field starts after it.
UTF8_BOM = b"\xef\xbb\xbf"

_QUOTE, _LF = ord('"'), ord("\n")

#: A line end of every in-memory reader: ``\n``, ``\r\n`` or a lone ``\r``.
_LINE_END = re.compile(rb"\r\n|\r|\n")

#: A carriage return not followed by a line feed.
_LONE_RETURN = re.compile(rb"\r(?!\n)")

#: A line of spaces and tabs holding a tab: in a tab-separated file, a row of empty cells to
#: pandas, a blank line to pyarrow unless its fields are the table's.
_TAB_LINE = re.compile(rb"(?:^|(?<=[\r\n]))[ ]*\t[ \t]*(?=[\r\n]|$)")

#: Bytes of the file :func:`_state_at` reads at once (its memory: about 4 bytes a byte).
_STATE_CHUNK = 1 << 23

#: Bytes before and after a cut's offset read first by :func:`_record_end_after` (doubled
#: while the state there is not settled).
WINDOW = 1 << 16


def _field_starts(data: np.ndarray, at: np.ndarray, before: bytes, delimiter: str | None
                  ) -> np.ndarray:
    """Whether a field starts at each index ``at`` of ``data``, spaces skipped: the bytes
    before it (``before``, then ``data``), spaces (``" "``) dropped, end with a line end or
    the separator (``delimiter`` None: a space or a tab), or are none and ``before`` is empty
    (the start of the text).  ``before`` holds a byte other than a space unless the text
    starts within it (:func:`_context`)."""
    context = np.frombuffer(before, dtype=np.uint8)
    joined = np.concatenate([context, data])
    at = at + len(context)  # indices in joined
    if delimiter is None:  # whitespace-separated: every space separates
        ends, seps = at - 1, [b"\n", b"\r", b" ", b"\t"]
    else:  # the last byte before `at` other than a space (-1: none)
        kept = np.where(joined != ord(" "), np.arange(len(joined)), -1)
        ends = np.maximum.accumulate(kept)[np.maximum(at - 1, 0)] if len(joined) else at - 1
        ends = np.where(at > 0, ends, -1)
        seps = [b"\n", b"\r", delimiter.encode()]
    start = ends < 0  # nothing but spaces before it: the text's start
    for sep in seps:
        match = ends >= len(sep) - 1
        for k, byte in enumerate(sep):  # joined[end - len(sep) + 1 + k] == sep[k]
            match &= joined[np.maximum(ends - len(sep) + 1 + k, 0)] == byte
        start |= match
    return start


def record_ends(data: np.ndarray, before: bytes, inside: bool, delimiter: str | None
                ) -> tuple[np.ndarray, bool]:
    r"""``(ends, inside_after)``: the indices of the ``\n`` bytes of ``data`` that end a record
    (the state before them is "outside a quoted value"), and the state after ``data``.

    ``inside``: the state before ``data``; ``before``: the bytes of the file before it (empty at
    the start of the text).  ``data`` must not end inside a run of quotes.

    >>> text = b'a,b\n1,"x\ny"\n2,5\'11"\n3,"p""\nq"\n'
    >>> ends, inside = record_ends(np.frombuffer(text, np.uint8), b"", False, ",")
    >>> [text[:i + 1].count(b"\n") for i in ends], inside
    ([1, 3, 4, 6], False)
    """
    newlines = np.flatnonzero(data == _LF)
    # runs of consecutive quotes, from the edges of the quote mask (one index per run, not
    # per quote: a run of 120 million quotes took 2.2 GB before; red team, session 28)
    edges = np.diff((data == _QUOTE).view(np.int8), prepend=np.int8(0), append=np.int8(0))
    run_start, run_stop = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    del edges
    odd = (run_stop - run_start) % 2 == 1
    run_start, run_end = run_start[odd], run_stop[odd] - 1
    if not len(run_start):  # even runs only: no change of state
        return (np.empty(0, np.int64) if inside else newlines), inside
    flip = _field_starts(data, run_start, before, delimiter)
    count = np.cumsum(flip)  # flips up to and including each odd run
    last_reset = np.maximum.accumulate(np.where(flip, -1, np.arange(len(flip))))
    since = count - np.where(last_reset >= 0, count[np.maximum(last_reset, 0)], 0)
    base = np.where(last_reset >= 0, 0, int(inside))
    state = ((base + since) % 2).astype(bool)  # inside after each odd run
    # the state before each line feed: after the last odd run ending before it
    k = np.searchsorted(run_end, newlines) - 1
    before_lf = np.where(k >= 0, state[np.maximum(k, 0)], inside)
    return newlines[~before_lf], bool(state[-1])


def record_cuts(path: str | os.PathLike, blocksize: int, delimiter: str | None,
                longest: int = MAX_BLOCK, skip: int = 0,
                name: str | os.PathLike | None = None) -> list[int]:
    r"""Byte offsets ``[0, c_1, ..., size]`` cutting the CSV file ``path`` into blocks, each
    cut right after a ``\n`` that ends a record (never inside a quoted value): the first such
    ``\n`` at or after each of the offsets dask's ``read_bytes`` cuts at: ``size // blocksize``
    blocks of equal length, at least one (with the 64 MB default a 75 MB file is one block, as
    dask cut it before session 28).  A record longer than a block makes fewer, longer blocks.

    Each cut reads a window around its offset, not the file (:func:`_record_end_after`).
    No cut falls within the first ``skip`` lines (the lines above the data, which the first
    block skips: red team, session 28, 3,000 blank lines above the header put it in the second
    block, read as a data row).

    Raises
    ------
    ValueError
        No record ends within ``longest`` bytes after an offset: a row longer than that (an
        unclosed quote?), refused as the in-memory reader refuses a row longer than
        :data:`~dpboost.arrow_csv.MAX_BLOCK`, in the same words.  Else one worker would read
        the rest of the file as one block.  The error names ``name`` (default ``path``): the
        user's gzip file when ``path`` is its plain copy (:mod:`dpboost.gzip_copy`).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as f:
    ...     _ = f.write(b'a,b\n1,"x\n\n\ny"\n2,3\n')
    >>> record_cuts(f.name, 5, ",")  # not at byte 9, 10 or 11: inside the quoted value
    [0, 14, 18]
    >>> os.remove(f.name)
    """
    size = os.path.getsize(path)
    count = max(1, size // blocksize)
    cuts = [0]
    with open(path, "rb") as handle:
        start = len(UTF8_BOM) if handle.read(len(UTF8_BOM)) == UTF8_BOM else 0
        anchor = _after_lines_offset(handle, start, skip)
        for target in (k * size // count for k in range(1, count)):
            if target < anchor and anchor > start:
                continue  # inside the last block's record: dask's block would be empty
            end = _record_end_after(handle, max(target, start), anchor, start, size,
                                    delimiter, longest, name or path)
            if end is None:
                break
            if end + 1 < size:
                cuts.append(end + 1)
            anchor = end + 1
    return [*cuts, size] if size > 0 else [0]


def _after_lines_offset(handle, start: int, skip: int) -> int:
    """The offset of the byte after the first ``skip`` lines from ``start`` (the rule of
    :func:`after_lines`), from a head of the file read larger until it holds them."""
    size = 1 << 16
    while True:
        head = _read(handle, start, start + size)
        ends = [m.end() for _, m in zip(range(skip), _LINE_END.finditer(head))]
        if skip == 0 or (len(ends) == skip and ends[-1] < len(head)) or len(head) < size:
            return start + (ends[-1] if ends and len(ends) == skip else len(head) if skip
                            else 0)
        size *= 2  # (a \r ending the head may be a \r\n cut in two: read on)


def _read(handle, start: int, end: int) -> bytes:
    handle.seek(start)
    return handle.read(end - start)


def _context(handle, at: int, start: int) -> bytes:
    """The bytes before offset ``at`` that :func:`_field_starts` reads: 16 or more, back to the
    last byte other than a space (a separator's spaces before a quote), or to ``start``."""
    lo = max(start, at - 16)
    while lo > start and not _read(handle, lo, at).strip(b" "):
        lo = max(start, lo - 4096)
    return _read(handle, lo, at)


def _run_start(handle, at: int, floor: int) -> int:
    """``at``, or the first byte of the run of quotes ending just before it (not before
    ``floor``), read back 64 KiB at a time (one byte at a time took 107 s on a run of 120
    million quotes: red team, session 28)."""
    while at > floor:
        lo = max(floor, at - (1 << 16))
        chunk = _read(handle, lo, at)
        kept = len(chunk.rstrip(b'"'))
        if kept:
            return lo + kept
        at = lo
    return at


def _chunk_end(handle, at: int, limit: int) -> int:
    """The end of a chunk from ``at``: :data:`_STATE_CHUNK` bytes on, or ``limit``, moved off a
    run of quotes (back to its start, or past its end if it began at ``at``)."""
    end = at + _STATE_CHUNK
    if end >= limit:
        return limit
    back = _run_start(handle, end, at)
    if back > at:
        return back
    while end < limit:  # the chunk is one run of quotes: to its end
        more = _read(handle, end, min(limit, end + (1 << 16)))
        rest = len(more) - len(more.lstrip(b'"'))
        end += rest
        if rest < len(more):
            break
    return end


def _last_quote(handle, anchor: int, end: int) -> int | None:
    """The offset of the last quote in bytes ``anchor`` to ``end`` of the file, or None."""
    step = 1 << 20
    while end > anchor:
        lo = max(anchor, end - step)
        found = _read(handle, lo, end).rfind(b'"')
        if found >= 0:
            return lo + found
        end = lo
    return None


def _record_end_after(handle, target: int, anchor: int, start: int, size: int,
                      delimiter: str | None, longest: int, name=None) -> int | None:
    r"""The offset of the first ``\n`` at or after ``target`` that ends a record, or None.

    ``anchor`` (``<= target``) is a record's first byte, or ``start``, the text's (after a
    byte-order mark): outside a quoted value there.  First the state at ``target`` (at the
    start of the run of quotes holding it, if one does) is read from a window before it, under
    both hypotheses for the state at the window's first byte: where the two agree, that is the
    state (an odd run of quotes not at a field start leaves the state "outside" whatever it
    was, so a closing quote settles it).  Else the window doubles, back to ``anchor`` at most,
    where the state is known.  With no quote since ``anchor`` (one backward search in C,
    ``rfind``) the state is "outside" at once.  Then the record ends are read forward from
    there in chunks, the state carried: memory stays a few chunks whatever the file.
    """
    point = _run_start(handle, target, anchor)
    inside = _state_at(handle, point, anchor, start, delimiter)
    chunk = WINDOW
    at, carry = point, b""
    while at < size or carry:
        more = _read(handle, at, min(size, at + chunk))
        text, at = carry + more, at + len(more)
        keep = len(text) - len(text.rstrip(b'"')) if at < size else 0  # a run may go on
        text, carry = text[:len(text) - keep], text[len(text) - keep:]
        first = at - len(carry) - len(text)  # the file offset of text[0]
        before = _context(handle, first, start)
        ends, inside = record_ends(np.frombuffer(text, np.uint8), before, inside, delimiter)
        found = _first_at(ends, target - first)
        if (at if found is None else first + found) - target >= longest:
            raise ValueError(
                f"{name or handle.name} could not be read as CSV: a row is longer than "
                f"{longest / (1 << 20):,.0f} MiB, the largest block dpboost reads (a cell that "
                "long? an unclosed quote?).")
        if found is not None:
            return first + found
        if at >= size and not keep:
            return None
        chunk = min(2 * chunk, 1 << 24)
    return None


def _state_at(handle, point: int, anchor: int, start: int, delimiter: str | None) -> bool:
    """Whether byte ``point`` (not inside a run of quotes) is inside a quoted value, given
    that ``anchor`` is outside one (:func:`_record_end_after`)."""
    last = _last_quote(handle, anchor, point)
    if last is None:
        return False
    width, hi = WINDOW, point
    after = {False: False, True: True}  # the state at `point` for each state at `hi`
    while True:
        lo = _run_start(handle, max(anchor, last - width), anchor)
        step = _states_over(handle, lo, hi, start, delimiter, lo == anchor)
        after = {h: after[s] for h, s in step.items()}  # from lo to point: each read once
        if len(set(after.values())) == 1:
            return next(iter(after.values()))
        width, hi = 2 * width, lo


def _states_over(handle, lo: int, hi: int, start: int, delimiter: str | None,
                 known: bool) -> dict[bool, bool]:
    """The state at ``hi`` for each state at ``lo`` (only "outside" when ``known``), bytes
    ``lo`` to ``hi`` read in chunks of bounded memory."""
    states = {False: False} if known else {False: False, True: True}
    at = lo
    while at < hi:
        end = _chunk_end(handle, at, hi)
        data = np.frombuffer(_read(handle, at, end), np.uint8)
        before = _context(handle, at, start)
        done = {s: record_ends(data, before, s, delimiter)[1] for s in set(states.values())}
        states = {h: done[s] for h, s in states.items()}
        at = end
    return states


def _first_at(ends: np.ndarray, at: int) -> int | None:
    """The first of the sorted ``ends`` at or after ``at``, or None."""
    i = int(np.searchsorted(ends, at))
    return int(ends[i]) if i < len(ends) else None


def ends_in_quoted_value(path: str | os.PathLike, delimiter: str,
                         compressed: bool = False) -> bool:
    """Whether the text of the file ``path`` (a gzip stream when ``compressed``) ends inside a
    quoted value: a quote opened a value that no quote closes.

    Red team, session 28: pyarrow (in memory) read such a last cell ``"yes<line break>`` as
    ``yes`` and trained, pandas (under ``--workers``, or in memory once another row held
    ``5, "x"``) refused the file: one row decided whether another was read.  Every reader
    now refuses it first (:func:`unclosed_quote_error`).  Read from the end back, as a cut
    is (:func:`_state_at`): a closing quote near the end settles it.  A gzip stream cannot be
    read backward: its text is read forward once (:func:`_stream_ends_inside`).
    """
    if compressed:
        import zlib

        try:
            with gzip.open(path, "rb") as handle:
                return _stream_ends_inside(handle, delimiter)
        except (OSError, EOFError, zlib.error):
            return False  # a damaged stream: the reader's own one line says so
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        start = len(UTF8_BOM) if handle.read(len(UTF8_BOM)) == UTF8_BOM else 0
        point = _run_start(handle, size, start)  # a run of quotes ending the file: its start
        inside = _state_at(handle, point, start, start, delimiter)
        tail = np.frombuffer(_read(handle, point, size), np.uint8)
        return record_ends(tail, _context(handle, point, start), inside, delimiter)[1]


def _stream_ends_inside(handle, delimiter: str, chunk: int = 1 << 24) -> bool:
    """Whether the text read from ``handle`` ends inside a quoted value: every byte once,
    ``chunk`` at a time, the state carried (a run of quotes ending a chunk waits for the
    next)."""
    inside, before, carry, head = False, b"", b"", True
    while True:
        more = handle.read(chunk)
        text = carry + more
        if head:  # the first field starts after a byte-order mark
            text, head = (text[len(UTF8_BOM):] if text.startswith(UTF8_BOM) else text), False
        keep = len(text) - len(text.rstrip(b'"')) if more else 0
        text, carry = text[:len(text) - keep], text[len(text) - keep:]
        inside = record_ends(np.frombuffer(text, np.uint8), before, inside, delimiter)[1]
        if not more:
            return inside
        seen = before + text  # what _field_starts reads: back to a byte other than a space
        before = seen[-(len(seen) - len(seen.rstrip(b" ")) + 16):]


def unclosed_quote_error(path, delimiter: str) -> ValueError:
    """The one-line refusal of a file that ends inside a quoted value, naming the record line
    (:mod:`dpboost.record_lines`) of the record the quote opens in: the last record the csv
    module reads holds the rest of the file.  One scan of the file, on this error path."""
    from pathlib import Path

    from dpboost.csv_errors import open_text
    from dpboost.record_lines import numbered_records

    line = None
    with open_text(Path(path)) as handle:
        for line, _, _, _ in numbered_records(handle, delimiter):
            pass
    where = f"{path}, line {line}:" if line is not None else f"{path}:"
    return ValueError(f"{where} a quote (\") opens a value that no quote closes, so the rest "
                      "of the file would be one cell (the file ends inside it); close that "
                      "value, or delete the quote.")


def read_block(path: str, start: int, end: int, compressed: bool = False) -> bytes:
    """Bytes ``start`` to ``end`` (excluded) of the file ``path``, or the whole decompressed
    text of a gzip file (``compressed``: a gzip stream cannot be cut, one block; read so only
    when the disk has no room for its plain copy, :mod:`dpboost.gzip_copy`).  A worker's
    task."""
    if compressed:
        with gzip.open(path, "rb") as handle:
            return handle.read()
    with open(path, "rb") as handle:
        return _read(handle, start, end)


def after_lines(block: bytes, skip: int) -> bytes:
    r"""``block`` after its first ``skip`` lines, a line ending at ``\n``, ``\r\n`` or a lone
    ``\r``, as every in-memory reader skips the lines above the data
    (:func:`dpboost.pandas_csv._read`).

    pandas' ``skiprows`` counts otherwise: a skipped line that starts with a lone ``\r`` runs
    on to the next line end (session 25: a file starting ``\r\r\n`` lost its first data row),
    which is why ``--workers`` refused a lone ``\r`` above the data until the blocks were
    read here (session 28).

    >>> after_lines(b"\r\r\nx,y\n1,2\n", 2)
    b'x,y\n1,2\n'
    """
    at = 0
    for _ in range(skip):
        end = _LINE_END.search(block, at)
        if end is None:
            return b""
        at = end.end()
    return block[at:]


def parse_block(block: bytes, kwargs: dict, skip: int = 0, delimiter: str | None = ","):
    r"""One block as the in-memory pandas reader reads text (:func:`dpboost.pandas_csv._read`):
    after its first ``skip`` lines (:func:`after_lines`; the first block's lines above the
    data), blank lines rewritten as ``"\n"`` where one could end in a lone ``\r``
    (:func:`~dpboost.pandas_csv.blank_lines_as_newlines`: pandas read the row after such a
    line one column left) or hold a tab of a tab-separated file (pandas read it as a row of
    empty cells), then ``pandas.read_csv`` with ``kwargs`` (``names``: the table's columns).
    A worker's task.

    Until session 28 dask handed pandas its raw bytes, so ``--workers`` refused both layouts
    (a lone ``\r`` above the data, a row starting with its separator after a blank line ending
    in one) where memory read them: one row decided between a model and a refusal.

    >>> import pandas as pd
    >>> kw = dict(header=None, names=["a", "b", "y"], dtype=str, keep_default_na=False)
    >>> parse_block(b"a,b,y\r\r,1,0\n", kw, 1).to_numpy().tolist()
    [['', '1', '0']]
    """
    import pandas as pd

    block = after_lines(block, skip)
    if _LONE_RETURN.search(block) or (delimiter == "\t" and _TAB_LINE.search(block)):
        from dpboost.pandas_csv import blank_lines_as_newlines

        lines = io.StringIO(block.decode("utf-8-sig"), newline="")  # a mark, if first
        text = "".join(blank_lines_as_newlines(lines, delimiter, len(kwargs["names"])))
        return pd.read_csv(io.StringIO(text), **kwargs)
    return pd.read_csv(io.BytesIO(block), **kwargs)
