"""The zCDP accountant: composes events, converts to (epsilon, delta) by one of three methods.

``rho`` adds up over adaptive composition (Lemma 14 of Bun, Carmosino & Sorrell 2020; Bun &
Steinke 2016, Lemma 2.3). When every event is Gaussian (or a no-op) the composition is also
``mu``-GDP with ``mu^2 = sum count / z^2`` (Dong, Roth & Su 2019, Cor. 3.3), whose exact
(epsilon, delta) profile is known (Balle & Wang 2018, Thm 8).

Methods: ``"paper"`` (Lemma 15), ``"cks"`` (Canonne, Kamath & Steinke 2020, Prop. 12 / Cor. 13),
``"exact"`` (GDP profile; only for Gaussian compositions) and ``"best"`` (default: the smallest of
the applicable ones). For a Gaussian composition ``exact <= cks <= paper``.
The neighbouring relation is replace-one.

Examples
--------
>>> from accounting.events import GaussianEvent
>>> acc = ZCDPAccountant().compose(GaussianEvent(42.25), count=100)
>>> round(acc.get_epsilon(1e-6), 6), round(acc.get_epsilon(1e-6, method="paper"), 6)
(0.999918, 1.272157)

References
----------
Bun, Carmosino & Sorrell (2020), Lemmas 14-15; Bun & Steinke (2016); Canonne, Kamath & Steinke
(2020), arXiv:2004.00010, Prop. 12 / Cor. 13; Balle & Wang (2018), Thm 8; Dong, Roth & Su (2019),
Cor. 2.13 and Cor. 3.3.
"""

from __future__ import annotations

import math

from accounting import conversions
from accounting._validation import MAX_COUNT, METHODS, check_int, check_method, check_real
from accounting.events import (
    ComposedEvent,
    DiscreteGaussianEvent,
    DPEvent,
    ExponentialMechanismEvent,
    GaussianEvent,
    NonPrivateEvent,
    NoOpEvent,
    PureDPEvent,
    SelfComposedEvent,
    ZCDPEvent,
    event_from_dict,
)
from accounting.exceptions import UnsupportedEventError
from accounting.selection import TNBSelectionEvent, rdp_delta, rdp_epsilon, selection_rdp

__all__ = ["ZCDPAccountant", "event_mu_squared", "event_rho"]


def event_rho(event: DPEvent) -> float:
    """zCDP parameter of an event (``inf`` for :class:`NonPrivateEvent`)."""
    if isinstance(event, (GaussianEvent, DiscreteGaussianEvent)):
        z = event.noise_multiplier  # CKS20 Thm 14: the discrete Gaussian has the same rho
        return 0.0 if z == math.inf else 0.5 / z / z  # overflows to inf, never raises
    if isinstance(event, ZCDPEvent):
        return event.rho
    if isinstance(event, PureDPEvent):
        return 0.5 * event.epsilon * event.epsilon
    if isinstance(event, ExponentialMechanismEvent):  # epsilon-BR: Cesar & Rogers 2021, L. 3.2
        return 0.125 * event.epsilon * event.epsilon
    if isinstance(event, NoOpEvent):
        return 0.0
    if isinstance(event, NonPrivateEvent):
        return math.inf
    if isinstance(event, TNBSelectionEvent):
        return math.inf  # not zCDP: composed as an RDP curve (see ZCDPAccountant._rdp_curve)
    if isinstance(event, SelfComposedEvent):
        return 0.0 if event.count == 0 else event.count * event_rho(event.event)
    if isinstance(event, ComposedEvent):
        return math.fsum(event_rho(ev) for ev in event.events)
    raise UnsupportedEventError(f"ZCDPAccountant does not support the event {event!r}.")


def event_mu_squared(event: DPEvent) -> float:
    """``mu^2`` of a Gaussian composition; raises naming the first non-Gaussian sub-event."""
    if isinstance(event, GaussianEvent):
        z = event.noise_multiplier
        return 0.0 if z == math.inf else 1.0 / z / z
    if isinstance(event, NoOpEvent):
        return 0.0
    if isinstance(event, SelfComposedEvent):
        inner = event_mu_squared(event.event)
        return 0.0 if event.count == 0 else event.count * inner
    if isinstance(event, ComposedEvent):
        return math.fsum(event_mu_squared(ev) for ev in event.events)
    raise UnsupportedEventError(
        f"The 'exact' method needs a composition of Gaussian mechanisms; the sub-event "
        f"{event!r} is not one (use method='cks' or 'paper')."
    )


class ZCDPAccountant:
    """Accountant for adaptive compositions in zCDP, exact for Gaussian compositions.

    ``compose`` returns the accountant, so calls chain. Stateless apart from the list of
    events composed so far (``ledger`` as a :class:`ComposedEvent`).
    """

    def __init__(self) -> None:
        self._events: list[DPEvent] = []

    # -- building
    def compose(self, event: DPEvent, count: int = 1) -> ZCDPAccountant:
        """Add ``count`` adaptive repetitions of ``event`` and return ``self``.

        ``count`` is an int in [0, 10**15] (:data:`accounting._validation.MAX_COUNT`: every such
        count is an exact double); a larger one raises ValueError here, not at conversion.
        """
        if not isinstance(event, DPEvent):
            raise TypeError(
                "The 'event' parameter of ZCDPAccountant.compose must be a DPEvent. "
                f"Got {event!r} instead."
            )
        count = check_int(count, "count", "ZCDPAccountant.compose", low=0, high=MAX_COUNT)
        event_rho(event)  # raises UnsupportedEventError for unknown event classes
        self._events.append(event if count == 1 else SelfComposedEvent(event, count))
        return self

    def supports(self, event: DPEvent, method: str = "best") -> bool:
        """Whether ``method`` can interpret ``event``."""
        method = check_method(method, "ZCDPAccountant.supports")
        try:
            event_rho(event)
            if method == "exact":
                event_mu_squared(event)
        except UnsupportedEventError:
            return False
        return True

    @property
    def ledger(self) -> ComposedEvent:
        """Everything composed so far, as one event."""
        return ComposedEvent(tuple(self._events))

    @property
    def rho(self) -> float:
        """Total zCDP parameter (Lemma 14 of Bun, Carmosino & Sorrell 2020); inf if non-private."""
        return math.fsum(event_rho(ev) for ev in self._events)

    @property
    def mu(self) -> float:
        """GDP parameter ``sqrt(sum count / z^2)``; raises UnsupportedEventError if not Gaussian."""
        return math.sqrt(math.fsum(event_mu_squared(ev) for ev in self._events))

    @property
    def is_gaussian(self) -> bool:
        """Whether every composed event is Gaussian or a no-op (so ``"exact"`` applies)."""
        try:
            _ = self.mu
        except UnsupportedEventError:
            return False
        return True

    def methods(self) -> tuple[str, ...]:
        """Conversion methods applicable to what has been composed."""
        return METHODS if self.is_gaussian else tuple(m for m in METHODS if m != "exact")

    # -- conversions
    def get_epsilon(self, delta: float, method: str = "best") -> float:
        """Smallest epsilon such that the composition is (epsilon, delta)-DP by ``method``."""
        delta = check_real(delta, "delta", "ZCDPAccountant.get_epsilon", low=0, high=1)
        method = check_method(method, "ZCDPAccountant.get_epsilon")
        if method == "best":
            return min(self._best_candidates(delta))
        return self._epsilon(delta, method)

    def _best_candidates(self, delta: float) -> list[float]:
        out = []
        for m in self.methods():
            try:
                out.append(self._epsilon(delta, m))
            except ValueError:  # "exact" beyond its supported range: the others still bound it
                if m != "exact":
                    raise
        return out

    def get_delta(self, epsilon: float, method: str = "best") -> float:
        """Smallest delta such that the composition is (epsilon, delta)-DP by ``method``."""
        epsilon = check_real(
            epsilon, "epsilon", "ZCDPAccountant.get_delta", low=0, high=math.inf, closed="both"
        )
        method = check_method(method, "ZCDPAccountant.get_delta")
        if method == "best":
            return min(self._delta(epsilon, m) for m in self.methods())
        return self._delta(epsilon, method)

    def epsilons(self, delta: float) -> dict[str, float]:
        """Epsilon by every applicable method, e.g. ``{"paper": .., "cks": .., "exact": ..}``."""
        delta = check_real(delta, "delta", "ZCDPAccountant.epsilons", low=0, high=1)
        return {m: self._epsilon(delta, m) for m in self.methods()}

    def _rdp_curve(self):
        """``alpha -> sum rho_i alpha + sum count_j eps'_j(alpha)`` if a selection event was
        composed (RDP composes order by order, Mironov 2017 Prop. 1); else None."""
        rho, selections = 0.0, []

        def walk(ev, count):
            nonlocal rho
            if isinstance(ev, TNBSelectionEvent):
                selections.append((count, ev))
            elif isinstance(ev, SelfComposedEvent):  # a float product: inf, never OverflowError
                if ev.count:
                    walk(ev.event, count * float(ev.count))
            elif isinstance(ev, ComposedEvent):
                for sub in ev.events:
                    walk(sub, count)
            else:
                r = event_rho(ev)
                rho += count * r if r else 0.0  # inf * 0 would be NaN

        for ev in self._events:
            walk(ev, 1.0)
        if not selections:
            return None
        def curve(a: float) -> float:
            values = ((c, selection_rdp(ev, a)) for c, ev in selections)
            return rho * a + math.fsum(c * v if v else 0.0 for c, v in values)

        return curve

    def _epsilon(self, delta: float, method: str) -> float:
        curve = self._rdp_curve() if method != "exact" else None
        if curve is not None:
            return rdp_epsilon(curve, delta, method)
        if method == "exact":
            return conversions.gdp_epsilon(self.mu, delta)
        rho = self.rho
        if method == "cks":
            return conversions.cks_epsilon(rho, delta)
        return math.inf if rho == math.inf else conversions.zcdp_to_epsilon_paper(rho, delta)

    def _delta(self, epsilon: float, method: str) -> float:
        curve = self._rdp_curve() if method != "exact" else None
        if curve is not None:
            return rdp_delta(curve, epsilon, method)
        if method == "exact":
            return conversions.gdp_delta(self.mu, epsilon)
        if method == "cks":
            return conversions.cks_delta(self.rho, epsilon)
        return conversions.zcdp_to_delta_paper(self.rho, epsilon)

    def state_dict(self) -> dict:
        """JSON-serialisable state: ``{"events": [event.to_dict(), ...]}``."""
        return {"events": [ev.to_dict() for ev in self._events]}

    def load_state_dict(self, state: dict) -> ZCDPAccountant:
        """Replace the state by one from :meth:`state_dict`; errors name a missing key."""
        if not isinstance(state, dict) or "events" not in state:
            raise ValueError("The accountant state is missing the key 'events'.")
        self._events = [event_from_dict(d) for d in state["events"]]
        return self

    def __repr__(self) -> str:
        return f"ZCDPAccountant(events={self._events!r})"
