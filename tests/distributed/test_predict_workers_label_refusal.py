"""``predict --label --workers`` refuses a test file's labels in the words memory uses.

Red team, session 29, finding 3: in memory ``predict`` said "1 row holds a label outside the
model's classes [...] (the first at line 7; ...)" and "the label is missing at line 7 (1 row
without a label)", while ``--workers`` said the training reader's "The label at line 7 is not
one of the schema's classes" and "The label is missing at line 7: remove the rows without
one".  Now, when the earliest bad value of a ``--workers`` read is a label, each partition's
labels are tallied (:class:`~dpboost.cli._labels.LabelTally`), the tallies added up in file
order, and the refusal worded by the functions memory uses.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.cli._labels import LabelTally, declared_positions, tally_message, unknown_labels

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def test_the_tally_of_the_parts_is_the_tally_of_the_whole():
    """2,000 random label columns (classes, case variants, dotted classes, markers, empty
    cells, NaN, numbers two classes share) cut into random parts: the summed tally is the
    whole column's, and its message is :func:`unknown_labels`' on the whole column."""
    rng = random.Random(32)
    pool = ["no", "yes", "YES", " no ", "yes.", "no.", "?", "NA", "", None, float("nan"),
            "maybe", "1", 1.0]
    said = 0
    for _ in range(2000):
        classes = rng.choice([["no", "yes"], ["01", "1"], ["no", "yes", "1"]])
        n = rng.randint(0, 12)
        labels = np.array([rng.choice(pool + classes * 3) for _ in range(n)], dtype=object)
        whole = LabelTally.of(labels, classes)
        cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 4)))
        summed = LabelTally.total([LabelTally.of(part, classes)
                                   for part in np.split(labels, cuts)])
        assert summed == whole or (summed.first_label != summed.first_label  # NaN
                                   and summed.first_bad == whole.first_bad), (labels, cuts)
        expected = unknown_labels(labels, declared_positions(labels, classes), classes,
                                  "the model's classes")
        assert tally_message(summed, classes, "the model's classes") == expected
        said += expected is not None
    assert 500 < said < 2000


def _model(tmp_path):
    rng = np.random.default_rng(0)
    a = rng.uniform(0, 10, 800)
    rows = "".join(f"{v:.2f},{'yes' if v > 5 else 'no'}\n" for v in a)
    data, spec, model = tmp_path / "train.csv", tmp_path / "s.json", tmp_path / "m.json"
    data.write_text("a,y\n" + rows)
    spec.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "0", "--out", str(model)]) == 0
    return model


# (line of the file, label written there) for each bad test file of 400 rows
CASES = {
    "case variant": [(7, "Yes")],
    "unknown twice": [(30, "maybe"), (390, "perhaps")],
    "missing": [(7, "")],
    "missing after an unknown": [(12, "maybe"), (350, "")],
    "marker": [(200, "?")],
    "every label dotted": "dots",
}


@pytest.mark.slow
def test_predict_refuses_labels_alike_in_memory_and_with_workers(tmp_path, client, capsys,
                                                                monkeypatch):
    """Each file, in memory and on a 2-worker cluster in blocks of 1,000 bytes (several
    partitions, the bad labels in different ones): one and the same line, exit 2."""
    from dpboost.cli import _distributed

    model = _model(tmp_path)
    rng = np.random.default_rng(1)
    a = rng.uniform(0, 10, 400)
    monkeypatch.setattr(_distributed, "CSV_BLOCKSIZE", 1_000)
    capsys.readouterr()
    for name, bad in CASES.items():
        labels = ["yes" if v > 5 else "no" for v in a]
        if bad == "dots":
            labels = [f"{v}." for v in labels]
        else:
            for line, text in bad:
                labels[line - 2] = text
        data = tmp_path / "test.csv"
        data.write_text("a,y\n" + "".join(f"{v:.2f},{y}\n" for v, y in zip(a, labels)))
        said = []
        for cluster in ([], ["--scheduler", client.scheduler.address]):
            assert main(["predict", "--model", str(model), str(data), "--label", "y",
                         "--out", str(tmp_path / "p.csv"), *cluster]) == 2, name
            err = capsys.readouterr().err
            assert "Traceback" not in err, err
            said.append(err.splitlines())
        assert said[0] == said[1] and len(said[0]) == 1, (name, said)
        first = {"every label dotted": 2, "missing after an unknown": 350}.get(name)
        assert f"line {first or bad[0][0]}" in said[0][0], (name, said)
        if name == "unknown twice":
            assert "2 rows hold a label outside the model's classes" in said[0][0]
        if name == "missing after an unknown":
            assert "the label is missing at line 350 (1 row without a label)" in said[0][0]


@pytest.mark.slow
def test_a_parquet_file_with_a_bad_label_writes_no_predictions(tmp_path, client, capsys):
    """A Parquet file's labels are read lazily: one outside the classes was found after the
    predictions were written, so ``--workers`` left ``--out`` behind its refusal, where memory
    writes nothing.  Now the labels are read in the pass that writes, and a refusal leaves an
    earlier ``--out`` as it was; both print one same line."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    model = _model(tmp_path)
    rng = np.random.default_rng(2)
    a = rng.uniform(0, 10, 300)
    labels = ["yes" if v > 5 else "no" for v in a]
    labels[40], labels[250] = "Yes", "maybe"
    data = tmp_path / "test.parquet"
    pd.DataFrame({"a": a, "y": labels}).to_parquet(data)
    out = tmp_path / "p.csv"
    capsys.readouterr()
    said = []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        out.write_text("earlier\n")
        assert main(["predict", "--model", str(model), str(data), "--label", "y",
                     "--out", str(out), *cluster]) == 2
        said.append(capsys.readouterr().err.splitlines())
        assert out.read_text() == "earlier\n"
    assert said[0] == said[1] and len(said[0]) == 1, said
    assert "2 rows hold a label outside the model's classes" in said[0][0]
    assert "the first at row 41 (pandas index 40)" in said[0][0]

