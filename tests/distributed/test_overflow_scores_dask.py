"""A dask X scores, predicts and gives probabilities as memory does for rows near the float limit.

Before: the dask path computed ``X @ w`` by dask's blocked product, so a finite row near 1e308
scored ``inf - inf = NaN`` (the wrong class, NaN probabilities) where the in-memory
:func:`dpboost.scores.linear_scores` rescales the row; and two overflowed ``+inf`` class
scores went to the first class where :func:`dpboost.scores.largest_class` orders them.
Checked against 60-digit scores, with X in one and in several column chunks.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier

da = pytest.importorskip("dask.array")


def _exact_class(row, W, b):
    mp.mp.dps = 60
    s = [sum(mp.mpf(float(x)) * mp.mpf(float(w)) for x, w in zip(row, wk)) + mp.mpf(float(bk))
         for wk, bk in zip(W, b)]
    return max(range(len(s)), key=s.__getitem__) if len(s) > 1 else int(s[0] > 0)


@pytest.mark.parametrize("classes", [[0, 1], [0, 1, 2]])
@pytest.mark.parametrize("col_chunks", [3, 1])
def test_dask_rows_near_the_float_limit_match_memory_and_exact_order(client, classes,
                                                                     col_chunks):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3)) / 3.0
    y = np.arange(300) % len(classes)
    est = PrivateHalfspaceClassifier(2.0, 1e-6, classes=classes, random_state=0).fit(X, y)
    est.coef_ = est.coef_ * 1e4  # post-processing: weights large enough to overflow x . w
    big = np.array([[1e308, -1e308, 1e308], [-1e308, 1e308, 1e308], [1e308, 1e308, -1e308],
                    [-1.7e308, 0.0, 1.7e308], [1.7e308, 1.7e308, 1.7e308],
                    [0.1, 0.2, 0.3], [-0.3, 0.1, 0.2]])
    Xd = da.from_array(big, chunks=(3, col_chunks))
    W = np.atleast_2d(est.coef_)
    b = np.atleast_1d(est.intercept_)
    expected = [classes[_exact_class(r, W, b)] for r in big]

    assert est.predict(big).tolist() == expected  # memory (the reference)
    assert est.predict(Xd).compute().tolist() == expected
    scores = est.decision_function(Xd).compute()
    assert not np.isnan(scores).any()
    # equal to the last bit or two: numpy's X @ w of a 7-row matrix and of a 1-row block may
    # sum a row in another order (measured 1 ulp, 1.8e-16 relative, session 21); the
    # overflowing rows are +-inf on both sides
    np.testing.assert_allclose(scores, est.decision_function(big), rtol=1e-15, atol=0)
    proba = est.predict_proba(Xd).compute()
    np.testing.assert_allclose(proba, est.predict_proba(big))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (np.asarray(classes)[proba.argmax(axis=1)] == expected).all()


def test_dask_scores_of_ordinary_rows_are_unchanged(client):
    """Ordinary rows score exactly as in memory whatever the column chunking (the blocked
    product of several column chunks summed partial products in another order)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 6)) / 4.0
    y = (X[:, 0] > 0).astype(int)
    est = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1], random_state=1).fit(X, y)
    for chunks in [(100, 6), (128, 2)]:
        Xd = da.from_array(X, chunks=chunks)
        np.testing.assert_array_equal(est.decision_function(Xd).compute(),
                                      est.decision_function(X))
        np.testing.assert_array_equal(est.predict(Xd).compute(), est.predict(X))
