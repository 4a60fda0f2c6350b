"""``predict --workers`` says the one-class note that in-memory ``predict`` says (session 26).

In memory, ``predict`` prints one line when every prediction is the same class
(:func:`~dpboost.cli._predict_notes.say_one_class`); ``--workers`` printed nothing.  Now each
block's rows per class are counted in the pass that writes the predictions
(:func:`~dpboost.cli._predict_notes.class_counts`), summed, and the same line is printed.
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.cli._predict_notes import class_counts, say_one_class, say_one_class_of_counts

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10},
                      "b": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}}
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "3"]


def test_the_counts_say_what_the_predictions_say(capsys):
    """Over random predictions (1 to 4 classes, text or numbers, 0 to 6 rows) cut into random
    blocks: the note from the summed block counts is the note from the predictions, to the
    character."""
    rng = random.Random(26)
    said = 0
    for _ in range(2000):
        classes = rng.choice([np.array(["no", "yes"]), np.array([-1, 1]),
                              np.array([0.5, 2.0, 7.0]), np.array(["a", "b", "c", "d"]),
                              np.array(["only"])])
        n = rng.randint(0, 6)
        pred = classes[[rng.randrange(min(len(classes), rng.choice([1, 4]))) for _ in range(n)]]
        say_one_class(pred, classes)
        expected = capsys.readouterr().err
        cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 3)))
        blocks = np.split(pred, cuts)
        say_one_class_of_counts(np.sum([class_counts(b, classes) for b in blocks], axis=0),
                                classes)
        assert capsys.readouterr().err == expected, (pred, classes)
        said += bool(expected)
    assert 300 < said < 1700


def _files(tmp_path, n=600):
    rng = np.random.default_rng(0)
    rows = "".join(f"{rng.integers(0, 11)},{rng.integers(0, 11)},{rng.choice(['no', 'yes'])}\n"
                   for _ in range(n))
    data, spec, model = tmp_path / "d.csv", tmp_path / "s.json", tmp_path / "m.json"
    data.write_text("a,b,y\n" + rows)
    spec.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(spec), *TRAIN, "--out", str(model)]) == 0
    return data, model


def _with_intercept(model, shift: str, data, tmp_path, capsys):
    """The model with its intercept moved: far below or above every score (one class), or
    by the median score of ``data`` (both classes, about half each)."""
    spec = json.loads(model.read_text())
    if shift == "median":
        out = tmp_path / "p0.csv"
        assert main(["predict", str(data), "--model", str(model), "--out", str(out)]) == 0
        capsys.readouterr()
        scores = np.loadtxt(out, delimiter=",", skiprows=1, usecols=1)
        spec["intercept"] -= float(np.median(scores))
    else:
        spec["intercept"] = {"low": -50.0, "high": 50.0}[shift]
    moved = tmp_path / f"m_{shift}.json"
    moved.write_text(json.dumps(spec))
    return moved


def _notes(err: str) -> list[str]:
    return [line for line in err.splitlines() if "note:" in line]


@pytest.mark.parametrize("shift, note", [("low", "predicted 'no'"), ("high", "predicted 'yes'"),
                                         ("median", None)])
def test_the_block_predictions_say_the_in_memory_note_in_one_pass(tmp_path, capsys,
                                                                  monkeypatch, shift, note):
    """:func:`~dpboost.cli.predict._predict_dask` on dask's synchronous scheduler, in blocks of
    1,000 bytes: the note of in-memory ``predict``, and each block encoded once (the counts are
    computed in the pass that writes the predictions, not in a pass of their own; before, each
    block was encoded 3 times, once per output column, and there was no note)."""
    import dask

    import dpboost.cli._distributed as distributed
    from dpboost.cli.predict import _predict_dask
    from dpboost.model_io import load_model

    data, model = _files(tmp_path)
    model = _with_intercept(model, shift, data, tmp_path, capsys)
    assert main(["predict", str(data), "--model", str(model), "--out",
                 str(tmp_path / "p1.csv")]) == 0
    in_memory = _notes(capsys.readouterr().err)
    assert len(in_memory) == (note is not None)
    assert all(f"every one of the 600 rows is {note}" in line for line in in_memory)

    encoded = []
    encode = distributed._encode

    def counted(frame, *args, **kwargs):
        encoded.append(len(frame))
        return encode(frame, *args, **kwargs)

    monkeypatch.setattr(distributed, "_encode", counted)
    monkeypatch.setattr(distributed, "CSV_BLOCKSIZE", 1_000)
    args = argparse.Namespace(data=str(data), label=None, out=str(tmp_path / "p2.csv"))
    with dask.config.set(scheduler="synchronous"):
        _predict_dask(load_model(model), args)
    assert _notes(capsys.readouterr().err) == in_memory
    assert len(encoded) > 3 and sum(encoded) == 600  # each block once
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "p2.csv", delimiter=",", skiprows=1,
                                             usecols=1, dtype=str),
                                  np.loadtxt(tmp_path / "p1.csv", delimiter=",", skiprows=1,
                                             usecols=1, dtype=str))


@pytest.mark.slow
@pytest.mark.parametrize("label", [[], ["--label", "y"]])
def test_predict_says_the_same_note_with_and_without_workers(tmp_path, capsys, monkeypatch,
                                                             label):
    """The command itself, on a local cluster of 2 workers: the same note (one class), and
    none for a model predicting both classes; the accuracy line after it, as in memory."""
    monkeypatch.setattr("dpboost.cli._distributed.CSV_BLOCKSIZE", 2_000)  # several blocks
    data, model = _files(tmp_path)
    capsys.readouterr()
    for shift in ("low", "median"):
        moved = _with_intercept(model, shift, data, tmp_path, capsys)
        said = []
        for workers in ([], ["--workers", "2"]):
            out = tmp_path / "p.csv"
            assert main(["predict", str(data), "--model", str(moved), *label, "--out",
                         str(out), *workers]) == 0
            captured = capsys.readouterr()
            said.append((captured.err.replace(str(out), "OUT"), captured.out))
        assert said[0] == said[1]
        assert len(_notes(said[0][0])) == (shift == "low")
