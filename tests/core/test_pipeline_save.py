"""save_model on a fitted Pipeline(TabularEncoder, model) (session-21 user trial: it said
"Pipeline is not fitted"), the label order of the schema, and predict's hint for a model file
without a schema."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from dpboost.cli import main
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.model_io import load_model, save_model
from dpboost.tabular import TabularEncoder
from pipeline_cases import pipeline_frame, pipeline_schema


_schema, _frame = pipeline_schema, pipeline_frame


@pytest.mark.parametrize("declared", [["no", "yes"], ["yes", "no"], ["mid", "low", "high"]])
def test_a_saved_pipeline_predicts_as_the_pipeline_in_python_and_on_the_cli(
        tmp_path, capsys, declared):
    labels = sorted(declared) if len(declared) == 2 else ["low", "mid", "high"]
    schema = _schema(declared)
    train, test = _frame(3000, 0, labels), _frame(500, 1, labels)
    pipe = make_pipeline(TabularEncoder(schema), PrivateHalfspaceClassifier(
        1.0, 1e-6, classes=declared, random_state=np.random.default_rng(0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the sorted classes' warning
        pipe.fit(train[["age", "job"]], train["y"])
    path = tmp_path / "m.json"
    save_model(pipe, path)
    content = json.loads(path.read_text())
    assert content["schema"]["label"]["classes"] == declared
    assert content["classes"] == declared  # written in the schema's order
    assert content["feature_names"] == pipe[0].get_feature_names_out().tolist()
    model = load_model(path)
    X = pipe[0].transform(test[["age", "job"]])
    assert model.predict(X).tolist() == pipe.predict(test[["age", "job"]]).tolist()
    # loaded, the classes are sorted as the pipeline's: the same probability columns
    # (session 26: they followed the file's order, so column 1 changed meaning)
    assert model.classes_.tolist() == pipe[-1].classes_.tolist()
    assert model.declared_classes_.tolist() == declared
    np.testing.assert_allclose(model.predict_proba(X), pipe.predict_proba(test[["age", "job"]]),
                               atol=1e-12)
    # the CLI reads the raw file by the schema and predicts the same labels
    data = tmp_path / "test.csv"
    test.to_csv(data, index=False)
    out = tmp_path / "p.csv"
    assert main(["predict", str(data), "--model", str(path), "--out", str(out),
                 "--label", "y"]) == 0
    written = pd.read_csv(out, dtype=str)["prediction"].tolist()
    assert written == [str(v) for v in pipe.predict(test[["age", "job"]])]
    accuracy = float(np.mean(pipe.predict(test[["age", "job"]]) == test["y"]))
    assert f"accuracy {accuracy:.4f}" in capsys.readouterr().out


def test_a_pipeline_with_other_steps_is_refused_in_one_line(tmp_path):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(400, 3)) / 3, rng.integers(0, 2, 400)
    pipe = make_pipeline(StandardScaler(), PrivateHalfspaceClassifier(
        1.0, 1e-6, classes=[0, 1], random_state=np.random.default_rng(0))).fit(X, y)
    with pytest.raises(ValueError, match=r"only as \(TabularEncoder, model\).*StandardScaler"):
        save_model(pipe, tmp_path / "m.json")
    assert not (tmp_path / "m.json").exists()


def test_predict_says_a_model_without_schema_reads_columns_as_numbers(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(400, 3)) / 3, rng.integers(0, 2, 400)
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1],
                                     random_state=np.random.default_rng(0)).fit(X, y)
    save_model(est, tmp_path / "m.json")
    data = tmp_path / "raw.csv"
    pd.DataFrame({"a": [1.0, 2.0], "b": [0.5, 0.1]}).to_csv(data, index=False)
    code = main(["predict", str(data), "--model", str(tmp_path / "m.json"), "--out",
                 str(tmp_path / "p.csv")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "expects 3 features" in err[0] and "carries no schema" in err[0]
