"""A ``PrivateSelection`` scores a dask array as its best run does, block by block: its own
check of X (session 37, for a DataFrame's column names) lets a dask array through unread."""

from __future__ import annotations

import warnings

import numpy as np

from dpboost import make_margin_data
from dpboost.selection import PrivateSelection


def test_selection_scores_a_dask_array_like_its_array():
    import dask.array as da

    X, y = make_margin_data(300, 4, 0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0,
                               candidates=[{"n_rounds": 5}], expected_runs=1.5).fit(X, y)
    blocks = da.from_array(X, chunks=(100, 4))
    assert np.array_equal(np.asarray(sel.predict(blocks)), sel.predict(X))
    assert np.allclose(np.asarray(sel.decision_function(blocks)), sel.decision_function(X))
