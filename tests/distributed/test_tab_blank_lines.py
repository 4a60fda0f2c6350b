"""A line of tabs (and spaces) in a tab-separated file, read under ``--workers`` as in memory.

pyarrow (in memory) skips a line of spaces and tabs whose fields are not the table's
(:func:`dpboost.readers._skip_blank_row`); pandas, which parses the blocks of ``--workers``,
read ``\\t`` as a row of empty cells.  Red team, session 28: ``train --workers`` refused such a
file ("The label is missing at line 203", naming the row below it), or said "not as the block
reader read it" when a quote was in the block, and ``predict --workers`` wrote 401 predictions
for 400 rows, every one after the line a row off.  The blocks now go through
:func:`dpboost.pandas_csv.blank_lines_as_newlines` with the table's width.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

SCHEMA = Schema.from_dict({
    "separator": "\t",
    "columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                "b": {"type": "categorical", "categories": ["x", "y", "z"]},
                "note": {"type": "drop"}},
    "label": {"column": "label", "classes": ["no", "yes"]}})


def _file(path, blank: str, quoted: bool) -> str:
    rng = random.Random(1)
    rows = [f"{rng.randint(0, 100)}\t{rng.choice('xyz')}\tplain\t{rng.choice(['yes', 'no'])}"
            for _ in range(400)]
    if quoted:  # the block check's csv-module path
        rows[50] = '3\t"x"\t"p\tl"\tyes'
    path.write_text("a\tb\tnote\tlabel\n" + "\n".join(rows[:200]) + f"\n{blank}\n"
                    + "\n".join(rows[200:]) + "\n")
    return str(path)


def _memory(path, with_labels=True):
    try:
        frame = read_table(path, text_columns=SCHEMA.text_columns, separator="\t")
        enc = TabularEncoder(SCHEMA).fit()
        return enc.transform(frame), (enc.encode_labels(frame["label"]) if with_labels
                                      else None)
    except ValueError as exc:
        return str(exc)


def _blocks(path, with_labels=True):
    import dask

    try:
        with dask.config.set(scheduler="sync"):
            X, y, _ = read_encoded(path, SCHEMA, dtype=np.float64, blocksize=1500,
                                   with_labels=with_labels, spool=False)
            return X.compute(), (y.compute() if with_labels else None)
    except ValueError as exc:
        return str(exc)


@pytest.mark.parametrize("quoted", [False, True])
@pytest.mark.parametrize("blank", ["\t", " \t", "\t\t", "\t \t ", "\t\t\t\t"])
def test_a_line_of_tabs_reads_as_in_memory(tmp_path, blank, quoted):
    path = _file(tmp_path / "t.tsv", blank, quoted)
    for with_labels in (True, False):  # train, and predict (which reads no label)
        memory, blocks = _memory(path, with_labels), _blocks(path, with_labels)
        assert isinstance(memory, str) == isinstance(blocks, str), (memory, blocks)
        if isinstance(memory, str):  # 5 fields: a row of the wrong width, refused alike
            assert blank == "\t\t\t\t" and memory == blocks
            continue
        assert len(blocks[0]) == len(memory[0]) == 400  # 401 under predict --workers before
        np.testing.assert_array_equal(blocks[0], memory[0])
        if with_labels:
            np.testing.assert_array_equal(blocks[1], memory[1])
