"""Atomic file output: a reader never sees a half-written file, and a failure leaves none."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write_bytes", "atomic_write_text", "check_writable"]


def _new_file_mode(target: Path) -> int:
    """The mode ``open(target, "w")`` would give: the existing file's, else 0666 less umask."""
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def check_writable(path: str | os.PathLike, *, what: str = "", inputs=()) -> None:
    """Refuse, in one line, an output path that :func:`atomic_write_bytes` could not write.

    Called before any work (and before any privacy budget is spent): the folder must exist
    and take a new file (proved by creating and removing one), and ``path`` must not be a
    folder.  Nothing is left behind.

    ``what`` prefixes the path in messages (e.g. ``"--out"``).  ``inputs`` are the files the
    command reads (``(flag, path)`` pairs): writing over one of them would lose it, so that is
    refused too.

    Raises
    ------
    OSError
        Naming ``what`` and ``path``, never a temporary file.

    Examples
    --------
    >>> check_writable("/no/such/folder/model.json", what="--out")
    Traceback (most recent call last):
    ...
    FileNotFoundError: --out /no/such/folder/model.json: folder /no/such/folder does not exist.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    name = f"{what} {path}".strip()
    if target.is_dir():
        raise IsADirectoryError(f"{name} is a folder; give a file name inside it.")
    for flag, source in inputs:
        if (source is not None and target.exists() and os.path.exists(source)  # a glob
                and os.path.samefile(target, source)):
            raise FileExistsError(f"{name} is the {flag} file {source}; writing there would "
                                  "replace it. Give another path.")
    if not folder.is_dir():
        raise FileNotFoundError(f"{name}: folder {folder} does not exist"
                                + (" (it is a file)." if folder.exists() else "."))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise type(exc)(f"{name}: cannot write a file in folder {folder} "
                        f"({exc.strerror or exc}).") from None
    os.close(fd)
    os.unlink(tmp)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder, fsync, rename.

    If anything fails, the temporary file is removed and ``path`` is untouched; the error
    names ``path`` (see :func:`check_writable`), never the temporary file.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    check_writable(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, _new_file_mode(target))  # mkstemp makes 0600; give what open() would
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Text version of :func:`atomic_write_bytes` (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"))
