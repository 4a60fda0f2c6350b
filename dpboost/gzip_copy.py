"""A gzip CSV's plain copy, so ``--workers`` cuts it into blocks as it cuts a plain CSV.

A gzip stream cannot be cut without decompressing it, so until session 29 ``--workers`` read a
``.csv.gz`` file as one block, decompressed and parsed whole by one worker: a gzip file larger
than a worker's memory could not be trained, where a plain CSV is cut where a record ends
(:func:`dpboost.csv_blocks.record_cuts`) and encoded partition by partition.  :func:`plain_copy`
decompresses the file once, :data:`CHUNK` bytes at a time (bounded memory), into a file of its
own inside a fresh spool folder (:func:`dpboost.distributed_spool.new_spool_directory`, in
``$DPBOOST_SPOOL_DIR`` or the temporary folder, mode ``0o700``: the copy is the private data in
clear, as the encoded spool is), and the block reader reads that copy exactly as it reads a
plain CSV: the same cuts, the same parse, the same checks.

The copy is never named to the user.  It holds the same text as the stream, so a data row's
line is the same line; every message names the user's file and is found by reading the user's
file on the error path (:func:`dpboost.csv_blocks.unclosed_quote_error`,
:func:`dpboost.cli._csv_rows.ragged_row_error`, :func:`dpboost.cli._distributed.file_error`),
or takes its name (``record_cuts(..., name=...)``).  A damaged stream is refused while the copy
is made, in :func:`~dpboost.csv_errors.decode_error`'s one line naming the user's file (before,
a flipped byte ended ``train --workers`` in an internal error, ``zlib.error``, raised by the one
worker reading the block); the partial copy is deleted first.

**Without room on disk** the copy is not made (``None``), and the file is read as before, one
block on one worker: a file that trained before still trains, where a refusal would have broken
it, and a file too large for one worker fails as it failed before.  Room means: the free space
stays above 20% of what is written plus 1 GiB (the spool's own rule,
``dpboost.distributed_spool.has_room``), judged first from the size the gzip trailer states,
then before every chunk is written (the trailer holds the size modulo 4 GiB, of the last
member only).  Also ``None`` when a worker of the current dask client cannot read the copy (a
cluster on other machines, without a shared ``$DPBOOST_SPOOL_DIR``): there the user's file is
read as before.

**Measured** (session 29, 2 workers on 2 shared cores, a 92 MB CSV of 850,000 rows x 13
columns, 35 MB gzip): the copy took 0.30-0.50 s, and replaced the forward pass that looked for
a quote left open at the end (1.2-1.6 s, 566-583 MB peak on the client; now 1 ms read back
from the copy's end, 216 MB peak).  ``read_encoded`` with 16 MB blocks: 7.7-8.5 s before, one
partition, one worker peaking at 698-725 MB and the other idle; 7.2-7.3 s after, 5 partitions,
the workers at 462/406 MB, as the plain twin (405/476 MB).  With the 64 MB default a file under
128 MB is still one partition, plain or gzip.
"""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

__all__ = ["CHUNK", "COPY_NAME", "plain_copy"]

#: Bytes of text decompressed and written at once.  Measured (a 43 MB file, tracemalloc): 1 MiB
#: peaks at 4.3-4.6 MB of Python memory in 0.13-0.17 s, 8 MiB at 25 MB in 0.42-0.49 s (zlib's
#: output buffer grows to 2-3 times a read).
CHUNK = 1 << 20

#: The copy's file name inside its spool folder.
COPY_NAME = "plain-copy.csv"

def plain_copy(path: str | os.PathLike, parent: str | None = None) -> str | None:
    """The spool folder holding the decompressed text of the gzip file ``path`` as
    :data:`COPY_NAME`, or None when there is no room for it on disk or a worker of the current
    dask client cannot read it (the caller then reads ``path`` as one block).

    The caller deletes the folder (the CLI registers it with the spools its cluster deletes
    when it closes).  A damaged stream raises :func:`~dpboost.csv_errors.decode_error`'s
    :class:`ValueError`; nothing is left behind then, nor when the copy is not made.

    Examples
    --------
    >>> import gzip, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "f.csv.gz").write_bytes(gzip.compress(b"a,y\\n1,no\\n"))
    ...     folder = plain_copy(Path(d, "f.csv.gz"), d)
    ...     Path(folder, COPY_NAME).read_bytes(), oct(os.stat(folder).st_mode & 0o777)
    (b'a,y\\n1,no\\n', '0o700')
    """
    from dpboost.distributed_spool import new_spool_directory

    folder = new_spool_directory(parent)
    os.makedirs(folder, mode=0o700)
    copy = os.path.join(folder, COPY_NAME)
    made = False
    try:
        made = (_fits(folder, _stated_size(path)) and _decompress(path, copy, folder)
                and _workers_see(copy, os.path.getsize(copy)))
    finally:
        if not made:  # no room, not seen, or an error: nothing is left behind
            shutil.rmtree(folder, ignore_errors=True)
    return folder if made else None


def _stated_size(path) -> int:
    """The text's size as the gzip trailer states it (modulo 4 GiB, of the last member)."""
    with open(path, "rb") as handle:
        handle.seek(max(0, os.path.getsize(path) - 4))
        tail = handle.read(4)
    return struct.unpack("<I", tail)[0] if len(tail) == 4 else 0


def _fits(folder: str, nbytes: int) -> bool:
    """Whether ``nbytes`` more can be written in ``folder`` (the spool's rule)."""
    from dpboost.distributed_spool import has_room

    return has_room(nbytes, folder)


def _decompress(path, copy: str, folder: str) -> bool:
    """Write the text of the gzip file ``path`` to ``copy``, :data:`CHUNK` bytes at a time;
    False when the disk has no room for a chunk (checked before each, or the write fails)."""
    from dpboost.csv_errors import open_bytes

    out = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                  0o600)
    try:
        with open_bytes(Path(path)) as source:
            buffer = memoryview(bytearray(CHUNK))  # one buffer, refilled
            while size := source.readinto(buffer):  # a damaged stream: decode_error's line
                if not (_fits(folder, size) and _written(out, buffer[:size])):
                    return False
    finally:
        os.close(out)
    return True


def _written(out: int, data) -> bool:
    """Write ``data`` (bytes-like) to the file descriptor ``out``; False when the disk is
    full."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(out, view):]
        except OSError:  # the disk filled up since it was checked
            return False
    return True


def _workers_see(copy: str, size: int) -> bool:
    """Whether every worker of the current dask client (if any) reads ``copy`` at ``size``
    bytes: they read its blocks.  Without a client this process reads them."""
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        return True
    try:
        sizes = client.run(_size_of, copy)
    except Exception:  # noqa: BLE001 (a worker that cannot answer cannot read the copy)
        return False
    return all(found == size for found in sizes.values())


def _size_of(path: str) -> int:
    """The size of ``path`` here, or -1 when it cannot be read (a worker's task)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return -1
