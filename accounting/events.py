"""Privacy events: frozen, hashable value objects whose meaning never changes.

An event says *what* a mechanism did; an accountant decides what that costs. The neighbouring
relation is **replace-one** (two datasets of the same size differing in one row), as in Bun,
Carmosino & Sorrell (2020). A Gaussian mechanism with L2 sensitivity ``Delta`` (under that
relation) and standard deviation ``sigma`` is ``GaussianEvent(noise_multiplier=sigma / Delta)``.

Every event round-trips through JSON: ``event_from_dict(json.loads(json.dumps(ev.to_dict())))
== ev``. Infinite floats are written as the string ``"inf"`` so the JSON stays standard.

Examples
--------
>>> ev = SelfComposedEvent(GaussianEvent(noise_multiplier=42.25), count=100)
>>> event_from_dict(ev.to_dict()) == ev
True
>>> GaussianEvent(noise_multiplier=-1)
Traceback (most recent call last):
...
ValueError: The 'noise_multiplier' parameter of GaussianEvent must be a float in (0, inf]. Got -1 instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from accounting._validation import MAX_COUNT, check_int, check_real

__all__ = [
    "ComposedEvent",
    "DPEvent",
    "DiscreteGaussianEvent",
    "ExponentialMechanismEvent",
    "GaussianEvent",
    "NoOpEvent",
    "NonPrivateEvent",
    "PureDPEvent",
    "SelfComposedEvent",
    "ZCDPEvent",
    "event_from_dict",
]


def _encode(x: float) -> float | str:
    return "inf" if x == math.inf else x


def _decode(x: Any) -> Any:
    return math.inf if x == "inf" else x


class DPEvent:
    """Base class of every privacy event."""

    def to_dict(self) -> dict:
        """A JSON-serialisable dict with a ``"type"`` key; inverse of :func:`event_from_dict`."""
        raise NotImplementedError


@dataclass(frozen=True)
class GaussianEvent(DPEvent):
    """A Gaussian mechanism; ``noise_multiplier`` is sigma divided by the L2 sensitivity.

    It is ``1/(2 z^2)``-zCDP (Bun & Steinke 2016, Prop. 1.6) and ``1/z``-GDP (Dong, Roth & Su
    2019, Thm 2.7). ``noise_multiplier=inf`` is a mechanism that releases nothing (rho = 0):
    meaningful for a step that is skipped, never for a release that happened (the CLI refuses
    it). NaN is refused with ValueError.
    """

    noise_multiplier: float

    def __post_init__(self) -> None:
        z = check_real(
            self.noise_multiplier,
            "noise_multiplier",
            "GaussianEvent",
            low=0,
            high=math.inf,
            closed="right",
        )
        object.__setattr__(self, "noise_multiplier", z)

    def to_dict(self) -> dict:
        return {"type": "GaussianEvent", "noise_multiplier": _encode(self.noise_multiplier)}


@dataclass(frozen=True)
class DiscreteGaussianEvent(DPEvent):
    """The discrete Gaussian mechanism on an integer-valued query; ``noise_multiplier`` is the
    noise scale divided by the query's L2 sensitivity.

    Adding ``N_Z(0, s^2)`` independently to each coordinate of an integer query of L2
    sensitivity ``Delta`` is ``Delta^2 / (2 s^2)``-zCDP (Canonne, Kamath & Steinke 2020,
    Theorem 14), i.e. ``1/(2 z^2)``-zCDP with ``z = s / Delta``: the same rho as the continuous
    Gaussian.  Its (epsilon, delta) profile is *not* exactly the continuous Gaussian's, so the
    exact GDP conversion does not apply; accountants convert through zCDP (CKS20 Prop. 12 /
    Cor. 13, or Lemma 15).  This is what dpboost's floating-point-safe release spends
    (:class:`dpboost.mechanisms.LatticeGaussian`).  ``noise_multiplier=inf`` is a mechanism that
    releases nothing (rho = 0), as for :class:`GaussianEvent`; NaN is refused.
    """

    noise_multiplier: float

    def __post_init__(self) -> None:
        z = check_real(
            self.noise_multiplier,
            "noise_multiplier",
            "DiscreteGaussianEvent",
            low=0,
            high=math.inf,
            closed="right",
        )
        object.__setattr__(self, "noise_multiplier", z)

    def to_dict(self) -> dict:
        return {"type": "DiscreteGaussianEvent", "noise_multiplier": _encode(self.noise_multiplier)}


@dataclass(frozen=True)
class ZCDPEvent(DPEvent):
    """A mechanism known only to be ``rho``-zCDP (Bun & Steinke 2016, Def. 1.1)."""

    rho: float

    def __post_init__(self) -> None:
        rho = check_real(self.rho, "rho", "ZCDPEvent", low=0, closed="left")
        object.__setattr__(self, "rho", rho)

    def to_dict(self) -> dict:
        return {"type": "ZCDPEvent", "rho": self.rho}


@dataclass(frozen=True)
class PureDPEvent(DPEvent):
    """An ``epsilon``-DP mechanism; it is ``epsilon^2/2``-zCDP (Bun & Steinke 2016, Prop. 1.4).

    Accountants may also pay it ``epsilon`` by basic composition (Dwork & Roth 2014, Thm 3.16):
    :class:`~accounting.zcdp.ZCDPAccountant` offers both routes (the ``pure+`` methods).
    """

    epsilon: float

    def __post_init__(self) -> None:
        eps = check_real(self.epsilon, "epsilon", "PureDPEvent", low=0, closed="left")
        object.__setattr__(self, "epsilon", eps)

    def to_dict(self) -> dict:
        return {"type": "PureDPEvent", "epsilon": self.epsilon}


@dataclass(frozen=True)
class ExponentialMechanismEvent(DPEvent):
    """One draw of the exponential mechanism: ``P(k) ~ exp(epsilon u_k / (2 Delta))``.

    ``u_k`` are the candidates' utilities, each of sensitivity ``Delta`` under replace-one.  The
    mechanism is ``epsilon``-bounded-range (Durfee & Rogers 2019, Lemma 3.1), hence
    ``epsilon``-DP and ``epsilon^2 / 8``-zCDP (Cesar & Rogers 2021, Lemma 3.2: every
    ``epsilon``-BR mechanism is ``epsilon^2 / 8``-zCDP), four times less than the
    ``epsilon^2 / 2`` that pure ``epsilon``-DP alone gives (Bun & Steinke 2016, Prop. 1.4).
    It is also ``epsilon``-DP (McSherry & Talwar 2007, Thm 6; Dwork & Roth 2014, Thm 3.10), so
    :class:`~accounting.zcdp.ZCDPAccountant` may pay it ``epsilon`` by basic composition
    instead (the ``pure+`` methods): cheaper for one draw, dearer for many small ones.

    References
    ----------
    D. Durfee, R. Rogers. "Practical differentially private top-k selection with
    pay-what-you-get composition." NeurIPS 2019.
    M. Cesar, R. Rogers. "Bounding, concentrating, and truncating: unifying privacy loss
    composition for data analytics." ALT 2021.
    F. McSherry, K. Talwar. "Mechanism design via differential privacy." FOCS 2007.
    """

    epsilon: float

    def __post_init__(self) -> None:
        eps = check_real(self.epsilon, "epsilon", "ExponentialMechanismEvent", low=0,
                         closed="left")
        object.__setattr__(self, "epsilon", eps)

    def to_dict(self) -> dict:
        return {"type": "ExponentialMechanismEvent", "epsilon": self.epsilon}


@dataclass(frozen=True)
class SelfComposedEvent(DPEvent):
    """``count`` adaptive repetitions of ``event``; ``count`` is an int in [0, 10**15].

    The bound (:data:`accounting._validation.MAX_COUNT`) keeps every count an exact double, so
    ``count * rho`` never raises OverflowError; larger counts are refused with ValueError.
    """

    event: DPEvent
    count: int

    def __post_init__(self) -> None:
        if not isinstance(self.event, DPEvent):
            raise TypeError(
                "The 'event' parameter of SelfComposedEvent must be a DPEvent. "
                f"Got {self.event!r} instead."
            )
        check_int(self.count, "count", "SelfComposedEvent", low=0, high=MAX_COUNT)
        object.__setattr__(self, "count", int(self.count))

    def to_dict(self) -> dict:
        return {"type": "SelfComposedEvent", "event": self.event.to_dict(), "count": self.count}


@dataclass(frozen=True)
class ComposedEvent(DPEvent):
    """The adaptive composition of ``events`` (stored as a tuple, so the event is hashable)."""

    events: tuple

    def __post_init__(self) -> None:
        if isinstance(self.events, (str, bytes, DPEvent)) or not hasattr(self.events, "__iter__"):
            raise TypeError(
                "The 'events' parameter of ComposedEvent must be a sequence of "
                f"DPEvent. Got {self.events!r} instead."
            )
        events = tuple(self.events)
        for ev in events:
            if not isinstance(ev, DPEvent):
                raise TypeError(
                    "The 'events' parameter of ComposedEvent must be a sequence of "
                    f"DPEvent. Got {ev!r} instead."
                )
        object.__setattr__(self, "events", events)

    def to_dict(self) -> dict:
        return {"type": "ComposedEvent", "events": [ev.to_dict() for ev in self.events]}


@dataclass(frozen=True)
class NoOpEvent(DPEvent):
    """A step that touches no private data (costs nothing)."""

    def to_dict(self) -> dict:
        return {"type": "NoOpEvent"}


@dataclass(frozen=True)
class NonPrivateEvent(DPEvent):
    """A step that releases private data without protection (infinite cost)."""

    def to_dict(self) -> dict:
        return {"type": "NonPrivateEvent"}


_FIELDS = {
    "GaussianEvent": (GaussianEvent, ("noise_multiplier",)),
    "DiscreteGaussianEvent": (DiscreteGaussianEvent, ("noise_multiplier",)),
    "ZCDPEvent": (ZCDPEvent, ("rho",)),
    "PureDPEvent": (PureDPEvent, ("epsilon",)),
    "ExponentialMechanismEvent": (ExponentialMechanismEvent, ("epsilon",)),
    "SelfComposedEvent": (SelfComposedEvent, ("event", "count")),
    "ComposedEvent": (ComposedEvent, ("events",)),
    "NoOpEvent": (NoOpEvent, ()),
    "NonPrivateEvent": (NonPrivateEvent, ()),
    "TNBSelectionEvent": (None, ("rho", "eta", "gamma")),  # accounting.selection
}


#: Deepest nesting of ``SelfComposedEvent`` / ``ComposedEvent`` dicts that
#: :func:`event_from_dict` rebuilds (real ledgers use two or three levels); deeper input is
#: refused with ValueError instead of exhausting the interpreter's recursion limit.
MAX_EVENT_DEPTH = 100


def event_from_dict(data: dict, *, _depth: int = 0) -> DPEvent:
    """Rebuild an event from :meth:`DPEvent.to_dict` output.

    Raises
    ------
    ValueError
        If the dict has an unknown ``"type"``, lacks a key or has one its type does not hold
        (the message names it), or nests events more than :data:`MAX_EVENT_DEPTH` deep.
    """
    if _depth > MAX_EVENT_DEPTH:
        raise ValueError(
            f"The event dict nests events more than {MAX_EVENT_DEPTH} levels deep."
        )
    if not isinstance(data, dict):
        raise TypeError(f"An event dict must be a dict. Got {data!r} instead.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ValueError(
            f"Unknown event type {kind!r}; expected one of "
            + ", ".join(repr(k) for k in _FIELDS)
            + "."
        )
    cls, fields = _FIELDS[kind]
    extra = sorted(set(data) - set(fields) - {"type"}, key=str)
    if extra:  # a key the event never wrote: a rewrite would drop it (red team, session 36)
        raise ValueError(f"The event dict of type {kind!r} has the key {extra[0]!r}, which "
                         f"it does not hold (its keys: {', '.join(map(repr, fields))}).")
    if cls is None:  # defined in its own module (which imports this one)
        from accounting.selection import TNBSelectionEvent as cls
    kwargs = {}
    for name in fields:
        if name not in data:
            raise ValueError(f"The event dict of type {kind!r} is missing the key {name!r}.")
        value = data[name]
        if name == "event":
            value = event_from_dict(value, _depth=_depth + 1)
        elif name == "events":
            if not isinstance(value, list):
                raise ValueError(
                    f"The key 'events' of a ComposedEvent dict must be a list. "
                    f"Got {value!r} instead."
                )
            value = tuple(event_from_dict(v, _depth=_depth + 1) for v in value)
        else:
            value = _decode(value)
        kwargs[name] = value
    return cls(**kwargs)
