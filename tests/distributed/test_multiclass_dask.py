"""Multiclass on dask arrays (:mod:`dpboost.distributed_multiclass`): the in-memory fit, chunked.

The joint booster and one-vs-rest run the same rounds on a row-chunked dask array; what a round
releases (the mechanism, its grid and noise, the privacy event and the report) is the in-memory
one, and the chunked class sums stay within the public float error bound the mechanism charges.
"""

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.estimator import BoostedHalfspaceClassifier
from dpboost.mechanisms import centre_error_bound
from dpboost.multiclass import MulticlassHypothesis, class_sums, multiclass_gain

da = pytest.importorskip("dask.array")


def _data(n=3000, d=6, K=4, seed=0):
    rng = np.random.default_rng(seed)
    dirs = rng.normal(size=(K, d))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    y = rng.integers(0, K, n)
    X = 0.4 * dirs[y] + rng.normal(0, 0.1, (n, d))
    return X, y, K


@pytest.mark.parametrize("mode, chunk", [("joint", 700), ("joint", 1000), ("ovr", 700)])
def test_private_multiclass_fit_on_dask_is_the_in_memory_fit(client, mode, chunk):
    """Practical mode (the private centre and scale run too), a few rounds to stay fast."""
    X, y, K = _data()
    kw = dict(classes=list(range(K)), multiclass=mode, n_rounds=4, random_state=7)
    mem = PrivateHalfspaceClassifier(1.0, 1e-6, **kw).fit(X, y)
    dsk = PrivateHalfspaceClassifier(1.0, 1e-6, **kw).fit(
        da.from_array(X, chunks=(chunk, X.shape[1])), da.from_array(y, chunks=chunk))
    # the released centres: equal, or one grid step apart where two float sums straddle a
    # rounding boundary of the public grid
    step = mem.privacy_report_["grid_granularity"]
    diff = np.abs(mem.released_centres_ - dsk.released_centres_)
    assert diff.max() <= step * (1 + 1e-9)
    assert np.mean(diff > 0) < 0.01
    assert dsk.privacy_report_ == mem.privacy_report_
    assert dsk.privacy_event_ == mem.privacy_event_
    assert list(dsk.classes_) == list(mem.classes_) and dsk.n_features_in_ == X.shape[1]
    if diff.max() == 0:
        assert np.array_equal(dsk.coef_, mem.coef_)
        assert np.array_equal(dsk.predict(X), mem.predict(X))


def test_non_private_multiclass_on_dask_matches_memory(client):
    X, y, K = _data(seed=1)
    mem = BoostedHalfspaceClassifier(n_rounds=6, classes=list(range(K))).fit(X, y)
    dsk = BoostedHalfspaceClassifier(n_rounds=6, classes=list(range(K))).fit(
        da.from_array(X, chunks=(900, X.shape[1])), da.from_array(y, chunks=900))
    assert np.allclose(dsk.coef_, mem.coef_, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_chunked_class_sums_stay_within_the_public_error_bound(client, seed):
    """Any chunking, any row order: every class sum is the exact one within the bound the
    mechanism charges (checked against an exact rational sum), and the Frobenius error of all
    K sums too."""
    from fractions import Fraction

    rng = np.random.default_rng(seed)
    n, d, K = int(rng.integers(50, 4000)), int(rng.integers(1, 7)), int(rng.integers(3, 9))
    X = rng.normal(size=(n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = rng.integers(0, K, n)
    w = rng.random(n)
    w /= w.sum()
    chunks = int(rng.integers(1, n + 1))
    Z = class_sums(da.from_array(X, chunks=(chunks, d)), da.from_array(y, chunks=chunks),
                   da.from_array(w, chunks=chunks), K)
    exact = np.zeros((K, d))
    for k in range(K):
        rows = np.flatnonzero(y == k)
        for j in range(d):
            exact[k, j] = float(sum(Fraction(float(w[i])) * Fraction(float(X[i, j]))
                                    for i in rows))
    bound = centre_error_bound(n, 1.0)
    assert np.linalg.norm(Z - exact) <= bound
    assert np.allclose(Z, class_sums(X, y, w, K), rtol=0, atol=2 * bound)


def test_chunked_gain_is_the_in_memory_gain(client):
    X, y, K = _data(n=2500, seed=2)
    coef = np.random.default_rng(3).normal(size=(K, X.shape[1]))
    from dpboost.distributed_multiclass import dask_multiclass_gain

    lazy = dask_multiclass_gain(coef, da.from_array(X, chunks=(600, X.shape[1])),
                                da.from_array(y, chunks=600))
    assert np.array_equal(lazy.compute(), multiclass_gain(MulticlassHypothesis(coef)(X), y))


def test_dask_needs_declared_classes_and_refuses_undeclared_labels(client):
    X, y, K = _data(n=500)
    Xd, yd = da.from_array(X, chunks=(200, X.shape[1])), da.from_array(y, chunks=200)
    with pytest.raises(ValueError, match="a label that is not in classes"):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(Xd, yd)
    assert (y == 3).any()
    with pytest.raises(ValueError, match=r"Declare classes=\[\.\.\.\]"):  # never inferred
        PrivateHalfspaceClassifier(1.0, 1e-6, random_state=0).fit(Xd, yd)


def test_chunks_that_cut_the_global_blocks_keep_the_bound(client):
    """More rows than a centre block, chunks cutting blocks mid-way: each block's class rows
    are reduced alone and the pieces added back; still the exact sums within the bound."""
    from fractions import Fraction

    from dpboost.mechanisms import CENTRE_BLOCK_ROWS

    rng = np.random.default_rng(11)
    n, d, K = 2 * CENTRE_BLOCK_ROWS + 777, 2, 5
    X = rng.normal(size=(n, d)) / 2.0
    y = rng.integers(0, K, n)
    w = rng.random(n)
    w /= w.sum()
    chunk = CENTRE_BLOCK_ROWS // 3 + 1
    Z = class_sums(da.from_array(X, chunks=(chunk, d)), da.from_array(y, chunks=chunk),
                   da.from_array(w, chunks=chunk), K)
    exact = np.array([[float(sum(Fraction(float(w[i])) * Fraction(float(X[i, j]))
                                 for i in np.flatnonzero(y == k))) for j in range(d)]
                      for k in range(K)])
    assert np.linalg.norm(Z - exact) <= centre_error_bound(n, 1.0)
