"""Events: validation with the house template, hashability, JSON round trip."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import (
    ComposedEvent,
    ExponentialMechanismEvent,
    GaussianEvent,
    NonPrivateEvent,
    NoOpEvent,
    PureDPEvent,
    SelfComposedEvent,
    ZCDPEvent,
    event_from_dict,
)


def test_message_template():
    with pytest.raises(
        ValueError,
        match=r"^The 'noise_multiplier' parameter of GaussianEvent "
        r"must be a float in \(0, inf\]\. Got -1 instead\.$",
    ):
        GaussianEvent(noise_multiplier=-1)


@pytest.mark.parametrize(
    "make, bad, exc",
    [
        (GaussianEvent, 0.0, ValueError),
        (GaussianEvent, float("nan"), ValueError),
        (GaussianEvent, "1", TypeError),
        (GaussianEvent, True, TypeError),
        (ZCDPEvent, -0.1, ValueError),
        (ZCDPEvent, math.inf, ValueError),
        (ZCDPEvent, float("nan"), ValueError),
        (PureDPEvent, -1.0, ValueError),
        (PureDPEvent, None, TypeError),
        (ExponentialMechanismEvent, -1.0, ValueError),
        (ExponentialMechanismEvent, None, TypeError),
    ],
)
def test_invalid_parameters(make, bad, exc):
    with pytest.raises(exc, match="parameter of"):
        make(bad)


def test_self_composed_and_composed_validation():
    with pytest.raises(TypeError):
        SelfComposedEvent(GaussianEvent(1.0), 2.0)
    with pytest.raises(ValueError):
        SelfComposedEvent(GaussianEvent(1.0), -1)
    with pytest.raises(TypeError):
        SelfComposedEvent("gauss", 2)
    with pytest.raises(TypeError):
        ComposedEvent([GaussianEvent(1.0), 3])
    with pytest.raises(TypeError):
        ComposedEvent(GaussianEvent(1.0))


def test_infinite_noise_is_allowed():
    assert GaussianEvent(math.inf).noise_multiplier == math.inf


def test_frozen_and_hashable():
    ev = SelfComposedEvent(GaussianEvent(2.0), 3)
    with pytest.raises(AttributeError):
        ev.count = 4
    composed = ComposedEvent([ev, NoOpEvent()])
    assert isinstance(composed.events, tuple)
    assert hash(composed) == hash(
        ComposedEvent((SelfComposedEvent(GaussianEvent(2), 3), NoOpEvent()))
    )
    assert len({GaussianEvent(1.0), GaussianEvent(1), GaussianEvent(2.0)}) == 2


leaves = st.one_of(
    st.builds(GaussianEvent, st.one_of(st.floats(1e-3, 1e6), st.just(math.inf))),
    st.builds(ZCDPEvent, st.floats(0, 1e6)),
    st.builds(PureDPEvent, st.floats(0, 1e3)),
    st.builds(ExponentialMechanismEvent, st.floats(0, 1e3)),
    st.just(NoOpEvent()),
    st.just(NonPrivateEvent()),
)
events = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(SelfComposedEvent, inner, st.integers(0, 10_000)),
        st.builds(ComposedEvent, st.lists(inner, max_size=4)),
    ),
    max_leaves=12,
)


@settings(max_examples=60)
@given(events)
def test_json_round_trip(ev):
    text = json.dumps(ev.to_dict(), allow_nan=False)  # standard JSON: inf is written as "inf"
    back = event_from_dict(json.loads(text))
    assert back == ev
    assert hash(back) == hash(ev)


def test_from_dict_errors_name_the_problem():
    with pytest.raises(ValueError, match="Unknown event type 'Laplace'"):
        event_from_dict({"type": "Laplace", "scale": 1})
    with pytest.raises(ValueError, match="missing the key 'noise_multiplier'"):
        event_from_dict({"type": "GaussianEvent"})
    with pytest.raises(ValueError, match="missing the key 'count'"):
        event_from_dict({"type": "SelfComposedEvent", "event": {"type": "NoOpEvent"}})
    with pytest.raises(ValueError, match="parameter of GaussianEvent"):
        event_from_dict({"type": "GaussianEvent", "noise_multiplier": -2})
