"""A quoted line break right after a dask block cut no longer decides ``--workers``' outcome.

Red team (session 27): dask cuts a CSV at the first ``\\n`` after each block offset, quoted or
not.  A row whose quoted ``note`` held a line break just after a cut was split across two
blocks, and ``train --workers`` refused the file ("a row does not have 5 fields") while its
neighbour, the same row with a space for that line break, trained, and both trained in
memory: 6 of 60 positions refused with 1,000-byte blocks.  A file holding a ``\\n`` inside
quotes is now read as one block (:func:`dpboost.cli._csv_rows.quoted_line_break`).
"""

from __future__ import annotations

import random

import dask
import numpy as np
import pytest

from dpboost.cli._csv_rows import quoted_line_break
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


def test_every_position_of_a_quoted_line_break_reads_as_in_memory(tmp_path):
    for where in range(30, 90):  # 6 of these positions were refused before
        X, y = _blocks(_file(tmp_path / "q.csv", where, "\n"))
        Xm, ym = _memory(tmp_path / "q.csv")
        np.testing.assert_array_equal(X, Xm)
        np.testing.assert_array_equal(y, ym)
        Xs, _ = _blocks(_file(tmp_path / "s.csv", where, " "))  # the neighbour
        np.testing.assert_array_equal(X, Xs)


@pytest.mark.parametrize("seed", range(40))
def test_the_scan_finds_a_line_break_inside_quotes(tmp_path, seed):
    """Against the csv module's own reading, over random files of quoted cells (no stray
    quotes: a quote starts or ends a quoted value, or is doubled inside one)."""
    import csv
    import io

    rng = random.Random(seed)
    pieces = ["a", "b c", ",", '""', "\n", "\r\n", " "]
    rows = []
    for _ in range(rng.randint(1, 30)):
        cells = []
        for _ in range(3):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            quoted = rng.random() < 0.5 or any(c in text for c in ',"\n\r')
            cells.append('"' + text + '"' if quoted else text)
        rows.append(",".join(cells))
    data = "\n".join(rows) + "\n"
    (tmp_path / "f.csv").write_bytes(data.encode())
    inside = any("\n" in cell for row in csv.reader(io.StringIO(data, newline=""))
                 for cell in row)
    assert quoted_line_break(tmp_path / "f.csv", chunk=rng.choice([1, 3, 64, 1 << 20])) \
        == inside
