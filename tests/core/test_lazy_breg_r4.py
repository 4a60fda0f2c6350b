"""Round-4 mutation gaps in dpboost/lazy_breg.py and dpboost/round_ops.py."""

from __future__ import annotations

import numpy as np

from dpboost.lazy_breg import LazyBregBoost
from dpboost.mechanisms import CENTRE_BLOCK_ROWS, blocked_centre
from dpboost.round_ops import centre
from dpboost.weak_learners import HalfspaceHypothesis


def test_cached_measure_follows_a_new_label_vector_on_the_same_rows():
    """LB-NxM's measure is a function of (X, y, H) alone (Boost's modularity, Section 3.2 of
    Bun, Carmosino & Sorrell 2020); the cache is keyed on X *and* y.  After a call with y1, a
    call with other labels y2 on the same X must equal the pure recompute for y2."""
    rng = np.random.default_rng(0)
    X = rng.normal(0.0, 0.4, (80, 3))
    y1 = np.where(X[:, 0] > 0, 1, -1)
    y2 = -y1
    H = [HalfspaceHypothesis(np.array([1.0, 0.5, 0.0])),
         HalfspaceHypothesis(np.array([0.2, -1.0, 0.3]))]
    nxm = LazyBregBoost(0.3, 1.0)
    nxm.measure(X, y1, H)
    got = nxm.measure(X, y2, H)
    ref = LazyBregBoost(0.3, 1.0).recompute(X, y2, H)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-15)
    assert not np.allclose(ref, LazyBregBoost(0.3, 1.0).recompute(X, y1, H))


def test_numpy_centre_uses_the_blocked_order_the_error_bound_is_proved_for():
    """The public float error bound E of a release (centre_error_bound) is proved for the
    blocked summation (blocks of CENTRE_BLOCK_ROWS rows, pairwise across blocks); round_ops'
    numpy centre must use exactly that order (module docstring: both backends add the same
    global blocks with the same pairwise tree), i.e. equal blocked_centre bit for bit, not a
    BLAS product in an order nobody bounded."""
    rng = np.random.default_rng(1)
    n = 7 * CENTRE_BLOCK_ROWS + 13
    X = rng.normal(size=(n, 5))
    w = rng.uniform(0.0, 1.0, n) * rng.choice([-1.0, 1.0], n)
    assert np.array_equal(centre(X, w), blocked_centre(X, w))


def _case(seed=0, n=80):
    rng = np.random.default_rng(seed)
    X = rng.normal(0.0, 0.4, (n, 3))
    return X, np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1, -1)


def test_cached_measure_follows_new_rows_with_the_same_labels():
    """The cache is keyed on the identity of X too: after a call on X1, a call on other rows
    X2 (same y, same hypotheses) must equal the pure recompute on X2."""
    X1, y = _case(0)
    X2, _ = _case(5)
    H = [HalfspaceHypothesis(np.array([1.0, 0.5, 0.0]))]
    nxm = LazyBregBoost(0.3, 1.0)
    nxm.measure(X1, y, H)
    np.testing.assert_allclose(nxm.measure(X2, y, H),
                               LazyBregBoost(0.3, 1.0).recompute(X2, y, H),
                               rtol=1e-12, atol=1e-15)


def test_cached_measure_notices_a_replaced_last_hypothesis():
    """The hypothesis list must grow by appending; a list of the same length whose last
    element differs is another history, and the measure must be its recompute (the docstring's
    key: "its length and its last cached element")."""
    X, y = _case(1)
    h1 = HalfspaceHypothesis(np.array([1.0, 0.0, 0.0]))
    h2 = HalfspaceHypothesis(np.array([0.0, 1.0, 0.0]))
    h3 = HalfspaceHypothesis(np.array([-1.0, 0.0, 1.0]))
    nxm = LazyBregBoost(0.3, 1.0)
    nxm.measure(X, y, [h1, h2])
    got = nxm.measure(X, y, [h1, h3])
    np.testing.assert_allclose(got, LazyBregBoost(0.3, 1.0).recompute(X, y, [h1, h3]),
                               rtol=1e-12, atol=1e-15)
