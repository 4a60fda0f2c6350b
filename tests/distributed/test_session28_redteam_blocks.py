"""Red team, session 28, on the blocks of ``--workers``: the lines above the header longer than
a block, and which bad row a refusal names when a file holds two.
"""

from __future__ import annotations

import random
import time

import dask
import numpy as np
import pytest

from dpboost.cli._bad_values import file_error
from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

SCHEMA = Schema.from_dict({
    "columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                "b": {"type": "categorical", "categories": ["x", "y", "z"]},
                "note": {"type": "drop"}},
    "label": {"column": "label", "classes": ["no", "yes"]}})


def _rows(n: int) -> list[str]:
    rng = random.Random(0)
    return [f"{rng.randint(0, 100)},{rng.choice('xyz')},p,{rng.choice(['yes', 'no'])}"
            for _ in range(n)]


def _memory(path):
    try:
        frame = read_table(path, text_columns=SCHEMA.text_columns)
        enc = TabularEncoder(SCHEMA).fit()
        return enc.transform(frame), enc.encode_labels(frame["label"])
    except ValueError as exc:
        return str(exc)


def _blocks(path, blocksize):
    try:
        with dask.config.set(scheduler="sync"):
            X, y, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=blocksize,
                                   spool=False)
            return X.compute(), y.compute()
    except ValueError as exc:
        return str(exc)


@pytest.mark.parametrize("above", ["\n" * 3000, "\r\n" * 1500, " \n" * 1200],
                         ids=["lf", "crlf", "spaces"])
def test_lines_above_the_header_longer_than_a_block_stay_above_it(tmp_path, above):
    """The header (line 3001) was read as a data row ("cell at line 3002 is not a number"):
    the first block skipped the lines above the data, and a cut fell among them."""
    path = tmp_path / "d.csv"
    path.write_text(above + "a,b,note,label\n" + "\n".join(_rows(50)) + "\n")
    memory, blocks = _memory(path), _blocks(path, 1000)
    np.testing.assert_array_equal(blocks[0], memory[0])
    np.testing.assert_array_equal(blocks[1], memory[1])


@pytest.mark.parametrize("blocksize", [300, 2000, 100_000])
def test_a_short_row_is_named_before_an_earlier_rows_bad_label_as_in_memory(tmp_path,
                                                                             monkeypatch,
                                                                             blocksize):
    """A label outside the classes at line 7 and a short row at line 3902: memory names the
    short row (the read comes before the encoding); under ``--workers`` each block's encoding
    waited for its own block's check only, so the label came first or not as the cuts fell.
    Session 29: a block still waits for its own check only (waiting for every block's held
    the whole file's partitions in memory), and the refusal's words come from
    :func:`~dpboost.cli._bad_values.file_error`, which scans for a short row first."""
    rows = _rows(4000)
    rows[5] = rows[5].rsplit(",", 1)[0] + ",maybe"
    rows[3900] = "7,x,yes"
    path = tmp_path / "d.csv"
    path.write_text("a,b,note,label\n" + "\n".join(rows) + "\n")
    memory = _memory(path)
    assert isinstance(memory, str) and "line 3902: expected 4 fields" in memory
    from dpboost.cli import _csv_rows

    check = _csv_rows.block_ok

    def slow_check(block, *args):  # the short row's block is checked last, on 2 threads
        if b"7,x,yes" in block:
            time.sleep(0.5)
        return check(block, *args)

    monkeypatch.setattr(_csv_rows, "block_ok", slow_check)
    with dask.config.set(scheduler="threads", num_workers=2):
        try:  # the spool's one pass: each block encoded once its check passed
            X, _, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=blocksize)
            said = None
        except BadValueError as exc:
            said = str(file_error(exc, str(path), SCHEMA))
        except ValueError as exc:
            said = str(exc)
    assert said == memory
