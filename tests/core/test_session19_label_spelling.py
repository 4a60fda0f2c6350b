"""Labels written with a leading zero (``01``) are codes: ``train`` keeps them as written,
from the file and from ``--classes``; ``--label`` on a LIBSVM file is refused, not ignored."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.cli._labels import label_text, spelt_as_text

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "3"]


def _csv(path, labels, header=True):
    x = np.random.default_rng(0).uniform(size=(len(labels), 2))
    rows = "".join(f"{r[0]:.4f},{r[1]:.4f},{v}\n" for r, v in zip(x, labels))
    path.write_text(("a,b,y\n" if header else "") + rows)
    return str(path)


def _train(capsys, data, *flags, out):
    code = main(["train", data, *TRAIN, *flags, "--out", str(out), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)["classes"]


@pytest.mark.parametrize("flags,classes", [
    ((), ["01", "02", "03"]),  # inferred (warned about): the file's spelling
    (("--classes", "01,02,03"), ["01", "02", "03"]),
    (("--classes", "03,01,02"), ["03", "01", "02"]),  # declared order kept
])
def test_leading_zero_labels_keep_their_spelling(tmp_path, capsys, flags, classes):
    data = _csv(tmp_path / "d.csv", ["01", "02", "03"] * 8)
    assert _train(capsys, data, *flags, out=tmp_path / "m.json") == classes
    model = json.loads((tmp_path / "m.json").read_text())
    assert "01" in json.dumps(model)


def test_declared_codes_match_labels_as_written(tmp_path, capsys):
    """The file writes 1, 2 and the owner declares codes 01, 02: refused, as a schema's codes
    are (``"1"`` is not the code ``"01"``).  They matched while every label read as a number,
    so one row written ``01`` (or ``a``) decided whether every other row's ``1`` was a class
    (red team, session 25)."""
    data = _csv(tmp_path / "d.csv", [1, 2] * 10)
    code = main(["train", data, *TRAIN, "--classes", "01,02", "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0
    assert "outside --classes ['01', '02'] (the first at line 2)" in err


@pytest.mark.parametrize("classes,other,code", [
    ("01,02", "01", 2),  # a row written 01 made every other row's 1 a label outside them
    ("0,1,a", "a", 2),  # a row written a made another row's 0.0 a label outside them
    ("0,1", "1.0", 0),  # numbers declared: 1.0 and 0.0 are the classes 1 and 0
])
def test_one_row_does_not_decide_how_another_label_matches(tmp_path, capsys, classes, other,
                                                           code):
    """Two files that differ in one row whose label is a declared class (or, in the last case,
    a class written otherwise) train alike or are refused alike, naming the same line: the
    kind of the labels no longer comes from the whole column."""
    base = [1, 0] * 10
    base[3] = "0.0"  # line 5
    results = []
    for label in (other, "1"):
        labels = list(base)
        labels[10] = label  # line 12
        data = _csv(tmp_path / f"d{label}.csv", labels)
        rc = main(["train", data, *TRAIN, "--classes", classes, "--out", str(tmp_path / "m")])
        err = capsys.readouterr().err.replace(data, "DATA")
        results.append((rc, err.strip().splitlines()[-1] if rc else ""))
    assert results[0] == results[1]
    assert results[0][0] == code


def test_headerless_file_keeps_the_spelling(tmp_path, capsys):
    data = _csv(tmp_path / "d.csv", ["007", "010"] * 10, header=False)
    assert _train(capsys, data, "--classes", "007,010", out=tmp_path / "m.json") == [
        "007", "010"]


@pytest.mark.parametrize("labels,flags,classes", [
    ([-1, 1], ("--classes", "-1,1"), [-1, 1]),
    (["+1", "-1"], ("--classes", "-1,1"), [-1, 1]),  # LIBSVM-style signs stay numbers
    ([0, 1], (), [0, 1]),
    (["1.0", "2.0"], ("--classes", "1,2"), [1, 2]),
])
def test_plain_numbers_stay_numbers(tmp_path, capsys, labels, flags, classes):
    data = _csv(tmp_path / "d.csv", labels * 10)
    assert _train(capsys, data, *flags, out=tmp_path / "m.json") == classes


def test_a_label_outside_declared_codes_is_named_by_line(tmp_path, capsys):
    data = _csv(tmp_path / "d.csv", ["01", "02", "03"] * 4)
    code = main(["train", data, *TRAIN, "--classes", "01,02", "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "a row holds a label outside --classes ['01', '02'] (the first at line 4)" in err


def test_spelt_as_text_and_label_text(tmp_path):
    assert spelt_as_text(["1", " 01"]) and spelt_as_text(["-007"])
    assert not spelt_as_text(["0", "-0", "0.5", "+1", "10", "abc", 1])
    data = _csv(tmp_path / "d.csv", [" 01", "2"])
    assert label_text(data, "y") == ["01", "2"] and label_text(data, None) == ["01", "2"]


def test_label_on_a_libsvm_file_is_refused(tmp_path, capsys):
    path = tmp_path / "d.svm"
    path.write_text("".join(f"{1 if k % 2 else -1} 1:0.{k % 9} 2:0.5\n" for k in range(20)))
    code = main(["train", str(path), "--n-features", "2", "--index-base", "1", "--label", "3",
                 "--classes", "-1,1", *TRAIN, "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1] == (
        f"dpboost train: error: --label 3: {path} is a LIBSVM file, whose label is always the "
        "first field of each line; remove --label.")
    assert not (tmp_path / "m.json").exists()
