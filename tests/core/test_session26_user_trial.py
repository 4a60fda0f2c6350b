"""Findings of the session-26 user trial: the label column taken by default is named, a
column of decimals taken as the label is one line (it was an internal error), ``predict
--label`` refuses one of the model's features, ``encode_labels`` refuses a frame, and a
refused spend says how much of the limit is left."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from accounting import BudgetLedger
from accounting.events import GaussianEvent, SelfComposedEvent
from dpboost.cli import main
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


@pytest.fixture()
def table(tmp_path):
    rng = np.random.default_rng(0)
    n = 600
    X = rng.normal(size=(n, 3)) / 4
    frame = pd.DataFrame({"f0": X[:, 0], "label": (X[:, 0] + X[:, 1] > 0).astype(int),
                          "f1": X[:, 1], "f2": X[:, 2], "flag": rng.integers(0, 2, n)})
    path = tmp_path / "mid.csv"
    frame.to_csv(path, index=False, float_format="%.4f")
    return path, frame


def test_the_label_taken_by_default_is_named(table, tmp_path, capsys):
    path, _ = table
    assert main(["train", str(path), "--classes", "0,1", *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    err = capsys.readouterr().err
    assert "note: the label is the last column 'flag' (no --label given)" in err
    assert main(["train", str(path), "--label", "label", "--classes", "0,1", *TRAIN,
                 "--out", str(tmp_path / "m2.json")]) == 0
    assert "the label is" not in capsys.readouterr().err


def test_a_column_of_decimals_taken_as_the_label_is_one_line(table, tmp_path, capsys):
    path, frame = table
    decimals = tmp_path / "last_decimal.csv"
    frame[["f0", "label", "f1", "f2"]].to_csv(decimals, index=False, float_format="%.4f")
    for extra in ([], ["--label", "f2"]):
        assert main(["train", str(decimals), *extra, *TRAIN,
                     "--out", str(tmp_path / "x.json")]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "Traceback" not in err and "internal error" not in err
        assert "holds values that are not class labels" in err and "'f2'" in err
        assert not (tmp_path / "x.json").exists()


def test_predict_refuses_a_feature_as_the_label(table, tmp_path, capsys):
    path, _ = table
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--classes", "0,1", *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", str(path), "--model", str(model), "--label", "label",
                 "--out", str(tmp_path / "p.csv")]) == 2
    assert "--label 'label' is one of the model's features" in capsys.readouterr().err
    assert main(["predict", str(path), "--model", str(model), "--label", "flag",
                 "--out", str(tmp_path / "p.csv")]) == 0


def test_encode_labels_refuses_a_frame():
    encoder = TabularEncoder({"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1}},
                              "label": {"column": "y", "classes": ["no", "yes"]}}).fit()
    frame = pd.DataFrame({"a": [0.1, 0.2], "y": ["no", "yes"]})
    assert encoder.encode_labels(frame["y"]).tolist() == [0, 1]
    with pytest.raises(ValueError, match=r"the label column alone \(1-d\), e.g. frame\['y'\]"):
        encoder.encode_labels(frame)


def test_a_refused_spend_says_what_is_left_of_the_limit(tmp_path):
    ledger = BudgetLedger(tmp_path / "l.json", target_epsilon=2.0, target_delta=1e-6)
    spent = ledger.spend(SelfComposedEvent(GaussianEvent(42.25), 100), label="run 1")
    with pytest.raises(Exception, match=rf"the limit minus the spent eps is {2 - spent:.3g} "):
        ledger.check(SelfComposedEvent(GaussianEvent(10.0), 100))


def test_the_one_class_note_of_a_multiclass_model_names_its_score_columns(capsys):
    from dpboost.cli._predict_notes import say_one_class, say_one_class_of_counts

    say_one_class(np.array(["b"] * 5), ["a", "b", "c"])
    say_one_class_of_counts([0, 5, 0], ["a", "b", "c"])
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[0] == lines[1]
    assert "'score_<class>' columns" in lines[0] and "'score' column" not in lines[0]
    say_one_class(np.array([1] * 5), [0, 1])
    err = capsys.readouterr().err
    assert "threshold" in err and "'score' column" in err


def test_predict_says_which_schema_declares_the_format(tmp_path, capsys):
    schema = tmp_path / "s.json"
    schema.write_text('{"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1}, "b": '
                      '{"type": "numeric", "lower": 0, "upper": 1}}, "label": {"column": "y", '
                      '"classes": ["no", "yes"]}}')
    rng = np.random.default_rng(0)
    train = tmp_path / "t.csv"
    train.write_text("a,b,y\n" + "".join(f"{rng.random():.3f},{rng.random():.3f},"
                                         f"{rng.choice(['no', 'yes'])}\n" for _ in range(300)))
    model = tmp_path / "m.json"
    assert main(["train", str(train), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    test = tmp_path / "d.csv"
    test.write_text("a;b;y\n0,5;0,2;no\n0,1;0,3;yes\n")
    errors = []
    for flags in ([], ["--workers", "1"]):
        capsys.readouterr()
        assert main(["predict", str(test), "--model", str(model), "--out",
                     str(tmp_path / "p.csv"), *flags]) == 2
        errors.append(capsys.readouterr().err.strip())
    assert errors[0] == errors[1]
    assert f"(the schema is the one saved in {model}: re-save {test}" in errors[0]


def test_the_progress_bar_is_drawn_on_a_terminal_only(monkeypatch):
    import io

    from dpboost import progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, bar in ((io.StringIO(), False), (Terminal(), True)):
        monkeypatch.setattr("sys.stderr", stream)
        callback, close = progress.round_callback("Demo", 2_000_000, 100, 500, 1)
        assert (callback is not None) is bar
        close()
        assert stream.getvalue().startswith("Demo: 500 boosting rounds on 2000000 rows")
        assert ("\r" in stream.getvalue()) is bar
