"""train and predict name a label outside the classes by its line, the count and the declared
classes: never the label, a value the data's rows can change."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "20", "--seed", "3"]
SCHEMA = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _error_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    lines = [ln for ln in err.strip().splitlines() if " boosting rounds on " not in ln]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _rows(labels, seed=0):
    x = np.random.default_rng(seed).uniform(size=len(labels))
    return pd.DataFrame({"x": x, "y": labels})


def test_train_classes_flag_names_line_count_and_classes(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n0.1,0.2,1\n0.2,0.1,98765\n0.3,0.3,0\n0.4,0.1,98765\n")
    code = main(["train", str(path), "--label", "label", "--classes", "0,1", *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = _error_line(capsys, code)
    assert "a row holds a label outside --classes [0, 1] (the first at line 3)" in line
    assert "98765" not in line


def test_train_libsvm_with_declared_classes_names_the_row(tmp_path, capsys):
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.1\n98765 1:0.2\n-1 2:0.3\n")
    code = main(["train", str(path), "--classes", "-1,1", "--n-features", "2",
                 "--index-base", "1", *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = _error_line(capsys, code)
    assert "a row holds a label outside --classes [-1, 1] (the first at row 1)" in line
    assert "98765" not in line


@pytest.mark.parametrize("declared, shown", [("-1,+1", [-1, 1]), ("-1.0,1", [-1.0, 1.0])])
def test_libsvm_classes_keep_the_declared_spelling(tmp_path, capsys, declared, shown):
    """LIBSVM labels are read as floats; classes declared as integers stay integers in the
    model file and the predictions (-1, not -1.0): the kind follows --classes, not the data."""
    path, model, out = tmp_path / "d.svm", tmp_path / "m.json", tmp_path / "p.csv"
    path.write_text("".join(f"{s} 1:{0.1 * (i % 5):.1f} 2:0.5\n"
                            for i, s in enumerate(["+1", "-1"] * 10)))
    assert main(["train", str(path), f"--classes={declared}", "--n-features", "2",
                 "--index-base", "1", *TRAIN, "--out", str(model)]) == 0
    saved = json.loads(model.read_text())["classes"]
    assert saved == shown and [type(c) for c in saved] == [type(c) for c in shown]
    assert main(["predict", "--model", str(model), str(path), "--out", str(out)]) == 0
    predicted = set(pd.read_csv(out, dtype=str)["prediction"])
    assert predicted <= {"-1", "1"}, predicted  # predict prints a whole float as an integer


def _predict_error(tmp_path, capsys, labels):
    """Train on labels no/yes, predict a test file with ``labels``: (test path, error line)."""
    data, test = tmp_path / "train.csv", tmp_path / "test.csv"
    _rows(["no", "yes"] * 20).to_csv(data, index=False)
    _rows(labels, seed=1).to_csv(test, index=False)
    schema, model = tmp_path / "s.json", tmp_path / "m.json"
    schema.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    code = main(["predict", "--model", str(model), str(test), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    return test, _error_line(capsys, code)


def test_predict_label_outside_the_model_classes(tmp_path, capsys):
    test, line = _predict_error(tmp_path, capsys, ["no", "perhaps", "yes", "perhaps", "maybe"])
    assert f"{test}: 3 rows hold a label outside the model's classes ['no', 'yes'] (the " \
           "first at line 3); spell the labels as the classes, or drop --label" in line
    assert "perhaps" not in line and "maybe" not in line


def test_predict_keeps_the_dot_hint_without_printing_labels(tmp_path, capsys):
    _, line = _predict_error(tmp_path, capsys, ["no", "yes.", "no.", "yes"])
    assert "2 rows hold a label outside" in line and "(the first at line 3)" in line
    assert "remove the dots" in line and "yes." not in line and "no." not in line


def test_train_schema_label_outside_names_the_line_not_the_label(tmp_path, capsys):
    data, schema = tmp_path / "d.csv", tmp_path / "s.json"
    _rows(["no", "yes", "perhaps", "no"]).to_csv(data, index=False)
    schema.write_text(json.dumps(SCHEMA))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = _error_line(capsys, code)
    assert "The label at line 4 is not one of the schema's classes ['no', 'yes']" in line
    assert "perhaps" not in line


@pytest.mark.parametrize("labels, rows", [(["01", "1", "01", "1"], None),
                                          ([1, 1, 0, 1], "the label at row 0 is a number")])
def test_predict_scores_classes_that_differ_only_as_text(tmp_path, capsys, labels, rows):
    schema = {**SCHEMA, "label": {"column": "y", "classes": ["01", "1"]}}
    data, test = tmp_path / "train.csv", tmp_path / "test.parquet"
    _rows(["01", "1"] * 20).to_csv(data, index=False)
    _rows(labels, seed=1).to_parquet(test)
    (tmp_path / "s.json").write_text(json.dumps(schema))
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                 "--out", str(model)]) == 0
    assert json.loads(model.read_text())["classes"] == ["01", "1"]
    capsys.readouterr()
    code = main(["predict", "--model", str(model), str(test), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    if rows is None:
        assert code == 0 and "accuracy" in capsys.readouterr().out
    else:
        line = _error_line(capsys, code)
        assert "matches" in line and "['01', '1']" in line and "as text" in line


@pytest.mark.parametrize("classes", [r"low\,mid,high", '["low,mid", "high"]'])
@pytest.mark.parametrize("with_schema", [False, True])
def test_train_classes_can_hold_a_comma(tmp_path, capsys, classes, with_schema):
    """A label holding a comma is declared with ``\\,`` or a JSON list; the model keeps it whole
    (``--classes`` split on every comma before: three classes, one of them 'mid')."""
    path = tmp_path / "d.csv"
    _rows(["low,mid", "high"] * 20).to_csv(path, index=False)
    extra = []
    if with_schema:  # a schema without a label, completed by --label and --classes
        schema = tmp_path / "s.json"
        schema.write_text(json.dumps({"columns": SCHEMA["columns"]}))
        extra = ["--schema", str(schema)]
    model = tmp_path / "m.json"
    code = main(["train", str(path), "--label", "y", "--classes", classes, *extra, *TRAIN,
                 "--out", str(model)])
    assert code == 0, capsys.readouterr().err
    assert json.loads(model.read_text())["classes"] == ["low,mid", "high"]
