"""float32 rows under a norm bound near float32's limit are worked in float64.

A fit's intermediates reach about 1,100 R (centred rows up to 2R; the private input scale, up to
2^10, on mapped rows of norm up to 1.12 R).  In float32 with R = 3e38 a row of norm 0.999 R
overflowed to inf, clipping turned it into NaN, and the release cast NaN to int64: a
neighbouring data set raised, or released centres 1e13 noise sigmas out (a perfect
distinguisher; tests/audit/test_release_redteam_fresh.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpboost.clipping import FLOAT32_MAX_BOUND, FLOAT32_MIN_BOUND, clip_rows, working_dtype
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.mechanisms import LatticeGaussian


@pytest.mark.parametrize("bound", [FLOAT32_MIN_BOUND, 1e-6, 1.0, 1e30, FLOAT32_MAX_BOUND])
def test_float32_stays_float32_under_the_bound(bound):
    assert working_dtype(np.float32, bound) == np.float32
    X = np.zeros((3, 2), dtype=np.float32)
    assert clip_rows(X, bound).dtype == np.float32


@pytest.mark.parametrize("bound", [np.nextafter(FLOAT32_MAX_BOUND, np.inf), 3e38, 1e100])
def test_float32_is_worked_in_float64_past_the_bound(bound):
    assert working_dtype(np.float32, bound) == np.float64
    X = np.full((4, 3), np.float32(1e38), dtype=np.float32)
    before = X.copy()
    out = clip_rows(X, bound)
    assert out.dtype == np.float64 and np.all(np.isfinite(out))
    assert np.linalg.norm(out, axis=1).max() <= bound
    assert np.array_equal(X, before) and X.dtype == np.float32  # the input is not modified


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int64])
def test_other_dtypes_are_kept(dtype):
    assert working_dtype(dtype, 3e38) == np.dtype(dtype)


def _far(n: int, bound: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = (rng.normal(size=(n, 5)) * 0.01 * bound / np.sqrt(5)).astype(np.float32)
    y = (X[:, 0] > 0).astype(int)
    X2 = X.copy()
    X2[0] = np.float32(0.999 * bound) * np.eye(5, dtype=np.float32)[0]  # in the ball
    return X, X2, y


@pytest.mark.parametrize("n", [300, 3000])
def test_a_row_at_the_bound_fits_like_its_neighbour(n):
    """The fit's releases on D and D' (one row replaced by one of norm 0.999 R) are finite and
    of the same size, without a warning (before: NaN on D')."""
    bound = 3e38
    X, X2, y = _far(n, bound)
    spreads = []
    for data in (X, X2):
        with np.errstate(all="raise"):
            clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], norm_bound=bound,
                                             random_state=0).fit(data, y)
        sigma = clf.privacy_report_["sigma"] / bound**2
        spreads.append(np.abs(clf.released_centres_).max() / sigma)
        assert np.all(np.isfinite(clf.coef_)) and np.all(np.isfinite(clf.decision_function(X)))
    assert max(spreads) < 50 and spreads[1] == pytest.approx(spreads[0], rel=0.5)


def test_dask_rows_are_worked_in_float64_past_the_bound():
    da = pytest.importorskip("dask.array")
    from dpboost.distributed import clip_rows_dask

    X = np.full((6, 3), np.float32(1e38), dtype=np.float32)
    out = clip_rows_dask(da.from_array(X, chunks=(2, 3)), 3e38)
    assert out.dtype == np.float64
    assert np.array_equal(out.compute(), clip_rows(X, 3e38))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
def test_the_release_never_casts_a_bad_value(bad):
    mech = LatticeGaussian(sensitivity=0.01, noise_multiplier=1.0, dimension=3)
    with pytest.raises(RuntimeError, match="non-finite or out-of-range"):
        mech.release(np.array([0.1, bad, 0.2]), rng=np.random.default_rng(0))


@pytest.mark.parametrize("bound", [1e-100, 3e-39, np.nextafter(FLOAT32_MIN_BOUND, 0)])
def test_float32_is_worked_in_float64_under_a_tiny_bound(bound):
    assert working_dtype(np.float32, bound) == np.float64
    X = np.zeros((3, 2), dtype=np.float32)
    assert clip_rows(X, bound).dtype == np.float64


@pytest.mark.parametrize("params", [{"n_rounds": 20, "kappa": 0.25}, {}])
def test_a_zero_row_under_a_tiny_bound_fits_like_its_neighbour(params):
    """R = 3e-39, float32: the coefficients z / R^2 overflowed float32, and a zero row scored
    0 * inf = NaN on D' only (tests/audit/test_release_redteam_fresh.py)."""
    bound = 3e-39
    rng = np.random.default_rng(0)
    X = (rng.normal(size=(300, 5)) * 0.3 * bound / np.sqrt(5)).astype(np.float32)
    y = (X[:, 0] > 0).astype(int)
    X2 = X.copy()
    X2[0] = 0.0
    for data in (X, X2):
        with np.errstate(over="raise", invalid="raise"):
            clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], norm_bound=bound,
                                             random_state=0, **params).fit(data, y)
        assert np.all(np.isfinite(clf.released_centres_))
