"""Refused inputs of the accounting events and the house parameter checks (round 5).

Kills EV02 (``DiscreteGaussianEvent`` accepting ``noise_multiplier = 0``, the closed interval):
a discrete Gaussian with no noise is no mechanism at all (its rho is infinite), and a ledger
or event dict holding one must be refused at construction like ``GaussianEvent(0)``, not
composed into an infinite budget later.

Kills AV04 (``check_int`` accepting a bool): ``SelfComposedEvent(event, count=True)`` would
compose one release and a ledger file's ``"count": true`` would be read as 1; the house
checks refuse a bool wherever a number is expected.

Kills VA01 (``check_scalar`` ignoring an open lower end): ``noise_multiplier = 0`` (no noise)
was accepted by :class:`~dpboost.weak_learners.GaussianCenteringHalfspace` and
:class:`~dpboost.mechanisms.LatticeGaussian`, and the estimator's ``margin``, ``accuracy``,
``failure_probability`` and ``kappa`` at 0 were no longer refused by their own checks.

Kills VA03 (``check_random_state`` accepting a bool): ``random_state=True`` would silently be
the fixed seed 1 (a predictable noise stream), where the documented choices are None, a
non-negative int or a Generator.  Kills EV07 (``event_from_dict`` ignoring keys the event
does not hold): a hand-edited ledger entry such as ``{"type": "ZCDPEvent", "rho": 0.1,
"count": 5}`` must be refused, not read as one release and rewritten without the key.
"""

from __future__ import annotations

import numpy as np
import pytest

from accounting import DiscreteGaussianEvent, GaussianEvent, SelfComposedEvent, event_from_dict
from dpboost import PrivateHalfspaceClassifier
from dpboost._validation import check_random_state, check_scalar
from dpboost.mechanisms import LatticeGaussian
from dpboost.weak_learners import GaussianCenteringHalfspace


@pytest.mark.parametrize("cls", [GaussianEvent, DiscreteGaussianEvent])
def test_a_gaussian_event_without_noise_is_refused(cls):
    with pytest.raises(ValueError, match="noise_multiplier"):
        cls(0.0)
    with pytest.raises(ValueError, match="noise_multiplier"):
        event_from_dict({"type": cls.__name__, "noise_multiplier": 0})
    assert cls(float("inf")).noise_multiplier == float("inf")  # no release at all: allowed


@pytest.mark.parametrize("count", [True, False, np.bool_(True)])
def test_a_bool_count_is_refused(count):
    with pytest.raises(TypeError, match="'count'"):
        SelfComposedEvent(DiscreteGaussianEvent(1.0), count=count)
    data = {"type": "SelfComposedEvent", "count": bool(count),
            "event": {"type": "DiscreteGaussianEvent", "noise_multiplier": 1.0}}
    with pytest.raises(TypeError, match="'count'"):
        event_from_dict(data)


def test_check_scalar_open_ends_refuse_their_endpoint():
    assert check_scalar(0.5, "x", "T", low=0, high=1) == 0.5
    for closed, ok in (("neither", ()), ("left", (0.0,)), ("right", (1.0,)),
                       ("both", (0.0, 1.0))):
        for v in (0.0, 1.0):
            if v in ok:
                assert check_scalar(v, "x", "T", low=0, high=1, closed=closed) == v
            else:
                with pytest.raises(ValueError, match="'x' parameter of T"):
                    check_scalar(v, "x", "T", low=0, high=1, closed=closed)


def test_no_noise_is_refused_by_the_mechanisms():
    with pytest.raises(ValueError, match="noise_multiplier"):
        GaussianCenteringHalfspace(noise_multiplier=0.0, kappa=0.25)
    with pytest.raises(ValueError, match="noise_multiplier"):
        LatticeGaussian(sensitivity=0.1, noise_multiplier=0.0, dimension=3)


@pytest.mark.parametrize("param", ["margin", "accuracy", "failure_probability", "kappa"])
def test_the_estimator_refuses_zero_for_its_open_parameters(param):
    kw = {"margin": 0.5, param: 0.0}
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], **kw)
    with pytest.raises(ValueError, match=f"'{param}' parameter of PrivateHalfspaceClassifier"):
        est.planned_privacy_event()


@pytest.mark.parametrize("state", [True, False, np.bool_(True)])
def test_a_bool_random_state_is_refused(state):
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(state)
    X, y = np.zeros((10, 2)), np.arange(10) % 2
    with pytest.raises(TypeError, match="random_state"):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], n_rounds=2, kappa=0.5,
                                   random_state=state).fit(X, y)


@pytest.mark.parametrize("data", [
    {"type": "ZCDPEvent", "rho": 0.1, "count": 5},
    {"type": "DiscreteGaussianEvent", "noise_multiplier": 2.0, "rho": 0.0},
    {"type": "SelfComposedEvent", "count": 3, "events": [],
     "event": {"type": "NoOpEvent"}},
])
def test_an_event_dict_with_a_key_it_does_not_hold_is_refused(data):
    with pytest.raises(ValueError, match="does not hold"):
        event_from_dict(data)
