"""Tests for dpboost.model_io: round trip, exact contents, bad files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost import __version__
from dpboost.exceptions import ModelFileError
from dpboost.model_io import (
    FORMAT,
    FORMAT_VERSION,
    HalfspaceModel,
    load_model,
    model_to_dict,
    save_model,
)


class _Fitted:
    """Stands in for a fitted estimator, with attributes that must NOT reach the file."""

    def __init__(self, coef, classes, report):
        self.coef_ = np.asarray(coef, dtype=float)
        self.intercept_ = 0.0
        self.classes_ = np.asarray(classes)
        self.privacy_report_ = report
        self.diagnostics_ = {"training_accuracy": 0.93, "margins": [0.1, 0.2]}
        self.n_features_in_ = len(coef)


REPORT = {"rho": 0.0123, "mu": 0.5, "delta": 1e-6,
          "epsilon": {"paper": 1.27, "cks": 1.08, "exact": 0.9999, "best": 0.9999},
          "n_rounds": 100, "kappa": 0.25, "noise_multiplier": np.float64(42.25),
          "n_samples": np.int64(1000), "utility_guarantee_applies": False,
          "accounting_method": "best", "sigma_util": float("inf")}


@settings(max_examples=25)
@given(
    coef=st.lists(st.floats(-1e300, 1e300, allow_nan=False), min_size=1, max_size=12),
    classes=st.sampled_from([[-1, 1], [0, 1], ["no", "yes"], [1.5, 2.5]]),
)
def test_round_trip_exact(tmp_path_factory, coef, classes):
    path = tmp_path_factory.mktemp("m") / "model.json"
    est = _Fitted(coef, classes, REPORT)
    save_model(est, path)
    model = load_model(path)
    np.testing.assert_array_equal(model.coef_, np.asarray(coef))  # bit-exact floats
    assert model.classes_.tolist() == classes
    assert model.n_features_in_ == len(coef)
    X = np.random.default_rng(0).standard_normal((20, len(coef)))
    with np.errstate(over="ignore", invalid="ignore"):
        expected = np.where(X @ est.coef_ > 0, est.classes_[1], est.classes_[0])
    if np.all(np.isfinite(X @ est.coef_)):
        assert model.predict(X).tolist() == expected.tolist()


def test_file_holds_only_weights_classes_report(tmp_path):
    path = tmp_path / "m.json"
    save_model(_Fitted([0.5, -0.25], [-1, 1], REPORT), path)
    content = json.loads(path.read_text())
    assert set(content) == {"format", "format_version", "dpboost_version", "n_features",
                            "coef", "intercept", "classes", "privacy_report", "schema",
                            "feature_names", "probability", "norm_bound"}
    assert content["schema"] is None and content["feature_names"] is None
    assert content["format"] == FORMAT and content["format_version"] == FORMAT_VERSION
    assert content["dpboost_version"] == __version__
    assert "diagnostics" not in path.read_text() and "accuracy" not in path.read_text()
    assert content["privacy_report"]["sigma_util"] == "inf"  # strict JSON, no Infinity
    model = load_model(path)
    assert math.isinf(model.privacy_report_["sigma_util"])
    assert model.privacy_report_["epsilon"]["exact"] == 0.9999
    assert model.privacy_report_["n_samples"] == 1000


def test_non_private_model_has_null_report(tmp_path):
    path = tmp_path / "m.json"
    save_model(_Fitted([1.0], ["a", "b"], None), path)
    model = load_model(path)
    assert model.privacy_report_ is None and "non-private" in repr(model)
    assert model.predict([[2.0], [-1.0]]).tolist() == ["b", "a"]
    assert model.score([[2.0], [-1.0]], ["b", "b"]) == 0.5


def _good(tmp_path):
    path = tmp_path / "m.json"
    save_model(_Fitted([0.5, -0.25, 1.0], [-1, 1], REPORT), path)
    return path


def test_truncated_file(tmp_path):
    path = _good(tmp_path)
    text = path.read_text()
    for cut in (0, 1, len(text) // 2, len(text) - 3):
        path.write_text(text[:cut])
        with pytest.raises(ModelFileError, match="not a complete JSON model file"):
            load_model(path)


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda c: c.update(format_version=4), "format version 4"),
        (lambda c: c.update(format_version=True), "format version True"),
        (lambda c: c.pop("schema"), "missing the key"),
        (lambda c: c.update(schema={"columns": {"a": {"type": "nope"}}}), "schema is invalid"),
        (lambda c: c.update(feature_names=["a"]), "feature_names"),
        (lambda c: c.update(format="other"), "not a dpboost model file"),
        (lambda c: c.pop("coef"), "missing the key"),
        (lambda c: c.update(coef=[1.0, 2.0]), "n_features"),
        (lambda c: c.update(coef=["a", 1, 2]), "must be numbers"),
        (lambda c: c.update(classes=[1]), "2 labels"),
        (lambda c: c.update(privacy_report=[1]), "privacy_report"),
    ],
)
def test_bad_contents(tmp_path, edit, match):
    path = _good(tmp_path)
    content = json.loads(path.read_text())
    edit(content)
    path.write_text(json.dumps(content))
    with pytest.raises(ModelFileError, match=match):
        load_model(path)


def test_not_an_object_and_wrong_features(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    with pytest.raises(ModelFileError):
        load_model(path)
    model = load_model(_good(tmp_path))
    with pytest.raises(ModelFileError, match="expects 3 features; the data has 2"):
        model.predict(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="first bad row: 1"):
        model.predict([[0, 0, 0], [0, np.nan, 0]])


def test_refuses_unfitted_or_nonfinite(tmp_path):
    class Empty:
        pass

    with pytest.raises(ValueError, match="not fitted"):
        save_model(Empty(), tmp_path / "a.json")
    with pytest.raises(ValueError, match="NaN or infinity"):
        save_model(_Fitted([np.nan], [0, 1], None), tmp_path / "b.json")
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()
    assert list(tmp_path.iterdir()) == []  # no temporary files left behind


def test_model_to_dict_is_json_serialisable_strictly():
    content = model_to_dict(HalfspaceModel([1.0, 2.0], 0.0, [0, 1], REPORT))
    json.dumps(content, allow_nan=False)


def test_version_1_files_still_load(tmp_path):
    path = tmp_path / "v1.json"
    content = json.loads(_good(tmp_path).read_text())
    content.pop("schema"), content.pop("feature_names")
    content["format_version"] = 1
    path.write_text(json.dumps(content))
    model = load_model(path)
    assert model.schema_ is None and model.feature_names_ is None
    np.testing.assert_array_equal(model.coef_, content["coef"])


def test_schema_and_feature_names_round_trip(tmp_path):
    from dpboost.schema import Schema

    schema = Schema.from_dict({"columns": {"age": {"type": "numeric", "lower": 0,
                                                   "upper": 100}},
                               "label": {"column": "y", "classes": ["no", "yes"]}})
    path = tmp_path / "m.json"
    save_model(_Fitted([0.5, -0.25], [0, 1], None), path, schema=schema,
               feature_names=["age", "intercept"], classes=["no", "yes"])
    model = load_model(path)
    assert model.schema_ == schema
    assert model.feature_names_ == ["age", "intercept"]
    assert model.classes_.tolist() == ["no", "yes"]
    with pytest.raises(ValueError, match="1 feature names for 2 weights"):
        save_model(_Fitted([0.5, -0.25], [0, 1], None), path, feature_names=["age"])


def test_probability_is_the_sigmoid_of_the_score_when_the_estimator_offers_it(tmp_path):
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=200) > 0, 1, -1)
    clf = LogisticRegression().fit(X, y)  # predict_proba = sigmoid(X @ coef + intercept)
    clf.coef_, clf.intercept_ = clf.coef_.ravel(), float(clf.intercept_[0])
    path = tmp_path / "p.json"
    save_model(clf, path)
    model = load_model(path)
    assert json.loads(path.read_text())["probability"] == "sigmoid"
    np.testing.assert_allclose(model.predict_proba(X), clf.predict_proba(X), rtol=1e-12)
    save_model(_Fitted([0.5, -0.25], [-1, 1], None), path)
    assert not hasattr(load_model(path), "predict_proba")
