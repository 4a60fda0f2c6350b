"""A product below the smallest normal float is rounded up, never down to 0 (session 37).

``0.5 / z / z`` for a noise multiplier z = 1e300 underflowed to 0.0, so the ledger charged a
spend of exactly nothing; below 2.2e-308 floats are spaced 4.9e-324 apart and a rounded
product can lose up to all of its value.  Each of these figures is now at least its exact
value, computed here in rational arithmetic (``fractions.Fraction`` holds a double exactly).
"""

from __future__ import annotations

import random
from fractions import Fraction

from accounting.events import (DiscreteGaussianEvent, ExponentialMechanismEvent, GaussianEvent,
                               PureDPEvent)
from accounting.zcdp import ZCDPAccountant, event_mu_squared, event_rho


def _random_large(rng: random.Random) -> float:
    """At least 1e154: 0.5 / z^2, 1 / z^2 and (1/z)^2 / 8 are then below 2.2e-308 (where the
    rounding up applies; above it the conversions' own margins cover one ulp)."""
    return rng.uniform(1.0, 10.0) * 10.0 ** rng.uniform(154.0, 307.0)


def test_rho_and_mu_squared_of_a_huge_noise_multiplier_are_upper_bounds():
    rng = random.Random(37)
    for _ in range(2000):
        z = _random_large(rng)
        exact = Fraction(1, 2) / Fraction(z) ** 2
        for event in (GaussianEvent(z), DiscreteGaussianEvent(z)):
            assert Fraction(event_rho(event)) >= exact > 0, z
        assert Fraction(event_mu_squared(GaussianEvent(z))) >= 2 * exact, z


def test_pure_and_exponential_rho_of_a_tiny_epsilon_are_upper_bounds():
    rng = random.Random(38)
    for _ in range(2000):
        eps = 1.0 / _random_large(rng)
        exact = Fraction(eps) ** 2
        assert Fraction(event_rho(PureDPEvent(eps))) >= exact / 2 > 0, eps
        assert Fraction(event_rho(ExponentialMechanismEvent(eps))) >= exact / 8 > 0, eps


def test_a_spend_of_noise_multiplier_1e300_is_not_free():
    acc = ZCDPAccountant().compose(GaussianEvent(1e300))
    assert acc.rho > 0 and acc.mu > 0
    assert event_rho(GaussianEvent(1.0)) == 0.5  # the normal range is untouched
    assert event_rho(PureDPEvent(0.0)) == 0.0  # so is an exact zero
