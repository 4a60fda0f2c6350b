"""Flag values the trials found mishandled: ``--classes -1,0,1`` taken for an option, and
``audit --pairs -1`` / ``--runs 0`` silently accepted."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import build_parser, main
from dpboost.cli._options import allow_negative_values, positive_int

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "3"]


def _one_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    lines = [ln for ln in err.strip().splitlines() if " boosting rounds on " not in ln]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _csv(tmp_path, labels) -> str:
    x = np.random.default_rng(0).uniform(size=(len(labels), 2))
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n" + "".join(f"{r[0]:.4f},{r[1]:.4f},{v}\n"
                                        for r, v in zip(x, labels)))
    return str(path)


def test_argparse_still_has_the_matcher_allow_negative_values_replaces():
    parser = build_parser()
    assert hasattr(parser, "_negative_number_matcher")  # argparse's private, used on purpose


@pytest.mark.parametrize("text", ["-1,0,1", "-1,1", "-.5,2", "-1e-3,1", "-1"])
def test_train_parser_takes_values_starting_with_a_negative_number(text):
    args = build_parser().parse_args(["train", "d.csv", "--classes", text, "--out", "m.json",
                                      "--target-epsilon", "1", "--target-delta", "1e-6"])
    assert args.classes == text


def test_a_real_option_after_classes_is_still_an_option():
    args = build_parser().parse_args(["train", "d.csv", "--classes", "a,b", "--out", "m.json",
                                      "--target-epsilon", "1", "--target-delta", "1e-6",
                                      "--json"])
    assert args.json and args.classes == "a,b"


def test_allow_negative_values_on_a_plain_parser():
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--v")
    allow_negative_values(parser)
    assert parser.parse_args(["--v", "-1,0,1"]).v == "-1,0,1"


def test_train_three_classes_with_a_negative_first(tmp_path, capsys):
    data = _csv(tmp_path, [-1, 0, 1] * 10)
    out = tmp_path / "m.json"
    code = main(["train", data, "--classes", "-1,0,1", *TRAIN, "--out", str(out), "--json"])
    assert code == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["classes"] == [-1, 0, 1]


@pytest.mark.parametrize("flag,value", [("--pairs", "-1"), ("--pairs", "0"), ("--runs", "-2"),
                                        ("--runs", "0"), ("--pairs", "x")])
def test_audit_refuses_non_positive_counts(flag, value, capsys):
    line = _one_line(capsys, main(["audit", flag, value]))
    assert line == (f"dpboost audit: error: argument {flag}: must be a whole number of at "
                    f"least 1. Got {value!r} instead.")


def test_positive_int():
    assert positive_int("2000") == 2000
    with pytest.raises(Exception, match="at least 1"):
        positive_int("1.5")
