"""Pipeline and search warnings of :mod:`dpboost.sklearn_wrappers` (round 5).

Kills SW01 (a ``ColumnTransformer`` counted as reading nothing when *any* of its transformers
reads nothing, instead of all): a ``StandardScaler`` on one column beside a public
``FunctionTransformer`` on another learns that column's mean and scale from every row without
noise, so the model after it is outside the guarantee and must get a PrivacyLeakWarning naming
the step.  SW02 (a nested ``Pipeline`` counted as reading nothing when *any* of its steps
reads nothing) likewise hid a scaler behind a public transformer inside a sub-pipeline.

Kills SW05 (``warn_if_in_search`` ignoring ``withhold_fit_warnings``): a
:class:`~dpboost.selection.PrivateSelection` run fits its candidates inside that context and
has already said what its own repeated fits cost; the candidates must not add a
BudgetPerFitWarning each, which tells the user to use the very PrivateSelection they use.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from dpboost import PrivateHalfspaceClassifier
from dpboost.privacy_report import withhold_fit_warnings
from dpboost.sklearn_wrappers import BudgetPerFitWarning, learned_steps, warn_if_in_search


def test_a_column_transformer_with_one_learned_part_is_a_learned_step():
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1])
    mixed = ColumnTransformer([("public", FunctionTransformer(), [0]),
                               ("scaled", StandardScaler(), [1])])
    public = ColumnTransformer([("public", FunctionTransformer(), [0, 1])])
    assert learned_steps(Pipeline([("ct", mixed), ("clf", clf)]), clf) == [
        "ct (ColumnTransformer)"]
    assert learned_steps(Pipeline([("ct", public), ("clf", clf)]), clf) == []


def test_a_sub_pipeline_with_one_learned_step_is_a_learned_step():
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1])
    inner = Pipeline([("public", FunctionTransformer()), ("scaled", StandardScaler())])
    public = Pipeline([("public", FunctionTransformer()), ("none", "passthrough")])
    assert learned_steps(Pipeline([("prep", inner), ("clf", clf)]), clf) == [
        "prep (Pipeline)"]
    assert learned_steps(Pipeline([("prep", public), ("clf", clf)]), clf) == []


class _Run(ClassifierMixin, BaseEstimator):
    """A stand-in for a candidate run: checks for a search the way the estimators do."""

    def __init__(self, withheld=True):
        self.withheld = withheld

    def fit(self, X, y):
        if self.withheld:
            with withhold_fit_warnings():
                warn_if_in_search("PrivateHalfspaceClassifier")
        else:
            warn_if_in_search("PrivateHalfspaceClassifier")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def _budget_warnings(est):
    X, y = np.zeros((20, 2)), np.arange(20) % 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cross_val_score(est, X, y, cv=2)
    return [w for w in caught if issubclass(w.category, BudgetPerFitWarning)]


def test_a_withheld_run_inside_a_search_does_not_warn():
    assert _budget_warnings(_Run(withheld=True)) == []


def test_the_same_run_not_withheld_warns_once():
    assert len(_budget_warnings(_Run(withheld=False))) == 1
