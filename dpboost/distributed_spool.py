r"""A spool: data read and encoded once, then served to every round by the OS page cache.

A fit reads ``X`` twice per round (the margins, then the centre).  Straight from Parquet every
read decodes and re-encodes the files (about 0.05 GB/s on the benchmark machine, issue 12), so
out of core a round cost 15 in-memory rounds.  A spool writes each chunk **once**, on its first
read, as a raw little-endian file of the chunk's rows (``chunk-000042.bin``), and every later
read maps that file (``mmap``): the bytes come straight from the page cache, with no decode and
no copy, so a worker holds a chunk only while one task uses it.

Each chunk is a task ``_spooled_chunk(source, directory, index, shape, dtype)``:

* if the chunk file exists with the expected size, it is mapped read-only and returned;
* otherwise ``source()`` (a picklable callable, e.g. "read these row groups of this Parquet file
  and encode them") recomputes the chunk, which is written to a temporary file and renamed into
  place (atomic: a half-written chunk is never read) and returned.

So a lost or never-written chunk file (a worker that died, a worker on another machine whose
temporary folder does not hold it) is recomputed from the source, and the values are the same:
the source is a deterministic function of the data.  Without a source (a spool made from an
arbitrary dask array by :func:`spool_dask_array`) a lost file raises :class:`SpoolLostError`, a
:class:`~dpboost.distributed.DistributedFitError`: the fit fails with one clear error before the
round's noise is drawn, and no model is produced.

Privacy is untouched: the spool holds exactly the values the source returns, so the rounds see
the same ``X``.  The spool is a copy of the (encoded) private data on the workers' local disks,
as a swap file would be: :func:`remove_spool` deletes it (the CLI does so when its cluster
closes, :func:`spooled` at the end of its ``with`` block), and the chunk folders are created
with mode ``0o700``.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from dpboost.distributed import DistributedFitError

__all__ = ["SpoolLostError", "has_room", "new_spool_directory", "remove_spool", "sigterm_exits",
           "spool_dask_array", "spooled", "spooled_array"]


class SpoolLostError(DistributedFitError):
    """A spooled chunk file is missing and the spool has no source to recompute it from."""


def new_spool_directory(parent: str | None = None) -> str:
    """A fresh folder name for a spool (created on first write, by whichever process writes)."""
    parent = parent or tempfile.gettempdir()
    return os.path.join(parent, f"dpboost-spool-{uuid.uuid4().hex}")


def _chunk_path(directory: str, index: int) -> str:
    return os.path.join(directory, f"chunk-{index:06d}.bin")


def _map(path: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The chunk file mapped read-only, or ``None`` if it is missing or of the wrong size."""
    nbytes = int(np.prod(shape)) * dtype.itemsize
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        if os.fstat(fd).st_size != nbytes:
            return None
        if nbytes == 0:
            return np.empty(shape, dtype=dtype)
        if not hasattr(mmap, "MAP_SHARED"):  # Windows: read (a copy) instead of mapping
            with os.fdopen(os.dup(fd), "rb") as f:
                return np.fromfile(f, dtype=dtype).reshape(shape)
        buf = mmap.mmap(fd, nbytes, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0),
                        prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)  # read-only; keeps buf alive


def _write_atomic(path: str, block: np.ndarray) -> None:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        block.tofile(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _spooled_chunk(source: Callable[[], np.ndarray] | None, directory: str, index: int,
                   shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Chunk ``index``: mapped from its file, or recomputed from ``source`` and written once."""
    path = _chunk_path(directory, index)
    block = _map(path, shape, dtype)
    if block is not None:
        return block
    if source is None:
        raise SpoolLostError(f"The spooled chunk {path} is missing (a worker's temporary "
                             "folder was lost?) and this spool cannot recompute it. No model "
                             "was produced and no noise was drawn for this round.")
    block = np.ascontiguousarray(source(), dtype=dtype)
    if block.shape != tuple(shape):
        raise ValueError(f"The source of spooled chunk {index} returned shape {block.shape}; "
                         f"expected {tuple(shape)}.")
    _write_atomic(path, block)
    return block


def _block(sources, directory: str, dtype: np.dtype, chunks: tuple[tuple[int, ...], ...],
           files, block_id=None) -> np.ndarray:
    i = block_id[0]
    shape = (chunks[0][i],) + tuple(c[0] for c in chunks[1:])
    return _spooled_chunk(sources[i], directory, files[i] if files else i, shape, dtype)


def spooled_array(sources: Sequence[Callable[[], np.ndarray] | None], lengths: Sequence[int],
                  trailing: tuple[int, ...], dtype, directory: str,
                  files: Sequence[int] | None = None):
    """A row-chunked dask array whose chunk ``i`` is ``sources[i]()``, spooled (module docstring).

    Parameters
    ----------
    sources : sequence of callables (or ``None``)
        ``sources[i]()`` returns chunk ``i`` (``lengths[i]`` rows); picklable (it runs on the
        workers).  ``None``: the chunk file must already exist (:func:`spool_dask_array`).
    lengths : sequence of int
        Rows per chunk (public).
    trailing : tuple of int
        The shape after the rows: ``(d,)`` for a matrix, ``()`` for a vector.
    dtype : numpy dtype
    directory : str
        The spool folder (:func:`new_spool_directory`); the same path on every worker.
    files : sequence of int, optional
        The file number of each chunk (default: its position).
    """
    import dask.array as da

    dtype = np.dtype(dtype)
    chunks = (tuple(int(m) for m in lengths),) + tuple((int(t),) for t in trailing)
    files = None if files is None else tuple(int(f) for f in files)
    return da.map_blocks(_block, tuple(sources), directory, dtype, chunks, files, chunks=chunks,
                         dtype=dtype, meta=np.empty((0,) * len(chunks), dtype=dtype))


def _write_block(block: np.ndarray, directory: str, block_id=None) -> np.ndarray:
    _write_atomic(_chunk_path(directory, block_id[0]), np.ascontiguousarray(block))
    return np.zeros((1,) * block.ndim, dtype=np.int8)


def spool_dask_array(X, directory: str):
    """Spool any row-chunked dask array: one pass writes every chunk; later reads are mapped.

    Without a source a lost chunk file raises :class:`SpoolLostError` (one clear error).
    A chunk file holds whole rows, so an ``X`` chunked along its columns too is first joined
    into whole rows (before, dask failed with "Dimension 1 has 3 blocks, adjust_chunks
    specified with 1 blocks"; the fit on the same array unspooled took it).
    """
    from dpboost.distributed import gather

    if any(len(c) > 1 for c in X.chunks[1:]):
        X = X.rechunk({axis: -1 for axis in range(1, X.ndim)})
    marks = X.map_blocks(_write_block, directory,
                         chunks=((1,) * X.numblocks[0],) + ((1,),) * (X.ndim - 1),
                         dtype=np.int8)
    gather(marks.sum())
    return spooled_array([None] * X.numblocks[0], X.chunks[0], X.shape[1:], X.dtype, directory)


def has_room(nbytes: int, folder: str | None = None) -> bool:
    """Whether ``nbytes`` more fit on the disk of ``folder`` (its nearest existing parent: the
    folder is made on the first write; the temporary folder when None), leaving 20% of them
    and 1 GiB free: the spool's rule, shared by a gzip file's plain copy
    (:mod:`dpboost.gzip_copy`)."""
    where = os.path.abspath(folder or tempfile.gettempdir())
    while not os.path.exists(where) and os.path.dirname(where) != where:
        where = os.path.dirname(where)
    try:
        return shutil.disk_usage(where).free > 1.2 * nbytes + (1 << 30)
    except OSError:
        return False


def sigterm_exits():
    """Make SIGTERM exit through the cluster's cleanup (status 143); returns the undo.

    SIGTERM is what ``timeout``, ``docker stop``, systemd and batch schedulers send, and its
    default kills the process at once: the spool (the encoded private rows) and a gzip file's
    plain copy (the private text in clear) outlived the command (red team, session 29).
    Raising ``SystemExit`` from the handler unwinds as Ctrl-C does, through every ``finally``.
    Only the main thread can set a handler; elsewhere nothing changes.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    return lambda: signal.signal(signal.SIGTERM, before)


def remove_spool(directory: str) -> None:
    """Delete the spool folder here and on every worker of the current dask client (if any)."""
    shutil.rmtree(directory, ignore_errors=True)
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        return
    with contextlib.suppress(Exception):  # workers already gone: nothing left to delete
        client.run(shutil.rmtree, directory, True)


@contextlib.contextmanager
def spooled(X, directory: str | None = None) -> Iterator[object]:
    """``with spooled(X) as Xs: est.fit(Xs, y)``: ``X`` spooled for the block, deleted after.

    Examples
    --------
    >>> import dask.array as da
    >>> with spooled(da.ones((5, 2), chunks=(2, 2))) as Xs:
    ...     float(Xs.sum().compute(scheduler="sync"))
    10.0
    """
    directory = directory or new_spool_directory()
    try:
        yield spool_dask_array(X, directory)
    finally:
        remove_spool(directory)
