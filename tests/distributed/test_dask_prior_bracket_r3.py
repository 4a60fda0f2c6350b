"""Pins the public bracket of the dask projection when LB-NxM starts from a class prior.

Kills mutants B03 (``prior_max = min(class_gain)``) and B04 (the bracket's upper end
``n_hypotheses + 1`` without ``prior_max``) of ``dpboost.lazy_breg`` / ``dpboost.round_ops``.

Why this property: the dask projection searches the threshold ``theta`` of the capped scaling in
``[log(kappa)/lambda, upper]`` and ``upper`` must bound every cumulative gain, ``t + max(g_pos,
g_neg)`` (plus 1).  With ``class_gain = (5, 0)``, no hypothesis, 80 positive and 20 negative
rows, ``kappa = 0.5``, ``lambda = 1``, the root is ``theta = 5 - log(80/30) = 4.02``, beyond
``0 + min(5, 0) + 1``: the measure must still equal the in-memory projection (numpy path, which
needs no bracket) and, written out, ``mu = 1`` on the negatives and ``30/80`` on the positives.
Runs on dask's local threaded scheduler (no cluster), in well under a second.
"""

import numpy as np
import pytest

from dpboost.lazy_breg import LazyBregBoost

da = pytest.importorskip("dask.array")


@pytest.mark.parametrize("class_gain", [(5.0, 0.0), (0.0, 5.0)])
def test_dask_measure_with_a_large_prior_equals_numpy(class_gain):
    n, d = 100, 3
    X = np.random.default_rng(0).normal(size=(n, d)) / 4
    y = np.where(np.arange(n) < 80, 1.0, -1.0)
    if class_gain[1] > class_gain[0]:
        y = -y
    ref = LazyBregBoost(0.5, 1.0, class_gain).measure(X, y, [])
    got = LazyBregBoost(0.5, 1.0, class_gain).measure(
        da.from_array(X, chunks=(30, d)), da.from_array(y, chunks=30), [])
    got = np.asarray(got.compute() if hasattr(got, "compute") else got)
    big = np.array(class_gain).argmax()
    high = y > 0 if big == 0 else y <= 0
    np.testing.assert_allclose(ref[~high], 1.0)
    np.testing.assert_allclose(ref[high], 30.0 / 80.0, rtol=1e-12)
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-12)
