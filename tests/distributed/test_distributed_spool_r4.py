"""Round-4 mutation gaps in dpboost/distributed_spool.py: which chunk file is read."""

from __future__ import annotations

import numpy as np

from dpboost.distributed_spool import _chunk_path, _map, _spooled_chunk


def test_a_chunk_file_of_another_size_is_not_read(tmp_path):
    """A chunk file is mapped only when its size is exactly rows x cols x itemsize (module
    docstring: "if the chunk file exists with the expected size"); a longer file (left by
    another spool or array) must be recomputed from the source, never read in part."""
    d = str(tmp_path / "spool")
    stale = np.arange(12, dtype=np.float64).reshape(6, 2)
    _spooled_chunk(lambda: stale, d, 0, (6, 2), np.dtype(np.float64))
    assert _map(_chunk_path(d, 0), (4, 2), np.dtype(np.float64)) is None
    fresh = np.full((4, 2), -1.0)
    got = _spooled_chunk(lambda: fresh, d, 0, (4, 2), np.dtype(np.float64))
    np.testing.assert_array_equal(got, fresh)


def test_spooled_array_reads_the_declared_file_of_each_chunk(tmp_path):
    """spooled_array's files[i] is the file number of chunk i (docstring): with files=[7, 5]
    the array is file 7's rows then file 5's rows, not files 0 and 1 (a spool read in the
    wrong order would feed the rounds rows against the wrong labels)."""
    from dpboost.distributed_spool import spooled_array

    d = str(tmp_path / "spool")
    a, b = np.full((2, 3), 5.0), np.full((2, 3), 7.0)
    for index, block in ((5, a), (7, b)):
        _spooled_chunk(lambda block=block: block, d, index, (2, 3), np.dtype(np.float64))
    got = spooled_array([None, None], [2, 2], (3,), np.float64, d, files=[7, 5])
    np.testing.assert_array_equal(got.compute(scheduler="sync"), np.vstack([b, a]))


def test_spool_folder_is_private_to_its_owner(tmp_path):
    """The spool is a copy of the encoded private rows on local disk: its folder is created
    with mode 0o700 (module docstring), so no group or other permission bit is set."""
    import os
    import stat

    d = str(tmp_path / "spool")
    old = os.umask(0o022)
    try:
        _spooled_chunk(lambda: np.zeros((2, 2)), d, 0, (2, 2), np.dtype(np.float64))
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(d).st_mode) & 0o077 == 0


def test_a_source_of_the_wrong_shape_is_refused_before_it_is_written(tmp_path):
    """A chunk's shape is public (the declared row lengths): a source returning another shape
    would silently shift every later row against its label; it raises ValueError and no chunk
    file is written."""
    import os

    import pytest

    d = str(tmp_path / "spool")
    with pytest.raises(ValueError, match="expected"):
        _spooled_chunk(lambda: np.zeros((3, 2)), d, 0, (4, 2), np.dtype(np.float64))
    assert not os.path.exists(_chunk_path(d, 0))


def test_has_room_keeps_a_fifth_and_one_gib_free(tmp_path, monkeypatch):
    """The rule (docstring): nbytes fit when free > 1.2 nbytes + 1 GiB."""
    import shutil
    from collections import namedtuple

    from dpboost.distributed_spool import has_room

    usage = namedtuple("usage", "total used free")
    nbytes = 10 << 30
    for free, ok in ((nbytes + 1, False), (int(1.2 * nbytes) + (1 << 30) - 1, False),
                     (int(1.2 * nbytes) + (1 << 30) + 4096, True)):
        monkeypatch.setattr(shutil, "disk_usage", lambda p, f=free: usage(0, 0, f))
        assert has_room(nbytes, str(tmp_path)) is ok
