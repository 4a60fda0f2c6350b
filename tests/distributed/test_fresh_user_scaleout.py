"""``train --workers`` as a user who read only the README tries it (dask section).

The CLI runs on the shared test cluster through ``--scheduler`` (no cluster of its own).
"""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

pytest.importorskip("dask.dataframe")

CLASSES = ["a b", "c,d", "e", "f"]  # a space and a comma in the labels
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _table(n=2000, classes=CLASSES, seed=0):
    """Imbalanced classes (60/25/10/5%) and full-precision floats (not float32-exact)."""
    rng = np.random.default_rng(seed)
    p = np.array([0.6, 0.25, 0.1, 0.05][:len(classes)])
    y = rng.choice(len(classes), size=n, p=p / p.sum())
    X = np.clip(rng.normal(size=(len(classes), 4))[y] + rng.normal(size=(n, 4)), -5, 5)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(4)])
    frame["cls"] = np.array(classes, dtype=object)[y]
    return frame


def _schema(tmp_path, classes=CLASSES):
    path = tmp_path / "schema.json"
    columns = {f"x{i}": {"type": "numeric", "lower": -5, "upper": 5} for i in range(4)}
    path.write_text(json.dumps({"columns": columns,
                                "label": {"column": "cls", "classes": classes}}))
    return str(path)


@pytest.mark.parametrize("classes", [CLASSES, ["no", "yes"]])
def test_workers_write_the_in_memory_model_of_full_precision_floats(tmp_path, client, classes):
    """The README: a CSV through ``train --workers`` writes the in-memory model file.  The
    dask branch encoded float32 rows, so a coefficient moved by about 1e-6 from the in-memory
    fit of the same file and seed (binary and multiclass); it encodes float64 now."""
    data = tmp_path / "train.csv"
    _table(classes=classes).to_csv(data, index=False)
    schema = _schema(tmp_path, classes)
    files = []
    for i, cluster in enumerate(([], ["--scheduler", client.scheduler.address])):
        model = tmp_path / f"m{i}.json"
        assert main(["train", str(data), "--schema", schema, *TRAIN, *cluster,
                     "--out", str(model)]) == 0
        files.append(json.loads(model.read_text()))
    assert files[0]["coef"] == files[1]["coef"]
    assert files[0]["intercept"] == files[1]["intercept"]
    assert files[0]["privacy_report"] == files[1]["privacy_report"]
