"""Pins that ``accounting.selection.tnb_tails`` never reports a tail below the exact one.

Kills mutant S07 (the ``1 + 1e-9`` factor on each suffix sum dropped: ``tails[j] = acc``).

Why this property: the docstring promises upper bounds on ``P[K > k]`` "never below the exact
tail"; ``padding_runs`` and the padding's delta rest on it.  ``P[K > 0] = 1`` exactly (``K >= 1``),
so ``tails[0] >= 1`` is an exact check; the float suffix sum of the pmf, without the margin, comes
out up to about 6e-14 below 1 for about 7% of the parameters drawn here.  For the geometric case
(``eta = 1``) every tail is ``(1 - gamma)^k``, computed here with 50-digit mpmath.
"""

import random

import mpmath
import pytest

from accounting.selection import tnb_tails


def _params(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        eta = rng.choice([0.0, 1.0, -0.5, 0.5, 2.0, 3.0, rng.uniform(-0.9, 4.0)])
        yield eta, 10 ** rng.uniform(-3.0, -0.05)


def test_first_tail_is_at_least_one():
    low = [(eta, g) for eta, g in _params(1500, 0) if tnb_tails(eta, g, 1e-3)[0] < 1.0]
    assert low == []


@pytest.mark.parametrize("gamma", [0.003, 0.01, 0.05, 0.2, 0.5, 0.9])
def test_geometric_tails_against_50_digits(gamma):
    tails = tnb_tails(1.0, gamma, 1e-6)
    with mpmath.workdps(50):
        q = 1 - mpmath.mpf(gamma)
        for k, t in enumerate(tails):
            exact = q ** k
            assert mpmath.mpf(t) >= exact
            assert mpmath.mpf(t) <= exact * (1 + mpmath.mpf("1e-6")) + mpmath.mpf("1e-12")
