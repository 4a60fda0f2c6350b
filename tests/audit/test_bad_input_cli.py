"""Bad input through the command line and the loaders: one stderr line, exit code 2, no
traceback, no partial output file, an untouched ledger.

Every parametrized case below counts as one case tried (see the report in the audit commit).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _bad_input import GOOD_CSV, GOOD_ROWS, TRAIN, leftovers, run_cli_expect_error
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.cli import USER_ERRORS, main
from dpboost.data import load_csv, load_dataset, load_libsvm

BAD_FILES = {
    "nan.csv": "a,b,c,label\n0.1,nan,0.2,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "inf.csv": "a,b,c,label\n0.1,inf,0.2,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "neg_inf.csv": "a,b,c,label\n0.1,-inf,0.2,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "overflow.csv": "a,b,c,label\n1e309,0.2,0.3,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "empty.csv": "",
    "blank_lines.csv": "\n\n\n",
    "header_only.csv": "a,b,c,label\n",
    "one_row.csv": "a,b,c,label\n0.1,0.2,0.3,1\n",
    "three_classes.csv": "a,b,c,label\n" + "\n".join(GOOD_ROWS) + "\n0.1,0.1,0.1,2\n",
    "string_column.csv": "a,b,c,label\n0.1,foo,0.3,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "ragged_short.csv": "a,b,c,label\n" + "\n".join(GOOD_ROWS) + "\n0.2,0.1,0\n",
    "ragged_long.csv": "a,b,c,label\n" + "\n".join(GOOD_ROWS) + "\n0.2,0.1,0.1,0.3,0\n",
    "empty_cell.csv": "a,b,c,label\n0.1,,0.3,1\n" + "\n".join(GOOD_ROWS) + "\n",
    "missing_label.csv": "a,b,c,label\n0.1,0.2,0.3,\n" + "\n".join(GOOD_ROWS) + "\n",
    "binary.csv": b"\x00\x01\x02\xff\xfe\x00label\n",
    "latin1.csv": "a,b,c,label\n0.1,0.2,0.3,caf\xe9\n".encode("latin-1"),
    "libsvm_bad_value.txt": "1 1:0.5 2:abc\n0 1:0.1\n",
    "libsvm_nan.txt": "1 1:nan\n0 1:0.1\n1 2:0.3\n",
    "libsvm_negative_index.txt": "1 -3:0.5\n0 1:0.1\n",
}
ONE_CLASS = "a,b,c,label\n" + "\n".join(r[:-1] + "1" for r in GOOD_ROWS) + "\n"


def _write(folder: Path, name: str, content) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_train_rejects_bad_file(name, tmp_path, capsys):
    data = _write(tmp_path, name, BAD_FILES[name])
    out = tmp_path / "model.json"
    run_cli_expect_error(capsys, ["train", str(data), *TRAIN, "--out", str(out)], tmp_path,
                         [out])


def test_train_missing_file(tmp_path, capsys):
    out = tmp_path / "model.json"
    line = run_cli_expect_error(capsys, ["train", str(tmp_path / "nope.csv"), *TRAIN, "--out",
                                         str(out)], tmp_path, [out])
    assert "nope.csv" in line


def test_train_directory_as_data(tmp_path, capsys):
    out = tmp_path / "model.json"
    run_cli_expect_error(capsys, ["train", str(tmp_path), *TRAIN, "--out", str(out)],
                         tmp_path, [out])


def test_train_one_class_without_classes_is_refused(tmp_path, capsys):
    data = _write(tmp_path, "one_class.csv", ONE_CLASS)
    out = tmp_path / "model.json"
    argv = ["train", str(data), "--target-epsilon", "1", "--target-delta", "1e-6",
            "--n-rounds", "3", "--kappa", "0.5", "--learning-rate", "1", "--out", str(out)]
    run_cli_expect_error(capsys, argv, tmp_path, [out])


BAD_OPTIONS = [
    ("--target-epsilon", "0"), ("--target-epsilon", "-1"), ("--target-epsilon", "nan"),
    ("--target-epsilon", "inf"), ("--target-epsilon", "-inf"), ("--target-epsilon", "abc"),
    ("--target-delta", "0"), ("--target-delta", "1"), ("--target-delta", "nan"),
    ("--target-delta", "-0.5"), ("--target-delta", "inf"),
    ("--kappa", "0"), ("--kappa", "1"), ("--kappa", "1.5"), ("--kappa", "-0.1"),
    ("--kappa", "nan"), ("--n-rounds", "0"), ("--n-rounds", "-3"), ("--n-rounds", "2.5"),
    ("--learning-rate", "0"), ("--learning-rate", "-1"), ("--learning-rate", "nan"),
    ("--norm-bound", "0"), ("--norm-bound", "-1"), ("--norm-bound", "nan"),
    ("--margin", "0"), ("--margin", "2"), ("--label", "zzz"), ("--label", "99"),
    ("--classes", "1,2"), ("--classes", "1"), ("--classes", "1,1"), ("--seed", "-1"),
    ("--seed", "x"),
]
INFINITE_HYPERPARAMETERS = [("--learning-rate", "inf"), ("--norm-bound", "inf")]


def _with_option(option, value, out):
    argv = list(TRAIN)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv + ["--out", str(out)]


@pytest.mark.parametrize("option,value", BAD_OPTIONS)
def test_train_rejects_bad_option(option, value, tmp_path, capsys):
    data = _write(tmp_path, "good.csv", GOOD_CSV)
    out = tmp_path / "model.json"
    run_cli_expect_error(capsys, ["train", str(data), *_with_option(option, value, out)],
                         tmp_path, [out])


@pytest.mark.parametrize("option,value", INFINITE_HYPERPARAMETERS)
def test_train_rejects_infinite_hyperparameter(option, value, tmp_path, capsys):
    data = _write(tmp_path, "good.csv", GOOD_CSV)
    out = tmp_path / "model.json"
    line = run_cli_expect_error(capsys, ["train", str(data), *_with_option(option, value, out)],
                                tmp_path, [out])
    assert option[2:].replace("-", "_") in line


def test_train_huge_epsilon_message_names_the_parameter(tmp_path, capsys):
    data = _write(tmp_path, "good.csv", GOOD_CSV)
    out = tmp_path / "model.json"
    line = run_cli_expect_error(capsys, ["train", str(data), *_with_option(
        "--target-epsilon", "1e308", out)], tmp_path, [out])
    assert "epsilon" in line


@pytest.mark.parametrize("argv", [
    [], ["nosuchcommand"], ["train"], ["train", "x.csv"], ["predict", "x.csv"],
    ["audit", "--runs", "5"], ["audit", "--target-epsilon", "nan"],
    ["audit", "--target-epsilon", "0"], ["audit", "--target-delta", "1"],
    ["audit", "--target-delta", "0"], ["audit", "--setting", "all"],
    ["audit", "--sensitivity", "--pairs", "0"], ["audit", "--n-rounds", "0", "--setting",
                                                 "run", "--runs", "200"],
])
def test_cli_usage_errors(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_cli_expect_error(capsys, argv, tmp_path)


# ---- predict: model files that are truncated, from another version, or wrong -------------

@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trained")
    data = folder / "good.csv"
    data.write_text(GOOD_CSV, encoding="utf-8")
    assert main(["train", str(data), *TRAIN, "--out", str(folder / "model.json")]) == 0
    return data, json.loads((folder / "model.json").read_text())


def _model_variants(model: dict) -> dict:
    text = json.dumps(model)
    variants = {
        "truncated": text[: len(text) // 2],
        "empty": "",
        "not_json": "this is not a model",
        "json_list": "[1, 2, 3]",
        "nan_coef": text.replace(json.dumps(model["coef"]), "[NaN, 0.1, 0.2]"),
        "string_coef": text.replace(json.dumps(model["coef"]), '["a", "b", "c"]'),
    }
    for key, value in (("format_version", 999), ("format", "other-tool"),
                       ("n_features", 7), ("classes", [0, 1, 2])):
        changed = dict(model)
        changed[key] = value
        variants[f"{key}={value}"] = json.dumps(changed)
    for key in ("coef", "classes", "format"):
        changed = dict(model)
        changed.pop(key)
        variants[f"missing_{key}"] = json.dumps(changed)
    return variants


PREDICT_VARIANTS = ["truncated", "empty", "not_json", "json_list", "nan_coef", "string_coef",
                    "format_version=999", "format=other-tool", "n_features=7",
                    "classes=[0, 1, 2]", "missing_coef", "missing_classes", "missing_format"]


@pytest.mark.parametrize("variant", PREDICT_VARIANTS)
def test_predict_rejects_bad_model(variant, trained, tmp_path, capsys):
    data, model = trained
    path = tmp_path / "model.json"
    path.write_text(_model_variants(model)[variant], encoding="utf-8")
    out = tmp_path / "preds.csv"
    run_cli_expect_error(capsys, ["predict", str(data), "--model", str(path), "--out",
                                  str(out)], tmp_path, [out])


@pytest.mark.parametrize("name", ["nan.csv", "empty.csv", "ragged_short.csv",
                                  "string_column.csv", "binary.csv", "libsvm_bad_value.txt"])
def test_predict_rejects_bad_data(name, trained, tmp_path, capsys):
    _, model = trained
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    data = _write(tmp_path, name, BAD_FILES[name])
    out = tmp_path / "preds.csv"
    run_cli_expect_error(capsys, ["predict", str(data), "--model", str(path), "--label",
                                  "label", "--out", str(out)], tmp_path, [out])


def test_predict_wrong_number_of_features(trained, tmp_path, capsys):
    _, model = trained
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    data = _write(tmp_path, "two.csv", "a,b,label\n0.1,0.2,1\n0.2,0.1,0\n")
    out = tmp_path / "preds.csv"
    line = run_cli_expect_error(capsys, ["predict", str(data), "--model", str(path),
                                         "--label", "label", "--out", str(out)], tmp_path,
                                [out])
    assert "has no column 'c'" in line  # columns are matched by name (model format 2)


# ---- loaders -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_loaders_raise_user_errors(name, tmp_path):
    path = _write(tmp_path, name, BAD_FILES[name])
    try:
        X, y = load_dataset(path)
    except USER_ERRORS as exc:
        assert str(exc).strip()
        return
    # a file the loader accepts must give finite float64 features and matching labels
    assert X.dtype == np.float64 and X.ndim == 2 and np.isfinite(X).all()
    assert len(y) == len(X) and name in ("one_row.csv", "three_classes.csv",
                                         "latin1.csv", "missing_label.csv")


def test_huge_integer_label_is_not_wrapped(tmp_path):
    import warnings

    path = _write(tmp_path, "big_label.csv", "a,b,label\n0.1,0.2,1e308\n0.2,0.1,0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        _, y = load_csv(path, label="label")
    assert float(y[0]) == 1e308


def test_load_csv_label_errors(tmp_path):
    path = _write(tmp_path, "good.csv", GOOD_CSV)
    for label, error in (("zzz", ValueError), (99, ValueError), (1.5, TypeError)):
        with pytest.raises(error):
            load_csv(path, label=label)
    with pytest.raises(ValueError):
        load_libsvm(_write(tmp_path, "neg.txt", BAD_FILES["libsvm_negative_index.txt"]))


_TOKENS = ["", ",", ",,", "nan", "inf", "-inf", "1e308", "1e309", "-1e309", "1.5e-320", "abc", '"',
           "\x00", "\t", " ", "\n", "0.5", "-0", "\u00e9", "1:2", "#"]


@st.composite
def mutated_csv(draw):
    lines = ["a,b,c,label"] + list(GOOD_ROWS)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["insert", "replace_cell", "drop_line", "truncate"]))
        if op == "insert":
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.sampled_from(_TOKENS)) + lines[i][pos:]
        elif op == "replace_cell":
            cells = lines[i].split(",")
            cells[draw(st.integers(0, len(cells) - 1))] = draw(st.sampled_from(_TOKENS))
            lines[i] = ",".join(cells)
        elif op == "drop_line" and len(lines) > 1:
            lines.pop(i)
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=150)
@given(mutated_csv())
def test_fuzz_loader_never_crashes(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "data.csv"
    path.write_text(text, encoding="utf-8")
    try:
        X, y = load_dataset(path)
    except USER_ERRORS:
        return
    assert X.ndim == 2 and X.dtype == np.float64 and np.isfinite(X).all()
    assert len(y) == len(X)


@settings(max_examples=60)
@given(mutated_csv())
def test_fuzz_train_cli_clean(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("fuzzcli")
    data = folder / "data.csv"
    data.write_text(text, encoding="utf-8")
    out = folder / "model.json"
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["train", str(data), *TRAIN, "--out", str(out)])
    assert code in (0, 2)
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1
        assert not out.exists()
    assert leftovers(folder) == []


# ---- the real entry point, in a subprocess -------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["train", "{folder}/nan.csv", *TRAIN, "--out", "{folder}/m.json"],
    ["predict", "{folder}/nan.csv", "--model", "{folder}/trunc.json"],
])
def test_subprocess_no_traceback(args, tmp_path):
    _write(tmp_path, "nan.csv", BAD_FILES["nan.csv"])
    _write(tmp_path, "trunc.json", '{"format": "dpboost-halfspace", "coef": [0.1,')
    argv = [a.format(folder=tmp_path) for a in args]
    env = dict(os.environ, PYTHONWARNINGS="default")
    proc = subprocess.run([sys.executable, "-m", "dpboost", *argv], capture_output=True,
                          check=False, text=True, timeout=120, env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (tmp_path / "m.json").exists()
