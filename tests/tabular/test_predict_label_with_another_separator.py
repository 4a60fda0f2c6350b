"""``predict --label`` on a file the model's declared separator does not split.

Red team, session 36: a model trained on a ``;`` file (``"separator": ";"`` in its schema)
given a ``,`` test file with ``--label y`` said "has no label column 'y'. Did you mean 'y'?
Drop --label to only predict": the hint read the header with the sniffed separator, and
dropping ``--label`` led to the refusal of every feature column.  It now says that the file
reads as a single column with the declared separator, in memory and with ``--workers``; a
file that truly lacks the label keeps the old advice.
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main

SCHEMA = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}, "separator": ";"}


@pytest.fixture()
def model(tmp_path):
    train, spec, model = tmp_path / "train.csv", tmp_path / "s.json", tmp_path / "m.json"
    train.write_text("x;y\n" + "".join(f"{k % 10};{'yes' if k % 10 > 4 else 'no'}\n"
                                       for k in range(60)))
    spec.write_text(json.dumps(SCHEMA))
    assert main(["train", str(train), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "0", "--out", str(model)]) == 0
    return model


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]])
def test_a_file_split_by_another_separator_is_named_so(tmp_path, capsys, model, workers):
    test = tmp_path / "test.csv"
    test.write_text("x,y\n8.4,yes\n0.4,no\n")
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(test), "--label", "y", "--out",
                 str(tmp_path / "p.csv"), *workers]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert "reads as a single column with the schema's \"separator\" ';'" in err
    # the model's schema is not the user's to correct: the file is (red team, session 37)
    assert "write it with ';' between the fields (a model keeps the separator" in err
    assert "Did you mean" not in err and "Drop --label" not in err


def test_a_file_without_the_label_keeps_the_advice_to_drop_it(tmp_path, capsys, model):
    test = tmp_path / "test.csv"
    test.write_text("x\n8.4\n0.4\n")
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(test), "--label", "y", "--out",
                 str(tmp_path / "p.csv")]) == 2
    err = capsys.readouterr().err
    assert "Drop --label to only predict" in err and "single column" not in err
