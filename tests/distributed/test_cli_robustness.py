"""``--workers``/``--scheduler`` refuse what the in-memory path refuses, the same way.

Every refusal is one line on stderr (exit code 2, no traceback); a refusal knowable from
the schema comes before the ledger is opened, and one knowable from the row count before
the fit, so the ledger is never charged for a run that fails.  The CLI runs on the shared
test cluster through ``--scheduler`` (no cluster of its own to start).
"""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                      "job": {"type": "categorical", "categories": ["a", "b"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}
THREE = {**SCHEMA, "label": {"column": "y", "classes": ["no", "yes", "maybe"]}}
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "3", "--seed", "0"]


def _csv(path, n, classes=("no", "yes"), seed=0):
    rng = np.random.default_rng(seed)
    pd.DataFrame({"age": rng.uniform(0, 100, n).round(2), "job": rng.choice(["a", "b"], n),
                  "y": rng.choice(list(classes), n)}).to_csv(path, index=False)
    return str(path)


def _schema(tmp_path, content=SCHEMA, name="schema.json"):
    path = tmp_path / name
    path.write_text(json.dumps(content))
    return str(path)


def _ledger(tmp_path):
    path = tmp_path / "ledger.json"
    assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                 str(path)]) == 0
    return path


def _one_line(capsys, code, *needles):
    captured = capsys.readouterr()
    lines = [ln for ln in captured.err.strip().splitlines() if " boosting rounds on " not in ln]
    assert code == 2 and len(lines) == 1 and "Traceback" not in captured.err, captured
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def on_cluster(client):
    return ["--scheduler", client.scheduler.address]


def test_three_classes_train_on_dask_as_in_memory(tmp_path, capsys, on_cluster):
    """A multiclass schema trains on dask (dpboost.distributed_multiclass): the same model
    file and the same ledger charge as in memory; an undeclared label is one line."""
    schema = _schema(tmp_path, THREE)
    data = _csv(tmp_path / "three.csv", 300, THREE["label"]["classes"])
    files, charges = [], []
    for i, cluster in enumerate(([], on_cluster)):
        ledger = tmp_path / f"ledger{i}.json"
        assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                     str(ledger)]) == 0
        model = tmp_path / f"m{i}.json"
        assert main(["train", data, "--schema", schema, *TRAIN, *cluster, "--ledger",
                     str(ledger), "--out", str(model)]) == 0
        files.append(json.loads(model.read_text()))
        charges.append(json.loads(ledger.read_text())["spends"][-1]["event"])
    assert files[0]["classes"] == files[1]["classes"] == ["no", "yes", "maybe"]
    assert np.allclose(files[0]["coef"], files[1]["coef"], rtol=0, atol=1e-12)
    assert files[0]["privacy_report"] == files[1]["privacy_report"]
    assert charges[0] == charges[1]
    bad = _csv(tmp_path / "four.csv", 300, ["no", "yes", "maybe", "never"])
    capsys.readouterr()
    code = main(["train", bad, "--schema", schema, *TRAIN, *on_cluster,
                 "--out", str(tmp_path / "m9.json")])
    line = _one_line(capsys, code, "The label at line", "['no', 'yes', 'maybe']")
    assert "never" not in line  # the data's label is never printed
    assert not (tmp_path / "m9.json").exists()


def test_multiclass_predict_on_dask_writes_what_memory_writes(tmp_path, capsys, on_cluster):
    data = _csv(tmp_path / "three.csv", 300, THREE["label"]["classes"])
    model = tmp_path / "m3.json"
    assert main(["train", data, "--schema", _schema(tmp_path, THREE), *TRAIN,
                 "--out", str(model)]) == 0
    outputs = []
    for cluster in ([], on_cluster):
        out = tmp_path / f"p{len(outputs)}.csv"
        capsys.readouterr()
        assert main(["predict", "--model", str(model), data, "--label", "y", *cluster,
                     "--out", str(out)]) == 0
        test_line = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("test:")]
        outputs.append((out.read_text(), test_line))
    assert outputs[0] == outputs[1]
    header = outputs[0][0].splitlines()[0]
    assert header == ("prediction,score_no,score_yes,score_maybe,"
                      "probability_no,probability_yes,probability_maybe")
    assert "macro one-vs-rest" in outputs[1][1][0]


def test_one_row_is_refused_before_the_ledger_is_charged(tmp_path, capsys, on_cluster):
    ledger = _ledger(tmp_path)
    before = ledger.read_bytes()
    data = _csv(tmp_path / "one.csv", 1)
    code = main(["train", data, "--schema", _schema(tmp_path), *TRAIN, *on_cluster,
                 "--ledger", str(ledger), "--out", str(tmp_path / "m.json")])
    _one_line(capsys, code, "has 1 data row; training needs at least 2")
    assert ledger.read_bytes() == before
    assert not (tmp_path / "m.json").exists()


def test_a_header_only_csv_is_the_in_memory_error(tmp_path, capsys, on_cluster):
    data = tmp_path / "header.csv"
    data.write_text("age,job,y\n\n")
    schema = _schema(tmp_path)
    model = tmp_path / "m.json"
    assert main(["train", _csv(tmp_path / "ok.csv", 40), "--schema", schema, *TRAIN,
                 "--out", str(model)]) == 0
    for cluster in ([], on_cluster):
        capsys.readouterr()
        code = main(["train", str(data), "--schema", schema, *TRAIN, *cluster,
                     "--out", str(tmp_path / "m2.json")])
        _one_line(capsys, code, "header.csv has a header row but no data rows.")
        code = main(["predict", "--model", str(model), str(data), *cluster,
                     "--out", str(tmp_path / "p.csv")])
        _one_line(capsys, code, "header.csv has a header row but no data rows.")


def test_a_parquet_file_without_rows_is_the_in_memory_error(tmp_path, capsys, on_cluster):
    data = tmp_path / "empty.parquet"
    pd.read_csv(_csv(tmp_path / "ok.csv", 4)).iloc[:0].to_parquet(data)
    for cluster in ([], on_cluster):
        capsys.readouterr()
        code = main(["train", str(data), "--schema", _schema(tmp_path), *TRAIN, *cluster,
                     "--out", str(tmp_path / "m.json")])
        _one_line(capsys, code, "has 0 data rows; training needs at least 2")


def test_a_line_of_spaces_is_skipped_on_both_paths(tmp_path, capsys, on_cluster):
    data = tmp_path / "trail.csv"
    _csv(data, 50)
    data.write_text(data.read_text() + "\n\n\n   \n")
    schema = _schema(tmp_path)
    for cluster in ([], on_cluster):
        capsys.readouterr()
        assert main(["train", str(data), "--schema", schema, *TRAIN, *cluster, "--json",
                     "--out", str(tmp_path / "m.json")]) == 0, capsys.readouterr().err
        report = json.loads(capsys.readouterr().out)["privacy_report"]
        assert report["n_samples"] == 50
