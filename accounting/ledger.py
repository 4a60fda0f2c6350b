"""A persistent privacy budget for one dataset, safe under concurrent processes and crashes.

The ledger is a JSON file holding the target ``(epsilon, delta)`` and the history of spends
(timestamp, label, event). Its total is the ``"best"`` conversion of the composition of every
spend (exact whenever all spends are Gaussian). A spend

1. takes an exclusive ``fcntl.flock`` on the ledger file itself (symbolic links resolved)
   and checks that the path still names the locked file, else retries
   (:mod:`accounting.ledger_lock` says why a sidecar lock file is not enough),
2. re-reads the ledger and re-checks the budget (so two processes can never overspend together),
3. writes the new ledger to a temporary file in the same folder, fsyncs it, ``os.replace``-s it
   over the ledger (keeping its permission bits) and fsyncs the folder.

A process killed at any point leaves either the old or the new ledger, never a torn one, so each
spend is counted at most once. Use :meth:`BudgetLedger.check` before touching any data and
:meth:`BudgetLedger.spend` to record (diffprivlib's "check before, record after"). Work that runs
for a while and may show output before it ends (a fit that prints its plan) should instead
:meth:`BudgetLedger.reserve` its cost before it starts and :meth:`BudgetLedger.settle` it after
("reserve before, settle after"): check-then-spend leaves a window in which a concurrent process
spends the same budget and the late spend is refused after the output was shown.

Examples
--------
>>> import tempfile, os
>>> from accounting.events import GaussianEvent, SelfComposedEvent
>>> folder = tempfile.mkdtemp()
>>> ledger = BudgetLedger(os.path.join(folder, "adult.json"), target_epsilon=2.0, target_delta=1e-6)
>>> round(ledger.spend(SelfComposedEvent(GaussianEvent(42.25), 100), label="run 1"), 6)
0.999918
>>> ledger.check(SelfComposedEvent(GaussianEvent(10.0), 100))
Traceback (most recent call last):
...
accounting.exceptions.BudgetExceededError: Privacy budget exceeded: spent eps=0.999918, requested eps=4.89, total would be eps=5.04 > limit eps=2 at delta=1e-06; ...
"""

from __future__ import annotations

import collections
import contextlib
import datetime
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from accounting import ledger_lock
from accounting._validation import check_real
from accounting.events import ComposedEvent, DPEvent, event_from_dict
from accounting.exceptions import BudgetExceededError
from accounting.zcdp import ZCDPAccountant

__all__ = ["BudgetLedger", "Spend"]

_FORMAT = "dpboost-budget-ledger"
_VERSION = 1
#: The keys a ledger file and each of its spends hold; any other would be lost on a rewrite.
_KEYS = frozenset({"format", "version", "target_epsilon", "target_delta", "spends"})
_SPEND_KEYS = frozenset({"timestamp", "label", "event", "reservation"})


class _DuplicateKey(ValueError):
    """A JSON object of the ledger file names a key twice (``args[0]``)."""


def _unique_keys(pairs: list) -> dict:
    """``json.loads``' ``object_pairs_hook``: the object, refusing a key named twice."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


@dataclass(frozen=True)
class Spend:
    """One recorded spend."""

    timestamp: str
    label: str
    event: DPEvent
    #: The id :meth:`BudgetLedger.reserve` gave a spend not yet settled, else ``""``.
    reservation: str = ""

    def to_dict(self) -> dict:
        out = {"timestamp": self.timestamp, "label": self.label, "event": self.event.to_dict()}
        if self.reservation:
            out["reservation"] = self.reservation
        return out


def _epsilon(events: list[DPEvent], delta: float) -> float:
    """ "best" epsilon of the composition (order does not matter: rho and mu^2 add up)."""
    if not events:
        return 0.0
    acc = ZCDPAccountant()
    for event, count in collections.Counter(events).items():  # events are hashable
        acc.compose(event, count=count)
    return acc.get_epsilon(delta, "best")


class BudgetLedger:
    """A JSON privacy budget ``(target_epsilon, target_delta)`` with an append-only history.

    Parameters
    ----------
    path : path-like
        The ledger file. Created if missing; if it exists its targets must match.
    target_epsilon : float in (0, inf)
    target_delta : float in (0, 1)

    Raises
    ------
    ValueError
        If ``path`` holds a ledger with different targets, or is not a ledger.

    References
    ----------
    Bun, Carmosino & Sorrell (2020), Lemma 14 (composition); Balle & Wang (2018), Thm 8.
    """

    def __init__(self, path: str | os.PathLike, target_epsilon: float, target_delta: float):
        self._path = ledger_lock.ledger_path(path, "BudgetLedger")
        eps = check_real(target_epsilon, "target_epsilon", "BudgetLedger", low=0)
        delta = check_real(target_delta, "target_delta", "BudgetLedger", low=0, high=1)
        # created atomically: a concurrent creator's file is never overwritten
        created = not self._path.exists() and ledger_lock.create_exclusive(
            self._path, self._dumps(eps, delta, []))
        if not created:  # it exists: its targets must match
            with self._locked() as (_real, fd, _st):
                data = self._read(fd)
            if (data["target_epsilon"], data["target_delta"]) != (eps, delta):
                raise ValueError(
                    f"The ledger {str(self._path)!r} already exists with target "
                    f"eps={data['target_epsilon']!r}, delta={data['target_delta']!r}; "
                    f"it cannot be re-created with eps={eps!r}, delta={delta!r} "
                    "(use BudgetLedger.open to load it)."
                )
        self._target_epsilon = eps
        self._target_delta = delta
        self._created = created

    @property
    def created(self) -> bool:
        """Whether this object created the file (False: it opened one with the same targets,
        or was loaded by :meth:`open`).  ``budget init`` refuses when it did not: two
        concurrent inits both said "created" (red team, session 36)."""
        return self._created

    @classmethod
    def open(cls, path: str | os.PathLike) -> BudgetLedger:
        """Load an existing ledger (``FileNotFoundError`` if there is none).

        The file is validated as a whole: the targets must be finite with ``target_epsilon > 0``
        and ``target_delta`` in (0, 1), every spend needs a string ``timestamp`` and ``label``
        and a valid event (nested at most :data:`~accounting.events.MAX_EVENT_DEPTH` deep).
        Any defect is one ``ValueError`` naming the file; nothing is written.
        """
        self = cls.__new__(cls)
        self._path = ledger_lock.ledger_path(path, "BudgetLedger.open")
        if not self._path.exists():
            raise FileNotFoundError(
                f"No budget ledger at {str(self._path)!r}; create it first "
                "(BudgetLedger(path, target_epsilon, target_delta) or "
                "'dpboost budget init')."
            )
        data = self._read()
        self._target_epsilon = data["target_epsilon"]
        self._target_delta = data["target_delta"]
        self._created = False
        return self

    # -- file handling
    def _locked(self):
        """``with self._locked() as (real, fd, st)``: see :func:`accounting.ledger_lock.locked`."""
        return ledger_lock.locked(self._path)

    def _malformed(self, what: str) -> ValueError:
        return ValueError(f"The budget ledger {str(self._path)!r} is malformed: {what}")

    def _read(self, fd: int | None = None) -> dict:
        """Read and validate the whole file (the version open as ``fd`` if given, else the one
        the path names); any defect is one ``ValueError`` naming the file."""
        try:
            if fd is None:
                with open(self._path, "rb") as handle:
                    ledger_lock.check_links(self._path, os.fstat(handle.fileno()))
                    raw = handle.read()
            else:
                raw = ledger_lock.read_fd(fd)
        except OSError as exc:
            raise OSError(exc.errno, f"Cannot read the budget ledger {str(self._path)!r}: "
                                     f"{exc.strerror or exc}") from None
        try:
            data = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
        except _DuplicateKey as exc:
            raise self._malformed(
                f"an object names the key {exc.args[0]!r} twice; JSON readers keep one of the "
                "two silently (the other, a spend or a target, would be lost on the next "
                "write): keep the right one.") from None
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{str(self._path)!r} is not a budget ledger (invalid JSON: "
                f"{exc.msg} at line {exc.lineno})."
            ) from None
        except UnicodeDecodeError:
            raise ValueError(
                f"{str(self._path)!r} is not a budget ledger (not UTF-8 text)."
            ) from None
        except RecursionError:
            raise self._malformed("its JSON is nested too deeply.") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise ValueError(
                f"{str(self._path)!r} is not a budget ledger (no 'format': {_FORMAT!r} entry)."
            )
        version = data.get("version")
        if isinstance(version, bool) or version != _VERSION:
            raise ValueError(
                f"The budget ledger {str(self._path)!r} has format version "
                f"{version!r}; this version of dpboost reads version {_VERSION}."
            )
        for key in ("target_epsilon", "target_delta", "spends"):
            if key not in data:
                raise ValueError(
                    f"The budget ledger {str(self._path)!r} is missing the key {key!r}."
                )
        extra = sorted(set(data) - _KEYS, key=str)
        if extra:
            raise self._malformed(f"it has the key {extra[0]!r}, which a ledger does not hold "
                                  f"(a write would drop it); keep notes in a spend's label.")
        data["target_epsilon"] = self._target(data, "target_epsilon", high=None)
        data["target_delta"] = self._target(data, "target_delta", high=1)
        if not isinstance(data["spends"], list):
            raise self._malformed(f"'spends' must be a list. Got {data['spends']!r} instead.")
        data["spends"] = [self._spend(i, s) for i, s in enumerate(data["spends"], start=1)]
        return data

    def _target(self, data: dict, key: str, *, high: float | None) -> float:
        """A stored target: finite, epsilon in (0, inf), delta in (0, 1)."""
        try:
            return check_real(data[key], key, "BudgetLedger", low=0, high=high)
        except (TypeError, ValueError) as exc:
            raise self._malformed(str(exc).replace("parameter of BudgetLedger", "entry")) from None

    def _spend(self, index: int, entry: object) -> Spend:
        where = f"spend {index}"
        if not isinstance(entry, dict):
            raise self._malformed(f"{where} must be a JSON object. Got {entry!r} instead.")
        for key in ("timestamp", "label", "event"):
            if key not in entry:
                raise self._malformed(f"{where} is missing the key {key!r}.")
        extra = sorted(set(entry) - _SPEND_KEYS, key=str)
        if extra:
            raise self._malformed(f"{where} has the key {extra[0]!r}, which a spend does not "
                                  "hold (a write would drop it); keep notes in its label.")
        for key in ("timestamp", "label", "reservation"):
            if key in entry and not isinstance(entry[key], str):
                raise self._malformed(
                    f"the {key!r} of {where} must be a string. Got {entry[key]!r} instead."
                )
        try:
            event = event_from_dict(entry["event"])
        except (TypeError, ValueError, RecursionError) as exc:
            raise self._malformed(f"the event of {where} ({entry['label']!r}): {exc}") from None
        return Spend(timestamp=entry["timestamp"], label=entry["label"], event=event,
                     reservation=entry.get("reservation", ""))

    @staticmethod
    def _dumps(eps: float, delta: float, spends: list[Spend]) -> str:
        # one spend per line: readable, and json's fast C encoder (indent would disable it)
        head = json.dumps(
            {"format": _FORMAT, "version": _VERSION, "target_epsilon": eps, "target_delta": delta},
            allow_nan=False,
        )
        lines = ",\n ".join(json.dumps(s.to_dict(), allow_nan=False) for s in spends)
        return head[:-1] + ', "spends": [\n ' + lines + "\n]}\n"

    # -- public API
    @property
    def path(self) -> Path:
        return self._path

    @property
    def target_epsilon(self) -> float:
        return self._target_epsilon

    @property
    def target_delta(self) -> float:
        return self._target_delta

    @property
    def history(self) -> tuple[Spend, ...]:
        """Every spend so far (read from disk), oldest first."""
        return tuple(self._read()["spends"])

    @property
    def event(self) -> ComposedEvent:
        """The composition of every spend so far."""
        return ComposedEvent(tuple(s.event for s in self.history))

    @property
    def spent_epsilon(self) -> float:
        """Epsilon spent so far at ``target_delta`` ("best" method)."""
        return _epsilon([s.event for s in self.history], self._target_delta)

    @property
    def remaining_epsilon(self) -> float:
        """``target_epsilon - spent_epsilon`` (not additive: for information only)."""
        return max(self._target_epsilon - self.spent_epsilon, 0.0)

    def _check(self, spent_events: list[DPEvent], event: DPEvent) -> float:
        if not isinstance(event, DPEvent):
            raise TypeError(
                f"The 'event' parameter of BudgetLedger must be a DPEvent. Got {event!r} instead."
            )
        delta = self._target_delta
        total = _epsilon(spent_events + [event], delta)
        if not total <= self._target_epsilon:
            spent = _epsilon(spent_events, delta)
            requested = _epsilon([event], delta)
            digits = 3  # enough digits that the total reads above the limit ("1 > 1" did)
            while digits < 17 and float(f"{total:.{digits}g}") <= self._target_epsilon:
                digits += 1
            raise BudgetExceededError(
                f"Privacy budget exceeded: spent eps={spent:.6g}, requested eps={requested:.3g}, "
                f"total would be eps={total:.{digits}g} > limit eps={self._target_epsilon:g} "
                f"at delta={delta:g}; the limit minus the spent eps is "
                f"{max(self._target_epsilon - spent, 0.0):.3g} (for information: epsilons do "
                "not add up, so a run planned at that eps may compose to more).",
                spent=spent,
                requested=requested,
                limit=self._target_epsilon,
            )
        return total

    def check(self, event: DPEvent) -> float:
        """Raise :class:`BudgetExceededError` if ``event`` does not fit; else return the total.

        Call it before touching any data. It does not reserve anything: :meth:`spend` checks
        again under the lock.
        """
        return self._check([s.event for s in self.history], event)

    def preflight(self) -> None:
        """Verify, writing nothing durable, that the next :meth:`spend` can be written.

        Under the lock, create a temporary file in the ledger's folder exactly as the atomic write
        does, write as many bytes as the ledger plus one more spend will need, flush, fsync and
        unlink it. A read-only folder, a missing permission or a full disk therefore fails here,
        *before* training touches any data, instead of in :meth:`spend` after it.

        Raises
        ------
        OSError
            Naming the folder, if any step fails. The ledger file is never modified.
        """
        with self._locked() as (real, fd, st):
            size = st.st_size + 4096
            tmp_fd, tmp = ledger_lock.temp_file(real, self._path)
            try:
                os.write(tmp_fd, b" " * size)
                os.fsync(tmp_fd)
            except OSError as exc:
                raise OSError(exc.errno, f"Cannot write the budget ledger {str(self._path)!r} "
                                         f"in {str(real.parent)!r}: {exc.strerror or exc}"
                              ) from None
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                os.close(tmp_fd)

    def spend(self, event: DPEvent, label: str = "") -> float:
        """Record ``event`` atomically under an exclusive lock; return the new total epsilon.

        Raises
        ------
        BudgetExceededError
            If the spend would pass the budget (nothing is written).
        """
        return self._append(event, label, reservation="")

    def reserve(self, event: DPEvent, label: str = "") -> str:
        """Record ``event`` now, before the work it pays for; return the reservation's id.

        The same atomic, locked, re-checked write as :meth:`spend`, with an id in the entry.
        From this moment every other process counts the event, so nobody can spend the same
        budget while the work runs. A reservation *is* a spend: a process that dies leaves it
        recorded. End it with :meth:`settle` (the work ran, or failed after it may have shown
        output) or :meth:`cancel` (the work was refused before it touched any data: nothing was
        released, so nothing is owed).

        Raises
        ------
        BudgetExceededError
            If the event does not fit (nothing is written).

        Examples
        --------
        >>> import tempfile, os
        >>> from accounting.events import GaussianEvent
        >>> ledger = BudgetLedger(os.path.join(tempfile.mkdtemp(), "l.json"), 1.0, 1e-6)
        >>> rid = ledger.reserve(GaussianEvent(20.0), label="fit (running)")
        >>> round(ledger.spent_epsilon, 4)          # counted while the fit runs
        0.1892
        >>> ledger.settle(rid, label="fit")
        >>> [s.label for s in ledger.history]
        ['fit']
        """
        rid = uuid.uuid4().hex
        self._append(event, label, reservation=rid)
        return rid

    def settle(self, reservation: str, label: str) -> None:
        """Keep the reserved spend ``reservation``, now labelled ``label``; its id is dropped.

        Raises
        ------
        KeyError
            If the ledger holds no open reservation with that id.
        """
        self._check_label(label, "settle")
        self._rewrite(reservation, lambda s: Spend(s.timestamp, label, s.event))

    def cancel(self, reservation: str) -> None:
        """Remove the reserved spend ``reservation``: the only way a spend leaves the ledger.

        Call it only when the work it reserved provably released nothing (input refused by
        checks that run before any data is touched); anything else is :meth:`settle`.

        Raises
        ------
        KeyError
            If the ledger holds no open reservation with that id.
        """
        self._rewrite(reservation, lambda s: None)

    @staticmethod
    def _check_label(label: object, method: str) -> None:
        if not isinstance(label, str):
            raise TypeError(
                f"The 'label' parameter of BudgetLedger.{method} must be a str. "
                f"Got {label!r} instead."
            )

    def _append(self, event: DPEvent, label: str, *, reservation: str) -> float:
        self._check_label(label, "reserve" if reservation else "spend")
        with self._locked() as (real, fd, st):
            data = self._read(fd)
            spends = data["spends"]
            total = self._check([s.event for s in spends], event)
            stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
            spends.append(Spend(timestamp=stamp, label=label, event=event,
                                reservation=reservation))
            ledger_lock.remove_stale_temp_files(real)  # left by writers that were killed
            text = self._dumps(data["target_epsilon"], data["target_delta"], spends)
            ledger_lock.atomic_write(real, self._path, text, st)
        return total

    def _rewrite(self, reservation: str, change) -> None:
        """Under the lock, replace the open reservation's spend by ``change(spend)`` (None
        removes it) and write the ledger atomically."""
        with self._locked() as (real, fd, st):
            data = self._read(fd)
            spends = data["spends"]
            found = [k for k, s in enumerate(spends)
                     if reservation and s.reservation == reservation]
            if not found:
                raise KeyError(f"The budget ledger {str(self._path)!r} holds no open "
                               f"reservation {reservation!r}.")
            new = change(spends[found[0]])
            spends[found[0]:found[0] + 1] = [] if new is None else [new]
            text = self._dumps(data["target_epsilon"], data["target_delta"], spends)
            ledger_lock.atomic_write(real, self._path, text, st)

    def __repr__(self) -> str:
        return (
            f"BudgetLedger({str(self._path)!r}, target_epsilon={self._target_epsilon!r}, "
            f"target_delta={self._target_delta!r})"
        )
