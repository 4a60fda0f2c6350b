"""A model fitted on a DataFrame keeps its column names through save and load (red team,
session 37): the file held ``feature_names: null``, and the loaded model scored reversed
columns silently (accuracy 1.0 -> 0.367) where the fitted estimator refuses them."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost import PrivateHalfspaceClassifier, make_margin_data
from dpboost._validation import check_column_order
from dpboost.model_io import load_model, save_model
from dpboost.selection import PrivateSelection


def _fitted(kind, frame, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "estimator":
            return PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=10,
                                              random_state=0).fit(frame, y)
        return PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0,
                                candidates=[{"n_rounds": 10}], expected_runs=1.5).fit(frame, y)


@pytest.mark.parametrize("kind", ["estimator", "selection"])
def test_a_loaded_model_refuses_the_columns_its_fit_would(tmp_path, kind):
    X, y = make_margin_data(300, 4, 0.1, random_state=0)
    frame = pd.DataFrame(X, columns=list("abcd"))
    model = _fitted(kind, frame, y)
    save_model(model, tmp_path / "m.json")
    loaded = load_model(tmp_path / "m.json")
    assert loaded.feature_names_ == list("abcd")
    assert np.array_equal(loaded.predict(frame), model.predict(frame))
    assert np.array_equal(loaded.predict(X), model.predict(X))  # an array: by position
    for bad in (frame[list("dcba")], frame[list("abc")], frame.assign(e=0.0)):
        with pytest.raises(ValueError, match="order it was fitted with"):
            loaded.predict(bad)


def test_check_column_order_passes_arrays_and_unnamed_models():
    check_column_order(np.zeros((2, 2)), ["a", "b"])
    check_column_order(pd.DataFrame({"b": [0], "a": [1]}), None)
    check_column_order(pd.DataFrame({0: [0], 1: [1]}), ["0", "1"])  # names as text
    with pytest.raises(ValueError, match=r"\['b'\] missing"):
        check_column_order(pd.DataFrame({"a": [0]}), ["a", "b"])
