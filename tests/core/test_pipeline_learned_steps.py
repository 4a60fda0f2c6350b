"""A private estimator fitted after a Pipeline step that learned from the rows warns (red team,
session 37): ``Pipeline(StandardScaler(), PrivateHalfspaceClassifier)`` fitted the scaler
without noise, so one replaced row (1e6) moved accuracy on the other 1,999 from 1.0 to
0.504, and nothing said that the model was outside its guarantee."""

from __future__ import annotations

import warnings

import pytest
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, MinMaxScaler, StandardScaler

from dpboost import PrivateHalfspaceClassifier, make_margin_data
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.sklearn_wrappers import learned_steps


def _leaks(*steps) -> list[str]:
    X, y = make_margin_data(200, 3, 0.1, random_state=0)
    model = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make_pipeline(*steps, model).fit(X, y)
    return [str(w.message) for w in caught if issubclass(w.category, PrivacyLeakWarning)]


@pytest.mark.parametrize("step", [StandardScaler(), MinMaxScaler(),
                                  ColumnTransformer([("s", StandardScaler(), [0])],
                                                    remainder="passthrough")])
def test_a_step_that_learned_from_the_rows_warns_once(step):
    found = _leaks(step)
    assert len(found) == 1 and "outside the (target_epsilon, target_delta) guarantee" in found[0]


@pytest.mark.parametrize("step", [FunctionTransformer(lambda z: z / 2), "passthrough",
                                  ColumnTransformer([("f", FunctionTransformer(), [0, 1])],
                                                    remainder="passthrough")])
def test_steps_that_read_nothing_stay_silent(step):
    assert _leaks(step) == []


def test_learned_steps_names_only_steps_before_the_estimator():
    model = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1])
    pipe = make_pipeline(StandardScaler(), model)
    assert learned_steps(pipe, model) == ["standardscaler (StandardScaler)"]
    assert learned_steps(pipe, PrivateHalfspaceClassifier(1.0, 1e-6)) == []  # not its step
