"""Training rows outside the norm bound: clipped (privacy holds) and the data owner is told."""

import warnings

import numpy as np
import pytest

from dpboost import BoostedHalfspaceClassifier, ClippedRowsWarning, PrivateHalfspaceClassifier
from dpboost.estimator import clip_rows


def _rows(n, d, norm, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X *= norm / np.linalg.norm(X, axis=1, keepdims=True)
    return X, (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("make", [
    lambda: PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=0),
    lambda: BoostedHalfspaceClassifier(n_rounds=5, classes=[0, 1]),
])
def test_the_warning_fires_at_a_tenth_and_states_no_count(make):
    X, y = _rows(400, 5, 0.9)
    X[:41] *= 2.0  # 41 rows of norm 1.8 > 1: a tenth or more
    with pytest.warns(ClippedRowsWarning, match=r"^A tenth or more of the training rows") as w:
        make().fit(X, y)
    assert not any(c in str(w[0].message) for c in ("41", "400", "10.2"))  # no exact figure
    X[40] /= 2.0  # 40 rows: still a tenth
    with pytest.warns(ClippedRowsWarning, match=r"^A tenth or more"):
        make().fit(X, y)
    X[39] /= 2.0  # 39 rows: a few outliers, routine: silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClippedRowsWarning)
        make().fit(X, y)


def test_multiclass_warns_too():
    X, _ = _rows(300, 4, 3.0)
    y = np.arange(300) % 3
    with pytest.warns(ClippedRowsWarning, match="A tenth or more"):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)


def test_rows_on_or_inside_the_ball_are_silent_and_the_warning_changes_no_release():
    X, y = _rows(500, 6, 4.0)
    inside = clip_rows(X, 1.0)  # what the fit trains on
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClippedRowsWarning)
        a = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=3).fit(inside, y)
    # the rows outside the ball give the same released centres: the warning is a local
    # message to the data owner only
    with pytest.warns(ClippedRowsWarning, match="A tenth or more"):
        b = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=3).fit(X, y)
    np.testing.assert_allclose(b.released_centres_, a.released_centres_, rtol=0, atol=0)
