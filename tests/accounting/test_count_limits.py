"""Repetition counts are bounded at 10**15: a larger one is a clear ValueError where it enters,
not an OverflowError ("int too large to convert to float") at conversion time."""

import math

import pytest

from accounting import (
    ComposedEvent,
    GaussianEvent,
    NoOpEvent,
    SelfComposedEvent,
    TNBSelectionEvent,
    ZCDPAccountant,
    calibrate_noise,
    event_from_dict,
)
from accounting._validation import MAX_COUNT

HUGE = [MAX_COUNT + 1, 10**16, 10**400, 10**5000]
IDS = ["max+1", "1e16", "1e400", "1e5000"]


@pytest.mark.parametrize("count", HUGE, ids=IDS)
def test_compose_refuses_a_huge_count(count):
    with pytest.raises(ValueError, match=r"parameter of ZCDPAccountant.compose must be an int "
                                         r"in \[0, 10\*\*15\]"):
        ZCDPAccountant().compose(GaussianEvent(1.0), count)


@pytest.mark.parametrize("count", HUGE, ids=IDS)
def test_self_composed_event_refuses_a_huge_count(count):
    with pytest.raises(ValueError, match=r"SelfComposedEvent must be an int in \[0, 10\*\*15\]"):
        SelfComposedEvent(GaussianEvent(1.0), count)


def test_event_dict_with_a_huge_count_is_a_value_error():
    data = {"type": "SelfComposedEvent", "count": 10**400, "event": {"type": "NoOpEvent"}}
    with pytest.raises(ValueError, match=r"10\*\*15\]\. Got about 10\*\*400 instead\.$"):
        event_from_dict(data)


@pytest.mark.parametrize("count", HUGE, ids=IDS)
def test_calibrate_noise_refuses_a_huge_count(count):
    with pytest.raises(ValueError, match=r"'count' parameter of calibrate_noise must be an int "
                                         r"in \[1, 10\*\*15\]"):
        calibrate_noise(1.0, 1e-6, count=count)


def test_the_largest_count_converts():
    acc = ZCDPAccountant().compose(GaussianEvent(1e8), MAX_COUNT)
    assert acc.rho == pytest.approx(0.05, rel=1e-15)
    assert math.isfinite(acc.get_epsilon(1e-6))
    assert SelfComposedEvent(NoOpEvent(), MAX_COUNT).count == MAX_COUNT


def test_nested_counts_never_overflow_an_int_to_float():
    """Nested counts multiply (10**15 squared, 25 deep) and must still give a number."""
    ev = GaussianEvent(1e6)
    for _ in range(25):
        ev = SelfComposedEvent(ev, MAX_COUNT)
    acc = ZCDPAccountant().compose(ev)
    assert acc.rho == math.inf and acc.get_epsilon(1e-6) == math.inf
    sel = ComposedEvent((ev, TNBSelectionEvent(rho=0.01, eta=1.0, gamma=0.2)))
    assert ZCDPAccountant().compose(sel).get_epsilon(1e-6) == math.inf
    free = NoOpEvent()
    for _ in range(30):
        free = SelfComposedEvent(free, MAX_COUNT)
    assert ZCDPAccountant().compose(free).get_epsilon(1e-6) == 0.0
