"""Parquet read as a CSV is (red team, session 33): byte columns as UTF-8 text, names stripped.

Spark, Hive and Impala store text as raw bytes (``binary``, no UTF-8 annotation): the cells
reached pandas as ``b'Jan'``, so a categorical column was encoded as zeros on every row (train
exited 0, the column's signal gone), a label column was refused, a numeric one was "not a
number" and ``dpboost schema`` drafted ``"b'Feb'"``.  A column named ``" month "`` was refused
with advice no schema could follow (a schema's names are stripped), and ``"Month"`` beside
``"Month "`` silently read the first.
"""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dpboost.cli import main
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder
from parquet_bytes_cases import SCHEMA, columns, write


def _write(path, *, raw=(), names=None, large=False, fixed=False):
    """The table with the columns in ``raw`` stored as bytes (``large``: large_binary;
    ``fixed``: fixed_size_binary padded with NUL bytes)."""
    return write(path, columns(5), raw=raw, names=names, large=large, fixed=fixed)


def _encoded(path):
    schema = Schema.from_dict(SCHEMA)
    frame = read_table(path, columns=["hours", "month", "y"])
    encoder = TabularEncoder(schema)
    return encoder.transform(frame), encoder.encode_labels(frame["y"])


def _train(tmp_path, data, name, capsys):
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    out = tmp_path / f"{name}.json"
    code = main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-5", "--seed", "3", "--out", str(out)])
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert code == 0, err
    return json.loads(out.read_text())


@pytest.mark.parametrize("kind", ["binary", "large", "fixed"])
@pytest.mark.parametrize("raw", [("month",), ("y",), ("hours",), ("hours", "month", "y")])
def test_byte_columns_read_as_the_same_text_columns(tmp_path, raw, kind):
    # (fixed: a CHAR(n) column, fixed_size_binary with NUL padding, was read as b'Jan\x00'
    # and the label refused or the column encoded as zeros, session 35)
    text = _write(tmp_path / "text.parquet")
    data = _write(tmp_path / "raw.parquet", raw=raw, large=kind == "large",
                  fixed=kind == "fixed")
    frame = read_table(data)
    assert frame.map(lambda v: isinstance(v, bytes)).to_numpy().sum() == 0
    X, y = _encoded(data)
    ref_X, ref_y = _encoded(text)
    np.testing.assert_array_equal(X, ref_X)
    np.testing.assert_array_equal(y, ref_y)


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("raw", [("month",), ("y",), ("hours",)])
def test_train_on_a_byte_column_gives_the_text_file_s_model(tmp_path, raw, fixed, capsys):
    ref = _train(tmp_path, _write(tmp_path / "text.parquet"), "text", capsys)
    got = _train(tmp_path, _write(tmp_path / "raw.parquet", raw=raw, fixed=fixed), "raw",
                 capsys)
    assert got == ref


def test_a_folder_of_byte_columns_reads_as_text(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    _write(folder / "part-0.parquet", raw=("month", "y"))
    _write(folder / "part-1.parquet", raw=("hours",), large=True)
    X, y = _encoded(folder)
    ref_X, ref_y = _encoded(_write(tmp_path / "text.parquet"))
    np.testing.assert_array_equal(X, np.vstack([ref_X, ref_X]))
    np.testing.assert_array_equal(y, np.concatenate([ref_y, ref_y]))


def test_bytes_that_are_not_utf8_are_refused_naming_file_column_and_row(tmp_path, capsys):
    cells = [b"Jan", b"Feb", None, b"M\xe4r", b"Jan"]
    path = tmp_path / "latin.parquet"
    pq.write_table(pa.table({"hours": [1.0] * 5, "month": pa.array(cells, pa.binary()),
                             "y": ["no", "yes"] * 2 + ["no"]}), path)
    with pytest.raises(ValueError, match=r"latin\.parquet is not UTF-8 text \(column 'month' "
                                         r"holds other bytes at row 4 \(pandas index 3\)\); "
                                         r"re-save it as UTF-8"):
        read_table(path)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    code = main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-5", "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "column 'month' holds other bytes at row 4 (pandas index 3)" in err[0], err


def test_schema_drafts_plain_names_from_byte_columns(tmp_path, capsys):
    data = _write(tmp_path / "raw.parquet", raw=("month", "y"))
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    draft = json.loads(out.read_text())
    assert sorted(draft["columns"]["month"]["categories"]) == ["Feb", "Jan", "Mar"]
    assert draft["label"]["classes"] == ["no", "yes"]


def test_a_name_with_spaces_around_reads_as_its_stripped_name(tmp_path, capsys):
    text = _write(tmp_path / "text.parquet")
    spaced = _write(tmp_path / "spaced.parquet", names=[" hours", " month ", "y\t"])
    assert list(read_table(spaced).columns) == ["hours", "month", "y"]
    for got, ref in zip(_encoded(spaced), _encoded(text)):
        np.testing.assert_array_equal(got, ref)
    assert _train(tmp_path, spaced, "spaced", capsys) == _train(tmp_path, text, "text", capsys)


@pytest.mark.parametrize("folder", [False, True])
def test_two_names_that_strip_to_one_are_refused_as_a_repeated_header_name(tmp_path, folder,
                                                                             capsys):
    path = tmp_path / "data"
    if folder:
        path.mkdir()
        for part in ("part-0", "part-1"):
            _write(path / f"{part}.parquet", names=["hours", "Month", "Month "])
    else:
        path = _write(tmp_path / "d.parquet", names=["hours", "Month", "Month "])
    with pytest.raises(ValueError, match=r"names the column\(s\) \['Month'\] more than once"):
        read_table(path, columns=["hours", "Month"])
    read_table(path, columns=["hours"])  # as in a CSV: a repeat matters only when read
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"columns": {"Month": {"type": "categorical",
                                                        "categories": ["Jan", "Feb"]}},
                                  "label": {"column": "hours", "classes": ["1.5", "2"]}}))
    code = main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-5", "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "names the column(s) ['Month'] more than once" in err[0], err
