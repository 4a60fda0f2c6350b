"""The zCDP accountant: composes events, converts to (epsilon, delta) by one of three methods.

``rho`` adds up over adaptive composition (Lemma 14 of Bun, Carmosino & Sorrell 2020; Bun &
Steinke 2016, Lemma 2.3). When every event is Gaussian (or a no-op) the composition is also
``mu``-GDP with ``mu^2 = sum count / z^2`` (Dong, Roth & Su 2019, Cor. 3.3), whose exact
(epsilon, delta) profile is known (Balle & Wang 2018, Thm 8).

Methods: ``"paper"`` (Lemma 15), ``"cks"`` (Canonne, Kamath & Steinke 2020, Prop. 12 / Cor. 13),
``"exact"`` (GDP profile; only for Gaussian compositions) and ``"best"`` (default: the smallest of
the applicable ones). For a Gaussian composition ``exact <= cks <= paper``.
The neighbouring relation is replace-one.

**Pure events.** A :class:`PureDPEvent` (``epsilon_0``-DP) and an
:class:`ExponentialMechanismEvent` (``epsilon_0``-DP: McSherry & Talwar 2007, Thm 6; Dwork & Roth
2014, Thm 3.10) also have a pure epsilon. Through zCDP alone one ``PureDPEvent(1)`` costs 5.22 at
delta = 1e-6, though it is 1-DP. So when pure events were composed the methods
``"pure+paper"``, ``"pure+cks"`` and ``"pure+exact"`` are also offered: split the composition into
a pure part ``P`` and the rest ``R`` and report

    epsilon = sum_{i in P} count_i epsilon_0i + epsilon_R(delta)      (``epsilon_R`` by the method)

(and ``delta = delta_R(epsilon - sum_P)`` for ``epsilon >= sum_P``, else no guarantee from that
split). This is basic composition of the ``(sum_P, 0)``-DP part with the ``(epsilon_R, delta)``-DP
rest (Dwork & Roth 2014, Thm 3.16; Dwork, McSherry, Nissim & Smith 2006), which holds under
adaptive composition in any order (Dong, Roth & Su 2019, Thm 3.2 with the trade-off form of basic
composition). For ``paper`` and ``cks`` it is also an RDP identity: ``epsilon_0``-DP is
``(alpha, epsilon_0)``-RDP at every order (Renyi divergence is nondecreasing in ``alpha`` up to
the max divergence), RDP adds up adaptively (Mironov 2017, Prop. 1), and both conversions of the
curve ``c + alpha rho`` are ``c`` plus those of ``alpha rho``. The splits tried put the pure
events with the largest ``rho`` per unit of ``epsilon_0`` in ``P`` first (all of them, then fewer),
so a large pure event can be paid linearly while small ones stay in zCDP. With no other events,
``epsilon = sum epsilon_0`` at every delta and ``delta = 0`` for ``epsilon >= sum epsilon_0``.
The sum is formed exactly and rounded up, ``epsilon - sum_P`` rounded down.

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
Cor. 2.13, Thm 3.2 and Cor. 3.3; Dwork & Roth (2014), The Algorithmic Foundations of
Differential Privacy, Thms 3.10 and 3.16; McSherry & Talwar (2007), Thm 6; Mironov (2017), Renyi
Differential Privacy, Prop. 1.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from accounting import conversions
from accounting._validation import (
    MAX_COUNT,
    METHODS,
    PURE_METHODS,
    check_int,
    check_method,
    check_real,
)
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

__all__ = ["ZCDPAccountant", "event_mu_squared", "event_pure_epsilon", "event_rho"]

#: Most splits (pure part / rest) the pure methods try; beyond it an evenly spread subset.
_MAX_SPLITS = 32


def _up_if_tiny(value: float) -> float:
    """``value`` (a rounded product of positive numbers), or the next float above it when it
    fell below the smallest normal float (2.2e-308).  There the spacing of floats is fixed
    (4.9e-324), so a product loses its relative precision or underflows to 0: ``0.5 / z / z``
    for z = 1e300 is 0.0, and a spend of noise multiplier 1e300 cost exactly nothing (red
    team, session 36).  One step up bounds the true value from above (each rounding is at
    most half a step).  In the normal range the relative error, 2^-53 per operation, is left
    to the conversions, which round up."""
    return math.nextafter(value, math.inf) if value < _SMALLEST_NORMAL else value


_SMALLEST_NORMAL = sys.float_info.min  # 2.2250738585072014e-308


def event_rho(event: DPEvent) -> float:
    """zCDP parameter of an event (``inf`` for :class:`NonPrivateEvent`)."""
    if isinstance(event, (GaussianEvent, DiscreteGaussianEvent)):
        z = event.noise_multiplier  # CKS20 Thm 14: the discrete Gaussian has the same rho
        return 0.0 if z == math.inf else _up_if_tiny(0.5 / z / z)  # inf for a tiny z
    if isinstance(event, ZCDPEvent):
        return event.rho
    if isinstance(event, PureDPEvent):
        eps = event.epsilon
        return _up_if_tiny(0.5 * eps * eps) if eps > 0 else 0.0
    if isinstance(event, ExponentialMechanismEvent):  # epsilon-BR: Cesar & Rogers 2021, L. 3.2
        eps = event.epsilon
        return _up_if_tiny(0.125 * eps * eps) if eps > 0 else 0.0
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
        return 0.0 if z == math.inf else _up_if_tiny(1.0 / z / z)
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


def event_pure_epsilon(event: DPEvent) -> float | None:
    """The pure epsilon of a single (not composed) event, or None if it has none.

    ``PureDPEvent(eps)`` is ``eps``-DP by definition; ``ExponentialMechanismEvent(eps)`` is
    ``eps``-DP (McSherry & Talwar 2007, Thm 6; Dwork & Roth 2014, Thm 3.10).
    """
    if isinstance(event, (PureDPEvent, ExponentialMechanismEvent)):
        return event.epsilon
    return None


def _pure_counts(events: list[DPEvent]) -> dict[DPEvent, int]:
    """Each pure event with ``epsilon > 0`` and its total (exact) count in the composition."""
    counts: dict[DPEvent, int] = {}

    def walk(ev: DPEvent, count: int) -> None:
        if event_pure_epsilon(ev):
            counts[ev] = counts.get(ev, 0) + count
        elif isinstance(ev, SelfComposedEvent):
            if ev.count:
                walk(ev.event, count * ev.count)
        elif isinstance(ev, ComposedEvent):
            for sub in ev.events:
                walk(sub, count)

    for ev in events:
        walk(ev, 1)
    return counts


def _without(ev: DPEvent, drop: frozenset) -> DPEvent:
    """``ev`` with every event in ``drop`` replaced by a :class:`NoOpEvent`."""
    if isinstance(ev, SelfComposedEvent):
        return SelfComposedEvent(_without(ev.event, drop), ev.count)
    if isinstance(ev, ComposedEvent):
        return ComposedEvent(tuple(_without(sub, drop) for sub in ev.events))
    return NoOpEvent() if event_pure_epsilon(ev) and ev in drop else ev


def _float_up(q: Fraction) -> float:
    """The smallest double ``>= q`` (``inf`` past the largest double)."""
    try:
        f = float(q)  # correctly rounded
    except OverflowError:
        return math.inf
    return math.nextafter(f, math.inf) if Fraction(f) < q else f


def _add_up(a: float, b: float) -> float:
    """``a + b`` rounded up (both ``>= 0``)."""
    if math.isinf(a) or math.isinf(b):
        return math.inf
    return _float_up(Fraction(a) + Fraction(b))


def _sub_down(a: float, b: float) -> float:
    """``a - b`` rounded down, for ``a >= b >= 0`` with ``b`` finite."""
    if math.isinf(a):
        return math.inf
    q = Fraction(a) - Fraction(b)
    f = float(q)
    return max(math.nextafter(f, -math.inf) if Fraction(f) > q else f, 0.0)


class ZCDPAccountant:
    """Accountant for adaptive compositions in zCDP, exact for Gaussian compositions.

    ``compose`` returns the accountant, so calls chain. Stateless apart from the list of
    events composed so far (``ledger`` as a :class:`ComposedEvent`).
    """

    def __init__(self) -> None:
        self._events: list[DPEvent] = []
        self._split_cache: tuple[int, list] | None = None  # (len(_events), _splits())

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
        method = check_method(method, "ZCDPAccountant.supports", extra=PURE_METHODS)
        try:
            event_rho(event)
            if method == "exact":
                event_mu_squared(event)
        except UnsupportedEventError:
            return False
        if method in PURE_METHODS:
            return method in ZCDPAccountant().compose(event).methods()
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
        """Conversion methods applicable to what has been composed.

        ``"paper"``, ``"cks"`` and, for Gaussian compositions, ``"exact"``; when pure events
        (:func:`event_pure_epsilon`) were composed, also ``"pure+paper"``, ``"pure+cks"`` and,
        if every other event is Gaussian, ``"pure+exact"`` (see the module docstring).
        """
        base = METHODS if self.is_gaussian else tuple(m for m in METHODS if m != "exact")
        splits = self._splits()
        if not splits:
            return base
        full_rest = splits[-1][1]  # every pure event in the pure part
        return base + tuple(m for m in PURE_METHODS if m[5:] in full_rest.methods())

    def _splits(self) -> list[tuple[float, ZCDPAccountant]]:
        """``(sum of the pure part's epsilons, accountant of the rest)`` for each split tried.

        The pure events are ordered by ``rho`` per unit of ``epsilon_0`` (``epsilon_0 / 2`` for
        :class:`PureDPEvent`, ``epsilon_0 / 8`` for :class:`ExponentialMechanismEvent`), largest
        first; split ``k`` pays the first ``k`` of them by basic composition, and the last split
        pays all of them so.  At most :data:`_MAX_SPLITS` splits (``k`` spaced geometrically from 1
        to all when there are more pure events).
        """
        if self._split_cache is not None and self._split_cache[0] == len(self._events):
            return self._split_cache[1]  # events are only appended (or all replaced: reset)
        counts = _pure_counts(self._events)
        order = sorted(counts, key=lambda ev: event_rho(ev) / event_pure_epsilon(ev),
                       reverse=True)
        n = len(order)
        if n <= _MAX_SPLITS:
            ks = list(range(1, n + 1))
        else:
            # geometrically spaced (1, 2, 3, ... n): one large event alone is always tried
            last = _MAX_SPLITS - 1
            ks = sorted({min(n, max(1, round(n ** (i / last)))) for i in range(_MAX_SPLITS)})
        out = []
        for k in ks:
            drop = frozenset(order[:k])
            pure = _float_up(sum((Fraction(event_pure_epsilon(ev)) * counts[ev] for ev in drop),
                                 Fraction(0)))
            rest = ZCDPAccountant()
            rest._events = [_without(ev, drop) for ev in self._events]
            out.append((pure, rest))
        self._split_cache = (len(self._events), out)
        return out

    # -- conversions
    def get_epsilon(self, delta: float, method: str = "best") -> float:
        """Smallest epsilon such that the composition is (epsilon, delta)-DP by ``method``."""
        delta = check_real(delta, "delta", "ZCDPAccountant.get_epsilon", low=0, high=1)
        method = check_method(method, "ZCDPAccountant.get_epsilon", extra=PURE_METHODS)
        if method == "best":
            return min(self._best_candidates(delta).values())
        return self._epsilon(delta, method)

    def best_method(self, delta: float) -> str:
        """The method whose epsilon at ``delta`` is ``get_epsilon(delta, "best")``.

        E.g. ``"pure+cks"`` when paying the pure events by basic composition is cheapest. Ties
        go to the first of ``exact, cks, paper, pure+exact, pure+cks, pure+paper``: a pure
        method is named only when it is strictly better.

        Examples
        --------
        >>> ZCDPAccountant().compose(PureDPEvent(1.0)).best_method(1e-6)
        'pure+exact'
        >>> ZCDPAccountant().compose(GaussianEvent(42.25), count=100).best_method(1e-6)
        'exact'
        """
        delta = check_real(delta, "delta", "ZCDPAccountant.best_method", low=0, high=1)
        candidates = self._best_candidates(delta)
        preference = METHODS[::-1] + PURE_METHODS[::-1]
        return min(preference, key=lambda m: (candidates.get(m, math.inf), preference.index(m)))

    def _best_candidates(self, delta: float) -> dict[str, float]:
        out = {}
        for m in self.methods():
            try:
                out[m] = self._epsilon(delta, m)
            except ValueError:  # "exact" beyond its supported range: the others still bound it
                if not m.endswith("exact"):
                    raise
        return out

    def get_delta(self, epsilon: float, method: str = "best") -> float:
        """Smallest delta such that the composition is (epsilon, delta)-DP by ``method``.

        A delta below the smallest positive double is returned as ``0.0``: for a Gaussian
        composition the true delta is positive at every finite epsilon, so a ``0.0`` there
        means "below about 5e-324" (``GaussianEvent(2)`` at ``epsilon = 20``: about 1e-347,
        by mpmath), not pure differential privacy.
        """
        epsilon = check_real(
            epsilon, "epsilon", "ZCDPAccountant.get_delta", low=0, high=math.inf, closed="both"
        )
        method = check_method(method, "ZCDPAccountant.get_delta", extra=PURE_METHODS)
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

    def _pure_epsilon(self, delta: float, base: str) -> float:
        """``min over splits of sum_P + epsilon_R(delta)`` by ``base`` (module docstring)."""
        values, error = [], None
        for pure, rest in self._splits():
            if base == "exact" and not rest.is_gaussian:
                continue
            try:
                values.append(_add_up(pure, rest._epsilon(delta, base)))
            except ValueError as exc:  # "exact" beyond MAX_EPSILON for this split only
                error = exc
        if not values:
            if error is not None:
                raise error
            raise UnsupportedEventError(  # pragma: no cover - check_method and methods() guard
                f"The 'pure+{base}' method does not apply to {self.ledger!r}."
            )
        return min(values)

    def _pure_delta(self, epsilon: float, base: str) -> float:
        """``min over splits with sum_P <= epsilon of delta_R(epsilon - sum_P)`` by ``base``."""
        out = 1.0
        for pure, rest in self._splits():
            if epsilon >= pure and (base != "exact" or rest.is_gaussian):
                out = min(out, rest._delta(_sub_down(epsilon, pure), base))
        return out

    def _epsilon(self, delta: float, method: str) -> float:
        if method in PURE_METHODS:
            return self._pure_epsilon(delta, method[5:])
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
        if method in PURE_METHODS:
            return self._pure_delta(epsilon, method[5:])
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
        self._split_cache = None
        return self

    def __repr__(self) -> str:
        return f"ZCDPAccountant(events={self._events!r})"
