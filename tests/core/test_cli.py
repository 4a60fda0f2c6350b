"""Tests for the train / predict / demo subcommands via dpboost.cli.main(argv)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from dpboost.cli import main
from dpboost.data import make_margin_data

estimator = pytest.importorskip("dpboost.estimator")

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "20",
         "--seed", "3"]


def _csv(path: Path, X, y, header=True, label_name="label") -> Path:
    lines = [",".join(f"x{j}" for j in range(X.shape[1])) + f",{label_name}"] if header else []
    lines += [",".join(repr(float(v)) for v in row) + f",{lab}" for row, lab in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    X, y = make_margin_data(3000, 5, 0.2, random_state=0)
    return folder, X, y, _csv(folder / "train.csv", X, y)


def _one_line_error(capsys, code, *needles):
    captured = capsys.readouterr()
    assert code == 2
    lines = [line for line in captured.err.strip().splitlines()
             if " boosting rounds on " not in line]  # the estimator's plan line (verbose)
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_train_json_report_and_model_file(data, capsys, tmp_path):
    _, X, y, path = data
    model = tmp_path / "model.json"
    code = main(["train", str(path), "--label", "label", *TRAIN, "--classes", "-1,1",
                 "--out", str(model), "--json", "--non-private-figures"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""  # classes given: no privacy-leak warning
    out = json.loads(captured.out)
    assert set(out) == {"model", "n_features", "classes", "privacy_report", "non_private"}
    assert set(out["non_private"]) == {"training_accuracy", "clipped_fraction"}
    assert out["non_private"]["clipped_fraction"] == 0.0  # margin data lies in the unit ball
    report = out["privacy_report"]
    assert report["epsilon"]["best"] <= 1.0 + 1e-9 and report["n_rounds"] == 20
    assert report["delta"] == 1e-6 and report["n_samples"] == 3000
    # the same estimator, fitted directly with the same seed, gives the same weights
    clf = estimator.PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=20, classes=[-1, 1],
                                               random_state=3).fit(X, y)
    content = json.loads(model.read_text())
    np.testing.assert_array_equal(content["coef"], clf.coef_)
    assert out["non_private"]["training_accuracy"] == pytest.approx(clf.score(X, y))
    text = model.read_text()
    assert "accuracy" not in text and "diagnostics" not in text
    assert content["classes"] == [-1, 1] and content["format_version"] == 3
    assert content["feature_names"] == [f"x{j}" for j in range(5)]  # the header's names


def test_train_human_output_and_leak_warning(data, capsys, tmp_path):
    _, _, _, path = data
    model = tmp_path / "m.json"
    code = main(["train", str(path), *TRAIN, "--out", str(model)])  # label: last column
    captured = capsys.readouterr()
    assert code == 0
    assert "privacy: (" in captured.out and "non-private" not in captured.out
    assert main(["train", str(path), *TRAIN, "--out", str(model),
                 "--non-private-figures"]) == 0
    captured = capsys.readouterr()
    assert "privacy: (" in captured.out and "non-private: training accuracy" in captured.out
    warnings = [line for line in captured.err.splitlines()  # and the note naming the label
                if line and " boosting rounds on " not in line
                and not line.startswith("dpboost train: note: the label is the last column")]
    assert warnings and all(line.startswith("dpboost train: warning:") for line in warnings)


def test_train_then_predict_matches_estimator(data, capsys, tmp_path):
    _, X, y, path = data
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--label", "label", *TRAIN, "--classes", "-1,1",
                 "--out", str(model)]) == 0
    capsys.readouterr()
    clf = estimator.PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=20, classes=[-1, 1],
                                               random_state=3).fit(X, y)
    preds = tmp_path / "preds.csv"
    assert main(["predict", "--model", str(model), str(path), "--label", "label",
                 "--out", str(preds)]) == 0
    lines = preds.read_text().splitlines()
    assert lines[0].startswith("prediction,score")  # then probability if calibrated
    assert [int(v.split(",")[0]) for v in lines[1:]] == clf.predict(X).tolist()
    np.testing.assert_allclose([float(v.split(",")[1]) for v in lines[1:]],
                               clf.decision_function(X), rtol=1e-12, atol=1e-15)
    # features-only file to stdout
    feats = tmp_path / "feats.csv"
    np.savetxt(feats, X[:7], delimiter=",")
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(feats)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("prediction,score")
    assert [int(v.split(",")[0]) for v in out[1:]] == clf.predict(X[:7]).tolist()


def test_string_labels_and_libsvm(tmp_path, capsys):
    X, y = make_margin_data(600, 4, 0.2, random_state=1)
    names = np.where(y > 0, "yes", "no")
    path = _csv(tmp_path / "s.csv", X, names, label_name="answer")
    model = tmp_path / "s.json"
    assert main(["train", str(path), "--label", "answer", *TRAIN, "--classes", "no,yes",
                 "--out", str(model)]) == 0
    assert json.loads(model.read_text())["classes"] == ["no", "yes"]
    svm = tmp_path / "d.svm"
    dump_svmlight_file(X, y, str(svm))
    model2 = tmp_path / "v.json"
    assert main(["train", str(svm), *TRAIN, "--classes", "-1,1", "--n-features", "4",
                 "--index-base", "0", "--out", str(model2)]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model2), str(svm)]) == 0
    preds = [line.split(",")[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert len(preds) == 600 and set(preds) <= {"-1", "1"}


def test_predict_wrong_features_leaves_no_file(data, capsys, tmp_path):
    _, X, _, path = data
    model = tmp_path / "m.json"
    assert main(["train", str(path), *TRAIN, "--classes", "-1,1", "--out", str(model)]) == 0
    capsys.readouterr()
    narrow = tmp_path / "narrow.csv"
    np.savetxt(narrow, X[:, :3], delimiter=",")
    out = tmp_path / "preds.csv"
    code = main(["predict", "--model", str(model), str(narrow), "--out", str(out)])
    _one_line_error(capsys, code, "dpboost predict: error:", "expects 5 features", "has 3")
    assert not out.exists()
    headed = tmp_path / "headed.csv"  # a header without x4: matched by name, x4 is missing
    _csv(headed, X[:5, :4], np.ones(5))
    code = main(["predict", "--model", str(model), str(headed), "--out", str(out)])
    _one_line_error(capsys, code, "has no column 'x4'")
    assert not out.exists()


def test_predict_truncated_or_foreign_model(data, capsys, tmp_path):
    path = data[3]
    model = tmp_path / "m.json"
    assert main(["train", str(path), *TRAIN, "--classes", "-1,1", "--out", str(model)]) == 0
    capsys.readouterr()
    full = model.read_text()
    out = tmp_path / "preds.csv"
    model.write_text(full[: len(full) // 2])
    code = main(["predict", "--model", str(model), str(path), "--label", "label",
                 "--out", str(out)])
    _one_line_error(capsys, code, "not a complete JSON model file")
    content = json.loads(full)
    content["format_version"] = 99
    model.write_text(json.dumps(content))
    code = main(["predict", "--model", str(model), str(path), "--label", "label",
                 "--out", str(out)])
    _one_line_error(capsys, code, "format version 99")
    code = main(["predict", "--model", str(tmp_path / "none.json"), str(path)])
    _one_line_error(capsys, code, "dpboost predict: error:")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


@pytest.mark.parametrize(
    "text, extra, needles",
    [
        ("a,b,label\n0.1,red,1\n0.2,0.1,-1\n", [], ["column 'b'", "line 2"]),
        ("a,b,label\n0.1,0.2,1\n0.2,-1\n", [], ["line 3"]),
        ("", [], ["empty"]),
        ("a,b,label\n0.1,0.2,1\n0.2,0.1,-1\n", ["--classes", "1"], ["--classes"]),
        ("a,b,label\n0.1,0.2,1\n0.2,0.1,-1\n", ["--classes", "0,1"], ["outside --classes"]),
        # the classes' kind is the declaration's (session 24), so integer labels are outside
        ("a,b,label\n0.1,0.2,1\n0.2,0.1,-1\n", ["--classes", "a,b"], ["outside --classes"]),
        ("a,b,label\n0.1,0.2,1\n0.2,nan,-1\n", [], ["NaN", "row 1"]),
    ],
)
def test_train_bad_input_one_line(tmp_path, capsys, text, extra, needles):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    model = tmp_path / "m.json"
    code = main(["train", str(path), "--label", "label", *TRAIN, *extra, "--out", str(model)])
    _one_line_error(capsys, code, "dpboost train: error:", *needles)
    assert not model.exists()


def test_train_bad_budget_one_line(data, capsys, tmp_path):
    _, _, _, path = data
    code = main(["train", str(path), "--target-epsilon", "-1", "--target-delta", "1e-6",
                 "--out", str(tmp_path / "m.json")])
    _one_line_error(capsys, code, "target_epsilon")
    code = main(["train", str(path), "--target-delta", "1e-6", "--out", "m.json"])
    _one_line_error(capsys, code, "--target-epsilon")
    code = main(["train", str(path), *TRAIN, "--out", str(tmp_path / "no" / "m.json")])
    _one_line_error(capsys, code, "does not exist")


def test_demo_small_in_process(tmp_path, capsys):
    code = main(["demo", "--out", str(tmp_path), "--n", "500", "--n-rounds", "8",
                 "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    png = tmp_path / "dpboost-demo.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for needle in ("margin data, symmetric", "margin data, skewed", "breast cancer",
                   "epsilon at delta = 1e-06", "best 1.0000", "outside the guarantee"):
        assert needle in out
    code = main(["demo", "--out", str(tmp_path / "missing")])
    _one_line_error(capsys, code, "--out")


@pytest.mark.slow
def test_python_m_dpboost_demo_subprocess(tmp_path):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    result = subprocess.run(
        [sys.executable, "-m", "dpboost", "demo", "--out", str(tmp_path), "--n", "500",
         "--n-rounds", "5"],
        capture_output=True, text=True, timeout=120, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "dpboost-demo.png").stat().st_size > 10_000
    assert "logreg (non-priv)" in result.stdout


def test_staged_accuracy_ends_at_score():
    from dpboost.plotting import staged_accuracy

    X, y = make_margin_data(800, 6, 0.1, random_state=5, kind="skewed")
    clf = estimator.BoostedHalfspaceClassifier(n_rounds=25, classes=[-1, 1]).fit(X, y)
    acc = staged_accuracy(clf, X, y)
    assert acc.shape == (25,)
    assert acc[-1] == pytest.approx(clf.score(X, y))
    # skewed data: the first round is the centroid, which errs on the 20% minority
    assert acc[0] < 0.85 and acc[-1] > 0.95


def test_train_with_ledger_checks_before_and_records_after(data, capsys, tmp_path):
    """--ledger: the spend is recorded; a run that does not fit fails before reading the data."""
    from accounting import BudgetLedger, ComposedEvent, ZCDPAccountant

    path = data[3]
    ledger_path = tmp_path / "budget.json"
    BudgetLedger(ledger_path, target_epsilon=1.5, target_delta=1e-6)
    model = tmp_path / "model.json"
    argv = ["train", str(path), "--label", "label", *TRAIN, "--classes", "-1,1",
            "--ledger", str(ledger_path), "--out", str(model)]
    assert main(argv) == 0, capsys.readouterr().err
    capsys.readouterr()  # the first run's output (its data-free no-schema warning)
    ledger = BudgetLedger.open(ledger_path)
    assert len(ledger.history) == 1
    assert 0.99 < ledger.spent_epsilon <= 1.0 + 1e-9  # calibrated to the target, never over

    # A ledger at 1.2 that already holds one eps=1 run cannot take another (exact total > 1.2).
    planned = estimator.PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=20).planned_privacy_event()
    assert ZCDPAccountant().compose(ComposedEvent((planned, planned))).get_epsilon(1e-6) > 1.2
    tight = tmp_path / "tight.json"
    BudgetLedger(tight, target_epsilon=1.2, target_delta=1e-6).spend(planned, label="earlier")
    before = tight.read_bytes()
    second = tmp_path / "second.json"
    missing = tmp_path / "does-not-exist.csv"  # the budget is checked before the data is read
    code = main(["train", str(missing), *TRAIN, "--ledger", str(tight), "--out", str(second)])
    line = _one_line_error(capsys, code, "budget exceeded")
    assert "does-not-exist" not in line
    assert tight.read_bytes() == before and not second.exists()
