"""A lone carriage return in the data rows, read under ``--workers`` as in memory (session 26).

The in-memory readers end a line at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (Python's universal
newlines, pyarrow), and so does pandas' C parser inside a dask block; the block check of
``--workers`` (:func:`dpboost.cli._csv_rows.block_ok`) cut lines at ``\\n`` only.  So
``1,2,yes\\r3,4,no`` was "a row does not have 3 fields" under ``--workers`` (or, with a quote in
the block, an internal error from the csv module) while memory trained both rows; and a row cut
short by a ``\\r`` (``1,2\\r,yes``), which memory refuses naming its line, was not seen as short.
Now the check cuts lines as both readers do: the same rows, or the same one-line refusal.
"""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from dpboost.cli._csv_rows import ShortRowError, block_ok
from dpboost.readers import read_table
from dpboost.tabular import TabularEncoder

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10},
                      "c": {"type": "categorical", "categories": ["x y", "z"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


#: The cells of column c: quoted (the csv module's path of the block check) and not.
CELLS = ["z", '"x y"', '"z"']


def _rows(rng: random.Random, n: int) -> list[str]:
    return [f"{rng.randint(0, 10)},{rng.choice(CELLS)},{rng.choice(['no', 'yes'])}"
            for _ in range(n)]


def _with_returns(rng: random.Random, data: str) -> str:
    """``data`` (the rows below the header) with 1 to 3 lone ``\\r`` put in: anywhere, in
    place of a row's ``\\n``, as a blank line, inside a quoted value, or ending the file."""
    for _ in range(rng.randint(1, 3)):
        mode = rng.choice(["anywhere", "newline", "newline", "blank", "quote", "end"])
        if mode == "anywhere":
            k = rng.randint(0, len(data))
        elif mode == "newline":
            ends = [i for i, ch in enumerate(data) if ch == "\n" and data[i - 1:i] != "\r"]
            if not ends:
                continue
            k = rng.choice(ends)
            data = data[:k] + data[k + 1:]
        elif mode == "blank":  # after a line's end, or at the start
            k = rng.choice([0] + [i + 1 for i, ch in enumerate(data) if ch == "\n"])
        elif mode == "quote":
            quotes = [i + 2 for i in range(len(data)) if data.startswith('"x y"', i)]
            if not quotes:
                continue
            k = rng.choice(quotes)
        else:
            k = len(data)
        data = data[:k] + "\r" + data[k:]
    return data


def _in_memory(path):
    """``(X, y)`` of the in-memory reader, or its error (one line)."""
    try:
        frame = read_table(path, text_columns=["c", "y"])
    except ValueError as exc:
        return str(exc)
    ref = TabularEncoder(SCHEMA).fit(frame)
    return ref.transform(frame).astype(np.float32), ref.encode_labels(frame["y"])


def _lines_and_fields(text: str) -> bool:
    """Whether a non-blank record of ``text`` has other than 3 fields, lines cut as the
    in-memory reader cuts them (the csv module over universal newlines)."""
    import csv

    return any(len(r) != 3 and (len(r) > 1 or (r and r[0].strip()))
               for r in csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("block, short", [
    (b"1,2,yes\r3,4,no\n", False),  # between two rows: two rows of 3
    (b'1,"2\r5",yes\r3,4,no\n', False),  # inside a quoted value: kept; the quoted path
    (b"1,2,yes\n3,4,no\r", False),  # ending the file
    (b"1,2,yes\r\r\n\r3,4,no\r\r", False),  # blank lines
    (b"1,2\r,yes\n", True),  # a row cut short
    (b'1,"2",yes\n3,4\rno\n', True),  # the quoted path
    (b"1,2,yes\r3,4\r", True),
])
def test_the_block_check_cuts_lines_at_a_lone_carriage_return(block, short):
    if short:
        with pytest.raises(ShortRowError):
            block_ok(block, ",", 3, 0)
    else:
        assert block_ok(block, ",", 3, 0)


def test_the_block_check_refuses_exactly_what_universal_newlines_refuse():
    """Over random blocks with lone ``\\r`` anywhere (quoted or not, header skipped or not):
    the block check refuses a block iff a record of it, lines cut as Python cuts them, has
    other than 3 fields.  Before: 2,047 of 3,000 blocks disagreed (1,962 csv.Error tracebacks,
    the blocks with a quote; 38 refused with every record of 3 fields; 47 short records
    passed, to be trained as missing values)."""
    rng = random.Random(26)
    refused = 0
    for _ in range(3000):
        rows = _rows(rng, rng.randint(1, 6))
        text = _with_returns(rng, "\n".join(rows) + rng.choice(["", "\n", "\r\n"]))
        try:
            ok = block_ok(("a,c,y\n" + text).encode(), ",", 3, 1)
        except ShortRowError:
            ok = False
        assert ok is not _lines_and_fields(text), repr(text)
        refused += not ok
    assert 300 < refused < 2700  # both outcomes are exercised


def test_random_lone_carriage_returns_read_as_in_memory_in_blocks(tmp_path):
    """40 files of 60 rows with lone ``\\r`` at random, read by the block reader of
    ``--workers`` in blocks of 120 bytes: the same X and y as in memory, or the same one-line
    error naming the same line."""
    dask = pytest.importorskip("dask")
    from dpboost.cli._distributed import read_encoded

    rng = random.Random(260)
    outcomes = {"rows": 0, "refused": 0}
    for case in range(40):
        text = "a,c,y\n" + _with_returns(rng, "\n".join(_rows(rng, 60)) + "\n")
        path = tmp_path / f"d{case}.csv"
        path.write_bytes(text.encode())
        memory = _in_memory(path)
        try:
            with dask.config.set(scheduler="synchronous"):
                X, y, _ = read_encoded(str(path), SCHEMA, blocksize=120, spool=False)
                assert X.numblocks[0] > 1
                workers = X.compute(), y.compute()
        except ValueError as exc:
            workers = str(exc)
        if isinstance(memory, str):
            assert workers == memory, (repr(text), memory)
            assert "\n" not in memory and ", line " in memory
            outcomes["refused"] += 1
        else:
            assert not isinstance(workers, str), (repr(text), workers)
            np.testing.assert_array_equal(workers[0], memory[0])
            np.testing.assert_array_equal(workers[1], memory[1])
            outcomes["rows"] += 1
    assert min(outcomes.values()) >= 5, outcomes


@pytest.mark.slow
@pytest.mark.parametrize("data, rows", [
    ("1,z,yes\r3,z,no\n5,\"x y\",yes\n", 3),  # between two rows
    ("1,\"x\ry\",yes\n3,z,no\n5,z,yes\r", 3),  # inside a quoted value, ending the file
    ("1,z,yes\n\r3,z,no\r\r\n5,z,yes\n", 3),  # blank lines of a lone \r
    ("1,z\r,yes\n3,z,no\n5,z,yes\n", None),  # a row cut short: refused, naming line 2
])
def test_train_reads_the_same_rows_with_and_without_workers(tmp_path, capsys, data, rows):
    from dpboost.cli import main

    path, spec = tmp_path / "d.csv", tmp_path / "s.json"
    path.write_bytes(("a,c,y\n" + data).encode())
    spec.write_text(json.dumps(SCHEMA))
    said = []
    for workers in ([], ["--workers", "2"]):
        model = tmp_path / f"m{len(said)}.json"
        code = main(["train", str(path), "--schema", str(spec), "--target-epsilon", "1",
                     "--target-delta", "1e-6", "--seed", "1", "--out", str(model), *workers])
        err = capsys.readouterr().err
        said.append(json.loads(model.read_text())["privacy_report"]["n_samples"]
                    if code == 0 else [line for line in err.splitlines() if "error" in line])
    assert said[0] == said[1]
    if rows is None:
        assert len(said[0]) == 1 and "d.csv, line 2: expected 3 fields" in said[0][0]
    else:
        assert said[0] == rows
