"""A row with an empty first field after a blank line ending in a lone ``\\r`` (session 26).

pandas' C parser read ``\\r,1,0`` (a blank line ``\\r``, then a row whose first field is empty)
as ``1,0,<missing>``: its cells one column left.  pyarrow read it right.  In memory, a comma
file goes through pandas when ANY row holds ``5, "0"`` (:func:`dpboost.pandas_csv.read_spaced`),
so one row decided whether 150 others were relabelled; under ``--workers`` pandas reads every
block.  Now the in-memory pandas readers never see such a blank line
(:func:`~dpboost.pandas_csv.blank_lines_as_newlines`).  Under ``--workers`` the block check
refused the row, naming its record line, until session 28, when the blocks began to be read
through the same rewriting (:func:`dpboost.csv_blocks.parse_block`): read as in memory.
"""

from __future__ import annotations

import csv
import io
import json
import random

import numpy as np
import pytest

from dpboost.csv_blocks import parse_block
from dpboost.pandas_csv import BLANK, read_spaced, read_whitespace
from dpboost.readers import read_table
from dpboost.record_lines import numbered_records

SCHEMA = {"columns": {"x1": {"type": "numeric", "lower": 0, "upper": 10},
                      "x2": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": [0, 1]}}
#: The label in the middle, as in the red-team files: a row read one column left takes x2's
#: value for its label, and may be relabelled without a word.
NAMES = ["x1", "y", "x2"]

#: Cells, line ends and blank lines of the random files (numeric cells for x1 and x2).
CELLS = ["", "1", " 0", '"3"', '""', "1 ", "\t0"]
ENDS = ["\n", "\r\n", "\r"]
BLANKS = ["", " ", "\t"]


def _random_rows(rng: random.Random, n: int, sep: str = ",") -> str:
    """``n`` records (rows of three fields, the label second and never empty, blank lines),
    each ended by one of :data:`ENDS` (a blank line mostly by a lone ``\r``, a first cell
    mostly empty: the misread layout)."""
    parts = []
    for _ in range(n):
        if rng.random() < 0.35:
            parts.append(rng.choice(BLANKS) + rng.choice([*ENDS, "\r", "\r"]))
        else:
            cells = [rng.choice([*CELLS, "", ""]), rng.choice(["0", "1", '"1"']),
                     rng.choice(CELLS)]
            parts.append(sep.join(cells) + rng.choice(ENDS))
    return "".join(parts)


def _shifted_rows(lines, delimiter: str):
    """The record lines of the rows that start with ``delimiter`` right after a blank line
    (spaces and tabs) ending in a lone ``\\r``: the layout pandas' C parser reads one column
    left (``\\r,1,0`` as ``1,0,<missing>``)."""
    after_return = False
    for number, _, text, fields in numbered_records(lines, delimiter):
        if after_return and text.startswith(delimiter):
            yield number
        after_return = len(fields) <= 1 and not text.strip(BLANK) and text.endswith("\r")


def _reference(text: str, sep: str, spaced: bool) -> list[list[str]]:
    """The rows below the header as the csv module reads them (lines cut at ``\\n``, ``\\r\\n``
    and a lone ``\\r``), blank lines skipped, cells stripped: an independent reader."""
    body = io.StringIO(text, newline="")
    body.readline()
    return [[c.strip() for c in r]
            for r in csv.reader(body, delimiter=sep, skipinitialspace=spaced)
            if not (len(r) <= 1 and not (r and r[0].strip(" \t\r\n")))]


def _cells(frame) -> list[list[str]]:
    return [["" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v).strip()
             for v in row] for row in frame.astype(object).values.tolist()]


def _write(path, text: str):
    with open(path, "w", newline="") as handle:
        handle.write(text)
    return path


def test_one_spaced_quote_elsewhere_no_longer_shifts_150_rows(tmp_path):
    """The red-team pair: 150 rows ``\\r,1,0`` and 150 rows ``5,0,5`` under ``x1,y,x2``; the
    neighbour's last row is ``5, "0",5`` (the same values), which sends the whole file through
    pandas.  Before, that file's 150 rows read ``x1 = 1, y = 0, x2 = <missing>``: relabelled."""
    rows = "".join("\r,1,0\n" if i % 2 == 0 else "5,0,5\n" for i in range(300))
    a = _write(tmp_path / "a.csv", "x1,y,x2\n" + rows)
    b = _write(tmp_path / "b.csv", "x1,y,x2\n" + rows[:-len("5,0,5\n")] + '5, "0",5\n')
    read_a, read_b = (read_table(p, text_columns=NAMES) for p in (a, b))
    assert _cells(read_a) == _cells(read_b)
    assert _cells(read_a)[:2] == [["", "1", "0"], ["5", "0", "5"]]


def test_both_in_memory_readers_read_what_the_csv_module_reads(tmp_path):
    """Over 400 random files (lone ``\\r``, ``\\r\\n`` and ``\\n`` ends, blank lines of spaces
    and tabs, empty first fields, quoted values, comma or semicolon): pyarrow (through
    :func:`read_table`) and :func:`read_spaced` give the rows of the csv module.  Before,
    ``read_spaced`` disagreed on 58 of these 359 files (each one holding a row
    :func:`_shifted_rows` finds), pyarrow on none."""
    rng = random.Random(2026)
    shifted = 0
    for case in range(400):
        sep = rng.choice([",", ";"])
        text = sep.join(NAMES) + "\n" + _random_rows(rng, rng.randint(1, 7), sep)
        path = _write(tmp_path / f"f{case}.csv", text)
        expected = _reference(text, sep, spaced=False)
        if not expected:
            continue
        shifted += bool(list(_shifted_rows(io.StringIO(text, newline=""), sep)))
        assert _cells(read_table(path, text_columns=NAMES)) == expected, repr(text)
        spaced = read_spaced(path, NAMES, 1, sep, None, [""], NAMES)
        assert _cells(spaced) == _reference(text, sep, spaced=True), repr(text)
    assert shifted >= 20  # the misread layout is exercised


def test_the_whitespace_reader_reads_blank_lines_ending_in_a_lone_return_as_blank(tmp_path):
    """Whitespace-separated text: blank lines ``\\r`` read as blank lines ``\\n`` (no misread
    was found there; the pandas reader sees neither)."""
    rows = "\r 7 1 2\n\t\r\r3 0 4\r\n \r"
    one = read_whitespace(_write(tmp_path / "r.txt", "x1 x2 y\n" + rows), NAMES, 1, None,
                          [""], NAMES)
    other = read_whitespace(_write(tmp_path / "n.txt", "x1 x2 y\n" + rows.replace("\r", "\n")),
                            NAMES, 1, None, [""], NAMES)
    assert _cells(one) == _cells(other) == [["7", "1", "2"], ["3", "0", "4"]]


@pytest.mark.parametrize("block", [
    b"\r,1,0\n",
    b"5,0,5\n \r\t\r,1,0\r\n",  # blank lines of spaces and tabs, a chain of them
    b"5,0,5\r\r,1,0\n",  # a row's lone \r, then a blank line \r
    b"\r\n,1,0\n",  # the blank line ends in \r\n
    b"5,0,5\r,1,0\n",  # the \r ends a row, not a blank line
    b'5,"a\r\r",0\n,1,0\n',  # a \r inside a quoted value
    b"\r1,1,0\n",  # the row does not start with the separator
])
def test_the_block_reader_reads_a_row_after_a_lone_return_blank_line_as_memory(block):
    """pandas alone reads ``\\r,1,0`` one column left; the block reader (refused the first
    three layouts before session 28) reads the csv module's rows, as memory does."""
    kwargs = dict(dtype=str, keep_default_na=False, header=None, names=NAMES, sep=",",
                  skip_blank_lines=True)
    text = block.decode()
    assert _cells(parse_block(block, kwargs, 0, ",")) == _reference("\n" + text, ",", False)


def test_workers_read_the_rows_memory_reads(tmp_path):
    """30 random files read by the block reader of ``--workers`` in blocks of 60 bytes: the
    X and y of the in-memory reader.  Before session 26, 4 of them trained on rows read
    shifted (other X and y than in memory), 12 were refused for the cells the shift moved
    ("The label is missing at line N", a label not declared) where memory trains; until
    session 28 the files holding the layout (:func:`_shifted_rows`) were refused."""
    dask = pytest.importorskip("dask")
    from dpboost.cli._distributed import read_encoded
    from dpboost.tabular import TabularEncoder

    rng = random.Random(261)
    outcomes = {"plain": 0, "layout": 0}
    for case in range(30):
        text = "x1,y,x2\n" + _random_rows(rng, 12) + "5,0,5\n"
        path = _write(tmp_path / f"w{case}.csv", text)
        frame = read_table(path, text_columns=["y"])
        encoder = TabularEncoder(SCHEMA).fit(frame)
        memory = encoder.transform(frame).astype(np.float32), encoder.encode_labels(frame["y"])
        first = next(_shifted_rows(io.StringIO(text, newline=""), ","), None)
        with dask.config.set(scheduler="synchronous"):
            X, y, _ = read_encoded(str(path), SCHEMA, blocksize=60, spool=False)
            workers = X.compute(), y.compute()
        np.testing.assert_array_equal(workers[0], memory[0])
        np.testing.assert_array_equal(workers[1], memory[1])
        outcomes["plain" if first is None else "layout"] += 1
    assert min(outcomes.values()) >= 5, outcomes


@pytest.mark.slow
@pytest.mark.parametrize("header, rows, last, line", [
    ("x1,y,x2", "".join("\r,1,0\n" if i % 2 == 0 else "5,0,5\n" for i in range(299)),
     '5, "0",5\n', 3),
    ("x1,x2,y", "1,2,0\n\r,3,1\n4,5,1\n", '6, "7",0\n', 4),
])
def test_train_pairs_agree_in_memory_and_under_workers(tmp_path, capsys, header, rows, last,
                                                       line):
    """The red-team pairs through ``train``: the neighbour whose last row holds a spaced quote
    trains the same model in memory, and both train it under ``--workers``.  Before: one
    trained, the other was refused naming another row, or both trained on shifted rows; until
    session 28 both were refused under ``--workers``, naming the first shifted row (line
    ``line``), or the spaced quote."""
    from dpboost.cli import main

    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(SCHEMA))
    models = []
    for k, tail in enumerate([last.replace(' "', "").replace('"', ""), last]):
        path = _write(tmp_path / f"d{k}.csv", header + "\n" + rows + tail)
        for workers in ([], ["--workers", "1"]):
            model = tmp_path / f"m{k}{len(workers)}.json"
            code = main(["train", str(path), "--schema", str(spec), "--target-epsilon", "1",
                         "--target-delta", "1e-6", "--seed", "0", "--out", str(model),
                         *workers])
            err = [t for t in capsys.readouterr().err.splitlines() if "error" in t]
            assert code == 0, err
            fitted = json.loads(model.read_text())
            models.append((fitted["coef"], fitted["intercept"]))
    assert models[0] == models[1] == models[2] == models[3]
