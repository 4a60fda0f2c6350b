"""Wide files: what kept ``dpboost schema`` (and the encoder) from being linear in the columns.

pandas deep-copies a frame's ``attrs`` into every Series it hands out, and the readers kept a
tuple of every column name there, so reading k columns copied k names k times (20,000
columns: minutes).  The names are now a :class:`~dpboost.readers.ColumnNames`, shared by every
Series; and the draft reads each column's distinct texts in plain Python
(``schema_draft._texts``), whose definition the second test checks on random columns.
``benchmarks/bench_schema_wide.py`` measures the time per column.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pandas as pd

from dpboost.readers import ColumnNames, read_table
from dpboost.schema_draft import _texts


def test_column_names_are_shared_not_copied(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("a,b,c,y\n1,x,3,no\n4,y,6,yes\n", encoding="utf-8")
    frame = read_table(path, text_columns=["a", "b", "c", "y"])
    names = frame.attrs["dpboost_typed"]
    assert isinstance(names, ColumnNames) and names == ("a", "b", "c", "y")
    assert copy.deepcopy(names) is names
    for column in frame.columns:  # the same object, not a copy per column
        assert frame[column].attrs["dpboost_typed"] is names


_POOL = ["", " ", "NA", "?", "nan", " NaN ", "12", " 12 ", "012", "1.5", "1,5", "$5", "abc",
         "2021-03-04", None, np.nan, 1, 1.0, True, 2.5, "x y", "\t7\t"]


def test_texts_are_the_distinct_stripped_present_texts():
    """``_texts(s)`` holds exactly the distinct non-empty values of
    ``s.dropna().astype(str).str.strip()`` (its docstring's definition), also where a hash
    merges two cells whose texts differ (``1``, ``1.0`` and ``True`` in one object column)."""
    rng = random.Random(37)
    for _ in range(400):
        cells = [rng.choice(_POOL) for _ in range(rng.randint(1, 12))]
        column = pd.Series(cells, dtype=object)
        expected = column.dropna().astype(str).str.strip()
        expected = set(expected[expected != ""])
        found = _texts(column)
        assert len(found) == len(set(found)) and set(found) == expected, cells
