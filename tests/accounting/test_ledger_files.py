"""BudgetLedger's file handling: the lock, links, permissions, and errors that name the ledger.

Each test is a finding of a read-only privacy trial (the numbers are in the commit messages).
"""

import json
import multiprocessing
import os
import stat
import threading
import time

import pytest

from accounting import BudgetLedger, GaussianEvent, SelfComposedEvent, ZCDPAccountant
from accounting import ledger_lock

CTX = multiprocessing.get_context("fork")
NOISE = 30.0


def _eps(count: int) -> float:
    return ZCDPAccountant().compose(GaussianEvent(NOISE), count).get_epsilon(1e-6)


def _spender(path, start, worker, out, n_each):
    start.wait()
    ledger = BudgetLedger.open(path)
    confirmed, error = [], ""
    for i in range(n_each):
        try:
            ledger.spend(GaussianEvent(NOISE), label=f"w{worker}-{i}")
            confirmed.append(f"w{worker}-{i}")
        except Exception as exc:  # noqa: BLE001 (a refusal is expected; report anything else)
            if type(exc).__name__ != "BudgetExceededError":
                error = f"{type(exc).__name__}: {exc}"
    out.put((confirmed, error))


def test_deleting_the_lock_file_loses_no_confirmed_spend(tmp_path):
    # Before: 4 processes x 40 spends with 'rm -f l.json.lock' in a loop: 102 confirmed, 40 on
    # file, and a raw FileNotFoundError (a writer's temp file deleted by another's cleanup).
    path = tmp_path / "lk.json"
    admitted, n_procs, n_each = 80, 4, 25
    target = 0.5 * (_eps(admitted) + _eps(admitted + 1))
    BudgetLedger(path, target, 1e-6)
    stop = threading.Event()

    def deleter():
        while not stop.is_set():
            for name in (path.name + ".lock",):
                try:
                    os.unlink(tmp_path / name)
                except FileNotFoundError:
                    pass
            time.sleep(0.001)

    thread = threading.Thread(target=deleter, daemon=True)
    thread.start()
    start, out = CTX.Event(), CTX.Queue()
    procs = [CTX.Process(target=_spender, args=(path, start, w, out, n_each))
             for w in range(n_procs)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    stop.set()
    thread.join()
    assert [r[1] for r in results] == [""] * n_procs
    confirmed = [label for r in results for label in r[0]]
    ledger = BudgetLedger.open(path)
    on_file = [s.label for s in ledger.history]
    assert sorted(on_file) == sorted(confirmed)  # every confirmed spend is there, once
    assert len(confirmed) == admitted
    assert ledger.spent_epsilon <= target
    assert [p.name for p in tmp_path.iterdir()] == ["lk.json"]  # no lock file, no temp file


def test_a_live_writers_temp_file_is_never_cleaned_up(tmp_path):
    real = tmp_path / "l.json"
    fd, tmp = ledger_lock.temp_file(real, real)  # locked by this writer
    try:
        ledger_lock.remove_stale_temp_files(real)
        assert os.path.exists(tmp)
    finally:
        os.close(fd)  # the writer dies: its file is stale now
    ledger_lock.remove_stale_temp_files(real)
    assert not os.path.exists(tmp)


def test_a_symlinked_ledger_is_one_ledger(tmp_path):
    # Before: two spends of 1.0 through 'real.json' and its symlink 'alias.json' left two files,
    # each with one spend (together 1.45 over a 1.2 budget).
    real, alias = tmp_path / "real.json", tmp_path / "alias.json"
    BudgetLedger(real, 1.2, 1e-6)
    alias.symlink_to(real.name)
    one = SelfComposedEvent(GaussianEvent(42.25), 100)  # eps 0.9999 by exact
    BudgetLedger.open(alias).spend(one, label="via alias")
    assert alias.is_symlink()  # the write went to the target, not over the link
    with pytest.raises(Exception, match="Privacy budget exceeded"):
        BudgetLedger.open(real).spend(one, label="via real")
    assert [s.label for s in BudgetLedger.open(real).history] == ["via alias"]
    assert BudgetLedger(alias, 1.2, 1e-6).spent_epsilon == pytest.approx(0.999918, abs=1e-6)


def test_a_hard_linked_ledger_is_refused_in_one_clear_line(tmp_path):
    real, other = tmp_path / "real.json", tmp_path / "other.json"
    BudgetLedger(real, 1.2, 1e-6)
    os.link(real, other)
    before = real.read_bytes()
    for call in (lambda: BudgetLedger.open(other).spend(GaussianEvent(50.0), "x"),
                 lambda: BudgetLedger.open(real)):
        with pytest.raises(ValueError, match="has 2 hard links") as info:
            call()
        assert "symbolic link" in str(info.value) and "\n" not in str(info.value)
    assert real.read_bytes() == before


def test_a_rewrite_keeps_the_ledgers_permissions(tmp_path):
    path = tmp_path / "shared.json"
    ledger = BudgetLedger(path, 5.0, 1e-6)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # a new ledger: private by default
    os.chmod(path, 0o664)  # shared by a group
    ledger.spend(GaussianEvent(50.0), "a")
    rid = ledger.reserve(GaussianEvent(50.0), "b")
    ledger.settle(rid, "b")
    assert stat.S_IMODE(path.stat().st_mode) == 0o664


def test_errors_name_the_ledger_and_its_folder_never_a_lock_or_temp_file(tmp_path):
    missing = tmp_path / "no-such-folder" / "l.json"
    with pytest.raises(OSError) as info:
        BudgetLedger(missing, 1.0, 1e-6)
    text = str(info.value)
    assert str(missing) in text and "folder does not exist" in text
    assert ".lock" not in text and ".tmp" not in text and ".new" not in text
    with pytest.raises(FileNotFoundError, match="No budget ledger"):
        BudgetLedger.open(missing)


@pytest.mark.parametrize("path", ["", " ", "folder/"])
def test_a_path_that_names_no_file_is_one_clear_line(path):
    # Before: BudgetLedger('') said "PosixPath('.') has an empty name".
    for call in (lambda: BudgetLedger(path, 1.0, 1e-6), lambda: BudgetLedger.open(path)):
        with pytest.raises(ValueError, match="must name a ledger file"):
            call()


def test_a_folder_is_not_a_ledger(tmp_path):
    with pytest.raises(ValueError, match="is a folder"):
        BudgetLedger(tmp_path, 1.0, 1e-6)


def test_an_entry_whose_count_overflows_is_named(tmp_path):
    # Before: a hand-edited count of 10**400 made every read an internal OverflowError.
    path = tmp_path / "l.json"
    ledger = BudgetLedger(path, 5.0, 1e-6)
    ledger.spend(GaussianEvent(50.0), "fine")
    data = json.loads(path.read_text())
    huge = {"type": "SelfComposedEvent", "count": 10**400,
            "event": {"type": "GaussianEvent", "noise_multiplier": 50.0}}
    data["spends"].append({"timestamp": "t", "label": "edited", "event": huge})
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"spend 2 \('edited'\).*(too large|10\*\*400)") as info:
        BudgetLedger.open(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_a_spend_whose_count_overflows_is_refused_and_writes_nothing(tmp_path):
    path = tmp_path / "l.json"
    ledger = BudgetLedger(path, 5.0, 1e-6)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="count"):
        ledger.spend(SelfComposedEvent(GaussianEvent(50.0), 10**400), "huge")
    assert path.read_bytes() == before


def test_a_read_only_folder_is_named_not_a_temp_file(tmp_path, monkeypatch):
    # Before: "[Errno 30] Read-only file system: 'l.json.lock'".
    import errno
    import tempfile

    path = tmp_path / "l.json"
    ledger = BudgetLedger(path, 5.0, 1e-6)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(tmp_path / ".l.json.x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    for call in (ledger.preflight, lambda: ledger.spend(GaussianEvent(50.0), "x")):
        with pytest.raises(OSError) as info:
            call()
        text = str(info.value)
        assert str(path) in text and str(tmp_path) in text and "Read-only" in text
        assert ".tmp" not in text and ".lock" not in text
