"""Session 23's red-team and user trial: how a file is read follows the declarations, never one
row; and what is not a number or not text is refused in one line.

* A headerless file named ``.txt`` whose first row read ``1 09:00 17:30`` (times of day in a
  declared categorical column) was read as LIBSVM, dropping the schema: an error where its
  neighbour trained, and with ``--n-features 2 --index-base 1`` a 2-feature model where the
  neighbour's had 9 features and the schema's names.
* A first cell ``PAR1`` made a ``.csv`` file Parquet (refused where the neighbour trained).
* Under ``"decimal": ","`` a first row ``1 12,5 3`` of a headerless whitespace file made the
  file comma-separated.
* ``inf``, ``Infinity`` and ``1e400`` were read as infinity and clipped to the declared bound.
"""

from __future__ import annotations

import bz2
import json
import lzma
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import sniff_delimiter, table_format

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]
TIMES = [f"{h:02d}:{m:02d}" for h in range(8, 19) for m in (0, 30)]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _model(path: Path) -> dict:
    return json.loads(path.read_text())


def _shifts(tmp_path: Path, first: str, name: str) -> Path:
    rng = np.random.default_rng(0)
    rows = [f"{rng.integers(0, 2)} {rng.choice(TIMES)} {rng.choice(TIMES)}" for _ in range(40)]
    return _write(tmp_path / name, "\n".join([first, *rows]) + "\n")


SHIFTS = {"names": ["y", "start", "end"],
          "columns": {"start": {"type": "categorical", "categories": TIMES},
                      "end": {"type": "categorical", "categories": TIMES, "na_values": ["?"]}},
          "label": {"column": "y", "classes": ["0", "1"]}}


@pytest.mark.parametrize("first", ["1 09:00 17:30", "0 1:45 2:45", "1 09:00 ?"])
def test_a_declared_table_is_read_as_one_whatever_its_first_row(tmp_path, first):
    schema = _write(tmp_path / "s.json", json.dumps(SHIFTS))
    data = _shifts(tmp_path, first, "shifts.txt")
    assert table_format(data) == ("csv" if "?" in first else "libsvm")  # the undeclared guess
    assert table_format(data, declared="table") == "csv"
    out = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(out)]) == 0
    model = _model(out)
    assert model["n_features"] == 1 + 2 * len(TIMES)
    assert model["schema"]["names"] == SHIFTS["names"]


def test_libsvm_flags_beside_a_table_schema_are_refused(tmp_path, one_line_error):
    schema = _write(tmp_path / "s.json", json.dumps(SHIFTS))
    data = _shifts(tmp_path, "1 09:00 ?", "shifts.txt")
    code = main(["train", str(data), "--schema", str(schema), "--n-features", "2",
                 "--index-base", "1", *TRAIN, "--out", str(tmp_path / "m.json")])
    one_line_error(code, "--n-features/--index-base declare a LIBSVM file",
                   "declares a table", "remove the flags")


CODES = {"columns": {"code": {"type": "categorical", "categories": ["PAR1", "PAR2", "X"]},
                     "v": {"type": "numeric", "lower": 0, "upper": 1}},
         "label": {"column": "y", "classes": ["0", "1"]}}


@pytest.mark.parametrize("name", ["codes.csv", "codes.dat"])
@pytest.mark.parametrize("first", ["PAR1", "PAR2"])
def test_a_first_cell_par1_leaves_a_text_file_a_table(tmp_path, name, first):
    rows = [f"{first},0.5,1"] + [f"{'X' if k % 3 else 'PAR2'},0.{k % 10},{k % 2}"
                                  for k in range(30)]
    data = _write(tmp_path / name, "\n".join(rows) + "\n")  # headerless: names declared
    schema = _write(tmp_path / "s.json", json.dumps({**CODES, "names": ["code", "v", "y"]}))
    assert table_format(data) == "csv"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0


def test_a_parquet_file_of_another_name_is_still_parquet(tmp_path):
    path = tmp_path / "table.dat"
    pd.DataFrame({"a": [1.0, 2.0], "y": ["0", "1"]}).to_parquet(path)
    assert table_format(path) == "parquet"


WS = {"names": ["y", "a", "b"], "decimal": ",",
      "columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                  "b": {"type": "numeric", "lower": 0, "upper": 9}},
      "label": {"column": "y", "classes": ["0", "1"]}}


def test_a_decimal_comma_in_the_first_row_is_not_a_separator(tmp_path):
    assert sniff_delimiter("1 12,5 3") == ","  # the undeclared reading
    assert sniff_delimiter("1 12,5 3", decimal=",") is None
    assert sniff_delimiter("1,5;3", decimal=",") == ";"  # a tie with ',' before
    schema = _write(tmp_path / "s.json", json.dumps(WS))
    rows = [f"{k % 2} {10 + k} {k % 9}" for k in range(30)]
    models = []
    for at in (0, 5):  # the same cell on line 1, then on line 6
        lines = list(rows)
        lines[at] = "1 12,5 3"
        data = _write(tmp_path / f"ws{at}.txt", "\n".join(lines) + "\n")
        out = tmp_path / f"m{at}.json"
        assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                     "--out", str(out)]) == 0
        models.append(_model(out)["n_features"])
    assert models == [3, 3]


NUMS = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                    "income": {"type": "numeric", "lower": 0, "upper": 100000}},
        "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("cell", ["inf", "-inf", "Infinity", "1e400", "-1E999"])
def test_an_infinite_cell_is_refused_naming_its_line(tmp_path, one_line_error, cell):
    rows = [f"{20 + k},{100 * k},{'yes' if k % 2 else 'no'}" for k in range(20)]
    rows[6] = f"30,{cell},no"
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", json.dumps(NUMS))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "Column 'income' is declared numeric but the cell at line 8 is "
                   "infinite (inf, Infinity, or a number beyond 1.8e308")  # one text for all


def test_an_infinite_parquet_value_is_refused(tmp_path, one_line_error):
    path = tmp_path / "d.parquet"
    pd.DataFrame({"age": [30.0, np.inf, 40.0, 50.0], "income": [1.0, 2.0, 3.0, 4.0],
                  "y": ["no", "yes", "no", "yes"]}).to_parquet(path)
    schema = _write(tmp_path / "s.json", json.dumps(NUMS))
    code = main(["train", str(path), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "Column 'age'", "is infinite")


TEXT = "age,income,y\n" + "".join(f"{20 + k},{k},{'yes' if k % 2 else 'no'}\n"
                                   for k in range(20))


@pytest.mark.parametrize("name, encode, needle", [
    ("d.data", lambda t: t.replace("20,0", "Zoë,0").encode("latin-1"), "is not UTF-8 text"),
    ("d", lambda t: t.replace("20,0", "Zoë,0").encode("latin-1"), "is not UTF-8 text"),
    ("d.csv", lambda t: t.encode("utf-16-le"), "holds NUL bytes"),
    ("d.txt", lambda t: t.encode("utf-16"), "holds NUL bytes"),
    ("d.csv.bz2", lambda t: bz2.compress(t.encode()), "is bzip2-compressed"),
    ("d.csv.xz", lambda t: lzma.compress(t.encode()), "is xz-compressed"),
])
@pytest.mark.parametrize("command", ["train", "predict", "schema"])
def test_text_that_is_not_utf8_is_one_line_whatever_the_name(tmp_path, one_line_error, name,
                                                             encode, needle, command):
    """A Latin-1 '.data' file said "'utf-8' codec can't decode byte 0xe9 in position 125",
    naming neither the file nor a line; UTF-16 without a byte-order mark said "has no column
    'age'; its columns are ['a', '', ...]"."""
    data = tmp_path / name
    data.write_bytes(encode(TEXT))
    schema = _write(tmp_path / "s.json", json.dumps(NUMS))
    model = tmp_path / "m.json"
    if command == "predict":
        train = _write(tmp_path / "train.csv", TEXT)
        assert main(["train", str(train), "--schema", str(schema), *TRAIN,
                     "--out", str(model)]) == 0
    argv = {"train": ["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)],
            "predict": ["predict", "--model", str(model), str(data),
                        "--out", str(tmp_path / "p.csv")],
            "schema": ["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]}
    one_line_error(main(argv[command]), str(data), needle)


WRAPPED = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                       "inc\nome": {"type": "numeric", "lower": 0, "upper": 100}},
           "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("command", ["schema", "train", "train-no-schema"])
def test_a_wrapped_header_cell_is_named_not_cut(tmp_path, one_line_error, command):
    """An Excel header cell with a line break ('"inc<LF>ome"') cut the header there: 'two
    header rows' said the hint, advising to delete the header (user trial, session 23)."""
    rows = "".join(f"{20 + k},{k},{'yes' if k % 2 else 'no'}\n" for k in range(20))
    data = _write(tmp_path / "d.csv", 'age,"inc\nome",y\n' + rows)
    schema = _write(tmp_path / "s.json", json.dumps(WRAPPED))
    out = ["--out", str(tmp_path / "m.json")]
    argv = {"schema": ["schema", str(data), "--label", "y", *out],
            "train": ["train", str(data), "--schema", str(schema), *TRAIN, *out],
            "train-no-schema": ["train", str(data), "--label", "y", "--classes", "no,yes",
                                *TRAIN, *out]}[command]
    one_line_error(main(argv), "line 1: a quoted name of the header row holds a line break")


def test_quotes_that_close_or_sit_inside_a_name_are_not_a_wrapped_header(tmp_path):
    rows = "".join(f"{20 + k},{k},{'yes' if k % 2 else 'no'}\n" for k in range(20))
    for header in ('"age",height ("),y\n', 'age,"a ""b"" c",y\n'):
        data = _write(tmp_path / "d.csv", header + rows)
        assert main(["train", str(data), "--label", "y", "--classes", "no,yes", *TRAIN,
                     "--out", str(tmp_path / "m.json")]) == 0


def test_a_libsvm_file_under_a_table_schema_says_how_to_declare_it(tmp_path, one_line_error):
    """Read as the table the schema declares, a LIBSVM file fails on its missing columns; the
    error says how a LIBSVM file is declared (before session 23 it was sniffed as LIBSVM)."""
    data = _write(tmp_path / "a9a", "".join(f"{'+1' if k % 2 else '-1'} 3:1 11:1 {14 + k}:1\n"
                                            for k in range(20)))
    schema = _write(tmp_path / "s.json", json.dumps(NUMS))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "first line looks like data", "declare 'n_features' and 'index_base'")


# -- the second red-team round: every pair below trained one neighbour and not the other, or
# -- (names without columns) trained both into models of other shapes


def _pair_trains(tmp_path, rows, first_rows, schema, suffix, extra=()):
    """Train on ``rows`` with each of ``first_rows`` as line 1; the model files' shapes."""
    path = _write(tmp_path / "s.json", json.dumps(schema)) if schema else None
    shapes = []
    for k, first in enumerate(first_rows):
        data = _write(tmp_path / f"d{k}{suffix}", "\n".join([first, *rows]) + "\n")
        out = tmp_path / f"m{k}.json"
        argv = ["train", str(data), *(["--schema", str(path)] if path else []), *extra,
                *TRAIN, "--out", str(out)]
        assert main(argv) == 0, first
        model = _model(out)
        shapes.append((model["n_features"], model["privacy_report"]["n_samples"],
                       model.get("feature_names")))
    return shapes


def test_names_without_columns_are_refused(tmp_path, one_line_error):
    """'names' alone left the file to the numeric reader, which inferred a header: a first row
    'low,high,neg' was dropped (299 rows) and its cells became the feature names."""
    rows = [f"{0.01 * k:.2f},{-0.01 * k:.2f},{'pos' if k % 2 else 'neg'}" for k in range(30)]
    data = _write(tmp_path / "d.csv", "\n".join(["low,high,neg", *rows]) + "\n")
    schema = _write(tmp_path / "s.json", json.dumps(
        {"names": ["0", "1", "2"], "label": {"column": "2", "classes": ["neg", "pos"]}}))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "declares 'names' but no 'columns'")


def test_decimal_commas_between_comma_separators(tmp_path):
    rows = [f'"{0.01 * k:.2f}","{-0.01 * k:.2f}",{k % 2}'.replace(".", ",")
            for k in range(1, 30)]
    shapes = _pair_trains(tmp_path, rows, ['"0,91","0,9",1', "1,0,1"], {
        **WS, "names": ["a", "b", "y"],
        "columns": {"a": {"type": "numeric", "lower": -1, "upper": 1},
                    "b": {"type": "numeric", "lower": -1, "upper": 1}}}, ".csv")
    assert shapes[0] == shapes[1]


def test_a_comment_on_a_libsvm_first_line_keeps_it_libsvm(tmp_path):
    rows = [f"{'+1' if k % 2 else '-1'} 1:{0.01 * k:.2f} 2:0.5" for k in range(1, 30)]
    shapes = _pair_trains(tmp_path, rows, ["-1 1:-0.37 2:-0.556",
                                           "-1 1:-0.37 2:-0.556 # id 7, batch 2"], None,
                          ".txt", ["--n-features", "2", "--index-base", "1", "--classes=-1,1"])
    assert shapes[0] == shapes[1]


def test_a_declared_infinity_marker_is_missing_whatever_the_other_rows(tmp_path):
    schema = {"names": ["a", "b", "y"],
              "columns": {"a": {"type": "numeric", "lower": -1, "upper": 1},
                          "b": {"type": "numeric", "lower": -1, "upper": 1,
                                "na_values": ["?", "inf"]}},
              "label": {"column": "y", "classes": ["neg", "pos"]}}
    rows = [f"0.{k % 10},{'inf' if k in (5, 9) else f'0.{k % 7}'},{'pos' if k % 2 else 'neg'}"
            for k in range(1, 30)]
    shapes = _pair_trains(tmp_path, rows, ["0.2,0.4,pos", "0.2,?,pos"], schema, ".csv")
    assert shapes[0] == shapes[1]


def test_a_tsv_file_is_tab_separated_whatever_its_first_row(tmp_path):
    schema = {"names": ["note", "a", "b", "y"],
              "columns": {"note": {"type": "drop"},
                          "a": {"type": "numeric", "lower": -1, "upper": 1},
                          "b": {"type": "numeric", "lower": -1, "upper": 1}},
              "label": {"column": "y", "classes": ["neg", "pos"]}}
    rows = [f"note {k}\t0.{k % 10}\t-0.{k % 7}\t{'pos' if k % 2 else 'neg'}"
            for k in range(1, 30)]
    shapes = _pair_trains(tmp_path, rows, ["note 0\t0.1\t0.2\tneg", "flat 3 12\t0.1\t0.2\tneg"],
                          schema, ".tsv")
    assert shapes[0] == shapes[1]


# -- the third red-team round


def test_a_quoted_separator_in_line_1_cannot_make_a_comma_file_whitespace(tmp_path,
                                                                          one_line_error):
    """Line 1 '"a,z" b 1' (its only comma quoted) made the file whitespace-separated, and
    every other row 'a, b, 1' read as the fields 'a,' 'b,' '1': still three fields, every
    category "other" (held-out accuracy 0.49 against 0.915 for the neighbour)."""
    schema = {"names": ["a", "b", "y"],
              "columns": {"a": {"type": "categorical", "categories": ["a", "b"]},
                          "b": {"type": "categorical", "categories": ["a", "b"]}},
              "label": {"column": "y", "classes": ["0", "1"]}}
    path = _write(tmp_path / "s.json", json.dumps(schema))
    for sep in (",", ";"):
        rows = [f"{'ab'[k % 2]}{sep} {'ab'[k % 3 % 2]}{sep} {k % 2}" for k in range(40)]
        data = _write(tmp_path / "d.csv", "\n".join([f'"a{sep}z" b 1', *rows]) + "\n")
        code = main(["train", str(data), "--schema", str(path), *TRAIN,
                     "--out", str(tmp_path / "m.json")])
        one_line_error(code, "line 2 is separated by", "but line 1 holds none")


@pytest.mark.parametrize("flags, schema", [
    (["--index-base", "1", "--n-features", "2"], None),
    ([], {"n_features": 2, "index_base": 1, "label": {"column": None, "classes": [0, 1]}}),
])
def test_a_libsvm_declaration_on_a_csv_name_is_refused(tmp_path, one_line_error, flags,
                                                       schema):
    """Read as the table its name says, a '.csv' file under an index base had its header
    inferred: a first row 'p q r' was dropped and published as the feature names."""
    rows = [f"0.{k % 9} 0.{k % 7} {k % 2}" for k in range(30)]
    data = _write(tmp_path / "d.csv", "\n".join(["p q r", *rows]) + "\n")
    extra = ["--schema", str(_write(tmp_path / "s.json", json.dumps(schema)))] if schema else []
    code = main(["train", str(data), *extra, *flags, *TRAIN, "--out", str(tmp_path / "m.json")])
    one_line_error(code, "is named as a table", "declares LIBSVM")
