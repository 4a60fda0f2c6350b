"""Readers and ``train`` on awkward input: blank-looking lines, column selections, class order."""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import line_of, read_table

TRAIN = ["--target-epsilon", "5", "--target-delta", "1e-6", "--seed", "0"]
SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _separable(path, n=400, seed=0):
    """Two features; ``pos`` exactly when x1 + x2 > 0 (rows in the unit ball)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-0.7, 0.7, size=(n, 2)).round(3)
    y = np.where(X.sum(axis=1) > 0, "pos", "neg")
    pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "y": y}).to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize("order", [["pos", "neg"], ["neg", "pos"]])
def test_classes_keep_the_declared_order_without_a_schema(tmp_path, capsys, order):
    data = _separable(tmp_path / "num.csv")
    model = tmp_path / "m.json"
    assert main(["train", data, "--label", "y", "--classes", ",".join(order), *TRAIN,
                 "--out", str(model)]) == 0
    assert f"classes {order}" in capsys.readouterr().out
    assert json.loads(model.read_text())["classes"] == order  # negative first, as given
    assert main(["predict", "--model", str(model), data, "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    accuracy = float(capsys.readouterr().out.split("accuracy ")[1].split(",")[0])
    assert accuracy > 0.8  # the labels were not swapped behind the declared order
    predictions = pd.read_csv(tmp_path / "p.csv")
    assert set(predictions["prediction"][predictions["score"] > 0]) <= {order[1]}


def test_classes_outside_the_data_labels_are_one_line(tmp_path, capsys):
    data = _separable(tmp_path / "num.csv")
    code = main(["train", data, "--label", "y", "--classes", "neg,other", *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "Traceback" not in err[0]
    assert "outside --classes ['neg', 'other'] (the first at line" in err[0]
    assert "pos" not in err[0].split("]", 1)[1]  # the data's label is never printed


def _with_tail(tmp_path, tail: str):
    path = tmp_path / "t.csv"
    body = "".join(f"{a},{'yes' if a > 50 else 'no'}\n" for a in range(10, 90, 4))
    path.write_text("age,y\n" + body + tail)
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    return str(path), str(schema)


def test_a_line_of_spaces_is_skipped_like_an_empty_line(tmp_path, capsys):
    data, schema = _with_tail(tmp_path, "\n\n\n   \n")
    assert len(read_table(data)) == 20
    assert main(["train", data, "--schema", schema, *TRAIN, "--json",
                 "--out", str(tmp_path / "m.json")]) == 0
    assert json.loads(capsys.readouterr().out)["privacy_report"]["n_samples"] == 20


def test_a_bad_line_after_blank_lines_is_named_by_its_own_number(tmp_path):
    data, _ = _with_tail(tmp_path, "\n\n\n   \n1,2,3\n")  # line 26: three fields
    with pytest.raises(ValueError, match=r"line 26: expected 2 fields .*found 3"):
        read_table(data)


def test_a_line_of_empty_cells_is_a_row_for_line_numbers(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("a,b\n1,2\n,\n\n   \n3,4\n")
    assert len(read_table(path)) == 3  # the ",", row is read (as missing values)
    assert [line_of(path, row, header=True) for row in range(3)] == [2, 3, 6]


@pytest.mark.parametrize("columns", [[], ["age", "age"]])
def test_read_table_refuses_an_empty_or_repeated_selection(tmp_path, columns):
    data, _ = _with_tail(tmp_path, "")
    frame = read_table(data)
    frame.to_parquet(tmp_path / "t.parquet")
    for path in (data, tmp_path / "t.parquet"):
        with pytest.raises(ValueError, match="'columns' parameter of read_table"):
            read_table(path, columns=columns)


# -- numbers are decimal text: pyarrow's hex integers and Python's digit separators are not ---
@pytest.mark.parametrize("cell", ["0x10", "0X1f"])
def test_a_hex_cell_in_an_integer_column_is_refused_with_its_line(tmp_path, capsys, cell):
    # pyarrow reads 0x10 as 16 when every other cell of the column is an integer: the file
    # trained on a number nobody wrote (before the fix); with one decimal cell it was refused
    rows = ["age,y"] + [f"{20 + k},{'yes' if k % 2 else 'no'}" for k in range(30)]
    rows[5] = f"{cell},no"
    data = tmp_path / "hex.csv"
    data.write_text("\n".join(rows) + "\n")
    (tmp_path / "s.json").write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is not a number" in err and "line 6" in err
    assert cell not in err  # a cell's content is private
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("cell", ["0x10", "1_000"])
def test_numeric_files_refuse_hex_and_digit_separators(tmp_path, capsys, cell):
    # without a schema, Python's float("1_000") let the separator through (before the fix)
    data = tmp_path / "num.csv"
    data.write_text("a,b,y\n1,2,0\n" + f"{cell},3,1\n" + "4,5,0\n6,7,1\n")
    assert main(["train", str(data), "--label", "y", "--classes", "0,1", "--norm-bound",
                 "2000", *TRAIN, "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "column 'a'" in err and "line 3" in err
    assert cell not in err  # a cell's content is private (data.py's message since f2ec073)


def test_hex_text_elsewhere_leaves_integer_columns_as_numbers(tmp_path):
    # a categorical cell "0xff" makes the reader take integer columns as text: same values
    data = tmp_path / "mixed.csv"
    data.write_text("n,code\n" + "".join(f"{k},{'0xff' if k == 3 else 'a'}\n"
                                         for k in range(8)))
    frame = read_table(data, text_columns=["code"])
    assert pd.to_numeric(frame["n"]).tolist() == list(range(8))
    assert frame["code"].tolist()[3] == "0xff"


def test_parquet_applies_the_schemas_na_values_as_csv_does(tmp_path, capsys):
    """Parquet ignored ``na_values``: a '?' label was 'not one of the schema's classes' there
    and 'missing' in a CSV (categories were already read as missing by the encoder). Both
    formats, in memory and on dask, now say the label is missing, and train the same model."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"age": rng.uniform(0, 100, 200).round(2),
                          "job": rng.choice(["a", "b", "?"], 200).astype(object),
                          "y": rng.choice(["no", "yes"], 200).astype(object)})
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({
        "na_values": ["?"],
        "columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                    "job": {"type": "categorical", "categories": ["a", "b"],
                            "missing": "indicator"}},
        "label": {"column": "y", "classes": ["no", "yes"]}}))
    bad = frame.copy()
    bad.loc[5, "y"] = "?"
    models, errors = [], []
    for suffix in (".csv", ".parquet"):
        for table, store in ((frame, models), (bad, errors)):
            path = tmp_path / f"{'bad' if table is bad else 'd'}{suffix}"
            table.to_csv(path, index=False) if suffix == ".csv" else table.to_parquet(path)
            out = tmp_path / f"m{suffix}{len(store)}.json"
            capsys.readouterr()
            code = main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                         "--target-delta", "1e-6", "--seed", "0", "--out", str(out)])
            store.append(json.loads(out.read_text())["coef"] if code == 0
                         else capsys.readouterr().err)
    assert models[0] == models[1]
    assert all("label is missing" in e for e in errors), errors
