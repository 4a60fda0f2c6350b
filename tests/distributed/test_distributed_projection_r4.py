"""Round-4 mutation gap in dpboost/distributed_projection.py: one histogram pass's narrowing.

After a pass the client keeps the bin ``(lo, hi]`` holding the root of
``g(theta) = #{L <= theta} + sum_{L > theta} exp(-lambda (L - theta))`` and carries forward
``n_below = #{L <= lo}`` and ``above = sum_{L > hi} exp(-lambda (L - hi))`` (module
docstring, step 2).  Both are checked here against direct sums over the gains, for a pass
whose own upper edge has points above it (as every pass after the first does).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpboost.distributed_projection import _chunk_histogram, _narrow


def _g(L, theta, lr):
    up = L[L > theta]
    return float(np.sum(L <= theta) + np.sum(np.exp(-lr * (up - theta))))


@pytest.mark.parametrize("seed,lr,theta", [(0, 1.0, 1.9), (1, 3.0, 1.3), (2, 0.5, 2.6)])
def test_narrow_carries_the_mass_above_the_new_bin(seed, lr, theta):
    rng = np.random.default_rng(seed)
    L = rng.uniform(0.0, 5.0, 4000)
    edges = np.linspace(1.0, 3.0, 9)  # points on both sides of the pass's bracket
    target = _g(L, theta, lr)  # the root is theta, in a middle bin
    hist = _chunk_histogram(L[:1500], edges, lr) + _chunk_histogram(L[1500:], edges, lr)
    lo, hi, n_below, above, count = _narrow(hist, edges, lr, target)
    assert lo < theta <= hi < edges[-1]  # not the pass's last bin
    assert n_below == np.sum(L <= lo)
    assert count == np.sum((L > lo) & (L <= hi))
    direct = math.fsum(np.exp(-lr * (L[L > hi] - hi)))
    assert above == pytest.approx(direct, rel=1e-12)


def test_final_gather_excludes_the_gains_already_counted_below():
    """The last reduction returns the distinct gains in (lo, hi] (half-open): a gain equal to
    lo is already in n_below = #{L <= lo}, so gathering it again would count it twice and
    move the root.  Gains placed exactly on both ends check the two sides."""
    from dpboost.distributed_projection import _chunk_interior

    L = np.array([1.0, 1.0, 1.5, 2.0, 2.0, 2.0, 2.5])
    values, counts = _chunk_interior(L, 1.0, 2.0)
    assert values.tolist() == [1.5, 2.0]
    assert counts.tolist() == [1, 3]
