"""Session 25: a lone carriage return above the data made the readers skip a data row.

A file starting ``\\r\\r\\n`` (or ``\\r`` before its header) trained 199 of 200 rows, silently,
in memory for whitespace-separated files and files with spaces before quoted values (pandas'
``skiprows`` runs a skipped line that starts with a lone ``\\r`` on to the next line end) and
under ``--workers`` for every file.  Lines are now cut by one rule (``\\n``, ``\\r\\n`` or a lone
``\\r``) wherever the lines above the data are skipped in memory; ``--workers`` refused a lone
``\\r`` ending a line above the data, naming it, until session 28, when its block reader began
to skip those lines by the same rule (:func:`dpboost.csv_blocks.after_lines`).
"""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.readers import csv_layout, line_of, read_table
from dpboost.tabular import TabularEncoder

SCHEMA = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 9},
                      "c": {"type": "categorical", "categories": ["a", "b"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}
HEADERLESS = {**SCHEMA, "names": ["x", "c", "y"]}
N = 200

#: Lines a file may hold above its header or first data row (blank, by every reader).
BLANKS = ["\r", "\n", "\r\n", "  \n", " \r", "\t\r\n", "\r\r\n", " \t \n"]


def _rows(layout: str, n: int = N) -> list[str]:
    """``n`` data rows in one of three layouts, each read by another reader in memory:
    pyarrow (``comma``), pandas' whitespace reader (``space``), pandas with spaces before
    quoted values (``spaced``)."""
    out = []
    for i in range(n):
        cells = [str(i % 10), "ab"[i % 2], "no" if i % 3 else "yes"]
        out.append(" ".join(cells) if layout == "space" else
                   f'{cells[0]}, "{cells[1]}", "{cells[2]}"' if layout == "spaced" else
                   ",".join(cells))
    return out


def _header(layout: str) -> str:
    return "x c y" if layout == "space" else "x,c,y"


def _text(layout: str, prefix: str, header: bool, rows=None) -> str:
    rows = _rows(layout) if rows is None else rows
    return prefix + (_header(layout) + "\n" if header else "") + "\n".join(rows) + "\n"


def _expected(layout: str) -> list[list[str]]:
    return [[str(i % 10), "ab"[i % 2], "no" if i % 3 else "yes"] for i in range(N)]


def _cells(frame) -> list[list[str]]:
    return [[str(v) for v in row] for row in frame[["x", "c", "y"]].itertuples(index=False)]


@pytest.mark.parametrize("layout", ["comma", "space", "spaced"])
@pytest.mark.parametrize("header", [True, False])
@pytest.mark.parametrize("prefix", ["\r\r\n", "\r", "\r\n\r", "\r\r", " \r\r\n", "\n\r\n"])
def test_every_in_memory_reader_reads_every_row_below_blank_lines(tmp_path, layout, header,
                                                                  prefix):
    path = tmp_path / "d.csv"
    path.write_bytes(_text(layout, prefix, header).encode())
    frame = read_table(path, names=None if header else ["x", "c", "y"],
                       text_columns=["x", "c", "y"])
    assert len(frame) == N  # 199 for space/spaced before
    assert _cells(frame) == _expected(layout)


@pytest.mark.parametrize("layout", ["comma", "space", "spaced"])
def test_random_blank_lines_above_the_data_never_change_the_rows(tmp_path, layout):
    """Random runs of blank lines (lone ``\\r`` among them) above the header, below it, and
    above a headerless file's first row: the rows read are always the 200 written."""
    rng = random.Random(25)
    for case in range(40):
        above = "".join(rng.choice(BLANKS) for _ in range(rng.randint(0, 5)))
        below = "".join(rng.choice(BLANKS) for _ in range(rng.randint(0, 3)))
        header = case % 2 == 0
        head = _header(layout) + rng.choice(["\n", "\r\n", "\r"]) if header else ""
        rows = _rows(layout)
        path = tmp_path / f"d{case}.csv"
        path.write_bytes((above + head + below + "\n".join(rows) + "\n").encode())
        frame = read_table(path, names=None if header else ["x", "c", "y"],
                           text_columns=["x", "c", "y"])
        assert _cells(frame) == _expected(layout), (above, head, below)


def test_pandas_skiprows_counts_as_python_without_a_lone_carriage_return():
    """Without a lone ``\\r``, pandas' ``skiprows`` skips exactly the lines Python counts; with
    one it may skip a data row (the bug): why no reader of dpboost passes it ``skiprows``
    (the block reader of ``--workers`` did, and refused a lone ``\\r`` above the data, until
    session 28)."""
    import pandas as pd

    rng = random.Random(7)
    plain = ["\n", "\r\n", "  \n", "\t\r\n", "\f\n", " \t \n", "h,h\n", "h,h\r\n", '"h",h\r\n']
    for _ in range(500):
        pre = "".join(rng.choice(plain) for _ in range(rng.randint(0, 6))) + "h,h\n"
        skip = len(io.StringIO(pre, newline="").readlines())
        for sep in (",", r"\s+"):
            frame = pd.read_csv(io.StringIO(pre + "1,2\n3,4\n"), sep=sep, header=None,
                                names=["a", "b"], skiprows=skip, dtype=str,
                                keep_default_na=False)
            assert len(frame) == 2 and frame.iloc[0, 0].startswith("1"), repr(pre)
    lost = pd.read_csv(io.StringIO("\r\r\nh,h\n1,2\n3,4\n"), header=None, names=["a", "b"],
                       skiprows=3)
    assert len(lost) == 1  # pandas' count: why the pandas readers no longer use skiprows


@pytest.mark.parametrize("text, header, skip", [
    ("\r\n\r\nx,c,y\r\n\r1,a,no\n", True, 3),  # below the header: not skipped, blank
    ("x,c,y\n1,a,no\r\r\n2,b,yes\n", True, 1),  # in the data: a blank line
    ("\n \r\n\f\n1,a,no\n", False, 3),
])
def test_the_layout_keeps_files_without_a_lone_carriage_return_above_the_data(
        tmp_path, text, header, skip):
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode())
    assert csv_layout(path, None if header else ["x", "c", "y"])[2] == skip


@pytest.mark.parametrize("layout", ["comma", "space", "spaced"])
def test_error_lines_count_the_lines_above_the_data(tmp_path, capsys, layout):
    """A short row below ``\\r\\r\\n`` and a header: line 1 ``\\r``, line 2 ``\\r\\n``, line 3
    the header, data row k on line k + 4, in the error and in :func:`line_of`."""
    rows = _rows(layout)
    rows[10] = rows[10].rsplit(" " if layout == "space" else ",", 1)[0]  # one field short
    path = tmp_path / "d.csv"
    path.write_bytes(_text(layout, "\r\r\n", True, rows).encode())
    with pytest.raises(ValueError, match=r"d\.csv, line 14: expected 3 fields"):
        read_table(path)
    assert line_of(path, 10, header=True) == 14
    bad = _rows(layout)
    bad[12] = "q" + bad[12][1:]  # row 12's x is not a number: data row 12, line 16
    path.write_bytes(_text(layout, "\r\r\n", True, bad).encode())
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(SCHEMA))
    capsys.readouterr()
    code = main(["train", str(path), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "1", "--out", str(tmp_path / "m.json")])
    assert code == 2 and "line 16" in capsys.readouterr().err


def test_a_lone_carriage_return_inside_the_data_is_a_line_end_for_every_reader(tmp_path):
    """Between two data rows (``1,a,no\\r2,b,yes``) and at a row's end (``\\r\\r\\n``): the
    three in-memory readers read the same rows (``\\r`` a line end; an empty line skipped)."""
    read = {}
    for layout in ("comma", "space", "spaced"):
        rows = _rows(layout)
        text = ("\n".join(rows[:50]) + "\r" + "\n".join(rows[50:120]) + "\r\r\n"
                + "\n".join(rows[120:]) + "\n")
        path = tmp_path / f"{layout}.csv"
        path.write_bytes((_header(layout) + "\n" + text).encode())
        read[layout] = _cells(read_table(path, text_columns=["x", "c", "y"]))
    assert read["comma"] == read["space"] == read["spaced"] == _expected("comma")


@pytest.mark.parametrize("prefix, header", [("\r\n \r\n", True), ("\n\t\n", False),
                                            ("\r\n", True),
                                            # a lone \r above the data: refused before
                                            # session 28 (pandas' skiprows lost a row)
                                            ("\r\r\n", True), ("\n\r", True),
                                            ("\r\n\r", False), ("\r", False)])
def test_the_block_reader_reads_what_memory_reads_below_blank_lines(tmp_path, prefix, header):
    schema = SCHEMA if header else HEADERLESS
    path = tmp_path / "d.csv"
    path.write_bytes(_text("comma", prefix, header).encode())
    _same_as_in_memory(path, schema)


@pytest.mark.parametrize("header", [True, False])
def test_the_block_reader_reads_an_old_mac_file_as_memory_does(tmp_path, header):
    """Every line ending in a lone ``\\r``: one block (dask's cuts are at ``\\n``), read as in
    memory.  Refused under ``--workers`` before session 28, naming line 1."""
    schema = SCHEMA if header else HEADERLESS
    path = tmp_path / "d.csv"
    path.write_bytes(_text("comma", "", header).replace("\n", "\r").encode())
    _same_as_in_memory(path, schema)


def _same_as_in_memory(path, schema):
    dask = pytest.importorskip("dask")
    from dpboost.cli._distributed import read_encoded

    with dask.config.set(scheduler="synchronous"):
        X, y, _ = read_encoded(str(path), schema, blocksize=1_000, spool=False)
        Xc, yc = X.compute(), y.compute()
    frame = read_table(path, names=schema.get("names"))
    ref = TabularEncoder(schema).fit(frame)
    assert len(Xc) == len(frame) == N
    np.testing.assert_allclose(Xc, ref.transform(frame).astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(yc, ref.encode_labels(frame["y"]))


@pytest.mark.slow
@pytest.mark.parametrize("header", [True, False])
def test_train_counts_every_row_in_memory_and_on_workers(tmp_path, capsys, header):
    path = tmp_path / "d.csv"
    path.write_bytes(_text("space", "\r\r\n", header).encode())
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(SCHEMA if header else HEADERLESS))
    args = ["train", str(path), "--schema", str(spec), "--target-epsilon", "1",
            "--target-delta", "1e-6", "--seed", "1", "--out", str(tmp_path / "m.json")]
    assert main(args) == 0
    model = json.loads((tmp_path / "m.json").read_text())
    assert model["privacy_report"]["n_samples"] == N  # 199 before
    args[-1] = str(tmp_path / "w.json")
    assert main([*args, "--workers", "2"]) == 0  # refused, naming line 1, before session 28
    assert json.loads((tmp_path / "w.json").read_text())["coef"] == model["coef"]
