"""Pins the pure/rest splits of ZCDPAccountant and the downward rounding of ``epsilon - sum_P``.

Kills mutant A10 (``_splits`` orders the pure events by ``rho / epsilon_0`` ascending instead of
descending) and A11 (``_sub_down`` returns the nearest double instead of rounding down).

Why these properties: the module docstring states that the splits tried pay the events with
the largest ``rho`` per unit of ``epsilon_0`` linearly first.  With one ``PureDPEvent(1)``
(``rho = 1/2``) and one ``ExponentialMechanismEvent(1)`` (``rho = 1/8``) beside Gaussians, the
split ``P = {PureDPEvent}`` must be tried, so ``pure+cks`` equals
``1 + cks_epsilon(rho_G + 1/8)``, written out here from the public conversion; in the reversed
order that split is never tried and the value is larger.  ``epsilon - sum_P`` must never be
rounded up (a delta at a larger epsilon is optimistic): checked against exact rationals.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import ZCDPAccountant, conversions
from accounting.events import ExponentialMechanismEvent, GaussianEvent, PureDPEvent
from accounting.zcdp import _sub_down

DELTA = 1e-6


def _mixed():
    return (ZCDPAccountant().compose(PureDPEvent(1.0))
            .compose(ExponentialMechanismEvent(1.0))
            .compose(GaussianEvent(3.0), count=4))


RHO_G = 4 * 0.5 / 9.0


def test_large_pure_event_alone_is_paid_linearly():
    conv = conversions.cks_epsilon
    expected = 1.0 + conv(RHO_G + 0.125, DELTA)  # P = {PureDPEvent(1)}, exp. mech. kept in zCDP
    worse = min(1.0 + conv(RHO_G + 0.5, DELTA), 2.0 + conv(RHO_G, DELTA))
    assert expected < worse - 0.05  # the split matters at these settings
    got = _mixed().get_epsilon(DELTA, method="pure+cks")
    assert got == pytest.approx(expected, rel=1e-12)
    assert got >= expected  # rounded up, never below the formula


def test_large_pure_event_alone_in_delta():
    expected = conversions.cks_delta(RHO_G + 0.125, 1.5)
    got = _mixed().get_delta(2.5, method="pure+cks")
    assert got == pytest.approx(expected, rel=1e-9)
    assert got < conversions.cks_delta(RHO_G, 0.5) * 0.5  # both-paid split is far worse


finite = st.floats(min_value=0.0, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(finite, finite)
def test_sub_down_never_rounds_up(x, y):
    a, b = max(x, y), min(x, y)
    r = _sub_down(a, b)
    exact = Fraction(a) - Fraction(b)
    assert Fraction(r) <= exact
    assert r == 0.0 or Fraction(math.nextafter(r, math.inf)) > exact  # the largest such double


@pytest.mark.parametrize("a,b", [(1.0, 0.1), (1.0, 0.3), (10.0, 0.7), (2.5, 1e-17)])
def test_sub_down_examples(a, b):
    r = _sub_down(a, b)
    assert Fraction(r) <= Fraction(a) - Fraction(b) < Fraction(math.nextafter(r, math.inf))
