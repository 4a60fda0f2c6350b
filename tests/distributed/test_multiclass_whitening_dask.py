"""The whitened multiclass fit on a row-chunked dask array is the in-memory fit."""

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier

da = pytest.importorskip("dask.array")


@pytest.mark.slow
def test_whitened_multiclass_on_dask_is_the_in_memory_fit(client):
    rng = np.random.default_rng(3)
    n, K = 3000, 3  # with epsilon = 0.3: 51 rounds, and the whitening is released
    y = rng.integers(0, K, n)
    u = rng.normal(0, 0.25, (n, 1))
    X = np.hstack([u + 0.08 * np.eye(K)[y] + rng.normal(0, 0.03, (n, K)), np.full((n, 1), 0.3)])
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    kw = dict(classes=list(range(K)), random_state=5)
    mem = PrivateHalfspaceClassifier(0.3, 1e-6, **kw).fit(X, y)
    dsk = PrivateHalfspaceClassifier(0.3, 1e-6, **kw).fit(
        da.from_array(X, chunks=(900, X.shape[1])), da.from_array(y, chunks=900))
    assert mem.input_whitening_ is not None and mem.input_whitening_.applied
    assert dsk.privacy_event_ == mem.privacy_event_
    assert dsk.privacy_report_["input_whitening"] == mem.privacy_report_["input_whitening"]
    np.testing.assert_allclose(dsk.input_whitening_.matrix, mem.input_whitening_.matrix,
                               rtol=1e-9, atol=1e-12)
    # the rounds' releases: equal, or a grid step apart where float sums straddle a boundary
    agree = np.mean(dsk.predict(X) == mem.predict(X))
    assert agree > 0.99
