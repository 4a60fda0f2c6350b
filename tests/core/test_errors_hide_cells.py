"""Errors about X never print its cells (red team, session 37).

scikit-learn's "Expected 2D array, got 1D array instead: array=[ 0.12345679 ...]" and
"Complex data not supported [[ 0.12345679+0.j ...]]" printed training rows, in ``fit``,
``predict`` and ``PrivateSelection.fit``; text in X was already said without its cell.  A
DataFrame with a date column gave numpy's DTypePromotionError.  And a ``PrivateSelection``
fitted on a DataFrame kept no column names, so reordered columns were predicted silently.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost import PrivateHalfspaceClassifier, make_margin_data
from dpboost.selection import PrivateSelection

SECRET = (0.123456789, -0.987654321)


def _data():
    X, y = make_margin_data(60, 2, 0.1, random_state=0)
    X[0] = SECRET
    return X, y


def _small():
    return PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, random_state=0)


def _selection():
    return PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0,
                            candidates=[{"n_rounds": 5}], expected_runs=1.5)


def _calls():
    X, y = _data()
    fitted = _small().fit(X, y)
    return {"fit 1-D": lambda: _small().fit(X[:, 0], y),
            "predict 1-D": lambda: fitted.predict(X[:, 0]),
            "predict one row 1-D": lambda: fitted.predict(X[0]),
            "fit complex": lambda: _small().fit(X.astype(complex), y),
            "selection fit 1-D": lambda: _selection().fit(X[:, 0], y)}


@pytest.mark.parametrize("name", sorted(_calls()))
def test_no_error_prints_a_cell_of_X(name):
    with pytest.raises(ValueError) as caught:
        _calls()[name]()
    text = str(caught.value)
    assert "0.1234" not in text and "0.9876" not in text and "array=" not in text, text
    assert "not shown: they are private" in text


def test_a_date_column_is_said_in_words():
    X, y = _data()
    frame = pd.DataFrame(X, columns=["a", "b"]).assign(when=pd.Timestamp("2020-01-01"))
    with pytest.raises(TypeError, match="X holds dates or times"):
        _small().fit(frame, y)


def test_a_selection_checks_a_frame_columns_like_the_estimator():
    X, y = make_margin_data(300, 4, 0.1, random_state=0)
    frame = pd.DataFrame(X, columns=list("abcd"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = _selection().fit(frame, y)
    assert list(sel.feature_names_in_) == list("abcd")
    assert np.array_equal(sel.predict(frame), sel.predict(X))  # an array: no names to check
    with pytest.raises(ValueError, match="same order"):
        sel.predict(frame[list("dcba")])
    with pytest.raises(ValueError, match="PrivateSelection"):
        sel.predict(X[:, :3])
