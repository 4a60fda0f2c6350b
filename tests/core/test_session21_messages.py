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
    assert "once the spaces around them are removed: strip the labels" in message
    assert "df[col].str.strip()" in message
    assert "skipinitialspace=True) removes only the spaces after a separator" in message
    assert "does it on reading" not in message and spaced not in message
    clf.fit(np.full((len(stripped), 1), 0.1), stripped.to_numpy())  # stripped: accepted
