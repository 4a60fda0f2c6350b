"""Session 21 raw-CSV trial: messages of ``dpboost train`` (and of the shared flags).

1. A numeric table read without a schema is used as given and its long rows are clipped:
   train now says so, in a hint that reads no data (the same text whatever the file holds).
2. ``--target-epsilon``/``--target-delta`` out of range: one line naming the flag and the
   real range, before any file is read or a ledger opened (it said (0, inf), then
   ``calibrate_noise``'s [1e-09, 1e+06]).
3. The case warning names every declared category matched only if case is ignored.
4. The hint for labels with spaces around them: ``skipinitialspace`` strips only leading
   spaces.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

T = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "3", "--seed", "0"]


def _numeric_csv(path, scale: float, n: int = 40, seed: int = 0):
    """A numeric CSV whose rows have norm about ``scale * sqrt(3)``."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 3)) * scale
    y = (X[:, 0] > 0).astype(int)
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "y": y}).to_csv(path, index=False)
    return X


# ---- 1. a table without a schema: a data-free hint -----------------------------------------

def _train(tmp_path, capsys, data, *extra):
    code = main(["train", str(data), "--label", "y", "--classes", "0,1", *T, *extra,
                 "--out", str(tmp_path / "m.json")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return [line for line in captured.err.splitlines() if " boosting rounds on " not in line]


def test_the_raw_values_hint_reads_no_data(tmp_path, capsys):
    """The same text for a file inside the unit ball (no row clipped) and for one far outside
    it (every row clipped), and for files of other sizes: it is a function of the flags."""
    from dpboost.cli.train import clipped_fraction

    small, big = tmp_path / "small.csv", tmp_path / "big.csv"
    X_small, X_big = _numeric_csv(small, 0.1), _numeric_csv(big, 1000.0, n=90, seed=5)
    assert clipped_fraction(X_small, 1.0) == 0.0 and clipped_fraction(X_big, 1.0) == 1.0
    lines = {name: _train(tmp_path, capsys, path) for name, path in (("small", small),
                                                                      ("big", big))}
    assert lines["small"] == lines["big"] and len(lines["small"]) == 1
    line = lines["small"][0]
    assert line.startswith("dpboost train: warning: the data was read without a schema")
    for needle in ("--norm-bound 1 was scaled down", "'dpboost schema DATA --label y'",
                   "--schema", "divide each column by a public bound", "--non-private-figures"):
        assert needle in line, needle
    assert "small" not in line and "%" not in line  # no path, no figure
    # the stated bound is the flag's
    assert "--norm-bound 250 was scaled down" in _train(tmp_path, capsys, big,
                                                        "--norm-bound", "250")[0]


def test_the_raw_values_hint_is_replaced_by_the_figures_and_absent_with_a_schema(tmp_path,
                                                                                  capsys):
    big = tmp_path / "big.csv"
    _numeric_csv(big, 1000.0)
    figures = _train(tmp_path, capsys, big, "--non-private-figures")
    assert not any("the data was read without" in line for line in figures)
    assert any("100.0% of the training rows (non-private figure)" in line for line in figures)
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {c: {"type": "numeric", "lower": -1000,
                                                  "upper": 1000} for c in "abc"},
                                  "label": {"column": "y", "classes": [0, 1]}}))
    code = main(["train", str(big), "--schema", str(schema), *T, "--out",
                 str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    assert code == 0 and "warning" not in err, err
    # a schema that declares no columns leaves the values as given: the hint says so
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"label": {"column": "y", "classes": [0, 1]}}))
    code = main(["train", str(big), "--schema", str(bare), *T, "--out",
                 str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    assert code == 0 and "read with a schema that declares no columns" in err, err


def test_a_bad_file_is_still_one_error_line(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,y\n0.1,red,1\n0.2,0.1,0\n")
    code = main(["train", str(bad), "--label", "y", "--classes", "0,1", *T, "--out",
                 str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "error" in err[0], err


# ---- 2. the range of --target-epsilon / --target-delta ------------------------------------

BAD_EPSILON = ["0", "-1", "nan", "inf", "abc", "1e9", "1e-10", "1000001", ""]
BAD_DELTA = ["0", "1", "nan", "inf", "abc", "-0.5", "1.5", ""]


@pytest.mark.parametrize("flag, value", [("--target-epsilon", v) for v in BAD_EPSILON]
                         + [("--target-delta", v) for v in BAD_DELTA])
def test_out_of_range_target_is_one_line_before_anything_is_read(tmp_path, capsys, flag,
                                                                  value):
    ledger, out = tmp_path / "ledger.json", tmp_path / "m.json"
    argv = {"--target-epsilon": "1", "--target-delta": "1e-6", flag: value}
    code = main(["train", str(tmp_path / "absent.csv"), "--label", "y", "--classes", "0,1",
                 "--target-epsilon", argv["--target-epsilon"], "--target-delta",
                 argv["--target-delta"], "--ledger", str(ledger), "--out", str(out)])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    # the absent data file and ledger were not looked at: the flag is refused first
    assert lines[0].startswith(f"dpboost train: error: argument {flag}: must be a number")
    span = "from 1e-09 to 1e+06" if flag == "--target-epsilon" else "strictly between 0 and 1"
    assert span in lines[0] and f"Got {value!r} instead." in lines[0]
    for word in ("calibrate_noise", "PrivateHalfspaceClassifier", "Traceback", "(0, inf)"):
        assert word not in err
    assert not ledger.exists() and not out.exists()


def test_the_stated_range_is_the_calibrations(tmp_path, capsys):
    """Both ends of the stated epsilon range train; just outside them is refused (so the
    message states the range the library really supports), and the help says it too."""
    from accounting.calibration import MAX_TARGET_EPSILON, MIN_TARGET_EPSILON

    data = tmp_path / "d.csv"
    _numeric_csv(data, 0.5, n=60)
    for eps, ok in ((MIN_TARGET_EPSILON, True), (MAX_TARGET_EPSILON, True),
                    (MIN_TARGET_EPSILON * 0.999, False), (MAX_TARGET_EPSILON * 1.001, False)):
        out = tmp_path / "m.json"
        code = main(["train", str(data), "--label", "y", "--classes", "0,1", "--target-epsilon",
                     repr(eps), "--target-delta", "1e-6", "--n-rounds", "2", "--out", str(out)])
        err = capsys.readouterr().err
        assert (code == 0) is ok, (eps, err)
        assert out.exists() is ok
        out.unlink(missing_ok=True)
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(a number from 1e-09 to 1e+06; required)" in text
    assert "(a number strictly between 0 and 1; required)" in text


@pytest.mark.parametrize("argv", [
    ["privacy", "--n-rounds", "5", "--target-delta", "1e-6", "--calibrate",
     "--target-epsilon", "1e9"],
    ["privacy", "--n-rounds", "5", "--noise-multiplier", "3", "--target-delta", "nan"],
    ["budget", "init", "L.json", "--target-epsilon", "inf", "--target-delta", "1e-6"],
    ["audit", "--target-epsilon", "2e6"],
])
def test_every_subcommand_states_the_same_range(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(
        r"error: argument --target-(epsilon|delta): must be a number (from 1e-09 to 1e\+06|"
        r"strictly between 0 and 1)", err), err
    assert "calibrate_noise" not in err
    assert not (tmp_path / "L.json").exists()


# ---- 4. the hint for labels with spaces around them ---------------------------------------

@pytest.mark.parametrize("spaced", ["Malignant ", " Malignant", " Malignant "])
def test_the_spaces_hint_is_right_for_leading_and_trailing_spaces(tmp_path, spaced):
    """The trial's labels were 'Malignant ' (a trailing space): the hint said
    skipinitialspace=True strips them, which it does not (checked here on pandas itself)."""
    from dpboost import PrivateHalfspaceClassifier

    path = tmp_path / "d.csv"
    path.write_text("x,y\n" + "".join(f"0.{i},{spaced if i % 2 else 'benign'}\n"
                                      for i in range(1, 9)))
    read = pd.read_csv(path, skipinitialspace=True)["y"]
    assert bool((read.str.strip() == read).all()) is not spaced.endswith(" ")  # pandas'
    stripped = read.str.strip()  # the fix the hint gives works for every spacing
    assert set(stripped) == {"Malignant", "benign"}
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=["Malignant", "benign"], n_rounds=2,
                                     random_state=0)
    X = np.full((len(read), 1), 0.1)
    if not spaced.endswith(" "):  # leading spaces only: skipinitialspace was enough
        clf.fit(X, read.to_numpy())
        return
    with pytest.raises(ValueError) as info:
        clf.fit(X, read.to_numpy())
    message = " ".join(str(info.value).split())
    assert "once the spaces around it are removed: strip the labels" in message
    assert "df[col].str.strip()" in message
    assert "skipinitialspace=True) removes only the spaces after a separator" in message
    assert "does it on reading" not in message and spaced not in message
    clf.fit(np.full((len(stripped), 1), 0.1), stripped.to_numpy())  # stripped: accepted


# ---- 3. the case warning names every declared category so matched -------------------------

def _case_lines(frame, spec, capsys):
    from dpboost.cli._owner_checks import warn_data_checks
    from dpboost.schema import Schema

    warn_data_checks(frame, Schema.from_dict({"columns": {"c": spec}}), "train")
    return [ln for ln in capsys.readouterr().err.splitlines() if "only if case" in ln]


def test_the_case_warning_names_both_y_and_n(capsys):
    """The trial's smoker column (Y/N/y/n under ["Y", "N"]) was warned about for 'N' alone."""
    spec = {"type": "categorical", "categories": ["Y", "N"]}
    frame = pd.DataFrame({"c": ["Y", "n", "N", "y", "n"]})
    (line,) = _case_lines(frame, spec, capsys)
    assert "match the declared categories 'Y', 'N' only if case is ignored" in line
    assert "'y'" not in line and "'n'" not in line  # declared names only, never the data's
    (line,) = _case_lines(pd.DataFrame({"c": ["Y", "n"]}), spec, capsys)
    assert "match the declared category 'N' only if case is ignored" in line


@pytest.mark.parametrize("k", [1, 2, 5, 6, 9])
def test_the_case_warning_caps_the_names(capsys, k):
    """k of 9 declared categories met only in upper case: all named up to 5, then
    'and k-5 more'; in declared order whatever the order of the rows."""
    declared = [f"cat{i}" for i in range(9)]
    rng = np.random.default_rng(k)
    chosen = sorted(rng.choice(9, size=k, replace=False))
    values = [declared[i].upper() for i in chosen] * 3 + declared
    rng.shuffle(values)
    (line,) = _case_lines(pd.DataFrame({"c": values}),
                          {"type": "categorical", "categories": declared}, capsys)
    names = [f"'{declared[i]}'" for i in chosen]
    if k == 1:
        assert f"the declared category {names[0]} only if" in line
    else:
        tail = f" and {k - 5} more" if k > 5 else ""
        assert f"the declared categories {', '.join(names[:5])}{tail} only if" in line


def test_parts_combine_to_the_whole_tables_case_matches():
    """Counted part by part (dask), the matches are those of the whole table."""
    from dpboost.schema import Schema
    from dpboost.tabular_checks import spelling_mismatches, combine_checks, owner_checks

    schema = Schema.from_dict({"columns": {"c": {"type": "ordinal",
                                                 "categories": ["low", "mid", "high"]}}})
    whole = pd.DataFrame({"c": ["HIGH", "low", "x", "Low", "mid", "MID"]})
    for cut in range(len(whole) + 1):
        parts = [owner_checks(whole.iloc[:cut], schema), owner_checks(whole.iloc[cut:], schema)]
        case = combine_checks(parts, schema)[0]
        assert case == spelling_mismatches(whole, schema)
        assert case["c"] == ("low", "mid", "high")
