"""Clipped rows have an exact norm of at most the bound, not only a computed one.

Every sensitivity of a fit assumes ``||x|| <= R`` in real arithmetic.  ``clip_rows`` used to
compare the *computed* float64 norm with ``R``, and the computed norm can be ``O(d)`` ulps
below the exact one: 9 of 1,600 rows within a few ulps of the sphere (d = 2 to 1,000, float64
and float32) came out with an exact norm above ``R``.  Each row here is checked in exact
rational arithmetic.
"""

from fractions import Fraction

import numpy as np
import pytest

from dpboost.clipping import clip_rows


def _exact_squared_norm(row) -> Fraction:
    return sum(Fraction(float(v)) ** 2 for v in row)


def _near_sphere(rng, d, dtype, radius):
    """Rows whose computed norm is within +-40 ulps of ``radius``; some with equal entries
    (the worst case for a rounded sum), some Gaussian, some with one dominant entry."""
    rows = [rng.normal(size=d), np.ones(d), np.r_[10.0, rng.uniform(size=d - 1) * 1e-3]]
    out = []
    for x in rows:
        x = x / np.linalg.norm(x) * radius
        for k in rng.integers(-40, 40, size=12):
            out.append((x * (1 + int(k) * 2.0**-53)).astype(dtype))
    return np.array(out)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("d", [2, 7, 100, 1000])
@pytest.mark.parametrize("radius", [1.0, 0.3, 2.5])
def test_every_returned_row_has_exact_norm_at_most_the_bound(d, dtype, radius):
    rng = np.random.default_rng(d)
    X = _near_sphere(rng, d, dtype, radius)
    out = clip_rows(X, radius)
    bound = Fraction(radius) ** 2
    assert all(_exact_squared_norm(row) <= bound for row in out)
    # rows further inside are untouched; clipped ones lose a relative O(d eps) at most
    norms = np.linalg.norm(out.astype(np.float64), axis=1)
    assert np.all(norms >= radius * (1 - (d + 2) * 4.4e-16 - 16 * np.finfo(dtype).eps))


def test_rows_inside_the_margin_are_returned_unchanged():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 30))
    X /= np.linalg.norm(X, axis=1, keepdims=True) / 0.999999
    assert clip_rows(X, 1.0) is X
