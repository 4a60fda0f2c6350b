"""A Parquet file's rows are named from 1, with the pandas index beside it.

A Parquet file has no lines, and until session 36 its rows were named by their 0-based index:
"The label at row 1" meant the second row, which a spreadsheet or ``ROW_NUMBER()`` calls
row 2.  Every message now says ``row 2 (pandas index 1)``
(:func:`dpboost.parquet_columns.row_words`): ``train``'s refusals of a cell and of a label,
and ``predict``'s refusals of a label outside the classes and of a missing label.
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main
from dpboost.parquet_columns import row_words

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def test_row_words_counts_from_one():
    assert [row_words(k) for k in (0, 9)] == ["row 1 (pandas index 0)",
                                              "row 10 (pandas index 9)"]


def _train(tmp_path, frame, capsys):
    data, spec = tmp_path / "d.parquet", tmp_path / "s.json"
    frame.to_parquet(data)
    spec.write_text(json.dumps(SCHEMA))
    code = main(["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "0", "--out", str(tmp_path / "m.json")])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("where", [0, 5, 11])
def test_train_names_the_row_of_a_bad_cell_and_of_a_bad_label(tmp_path, capsys, where):
    a = [str(k % 10) for k in range(12)]
    y = ["yes" if k % 2 else "no" for k in range(12)]
    a[where] = "x"
    code, err = _train(tmp_path, pd.DataFrame({"a": a, "y": y}), capsys)
    assert code == 2 and f"the cell at row {where + 1} (pandas index {where}) " in err, err
    a[where], y[where] = "1", "maybe"
    code, err = _train(tmp_path, pd.DataFrame({"a": a, "y": y}), capsys)
    assert code == 2 and f"The label at row {where + 1} (pandas index {where}) " in err, err


def test_predict_names_the_first_bad_and_the_first_missing_label(tmp_path, capsys):
    a = [float(k % 10) for k in range(40)]
    y = ["yes" if v > 4 else "no" for v in a]
    assert _train(tmp_path, pd.DataFrame({"a": a, "y": y}), capsys)[0] == 0
    test = tmp_path / "t.parquet"
    for bad, said in (("maybe", "(the first at row 8 (pandas index 7))"),
                      (None, "the label is missing at row 8 (pandas index 7) (1 row")):
        labels = list(y)
        labels[7] = bad
        pd.DataFrame({"a": a, "y": labels}).to_parquet(test)
        assert main(["predict", "--model", str(tmp_path / "m.json"), str(test), "--label", "y",
                     "--out", str(tmp_path / "p.csv")]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.splitlines()) == 1, err
