"""A loaded model orders its classes as the fitted estimator does (sorted), whatever order the
file declares, and ``dpboost predict`` still scores the declared positive class.

A user trial (session 25) fitted ``classes=["stayed", "churned"]`` through the API
(``classes_`` sorted: column 1 of ``predict_proba`` is P(stayed)), saved with the schema and
reloaded: the loaded model kept the schema's order, so column 1 became P(churned) and
``roc_auc_score(y, proba[:, 1])`` turned into one minus the AUC.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from dpboost import PrivateHalfspaceClassifier
from dpboost.cli import main
from dpboost.model_io import (HalfspaceModel, in_declared_order, load_model, model_from_dict,
                              model_to_dict, save_model)


def _content(coef, intercept, classes):
    return model_to_dict(HalfspaceModel(coef, intercept, classes, None, probability=(
        "softmax" if np.ndim(coef) == 2 else "sigmoid")))


@pytest.mark.parametrize("seed", range(40))
def test_loaded_classes_are_sorted_and_predict_the_same_labels_and_probabilities(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.choice([2, 2, 3, 5]))
    labels = rng.choice(["a", "B", "c", "d", "e", "z", "y"], size=k, replace=False).tolist()
    if seed % 4 == 0:
        labels = rng.choice(100, size=k, replace=False).tolist()
    d = int(rng.integers(1, 6))
    coef = rng.normal(size=(k, d) if k > 2 else d)
    intercept = rng.normal(size=k) if k > 2 else float(rng.normal())
    written = HalfspaceModel(coef, intercept, labels, None,
                             probability="softmax" if k > 2 else "sigmoid")
    X = rng.normal(size=(200, d))
    loaded = model_from_dict(_content(coef, intercept, labels))
    assert loaded.classes_.tolist() == sorted(labels)
    assert loaded.declared_classes_.tolist() == labels
    assert loaded.predict(X).tolist() == written.predict(X).tolist()
    for c in labels:  # each class's probability column follows its class
        np.testing.assert_allclose(loaded.predict_proba(X)[:, sorted(labels).index(c)],
                                   written.predict_proba(X)[:, labels.index(c)], atol=1e-12)
    again = in_declared_order(loaded)  # the file's order, as written
    assert again.classes_.tolist() == labels
    np.testing.assert_allclose(again.coef_, coef, atol=0)
    np.testing.assert_allclose(again.intercept_, intercept, atol=0)
    # re-saving a loaded model writes the file it was read from
    assert model_to_dict(loaded)["classes"] == labels
    np.testing.assert_array_equal(model_to_dict(loaded)["coef"], np.asarray(coef).tolist())


def test_api_fit_save_load_keeps_the_roc_auc(tmp_path):
    rng = np.random.default_rng(0)
    n, d = 4000, 4
    y = rng.choice(["stayed", "churned"], size=n, p=[0.7, 0.3])
    X = rng.normal(size=(n, d)) * 0.2 + 0.15 * (y == "churned")[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # declared out of sorted order: warned
        clf = PrivateHalfspaceClassifier(2.0, 1e-6, classes=["stayed", "churned"],
                                         random_state=np.random.default_rng(1)).fit(X, y)
    schema = {"label": {"column": "y", "classes": ["stayed", "churned"]}}
    save_model(clf, tmp_path / "m.json", schema=schema)
    assert json.loads((tmp_path / "m.json").read_text())["classes"] == ["stayed", "churned"]
    loaded = load_model(tmp_path / "m.json")
    auc = roc_auc_score(y, clf.predict_proba(X)[:, 1])
    assert auc > 0.6  # a ranking worth keeping
    assert roc_auc_score(y, loaded.predict_proba(X)[:, 1]) == pytest.approx(auc, abs=1e-12)
    np.testing.assert_allclose(loaded.predict_proba(X), clf.predict_proba(X), atol=1e-12)


def test_cli_predict_scores_the_declared_positive_class(tmp_path, capsys):
    # positive declared second ("Malignant"), although it sorts first
    coef, intercept = np.array([2.0, -1.0]), 0.25
    model = HalfspaceModel(coef, intercept, ["benign", "Malignant"], None,
                           probability="sigmoid")
    save_model(model, tmp_path / "m.json")
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 2)) * 0.3
    pd.DataFrame(X).to_csv(tmp_path / "x.csv", index=False, header=False)
    assert main(["predict", str(tmp_path / "x.csv"), "--model", str(tmp_path / "m.json"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    capsys.readouterr()
    out = pd.read_csv(tmp_path / "p.csv")
    np.testing.assert_allclose(out["score"], X @ coef + intercept, rtol=1e-12)
    assert out["prediction"].tolist() == model.predict(X).tolist()
    assert load_model(tmp_path / "m.json").classes_.tolist() == ["Malignant", "benign"]


@pytest.mark.parametrize("k", [2, 4])
def test_scikit_learn_scorers_take_a_loaded_model(tmp_path, k):
    from sklearn.base import is_classifier
    from sklearn.metrics import get_scorer

    rng = np.random.default_rng(k)
    n, d = 3000, 3
    names = ["zeta", "alpha", "mid", "beta"][:k]
    y = rng.choice(names, size=n)
    X = rng.normal(size=(n, d)) * 0.2 + 0.2 * (y[:, None] == np.array(names[1:d + 1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # declared out of sorted order
        clf = PrivateHalfspaceClassifier(5.0, 1e-6, classes=names,
                                         random_state=np.random.default_rng(0)).fit(X, y)
    save_model(clf, tmp_path / "m.json")
    loaded = load_model(tmp_path / "m.json")
    assert is_classifier(loaded)
    for name in ("accuracy", "neg_log_loss", "roc_auc" if k == 2 else "roc_auc_ovr"):
        assert get_scorer(name)(loaded, X, y) == pytest.approx(get_scorer(name)(clf, X, y),
                                                               abs=1e-9)


def test_a_bare_estimator_is_saved_in_its_declared_order(tmp_path):
    rng = np.random.default_rng(5)
    y = rng.choice(["malignant", "benign"], size=2000)
    X = rng.normal(size=(2000, 2)) * 0.2 + 0.2 * (y == "benign")[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = PrivateHalfspaceClassifier(2.0, 1e-6, classes=["malignant", "benign"],
                                         random_state=np.random.default_rng(0)).fit(X, y)
    save_model(clf, tmp_path / "m.json")
    assert json.loads((tmp_path / "m.json").read_text())["classes"] == ["malignant", "benign"]
    loaded = load_model(tmp_path / "m.json")
    assert loaded.declared_classes_.tolist() == ["malignant", "benign"]
    np.testing.assert_allclose(loaded.predict_proba(X), clf.predict_proba(X), atol=1e-12)
    # predict's probability column: P(benign), the declared positive
    np.testing.assert_allclose(in_declared_order(loaded).predict_proba(X)[:, 1],
                               clf.predict_proba(X)[:, list(clf.classes_).index("benign")],
                               atol=1e-12)
