"""BudgetLedger: persistence, check-before-spend, concurrent spenders, SIGKILL mid-write."""

import json
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

import pytest

from accounting import (
    BudgetExceededError,
    BudgetLedger,
    GaussianEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    ZCDPEvent,
)

CTX = multiprocessing.get_context("fork")


@pytest.fixture
def folder(tmp_path):
    """A folder on tmpfs when there is one (fsync is then cheap); the logic tested is the same."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        import shutil
        import tempfile

        path = Path(tempfile.mkdtemp(prefix="dpboost-ledger-", dir=shm))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:  # pragma: no cover
        yield tmp_path


def test_create_spend_history_and_reload(folder):
    path = folder / "budget.json"
    ledger = BudgetLedger(path, target_epsilon=2.0, target_delta=1e-6)
    assert ledger.spent_epsilon == 0.0 and ledger.history == ()
    run = SelfComposedEvent(GaussianEvent(42.25), 100)
    total = ledger.spend(run, label="adult, run 1")
    assert total == pytest.approx(0.999918, abs=5e-7)
    again = BudgetLedger.open(path)
    assert (again.target_epsilon, again.target_delta) == (2.0, 1e-6)
    (spend,) = again.history
    assert spend.label == "adult, run 1" and spend.event == run
    assert spend.timestamp.endswith("+00:00")
    # standard JSON (no NaN/Infinity tokens)
    json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"non-standard {c}"))
    # same targets: re-creating is loading
    assert BudgetLedger(path, 2.0, 1e-6).spent_epsilon == pytest.approx(total, rel=1e-15)


def test_two_spends_compose_exactly(folder):
    ledger = BudgetLedger(folder / "b.json", 5.0, 1e-6)
    ledger.spend(SelfComposedEvent(GaussianEvent(42.25), 100), "a")
    ledger.spend(SelfComposedEvent(GaussianEvent(42.25), 100), "b")
    exact = ZCDPAccountant().compose(GaussianEvent(42.25), 200).get_epsilon(1e-6, "exact")
    assert ledger.spent_epsilon == pytest.approx(exact, rel=1e-12)


def test_total_uses_best_method_when_not_all_gaussian(folder):
    ledger = BudgetLedger(folder / "b.json", 5.0, 1e-6)
    ledger.spend(GaussianEvent(3.0), "g")
    ledger.spend(ZCDPEvent(0.01), "z")
    acc = ZCDPAccountant().compose(GaussianEvent(3.0)).compose(ZCDPEvent(0.01))
    assert ledger.spent_epsilon == pytest.approx(acc.get_epsilon(1e-6, "cks"), rel=1e-12)


def test_different_targets_raise(folder):
    path = folder / "b.json"
    BudgetLedger(path, 1.0, 1e-6)
    with pytest.raises(ValueError, match="already exists with target"):
        BudgetLedger(path, 2.0, 1e-6)
    with pytest.raises(ValueError, match="already exists with target"):
        BudgetLedger(path, 1.0, 1e-5)


def test_open_errors(folder):
    with pytest.raises(FileNotFoundError, match="No budget ledger"):
        BudgetLedger.open(folder / "missing.json")
    (folder / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a budget ledger"):
        BudgetLedger.open(folder / "bad.json")
    (folder / "other.json").write_text('{"a": 1}')
    with pytest.raises(ValueError, match="not a budget ledger"):
        BudgetLedger.open(folder / "other.json")
    with pytest.raises(ValueError, match="target_epsilon"):
        BudgetLedger(folder / "c.json", 0.0, 1e-6)


def test_check_raises_before_writing(folder):
    path = folder / "b.json"
    ledger = BudgetLedger(path, 1.0, 1e-6)
    ledger.spend(SelfComposedEvent(GaussianEvent(60.0), 100), "first")
    before = path.read_bytes()
    big = SelfComposedEvent(GaussianEvent(20.0), 100)
    with pytest.raises(BudgetExceededError) as info:
        ledger.check(big)
    err = info.value
    assert err.limit == 1.0
    assert err.spent == pytest.approx(ledger.spent_epsilon, rel=1e-12)
    assert err.requested == pytest.approx(
        ZCDPAccountant().compose(big).get_epsilon(1e-6), rel=1e-12
    )
    msg = str(err)
    assert f"spent eps={err.spent:.6g}" in msg and "requested eps=" in msg and "limit eps=1" in msg
    with pytest.raises(BudgetExceededError):
        ledger.spend(big, "too much")
    assert path.read_bytes() == before
    with pytest.raises(TypeError, match="label"):
        ledger.spend(GaussianEvent(100.0), label=3)


# ------------------------------------------------------------------ concurrent processes
N_PROCS, N_EACH, ADMITTED = 8, 50, 300
NOISE = 30.0


def _spender(path, start, worker, out, n_each=N_EACH):
    start.wait()
    ledger = BudgetLedger.open(path)
    ok = refused = 0
    for i in range(n_each):
        try:
            ledger.spend(GaussianEvent(NOISE), label=f"w{worker}-{i}")
            ok += 1
        except BudgetExceededError:
            refused += 1
    out.put((worker, ok, refused))


@pytest.mark.slow
def test_concurrent_spenders_never_overspend(folder):
    def eps(count):
        return ZCDPAccountant().compose(GaussianEvent(NOISE), count).get_epsilon(1e-6)

    target = 0.5 * (eps(ADMITTED) + eps(ADMITTED + 1))  # admits exactly ADMITTED spends
    path = folder / "shared.json"
    BudgetLedger(path, target, 1e-6)
    start, out = CTX.Event(), CTX.Queue()
    procs = [CTX.Process(target=_spender, args=(path, start, w, out)) for w in range(N_PROCS)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    assert sum(r[1] for r in results) == ADMITTED
    assert sum(r[1] + r[2] for r in results) == N_PROCS * N_EACH
    ledger = BudgetLedger.open(path)
    labels = [s.label for s in ledger.history]
    assert len(labels) == len(set(labels)) == ADMITTED
    assert ledger.spent_epsilon <= target


def test_concurrent_spenders_all_admitted(folder):
    path = folder / "shared.json"
    BudgetLedger(path, 1e6, 1e-6)
    start, out = CTX.Event(), CTX.Queue()
    procs = [CTX.Process(target=_spender, args=(path, start, w, out, 10)) for w in range(N_PROCS)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert sum(r[1] for r in results) == N_PROCS * 10
    assert len({s.label for s in BudgetLedger.open(path).history}) == N_PROCS * 10


# ------------------------------------------------------------------ SIGKILL mid-write


def _slow_spender(path, done_path, seed):
    """Spend forever, sleeping inside the write (between fsync and rename) to widen the window."""
    rng = random.Random(seed)
    real_replace, real_fsync = os.replace, os.fsync

    def slow_replace(src, dst):
        time.sleep(rng.uniform(0, 0.02))
        real_replace(src, dst)

    def slow_fsync(fd):
        time.sleep(rng.uniform(0, 0.01))
        real_fsync(fd)

    os.replace, os.fsync = slow_replace, slow_fsync  # this child process only
    ledger = BudgetLedger.open(path)
    done = os.open(done_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    i = 0
    while True:
        label = f"s{seed}-{i}"
        ledger.spend(GaussianEvent(1000.0), label=label)
        os.write(done, f"{label}\n".encode())
        i += 1


@pytest.mark.slow
def test_sigkill_mid_write_leaves_consistent_ledger(folder):
    path, done_path = folder / "killed.json", folder / "done.txt"
    BudgetLedger(path, 10.0, 1e-6)
    rng = random.Random(12345)
    n_kills = 12
    for seed in range(n_kills):
        proc = CTX.Process(target=_slow_spender, args=(path, done_path, seed))
        proc.start()
        time.sleep(rng.uniform(0.05, 0.25))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(timeout=30)
        assert proc.exitcode == -signal.SIGKILL
        ledger = BudgetLedger.open(path)  # loads after every kill
        labels = [s.label for s in ledger.history]
        assert len(labels) == len(set(labels))  # each spend at most once
    done = [line for line in done_path.read_text().split("\n") if line]
    labels = [s.label for s in BudgetLedger.open(path).history]
    assert set(done) <= set(labels)  # every completed spend is there ...
    assert len(labels) - len(done) <= n_kills  # ... plus at most the one in flight per kill
    assert len(labels) > 0
    # killed writers left temp files at most; the next spend works and clears them
    BudgetLedger.open(path).spend(GaussianEvent(1000.0), label="after")
    assert not list(folder.glob(".killed.json.*.tmp"))
    assert BudgetLedger.open(path).history[-1].label == "after"


def _stuck_in_rename(path, ready_path):
    """Write the new ledger, then hang right before the rename (the worst moment to die)."""

    def hang(src, dst):
        Path(str(ready_path) + ".part").write_text(src)
        os.rename(str(ready_path) + ".part", ready_path)  # the parent never sees a partial name
        time.sleep(60)

    os.replace = hang  # this child process only
    BudgetLedger.open(path).spend(GaussianEvent(1000.0), label="never committed")


def test_sigkill_between_write_and_rename(folder):
    path, ready = folder / "k.json", folder / "ready.txt"
    BudgetLedger(path, 10.0, 1e-6).spend(GaussianEvent(1000.0), label="committed")
    proc = CTX.Process(target=_stuck_in_rename, args=(path, ready))
    proc.start()
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    tmp = Path(ready.read_text())
    assert tmp.exists() and "never committed" in tmp.read_text()  # the new version was written
    os.kill(proc.pid, signal.SIGKILL)  # ... while holding the lock
    proc.join(timeout=30)
    ledger = BudgetLedger.open(path)
    assert [s.label for s in ledger.history] == ["committed"]
    ledger.spend(GaussianEvent(1000.0), label="next")  # the lock died with the process
    assert [s.label for s in ledger.history] == ["committed", "next"]
    assert not tmp.exists()


def test_other_format_version_is_refused(folder):
    path = folder / "v99.json"
    path.write_text(
        '{"format": "dpboost-budget-ledger", "version": 99, "target_epsilon": 1.0, '
        '"target_delta": 1e-06, "spends": []}'
    )
    with pytest.raises(ValueError, match="format version 99"):
        BudgetLedger.open(path)


def test_preflight_fails_before_any_data_on_a_full_disk(tmp_path, monkeypatch):
    import errno

    import accounting.ledger as ledger_module

    path = tmp_path / "b.json"
    ledger = BudgetLedger(path, target_epsilon=1.0, target_delta=1e-6)
    before = path.read_bytes()
    ledger.preflight()  # healthy: passes and leaves no trace
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ledger_module.os, "fsync", full)
    with pytest.raises(OSError, match="Cannot write the budget ledger"):
        ledger.preflight()
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]
