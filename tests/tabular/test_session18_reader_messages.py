"""Reader messages from the session-18 trial: long free-text cells, ICD-like codes in a
draft, currency signs, NaN bounds in a schema, trailing separators.

No message may hold a private cell; each names lines, columns or declared values only.
"""

from __future__ import annotations

import json

import pytest

from dpboost import arrow_csv
from dpboost.cli import main
from dpboost.cli._csv_rows import block_ok
from dpboost.readers import read_table

LONG = "w" * 2_000_000  # one free-text cell longer than pyarrow's 1 MiB block


def _notes(tmp_path, cell: str):
    """20,000 rows, ``cell`` in row 15,000: pyarrow reads a long row in its first block."""
    path = tmp_path / "notes.csv"
    rows = [f"{i % 2},{i % 40 / 10},short" for i in range(20_000)]
    rows[15_000] = f'1,0.7,"{cell}"'
    path.write_text("y,x,notes\n" + "\n".join(rows) + "\n")
    return path


def test_a_block_check_reads_a_cell_over_the_csv_field_limit():
    block = b'y,x,notes\n1,0.5,"' + b"w" * 200_000 + b'"\n0,0.1,ok\n'
    assert block_ok(block, ",", 3, 1)


def test_a_a_cell_longer_than_a_block_is_read(tmp_path):
    frame = read_table(_notes(tmp_path, LONG), columns=["y", "x"])
    assert frame.shape == (20_000, 2) and frame["x"].iloc[15_000] == 0.7


def test_a_train_and_predict_read_a_long_cell(tmp_path, capsys):
    path = _notes(tmp_path, LONG)
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"x": {"type": "numeric", "lower": 0,
                                                    "upper": 4}, "notes": {"type": "drop"}},
                                  "label": {"column": "y", "classes": ["0", "1"]}}))
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(model)]) == 0
    assert main(["predict", "--model", str(model), str(path), "--out",
                 str(tmp_path / "p.csv")]) == 0
    assert main(["schema", str(path), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0


def test_a_a_row_beyond_the_largest_block_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(arrow_csv, "MAX_BLOCK", 1 << 20)
    with pytest.raises(ValueError, match="a row is longer than") as caught:
        read_table(_notes(tmp_path, LONG), columns=["y", "x"])
    assert "w" * 20 not in str(caught.value) and "straddl" not in str(caught.value)


def test_b_a_categorical_draft_lists_codes_as_written():
    import pandas as pd

    from dpboost.schema_draft import draft_schema

    codes = ["250.1", "250.10", "250.01", "428.0", "428", "V57.89"] * 3
    frame = pd.DataFrame({"diag": codes, "y": ["No", "Yes"] * 9})
    spec = draft_schema(frame, "y").columns["diag"]
    assert spec.categories == ("250.01", "250.1", "250.10", "428", "428.0", "V57.89")
    assert draft_schema(frame, "y").draft_marks() == ["diag", "label 'y'"]  # still marked


@pytest.mark.parametrize("cell, needle", [
    ('"$1,234.50"', "currency"), ('"€1,234"', "currency"), ('"1,234 USD"', "currency"),
    ('"1,234.00-"', "trailing minus"), ('"12,34"', "elsewhere than between groups")])
def test_c_a_currency_sign_is_named_under_a_thousands_separator(tmp_path, one_line_error,
                                                                 cell, needle):
    data = tmp_path / "c.csv"
    data.write_text(f"amount,y\n7.5,No\n{cell},Yes\n12.00,No\n")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"amount": {"type": "numeric", "lower": 0,
                                                         "upper": 1e6}}, "thousands": ",",
                                  "label": {"column": "y", "classes": ["No", "Yes"]}}))
    code = main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")])
    said = one_line_error(code, "line 3").split("line 3")[1]  # the path names the test
    assert needle in said and "34" not in said  # never the cell


@pytest.mark.parametrize("bound", ["NaN00000", "Infinity0", "nan", "-inf", "NaN", "Infinity"])
def test_d_a_nan_or_infinite_bound_is_named(tmp_path, bound):
    from dpboost.schema import Schema

    path = tmp_path / "s.json"
    path.write_text('{"columns": {"a": {"type": "numeric", "lower": 0, "upper": %s}}}' % bound)
    with pytest.raises(ValueError) as caught:
        Schema.load(path)
    said = str(caught.value)
    assert "finite number" in said and "\n" not in said


def test_e_trailing_separators_are_named_as_such(tmp_path, one_line_error):
    data = tmp_path / "t.csv"
    data.write_text("x,churned,,\n" + "".join(f"{i / 10},{i % 2},,\n" for i in range(30)))
    code = main(["train", str(data), "--label", "churned", "--classes", "0,1",
                 "--target-epsilon", "1", "--target-delta", "1e-6",
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "ends with 2 columns without a name (positions 3, 4): trailing "
                   "separators")
    with pytest.raises(ValueError, match=r"has 2 columns without a name \(positions 1, 4\), and "
                       r"names the column\(s\) \['x'\] more than once"):
        (tmp_path / "u.csv").write_text(",x,x,\n1,2,3,4\n")
        read_table(tmp_path / "u.csv")
