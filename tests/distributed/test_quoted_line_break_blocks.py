"""A quoted line break where a block of ``--workers`` would start: read as in memory.

Red team (session 27): dask cut a CSV at the first ``\\n`` after each block offset, quoted or
not.  A row whose quoted ``note`` held a line break just after a cut was split across two
blocks, and ``train --workers`` refused the file ("a row does not have 5 fields", which no row
had), while its neighbour (a space for that line break) trained; both train in memory: 6 of
these 60 positions were refused with 1,000-byte blocks.  Reading such a file as one block was
tried and undone (a stray quote then sent a 277 MB file to one worker, out of memory).  Session
28: the blocks are cut where a record ends (:mod:`dpboost.csv_blocks`), so every position
reads as in memory, with stray quotes in the file too, and the file is still cut in blocks.
"""

from __future__ import annotations

import dask
import numpy as np
import pytest

from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

SCHEMA = Schema.from_dict({
    "columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                "income": {"type": "numeric", "lower": 0, "upper": 1e7, "transform": "log"},
                "job": {"type": "categorical", "categories": ["clerk", "sales", "engineer"]},
                "note": {"type": "drop"}},
    "label": {"column": "label", "classes": ["no", "yes"]}})
ROWS = [f"clerk,{30 + i % 40},{1000 + i},plain note {i},{['no', 'yes'][i % 2]}"
        for i in range(300)]


def _file(path, where: int, note: str, stray: bool = False):
    rows = list(ROWS)
    rows[where] = f'sales,40,1000,"first line of a note{" " * 60}{note}second line",yes'
    if stray:  # quotes that open nothing (not at a field's start) in the rows around it
        for k in range(0, 300, 7):
            rows[k] = rows[k].replace("plain note", '5\'11" plain note')
    path.write_text("job,age,income,note,label\n" + "\n".join(rows) + "\n")
    return path


def _blocks(path):
    with dask.config.set(scheduler="sync"):
        X, y, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=1000)
        return X.compute(), y.compute()


def _memory(path):
    frame = read_table(path, text_columns=SCHEMA.text_columns)
    enc = TabularEncoder(SCHEMA).fit()
    return enc.transform(frame), enc.encode_labels(frame["label"])


@pytest.mark.parametrize("stray", [False, True])
def test_a_quoted_line_break_at_every_position_reads_as_in_memory(tmp_path, stray):
    for where in range(30, 90):
        path = _file(tmp_path / "q.csv", where, "\n", stray)
        X, y = _blocks(path)  # was refused at 6 of these 60 positions
        Xm, ym = _memory(path)
        np.testing.assert_array_equal(X, Xm)
        np.testing.assert_array_equal(y, ym)


def test_the_file_is_still_cut_into_blocks(tmp_path):
    path = _file(tmp_path / "q.csv", 61, "\n", True)
    with dask.config.set(scheduler="sync"):
        X, _, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=1000)
    assert len(X.chunks[0]) > 1 and sum(X.chunks[0]) == 300  # not one block (session 27)
@pytest.mark.parametrize("where", [30, 61, 89])
def test_the_neighbour_with_a_space_reads_as_in_memory(tmp_path, where):
    path = _file(tmp_path / "s.csv", where, " ")
    X, y = _blocks(path)
    Xm, ym = _memory(path)
    np.testing.assert_array_equal(X, Xm)
    np.testing.assert_array_equal(y, ym)
