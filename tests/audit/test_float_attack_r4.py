"""Round-4 mutation gaps in dpboost/float_attack.py (Mironov 2012's test on a released double).

continuous_output_possible(value, centre, sigma) answers whether value = fl(centre + fl(sigma x))
for some double x.  Soundness (never "impossible" for a producible value) is what makes a
False rule D' out with certainty; precision (False for a value no x produces) is what gives
the attack its power.  Ground truth below comes from explicit witnesses or exact arithmetic.
"""

from __future__ import annotations

import math

import numpy as np

from dpboost.float_attack import continuous_output_possible


def test_every_produced_value_is_possible():
    """value = fl(centre + fl(sigma x0)) for a known double x0: the answer must be True."""
    rng = np.random.default_rng(0)
    for _ in range(400):
        sigma = float(rng.uniform(0.1, 10.0))
        x0 = float(rng.normal())
        centre = float(rng.choice([0.0, 0.25, 3.0, -7.5]))
        value = centre + sigma * x0  # Python floats: each operation rounds once, as fl()
        assert continuous_output_possible(value, centre, sigma)


def test_a_value_between_the_products_is_impossible():
    """sigma = 1.5 * 2^982, centre 0, value 2^-52.  Only x near 2^-52 / sigma = 2^-1034 / 1.5
    (subnormal: x = k 2^-1074) can give it, and then sigma x = 1.5 k 2^-92 exactly (1.5 k has
    fewer than 53 bits); 1.5 k 2^-92 = 2^-52 would need k = 2^40 / 1.5, not an integer.  So no
    double x produces the value, though the nearest products miss it by under 1e-9 relative:
    the test must compare exactly, not approximately."""
    sigma, value = 1.5 * 2.0**982, 2.0**-52
    k = round(value / sigma / 2.0**-1074)
    assert abs(sigma * (k * 2.0**-1074) - value) < 1e-9 * value  # a near miss exists
    assert (2**40) % 3 != 0  # 2^40 / 1.5 = 2^41 / 3 is not an integer
    assert not continuous_output_possible(value, 0.0, sigma)


def test_too_many_preimages_is_answered_conservatively():
    """value = 1 + 2^-52 = fl(1 + s) for every s in [2^-53, 3 2^-53) (round to nearest even):
    billions of doubles, more than max_steps, so the test cannot enumerate them and must
    answer True (possible).  It is indeed possible: with sigma = 1.5 2^1000 the product
    sigma x for x = k 2^-1074 is 1.5 k 2^-74, inside that range for k = 2^21 (witness)."""
    sigma = 1.5 * 2.0**1000
    witness = 2.0**21 * 2.0**-1074
    assert 1.0 + sigma * witness == 1.0 + 2.0**-52
    assert continuous_output_possible(1.0 + 2.0**-52, 1.0, sigma)
