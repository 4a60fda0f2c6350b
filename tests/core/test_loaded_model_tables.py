"""A loaded model saved with a schema takes the raw table, as ``dpboost predict`` does, and
its ``classes_`` are sorted as the fitted pipeline's, the schema's order kept in
``declared_classes_`` (a raw-CSV trial, session 22: ``predict_proba`` on the raw frame failed
with numpy's "could not convert string to float: 'A12'", a cell shown; session 26: the loaded
model kept the schema's order, so its probability columns differed from the pipeline's)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.model_io import load_model, save_model
from dpboost.tabular import TabularEncoder
from pipeline_cases import pipeline_frame, pipeline_schema


def _schema(classes):
    spec = pipeline_schema(classes)
    spec["columns"]["note"] = {"type": "drop"}
    return spec


def _frame(n, seed, labels):
    return pipeline_frame(n, seed, labels).assign(note="x")


@pytest.fixture(params=[["good", "bad"], ["low", "mid", "high"]], ids=["binary", "three"])
def saved(request, tmp_path):
    classes = request.param
    frame = _frame(600, 0, classes)
    pipe = make_pipeline(TabularEncoder(_schema(classes)),
                         PrivateHalfspaceClassifier(2.0, 1e-6, classes=classes,
                                                    random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pipe.fit(frame.drop(columns="y"), frame["y"])
    save_model(pipe, tmp_path / "m.json")
    return load_model(tmp_path / "m.json"), pipe, classes


def test_a_raw_table_scores_as_its_encoding(saved):
    model, pipe, classes = saved
    test = _frame(80, 1, classes).drop(columns="y")
    encoded = pipe[0].transform(test)
    shuffled = test[["note", "job", "age"]].assign(extra="z")
    without_drop = test.drop(columns="note")
    for raw in (test, shuffled, without_drop):
        np.testing.assert_array_equal(model.decision_function(raw),
                                      model.decision_function(encoded))
        np.testing.assert_array_equal(model.predict(raw), model.predict(encoded))
    assert list(model.classes_) == sorted(classes) == list(pipe.classes_)
    assert list(model.declared_classes_) == classes  # the schema's order, negative first
    proba = model.predict_proba(test)
    np.testing.assert_array_equal(model.classes_[np.argmax(proba, axis=1)], model.predict(test))
    np.testing.assert_allclose(proba, pipe.predict_proba(test), rtol=1e-12, atol=1e-15)


def test_a_table_without_the_schema_columns_is_one_clear_error(saved):
    model, _, classes = saved
    test = _frame(5, 2, classes).drop(columns=["y", "age"])
    # named as the fitted pipeline names it (session 26: "X holds values that are not
    # numbers ... pass the raw table", a user trial)
    with pytest.raises(ValueError, match="The data has no column 'age', which the model's "
                                         "schema reads") as info:
        model.predict(test)
    assert "'a'" not in str(info.value) and "'c'" not in str(info.value)
