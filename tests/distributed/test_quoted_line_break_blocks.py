"""A quoted line break that dask's block reader cuts: refused in one line that says so.

Red team (session 27): dask cuts a CSV at the first ``\\n`` after each block offset, quoted or
not.  A row whose quoted ``note`` held a line break just after a cut was split across two
blocks, and ``train --workers`` refused the file with "a row does not have 5 fields", which no
row had, while its neighbour (a space for that line break) trained; both train in memory.
Reading such a file as one block was tried and undone (round 3: a stray quote then sent a
277 MB file to one worker, out of memory, where its neighbour trained).  The refusal stays
(README: a refusal of bad input is outside the guarantee) and now names its likely cause.
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


def _file(path, where: int, note: str):
    rows = list(ROWS)
    rows[where] = f'sales,40,1000,"first line of a note{" " * 60}{note}second line",yes'
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


def test_a_cut_quoted_line_break_is_refused_naming_its_cause(tmp_path):
    refused = 0
    for where in range(30, 90):
        path = _file(tmp_path / "q.csv", where, "\n")
        Xm, ym = _memory(path)  # memory reads every position
        try:
            X, y = _blocks(path)
        except ValueError as exc:
            refused += 1
            text = str(exc)
            assert "every row has 5 fields" in text and "quoted value" in text
            assert "without --workers" in text and "does not have" not in text
            continue
        np.testing.assert_array_equal(X, Xm)
        np.testing.assert_array_equal(y, ym)
    assert refused == 6  # the positions measured by the red team (1,000-byte blocks)


@pytest.mark.parametrize("where", [30, 61, 89])
def test_the_neighbour_with_a_space_reads_as_in_memory(tmp_path, where):
    path = _file(tmp_path / "s.csv", where, " ")
    X, y = _blocks(path)
    Xm, ym = _memory(path)
    np.testing.assert_array_equal(X, Xm)
    np.testing.assert_array_equal(y, ym)
