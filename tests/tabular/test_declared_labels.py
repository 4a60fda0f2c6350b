"""The README's Python route with classes declared as numbers (red team session 30, finding 5).

``read_table`` reads every column as text, so a label column of ``1``/``2`` arrives as
``"1"``/``"2"``; given ``classes=[1, 2]`` the estimator refuses them as numbers written as
text, where ``dpboost train`` matches them through the schema.
``TabularEncoder.declared_labels`` gives each label as the schema declares its class.
"""

import json

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from dpboost import PrivateHalfspaceClassifier
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder


def _files(tmp_path, classes, labels):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(300):
        a = float(rng.uniform(0, 10))
        rows.append(f"{a:.3f},{labels[int(a + rng.normal() > 5)]}")
    data = tmp_path / "d.csv"
    data.write_text("a,risk\n" + "\n".join(rows) + "\n")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
                                  "label": {"column": "risk", "classes": classes}}))
    return data, schema


@pytest.mark.parametrize("classes, labels", [([1, 2], ["1", "2"]), ([0, 1], ["0.0", "1"]),
                                             (["good", "bad"], ["good", "bad"])])
def test_the_python_route_fits_declared_classes_of_any_kind(tmp_path, classes, labels):
    data, path = _files(tmp_path, classes, labels)
    schema = Schema.load(path)
    frame = read_table(data, names=schema.names, text_columns=schema.text_columns)
    encoder = TabularEncoder(str(path))
    y = encoder.declared_labels(frame["risk"])
    assert set(y.tolist()) == set(classes)
    assert y.tolist() == [classes[k] for k in encoder.encode_labels(frame["risk"])]
    model = make_pipeline(encoder, PrivateHalfspaceClassifier(
        2.0, 1e-6, classes=schema.label.classes, random_state=0)).fit(frame, y)
    assert model.score(frame, y) > 0.7
    if all(isinstance(c, int) for c in classes):  # the raw text column alone is refused
        with pytest.raises(ValueError, match="number written as text"):
            make_pipeline(TabularEncoder(str(path)), PrivateHalfspaceClassifier(
                2.0, 1e-6, classes=classes, random_state=0)).fit(frame, frame["risk"])


def test_an_undeclared_label_is_the_encoders_error(tmp_path):
    data, path = _files(tmp_path, [1, 2], ["1", "3"])
    frame = read_table(data)
    with pytest.raises(BadValueError, match="not one of the schema's classes"):
        TabularEncoder(str(path)).declared_labels(frame["risk"])
