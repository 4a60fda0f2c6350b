"""The score families of a joint multiclass fit on dask (:mod:`dpboost.multiclass_discriminant`):
the utilities of the temperature's draw counted chunk by chunk are the in-memory ones, and the
draw of the scores on dask rows is the in-memory draw."""

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.private_temperature import candidate_temperatures, pair_utilities

da = pytest.importorskip("dask.array")


@pytest.mark.parametrize("seed", range(3))
def test_chunked_pair_utilities_are_the_in_memory_ones(seed):
    """The Brier part is summed per chunk and then across chunks (each correctly rounded), so
    it may differ from the in-memory sum in its last step; the correct counts are exact."""
    rng = np.random.default_rng(seed)
    n, K = 3000, 5
    u = rng.uniform(-1, 1, (n, K))
    y = rng.integers(0, K, n)
    offsets = rng.normal(0, 1, K) if seed else None
    t = candidate_temperatures()
    mem = pair_utilities(u, y, t, offsets)
    dsk = pair_utilities(da.from_array(u, chunks=(700, K)), da.from_array(y, chunks=700), t,
                         offsets)
    assert np.abs(mem - dsk).max() <= 1


@pytest.mark.parametrize("seed", range(3))
def test_the_draw_of_scores_on_dask_rows_is_the_in_memory_draw(seed):
    """calibrate_scores on the same mapped rows, numpy or row-chunked dask, the same stream:
    the same family, temperature and hypotheses (the boosting rounds' own dask equality is
    tests/distributed/test_multiclass_dask.py's)."""
    from dpboost.multiclass_discriminant import calibrate_scores
    from dpboost.whitening import Whitening

    rng = np.random.default_rng(seed)
    n, d, K, T, c = 4000, 4, 3, 6, 0.2
    y = rng.integers(0, K, n)
    X = np.hstack([rng.normal(0, 0.1, (K, d))[y] + rng.normal(0, 0.1, (n, d)),
                   np.full((n, 1), c)])
    coefs = np.stack([np.stack([np.append(X[y == k, :-1].sum(0), c * np.sum(y == k)) / n
                                for k in range(K)])] * T) + rng.normal(0, 1e-3, (T, K, d + 1))
    white = Whitening(np.eye(d) / 2, 1e-3, 0.1, True, 4 * np.cov(X[:, :-1].T, bias=True))
    kw = dict(released=coefs, white=white, scale=1.0, constant=c, noise_sd=1e-3, R=1.0,
              rho=0.01)
    counts = np.bincount(y, minlength=K)
    mem = calibrate_scores(X, y, coefs, None, counts, rng=np.random.default_rng(1), **kw)
    dsk = calibrate_scores(da.from_array(X, chunks=(900, d + 1)), da.from_array(y, chunks=900),
                           coefs, None, counts, rng=np.random.default_rng(1), **kw)
    assert mem.scores == dsk.scores and mem.temperature == dsk.temperature
    assert np.array_equal(mem.coefs, dsk.coefs)
    assert mem.temperature.n_candidates == 33 * 3
