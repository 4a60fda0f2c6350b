"""BudgetLedger.reserve / settle / cancel: "reserve before, settle after".

Check-then-spend leaves a window: two processes both pass ``check``, both run, and the second
``spend`` is refused after its work may have shown output.  A reservation is written (locked,
re-checked, atomic) before the work starts, so from then on every other process counts it.
"""

import json
import multiprocessing

import pytest

from accounting import BudgetExceededError, BudgetLedger, GaussianEvent, ZCDPAccountant

CTX = multiprocessing.get_context("fork")
NOISE = 10.0


def _eps(count: int) -> float:
    return ZCDPAccountant().compose(GaussianEvent(NOISE), count).get_epsilon(1e-6)


def _ledger(tmp_path, admitted: int) -> BudgetLedger:
    """A ledger whose target admits exactly ``admitted`` events GaussianEvent(NOISE)."""
    target = 0.5 * (_eps(admitted) + _eps(admitted + 1))
    return BudgetLedger(tmp_path / "l.json", target, 1e-6)


def test_a_reservation_counts_for_every_other_process_until_it_is_settled(tmp_path):
    ledger = _ledger(tmp_path, 1)
    other = BudgetLedger.open(ledger.path)  # another process's view of the same file
    rid = ledger.reserve(GaussianEvent(NOISE), label="fit (running)")
    with pytest.raises(BudgetExceededError):
        other.check(GaussianEvent(NOISE))
    with pytest.raises(BudgetExceededError):
        other.spend(GaussianEvent(NOISE), label="concurrent")
    assert other.spent_epsilon == pytest.approx(_eps(1), rel=1e-12)
    ledger.settle(rid, label="fit")
    assert [(s.label, s.reservation) for s in other.history] == [("fit", "")]
    assert "reservation" not in json.loads(ledger.path.read_text())["spends"][0]


def test_a_reservation_that_does_not_fit_writes_nothing(tmp_path):
    ledger = _ledger(tmp_path, 2)
    ledger.spend(GaussianEvent(NOISE), label="a")
    ledger.reserve(GaussianEvent(NOISE), label="b")
    before = ledger.path.read_bytes()
    with pytest.raises(BudgetExceededError):
        ledger.reserve(GaussianEvent(NOISE), label="c")
    assert ledger.path.read_bytes() == before


def test_cancel_removes_exactly_its_own_spend_among_later_ones(tmp_path):
    ledger = _ledger(tmp_path, 10)
    ledger.spend(GaussianEvent(NOISE), label="before")
    first = ledger.reserve(GaussianEvent(NOISE), label="first")
    second = ledger.reserve(GaussianEvent(NOISE), label="second")
    ledger.spend(GaussianEvent(NOISE), label="after")
    ledger.cancel(first)
    assert [s.label for s in ledger.history] == ["before", "second", "after"]
    assert ledger.history[1].reservation == second
    assert ledger.spent_epsilon == pytest.approx(_eps(3), rel=1e-12)


def test_a_reservation_ends_once(tmp_path):
    ledger = _ledger(tmp_path, 5)
    rid = ledger.reserve(GaussianEvent(NOISE))
    ledger.settle(rid, "done")
    for end in (lambda: ledger.settle(rid, "again"), lambda: ledger.cancel(rid),
                lambda: ledger.cancel(""), lambda: ledger.cancel("no-such-id")):
        with pytest.raises(KeyError, match="no open reservation"):
            end()
    assert [s.label for s in ledger.history] == ["done"]
    with pytest.raises(TypeError, match="label"):
        ledger.reserve(GaussianEvent(NOISE), label=3)


def test_an_unsettled_reservation_survives_reloading_and_is_charged(tmp_path):
    """A process that dies mid-work leaves its reservation: it is a spend."""
    ledger = _ledger(tmp_path, 5)
    rid = ledger.reserve(GaussianEvent(NOISE), label="fit (running)")
    again = BudgetLedger.open(ledger.path)
    assert [(s.label, s.reservation) for s in again.history] == [("fit (running)", rid)]
    assert again.spent_epsilon == pytest.approx(_eps(1), rel=1e-12)


def _reserve_then_settle(path, start, worker, out):
    ledger = BudgetLedger.open(path)
    start.wait()
    won = 0
    for i in range(6):
        try:
            rid = ledger.reserve(GaussianEvent(NOISE), label=f"w{worker}-{i} (running)")
        except BudgetExceededError:
            continue
        ledger.settle(rid, label=f"w{worker}-{i}")
        won += 1
    out.put(won)


def test_concurrent_reservations_never_overspend(tmp_path):
    ledger = _ledger(tmp_path, 7)
    start, out = CTX.Event(), CTX.Queue()
    procs = [CTX.Process(target=_reserve_then_settle, args=(ledger.path, start, w, out))
             for w in range(4)]
    for p in procs:
        p.start()
    start.set()
    won = sum(out.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    history = BudgetLedger.open(ledger.path).history
    assert won == len(history) == 7
    assert all(not s.reservation and not s.label.endswith("(running)") for s in history)


def test_budget_show_names_an_open_reservation(tmp_path, capsys):
    from dpboost.cli import main

    ledger = _ledger(tmp_path, 5)
    rid = ledger.reserve(GaussianEvent(NOISE), label="fit (running)")
    ledger.spend(GaussianEvent(NOISE), label="done")
    assert main(["budget", "show", str(ledger.path), "--json"]) == 0
    spends = json.loads(capsys.readouterr().out)["spends"]
    assert [(s["label"], s.get("reservation")) for s in spends] == [
        ("fit (running)", rid), ("done", None)]
