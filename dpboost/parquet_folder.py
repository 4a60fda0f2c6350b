"""A folder of Parquet files read in memory as one table (``dpboost train data/``).

``train --workers`` reads a folder's top-level ``*.parquet``/``*.pq`` files; without
``--workers`` the same folder said "No such file".  In memory a folder is now read as the
rows of those files, in the order of their sorted paths (as ``--workers`` orders them).  A
folder whose Parquet files all sit in subfolders (a partitioned dataset, ``year=2020/…``) is
read from every Parquet file below it, sorted by path; the values in the folder names
(``year=2020``) are not added as columns, so a schema naming one is refused as naming a
missing column.  Files whose names start with ``_`` or ``.`` (``_SUCCESS``, ``.crc``) are
not read.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["folder_files", "folder_names", "read_folder"]

_SUFFIXES = (".parquet", ".pq")


def _parquet_in(paths) -> list[Path]:
    return sorted(p for p in paths if p.is_file() and p.name.lower().endswith(_SUFFIXES)
                  and not p.name.startswith(("_", ".")))


def folder_files(path: str | os.PathLike) -> list[Path]:
    """The Parquet files a folder is read from: its own, else those of its subfolders."""
    path = Path(path)
    files = _parquet_in(path.iterdir()) or _parquet_in(path.rglob("*"))
    if not files:
        raise ValueError(f"{path} is a folder without Parquet files (*.parquet, *.pq): give "
                         "a CSV or Parquet file, or a folder of Parquet files.")
    return files


def folder_names(path: str | os.PathLike) -> list[str]:
    """The column names of the folder's first file (from its footer: no rows read)."""
    from dpboost.parquet_columns import file_names

    return file_names(folder_files(path)[0])


def read_folder(path: str | os.PathLike, columns=None):
    """The rows of the folder's files as one pandas frame (``columns``: only these).

    Each file must hold every column read (its footer is checked first, so no row is read
    before a missing column is refused, the message naming the file); with ``columns=None``
    every file must have the first file's columns.
    """
    import pandas as pd

    from dpboost.parquet_columns import check_names, file_names, read_columns

    files = folder_files(path)
    first = file_names(files[0])
    for file in files:
        names = file_names(file)
        check_names(file, first if columns is None else list(columns), names)
        if columns is None and names != first:
            raise ValueError(f"{file} has the columns {names[:30]}, and {files[0]} "
                             f"{first[:30]}: every file of the folder needs the same ones.")
    frames = [read_columns(file, columns, pandas_metadata=True) for file in files]
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
