"""Declared classes not in sorted order: ``classes_`` stays sorted and a warning names the
positive class, in memory and on dask, binary and multiclass.

``classes=["Nein", "Ja"]`` gives ``classes_ = ["Ja", "Nein"]``, so "Nein" is the positive
class.  A user who read ``predict_proba[:, 1]`` as P(Ja) got a held-out ROC AUC of 0.39 (user
trial, session 18).  Keeping the declared order instead broke scikit-learn, whose scorers and
``CalibratedClassifierCV`` assume a sorted ``classes_``: ``cross_val_score(...,
scoring="roc_auc")`` gave 0.01 for a model of AUC 0.99 and the calibrator raised IndexError
(second trial, same session).  So the order stays sklearn's and the declaration is warned.
"""

import warnings

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score

from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier

da = pytest.importorskip("dask.array")


def _data(n=3000, seed=0, labels=("Nein", "Ja")):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) / 3
    return X, np.where(X[:, 0] + 0.1 * rng.normal(size=n) > 0, labels[1], labels[0])


@pytest.mark.parametrize("make", [
    lambda c: PrivateHalfspaceClassifier(2.0, 1e-6, classes=c, n_rounds=20, random_state=0),
    lambda c: BoostedHalfspaceClassifier(n_rounds=20, kappa=0.25, classes=c)])
def test_unsorted_classes_are_sorted_and_warned(make):
    X, y = _data()
    with pytest.warns(UserWarning, match=r"the positive class, classes_\[1\] .* is 'Nein'"):
        model = make(["Nein", "Ja"]).fit(X, y)
    assert model.classes_.tolist() == ["Ja", "Nein"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # sorted: no warning
        make(["Ja", "Nein"]).fit(X, y)


def test_sklearn_scorers_read_the_model_right():
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auc = cross_val_score(PrivateHalfspaceClassifier(2.0, 1e-6, classes=["Nein", "Ja"],
                                                         n_rounds=20, random_state=0),
                              X, y, cv=3, scoring="roc_auc")
    assert auc.min() > 0.9


def test_unsorted_multiclass_classes_are_warned():
    X, y = _data()
    y = np.where(X[:, 1] > 0.3, "c", y)
    with pytest.warns(UserWarning, match="predict_proba's columns follow classes_"):
        model = PrivateHalfspaceClassifier(2.0, 1e-6, classes=["c", "Nein", "Ja"], n_rounds=10,
                                           random_state=0).fit(X, y)
    assert model.classes_.tolist() == ["Ja", "Nein", "c"]


@pytest.mark.slow
def test_unsorted_classes_are_warned_on_dask(client):
    X, y = _data()
    lazy = PrivateHalfspaceClassifier(2.0, 1e-6, classes=["Nein", "Ja"], n_rounds=10,
                                      random_state=0)
    with pytest.warns(UserWarning, match="is 'Nein'"):
        lazy.fit(da.from_array(X, chunks=(1000, 3)), da.from_array(y, chunks=1000))
    assert lazy.classes_.tolist() == ["Ja", "Nein"]
