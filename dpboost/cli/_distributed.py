"""CLI helpers for data bigger than memory: a dask cluster, and tables read partition by partition.

``dpboost train 'data/*.parquet' --schema schema.json --workers K`` starts a
``distributed.LocalCluster`` of ``K`` worker processes; ``--scheduler ADDRESS`` connects to a
running cluster; with neither the in-memory path is used.  A Parquet folder (or glob), or a
CSV larger than memory (cut into blocks where a record ends, :mod:`dpboost.csv_blocks`, and
parsed by pandas on the workers), is encoded partition by partition by the schema's
:class:`~dpboost.tabular.TabularEncoder`, which reads nothing from the data (its
encoding is a function of the schema and of each row alone), so no pass of its own is needed.
Only the partition lengths are counted (``n`` is public).
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import shutil
import os
from collections.abc import Iterator
from functools import partial
from typing import NamedTuple

import numpy as np

__all__ = ["add_cluster_options", "cluster_client", "csv_partitions", "is_large_table",
           "read_encoded"]

#: Spool folders made by :func:`read_encoded`, deleted when the enclosing cluster closes (or,
#: for one made outside :func:`cluster_client`, when the process exits).
_SPOOLS: list[str] = []


@atexit.register
def _remove_left_spools() -> None:
    """Delete this machine's copy of any spool no cluster closed: the encoded private rows must
    not outlive the process (before, each ``read_encoded`` outside a cluster left one in the
    temporary folder: 167 of them, 428 KiB each, after a day of tests)."""
    for folder in _SPOOLS:
        shutil.rmtree(folder, ignore_errors=True)
    _SPOOLS.clear()

#: Bytes of CSV text per dask partition when :func:`read_encoded` is given no ``blocksize``.
#: A CSV under it is one partition whatever ``--workers``: cutting it into ``K`` was measured
#: slower (``benchmarks/bench_workers_time.py``, 2 workers on 2 cores, 2026-11-27, load 1.6-1.9):
#: two partitions read and encoded faster (1.6 s against 2.7 s at 50,000 rows x 25 features,
#: 2.2 against 2.7 s at 300,000) but every round cost more (0.173 s against 0.142 s, 0.306
#: against 0.265 s: each chunk adds tasks to each of a round's round trips), and a fit runs 30
#: rounds or more.  Whole ``train --workers 2`` runs, one partition against two: 95.4 s against
#: 133.2 s at 50,000 rows (576 rounds), 40.1 against 49.9 s at 150,000 (192), and 55.2 against
#: 52.3 s, 47.6 against 47.2 s at 300,000 (150): a tie at best.
CSV_BLOCKSIZE: str | int = "64MB"


def spool_parent() -> str | None:
    """``$DPBOOST_SPOOL_DIR``, or None for the temporary folder.  A folder that does not
    exist is created readable by its owner only (it was created mode 755); a path that is
    not a folder is refused naming the variable (it said "...: Not a directory"; audit,
    session 37)."""
    from dpboost.cli._options import UserError

    parent = os.environ.get("DPBOOST_SPOOL_DIR") or None
    if parent is not None and os.path.exists(parent) and not os.path.isdir(parent):
        raise UserError(f"DPBOOST_SPOOL_DIR={parent}: not a folder; point it at a folder only "
                        "you can read (the spool holds the private data), or unset it for "
                        "the temporary folder.")
    if parent is not None:
        os.makedirs(parent, mode=0o700, exist_ok=True)
    return parent


def add_cluster_options(parser) -> None:
    """``--workers K`` and ``--scheduler ADDRESS`` (mutually exclusive)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, default=None, metavar="K",
                       help="run on a local dask cluster of K worker processes, out of core "
                            "(default: none, in memory)")
    group.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on a running dask cluster, e.g. tcp://host:8786 (default: "
                            "none, in memory)")
    parser.add_argument("--memory-limit", default="auto", metavar="BYTES",
                        help="memory limit per local worker with --workers (default: auto)")


@contextlib.contextmanager
def cluster_client(workers: int | None = None, scheduler: str | None = None,
                   memory_limit: str | int = "auto") -> Iterator[object | None]:
    """Yield a ``distributed.Client`` (``None`` when neither option is given); close on exit."""
    if workers is None and scheduler is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError as exc:
        raise ValueError("--workers and --scheduler need dask: pip install 'dpboost[dask]'. "
                         f"({exc})") from exc
    if workers is not None:
        if workers < 1:
            raise ValueError(f"The '--workers' option must be an int >= 1. Got {workers} "
                             "instead.")
        from dpboost.distributed import local_cluster

        cluster = local_cluster(workers, memory_limit, quiet=True)  # one stderr line on error
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise ValueError(f"Could not connect to the dask scheduler at {scheduler!r}: "
                             f"{exc}") from exc
    mark = len(_SPOOLS)
    from dpboost.distributed_spool import sigterm_exits

    restore = sigterm_exits()
    try:
        yield client
    finally:
        restore()
        from dpboost.distributed_spool import remove_spool

        for folder in _SPOOLS[mark:]:  # the spools read_encoded made on this cluster
            remove_spool(folder)
        made = _SPOOLS[mark:]
        del _SPOOLS[mark:]
        client.close()
        if cluster is not None:
            cluster.close()
            for folder in made:  # a task still running at the removal may have written again
                shutil.rmtree(folder, ignore_errors=True)


def _parquet_paths(path: str) -> list[str]:
    """The Parquet files of a folder (``*.parquet``), or of a glob or a single file when each
    is Parquet as the in-memory reader knows it (suffix ``.parquet``/``.pq`` or the ``PAR1``
    magic); else ``[]`` (a CSV).  Before, a single ``data.pq`` was read as CSV text on dask
    ("not UTF-8 text") though it trained in memory."""
    if os.path.isdir(path):  # .pq too, as the in-memory reader knows it
        return sorted(p for p in glob.glob(os.path.join(path, "*"))
                      if p.lower().endswith((".parquet", ".pq")) and os.path.isfile(p))
    paths = sorted(glob.glob(path))
    return paths if paths and all(os.path.isfile(p) and _is_parquet_file(p) for p in paths) else []


def _no_parquet_files(folder: str) -> None:
    """Refuse a folder without Parquet files at its top level in one line that says what to
    give (before: "[Errno 21] Is a directory", from reading the folder as a CSV file)."""
    nested = glob.glob(os.path.join(folder, "**", "*.parquet"), recursive=True)
    hint = (f"; its Parquet files are in subfolders (a partitioned dataset?): give a glob "
            f"such as '{os.path.join(folder, '*', '*.parquet')}', quoted" if nested else
            "; give a folder of Parquet files, a glob of them, or one CSV file")
    raise ValueError(f"{folder} is a folder without Parquet files (*.parquet, *.pq){hint}.")


def _is_parquet_file(path: str) -> bool:
    if path.lower().endswith((".parquet", ".pq")):
        return True
    with open(path, "rb") as handle:
        return handle.read(4) == b"PAR1"


def is_large_table(path: str) -> bool:
    """Whether ``path`` is a Parquet folder, glob or file (read by row groups, not as CSV)."""
    return bool(_parquet_paths(str(path)))


def _encode(frame, encoder, dtype, first_row: int = 0) -> np.ndarray:
    """The encoded rows of a partition whose first row is row ``first_row`` of the file."""
    from dpboost.tabular import BadValueError

    try:
        return np.asarray(encoder.transform(frame), dtype=dtype)
    except BadValueError as exc:  # the row of the file, not of the partition
        raise exc.moved(first_row + exc.row) from None


def _label_dtype(encoder) -> np.dtype:
    """The integer type of the label positions: int8 up to 127 classes, else wider.

    Before, the positions were always int8, so with 128 or more classes a label past the
    127th class wrapped around: refused as "outside the classes", or (from 257 classes on)
    silently read as another class.
    """
    k = len(encoder.schema_.label.classes)
    return np.dtype(np.int8 if k <= 127 else np.int16 if k <= 32767 else np.int32)


def _labels(frame, encoder, column: str, first_row: int = 0) -> np.ndarray:
    from dpboost.tabular import BadValueError

    try:
        return np.asarray(encoder.encode_labels(frame[column]), dtype=_label_dtype(encoder))
    except BadValueError as exc:
        raise exc.moved(first_row + exc.row) from None


def _read_pieces(pieces, columns: list[str]):
    """The rows of ``pieces`` (``(path, row_groups)``, in order) as one pandas frame."""
    import pandas as pd
    import pyarrow as pa

    from dpboost.parquet_columns import read_columns  # stripped names, bytes as text

    frames = [read_columns(path, columns, groups) for path, groups in pieces]
    pa.default_memory_pool().release_unused()  # Arrow's allocator keeps freed buffers
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _in_file(pieces, error):
    """``error`` (at a row of the rows of ``pieces``) at its row of its Parquet file."""
    import pyarrow.parquet as pq

    row = error.row
    for path, groups in pieces:
        meta = pq.ParquetFile(path).metadata
        rows = sum(meta.row_group(g).num_rows for g in groups)
        if row < rows:  # a piece's row groups are consecutive, from its first
            before = sum(meta.row_group(g).num_rows for g in range(groups[0]))
            return error.moved(before + row, prefix=f"{path}: ")
        row -= rows
    return error


def _encode_pieces(pieces, columns, encoder, dtype) -> np.ndarray:
    from dpboost.tabular import BadValueError

    try:
        return _encode(_read_pieces(pieces, columns), encoder, dtype)
    except BadValueError as exc:
        raise _in_file(pieces, exc) from None


def _label_pieces(pieces, column: str, encoder) -> np.ndarray:
    from dpboost.tabular import BadValueError

    try:
        return _labels(_read_pieces(pieces, [column]), encoder, column)
    except BadValueError as exc:
        raise _in_file(pieces, exc) from None


def _parquet_chunks(paths: list[str], row_bytes: int, chunk_bytes: int):
    """Consecutive row groups of the files, grouped into chunks of about ``chunk_bytes``.

    Returns ``[(pieces, rows)]`` with ``pieces = [(path, [row group, ...]), ...]``; only the
    files' footers are read (the row counts: ``n`` is public).
    """
    import pyarrow.parquet as pq

    chunks, pieces, rows = [], [], 0
    for path in paths:
        meta = pq.ParquetFile(path).metadata
        for g in range(meta.num_row_groups):
            m = meta.row_group(g).num_rows
            if m == 0:
                continue
            if rows and (rows + m) * row_bytes > chunk_bytes:
                chunks.append((pieces, rows))
                pieces, rows = [], 0
            if pieces and pieces[-1][0] == path:
                pieces[-1][1].append(g)
            else:
                pieces.append((path, [g]))
            rows += m
    if rows:
        chunks.append((pieces, rows))
    return chunks


def _spool_fits(nbytes: int, parent: str | None) -> bool:
    from dpboost.distributed_spool import has_room

    return has_room(nbytes, parent)


def read_encoded(path: str, schema, *, dtype=np.float32, blocksize: str | int | None = None,
                 with_labels: bool = True, chunk_bytes: int = 128 << 20,
                 spool: bool = True, checks: bool = False, of_model: bool = False):
    """Read a Parquet folder/glob or a CSV with dask and encode it partition by partition.

    Returns ``(X, y, encoder)``: ``X`` a row-chunked dask array of the encoded rows (known
    lengths), ``y`` the label positions in the schema's ``classes`` as an integer dask array
    (:func:`_label_dtype`: int8 up to 127 classes)
    (``None`` without labels).  With ``checks``, ``(X, y, encoder, found)``: ``found`` is
    ``(spelling_mismatches, outside_declarations, empty_columns)`` of the whole table
    (:func:`~dpboost.tabular_checks.combine_checks`, NON-PRIVATE figures for the data's
    owner), computed partition by partition and gathered once; a CSV's in the pass that
    counts its rows, a Parquet table's in a pass of its own.  ``found`` is None when a
    partition holds a value the schema cannot encode (the encoding reports it).

    Parquet is cut into chunks of about ``chunk_bytes`` of encoded rows at row-group
    boundaries.  With ``spool`` (the default) every chunk is encoded once, on its first read,
    into a spool (:mod:`dpboost.distributed_spool`, in ``$DPBOOST_SPOOL_DIR`` or the temporary
    folder) that later reads map from the page cache; a lost chunk is re-read from its
    Parquet row groups.  A CSV is encoded once into the spool by one pass (which also counts
    its rows); a lost CSV chunk fails the fit with one clear error.  The spool is deleted when
    the enclosing :func:`cluster_client` closes.  Without room on disk for the spool (its size
    plus 20% and 1 GiB), every read decodes the files again, as without ``spool``.

    A value the schema cannot encode raises :class:`~dpboost.tabular.BadValueError` (here or
    when ``X``/``y`` are computed) at its row of the file, never of a partition: a CSV's data
    row (0-based, as the in-memory reader counts it), a Parquet file's row with the file
    named.  With several, the one raised follows the run order;
    :func:`~dpboost.cli._bad_values.file_error` names the one memory names, at its line.
    ``of_model``: ``schema`` is a trained model's, encoded as in-memory ``predict`` does
    (:meth:`TabularEncoder.of_model`).
    """
    from dpboost.tabular import TabularEncoder

    encoder = TabularEncoder.of_model(schema) if of_model else TabularEncoder(schema).fit()
    out = _read_encoded(path, encoder, dtype, blocksize, with_labels, chunk_bytes, spool,
                        checks)
    return out if checks else out[:3]


def _unparsed(exc, path, gz: bool, delimiter, names, skip, encoder) -> Exception:
    """The in-memory reader's one line for a file the block reader failed on: a damaged gzip
    stream (:func:`~dpboost.csv_errors.decode_error`, never zlib's text: it holds the file's
    checksum), else a record of the wrong width (an unclosed quote runs to the end of the
    file; it was an internal error, red team, session 24); else ``exc`` itself."""
    from dpboost.cli._csv_rows import ragged_row_error
    from dpboost.csv_errors import check_stream

    if gz:
        check_stream(path)  # decode_error's line on a damaged stream
    if isinstance(exc, ValueError):
        return ragged_row_error(path, delimiter, len(names), skip)
    return exc


def _read_encoded(path, encoder, dtype, blocksize, with_labels, chunk_bytes, spool, checks):
    """:func:`read_encoded`'s ``(X, y, encoder, found)`` (``found`` None without ``checks``)."""
    import dask
    import dask.array as da

    width = encoder.n_features_out_
    itemsize = np.dtype(dtype).itemsize
    label = encoder.schema_.label
    want_y = with_labels and label is not None
    ydt = _label_dtype(encoder) if label is not None else np.dtype(np.int8)
    parent = spool_parent()
    wanted = [*encoder.schema_.used_columns, *([label.column] if want_y else [])]
    paths = _parquet_paths(str(path))
    if not paths and os.path.isdir(path):
        _no_parquet_files(str(path))
    if paths:
        from dpboost.parquet_columns import check_names

        for file in paths:  # from the footers: a file without a column read is an error
            check_names(file, wanted)  # (its rows read as missing), or with it twice
        chunks = _parquet_chunks(paths, width * itemsize, chunk_bytes)
        lengths = [m for _, m in chunks]
        if not lengths:  # no rows at all (dask cannot concatenate no chunks)
            return (*_no_rows(width, dtype, want_y, ydt), encoder,
                    ({}, {}) if checks else None)
        spool = spool and _spool_fits(sum(lengths) * (width * itemsize + ydt.itemsize), parent)
        columns = list(encoder.schema_.used_columns)
        found = None
        if checks:  # a pass of its own: Parquet's lengths come from the footers
            from dpboost.distributed import gather

            found = _combined(gather([dask.delayed(_checked_pieces)(p, columns, encoder.schema_)
                                      for p, _ in chunks]), encoder.schema_)
        x_src = [partial(_encode_pieces, p, columns, encoder, dtype) for p, _ in chunks]
        y_src = ([partial(_label_pieces, p, label.column, encoder) for p, _ in chunks]
                 if want_y else None)
        if spool:
            from dpboost.distributed_spool import new_spool_directory, spooled_array

            folder = new_spool_directory(parent)
            _SPOOLS.append(folder)
            X = spooled_array(x_src, lengths, (width,), dtype, os.path.join(folder, "X"))
            y = (spooled_array(y_src, lengths, (), ydt, os.path.join(folder, "y"))
                 if want_y else None)
            return X, y, encoder, found
        X = da.concatenate([da.from_delayed(dask.delayed(f)(), shape=(m, width), dtype=dtype)
                            for f, m in zip(x_src, lengths)], axis=0)
        y = (da.concatenate([da.from_delayed(dask.delayed(f)(), shape=(m,), dtype=ydt)
                             for f, m in zip(y_src, lengths)]) if want_y else None)
        return X, y, encoder, found
    from pandas.errors import ParserError

    from dpboost.cli._csv_rows import ShortRowError, ragged_row_error

    parts, rows_ok, delimiter, names, skip, gz, text = csv_partitions(path, encoder, want_y,
                                                                      blocksize)
    try:  # a row of too many fields fails the block reader's parse: one line, as in memory
        if spool and _spool_fits(os.path.getsize(text) * 8 * max(1, itemsize), parent):
            X, y, found = _spool_csv(parts, encoder, dtype, label.column if want_y else None,
                                     parent, checks, rows_ok)
            if text != str(path):  # a gzip file's plain copy: every block is spooled, and the
                from dpboost.distributed_spool import remove_spool  # text is read no more

                remove_spool(os.path.dirname(text))  # (no second copy of the data on disk)
            return X, y, encoder, found
        from dpboost.distributed import gather, row_offsets

        found = None
        counts = [dask.delayed(_length)(p, ok) for p, ok in zip(parts, rows_ok)]
        if checks:  # in the pass that counts the rows (one read of each partition)
            lengths, each = gather(counts, [dask.delayed(_checked)(p, encoder.schema_)
                                            for p in parts])
            lengths, found = list(lengths), _combined(each, encoder.schema_)
        else:
            lengths = list(gather(counts))
    except (ParserError, ShortRowError):
        raise ragged_row_error(path, delimiter, len(names), skip) from None
    except (ValueError, OSError, EOFError) as exc:
        if type(exc) is not ValueError and not isinstance(exc, (OSError, EOFError)):
            raise  # one of ours (a cell's error names its row): as raised
        raise _unparsed(exc, path, gz, delimiter, names, skip, encoder) from None
    if not any(lengths):
        return (*_no_rows(width, dtype, want_y, ydt), encoder, found)
    starts = row_offsets(tuple(lengths))  # each partition's first row of the file
    X = da.concatenate([
        da.from_delayed(dask.delayed(_encode)(p, encoder, dtype, s), shape=(m, width),
                        dtype=dtype)
        for p, m, s in zip(parts, lengths, starts) if m > 0], axis=0)
    y = None
    if want_y:
        y = da.concatenate([
            da.from_delayed(dask.delayed(_labels)(p, encoder, label.column, s), shape=(m,),
                            dtype=ydt)
            for p, m, s in zip(parts, lengths, starts) if m > 0])
    return X, y, encoder, found


class CsvPartitions(NamedTuple):
    """A CSV's partitions (delayed pandas frames of text cells) and how it was read."""

    parts: list
    rows_ok: list  # each partition's wait for its own block's field counts
    delimiter: str | None  # None: whitespace-separated
    names: list[str]
    skip: int  # lines above the first data row
    gz: bool  # read as one gzip block (no room on disk for its plain copy)
    text: str  # the file the blocks are read from: the path, or a gzip file's plain copy


def csv_partitions(path: str, encoder, want_y: bool, blocksize=None) -> CsvPartitions:
    """The partitions of a CSV cut into blocks where a record ends (:mod:`dpboost.csv_blocks`),
    read as the in-memory reader reads the file (its separator, header, names and quotes).

    Refuses, before any block is read, what memory refuses from the layout: a column the
    schema reads missing from the header, a file ending inside a quoted value.
    """
    import dask
    from dask.utils import parse_bytes

    from dpboost.cli._csv_rows import row_checks
    from dpboost.column_check import check_columns
    from dpboost.csv_blocks import (ends_in_quoted_value, parse_block, read_block,
                                    record_cuts, unclosed_quote_error)
    from dpboost.gzip_copy import COPY_NAME, plain_copy
    from dpboost.readers import _is_gzip, csv_layout, field_count

    label = encoder.schema_.label
    wanted = [*encoder.schema_.used_columns, *([label.column] if want_y else [])]
    # the same separator, header names (stripped, no byte-order mark) and 'names' as the
    # in-memory reader; the first block skips the header, the others hold data only
    names = encoder.schema_.names
    if (names is not None and not want_y and label is not None and label.column in names
            and field_count(path, encoder.schema_.decimal, encoder.schema_.separator)
            == len(names) - 1):
        # a headerless test file may leave out the label, as in memory (predict)
        names = [n for n in names if n != label.column]
    delimiter, names, skip = csv_layout(path, names, wanted, encoder.schema_.decimal,
                                        encoder.schema_.separator)
    check_columns(path, wanted, names, header=encoder.schema_.names is None,  # as in memory
                  separator=encoder.schema_.separator)
    blocksize = parse_bytes(blocksize or CSV_BLOCKSIZE)
    # a gzip stream (known by its magic bytes, as in memory, not only by '.gz') is cut and read
    # as its plain copy (dpboost.gzip_copy); messages name `path`, read on the error paths;
    # no room on disk for the copy: one block, as before
    text, gz = path, _is_gzip(path)
    if gz and (copied := plain_copy(path, spool_parent())):
        _SPOOLS.append(copied)  # deleted when the cluster closes
        text, gz = os.path.join(copied, COPY_NAME), False
    if delimiter is not None and ends_in_quoted_value(text, delimiter, gz):
        raise unclosed_quote_error(path, delimiter)  # as in memory (dpboost.readers.read_table)
    # blocks cut where a record ends, never inside a quoted value (dpboost.csv_blocks)
    cuts = ([0, os.path.getsize(text)] if gz else
            record_cuts(text, blocksize, delimiter, skip=skip, name=path))
    read = dask.delayed(read_block, pure=True)
    blocks = [read(str(text), a, b, gz) for a, b in zip(cuts, cuts[1:])]
    # a quote after a separator's spaces opens a value (30, "clerk"), as in memory: every
    # row read so, the in-memory readers' cells alike for a row without one (encoded alike)
    kwargs = dict(dtype=str, keep_default_na=False, header=None, names=names,
                  sep=r"\s+" if delimiter is None else delimiter, skip_blank_lines=True,
                  skipinitialspace=delimiter is not None)
    parse = dask.delayed(parse_block, pure=True)
    parts = [parse(b, kwargs, skip if i == 0 else 0, delimiter) for i, b in enumerate(blocks)]
    # a short row reads as empty cells: each partition waits for its own block's field counts
    # (a row of the wrong width elsewhere is found by the error path, which names memory's
    # error: dpboost.cli._bad_values)
    rows_ok = row_checks(blocks, delimiter, len(names), skip)
    return CsvPartitions(parts, rows_ok, delimiter, names, skip, gz, str(text))


def _no_rows(width: int, dtype, want_y: bool, ydt=np.int8):
    """``(X, y)`` of a table without data rows: dask arrays of length 0 (``y`` None if unwanted)."""
    import dask.array as da

    X = da.zeros((0, width), dtype=dtype, chunks=((0,), (width,)))
    return X, (da.zeros((0,), dtype=ydt, chunks=((0,),)) if want_y else None)


def _length(frame, rows_ok) -> int:
    """The rows of a CSV partition (``rows_ok``: its block's field count passed)."""
    return len(frame)


def _write_csv_chunk(frame, encoder, dtype, label: str | None, folder: str, index: int,
                     rows_ok=True) -> int:
    from dpboost.distributed_spool import _chunk_path, _write_atomic
    from dpboost.tabular import BadValueError

    try:
        X = _encode(frame, encoder, dtype)
        y = _labels(frame, encoder, label) if label is not None else None
    except BadValueError as exc:  # its row is the partition's: the client finds the file's
        exc.partition = index
        raise
    _write_atomic(_chunk_path(os.path.join(folder, "X"), index), X)
    if y is not None:
        _write_atomic(_chunk_path(os.path.join(folder, "y"), index), y)
    return len(frame)


def _spool_csv(parts, encoder, dtype, label: str | None, parent: str | None,
               checks: bool = False, rows_ok=None):
    """One pass over the CSV partitions: encode and spool each, and count its rows (and, with
    ``checks``, the owner's checks: ``(X, y, found)``).  ``rows_ok``: each partition's block
    check (:func:`~dpboost.cli._csv_rows.row_checks`), which its write waits for."""
    import dask

    from dpboost.distributed import gather
    from dpboost.distributed_spool import new_spool_directory, spooled_array

    from dpboost.tabular import BadValueError

    folder = new_spool_directory(parent)
    _SPOOLS.append(folder)
    write = dask.delayed(_write_csv_chunk, pure=True)
    rows_ok = rows_ok or [True] * len(parts)
    writes = [write(p, encoder, dtype, label, folder, i, ok)
              for i, (p, ok) in enumerate(zip(parts, rows_ok))]
    found = None
    try:
        if checks:  # the same pass: each partition is read once
            lengths, each = gather(writes, [dask.delayed(_checked)(p, encoder.schema_)
                                            for p in parts])
            found = _combined(each, encoder.schema_)
        else:
            lengths = gather(writes)
        lengths = list(lengths)
    except BadValueError as exc:  # count the rows before its partition (the error path only)
        index = getattr(exc, "partition", None)
        if index is None:
            raise
        before = sum(gather([dask.delayed(len)(p) for p in parts[:index]])) if index else 0
        raise exc.moved(before + exc.row) from None
    keep = [i for i, m in enumerate(lengths) if m > 0]  # empty partitions are left out
    if not keep:
        return (*_no_rows(encoder.n_features_out_, dtype, label is not None,
                          _label_dtype(encoder) if label is not None else np.int8), found)
    X = spooled_array([None] * len(keep), [lengths[i] for i in keep],
                      (encoder.n_features_out_,), dtype, os.path.join(folder, "X"), files=keep)
    y = (spooled_array([None] * len(keep), [lengths[i] for i in keep], (), _label_dtype(encoder),
                       os.path.join(folder, "y"), files=keep) if label is not None else None)
    return X, y, found


def _checked(frame, schema):
    """:func:`~dpboost.tabular_checks.owner_checks` of one partition, or None when it holds a
    value the schema cannot encode (the encoding reports that one, at its line)."""
    from dpboost.tabular import BadValueError
    from dpboost.tabular_checks import owner_checks

    try:
        return owner_checks(frame, schema)
    except (BadValueError, TypeError):
        return None


def _checked_pieces(pieces, columns: list[str], schema):
    return _checked(_read_pieces(pieces, columns), schema)


def _combined(parts, schema):
    """The whole table's checks from its partitions' (None if one could not be checked)."""
    from dpboost.tabular_checks import combine_checks

    return None if any(p is None for p in parts) else combine_checks(parts, schema)
