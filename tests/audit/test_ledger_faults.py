"""BudgetLedger under faults: a full disk (ENOSPC) or a read-only folder must fail loudly and
leave the ledger's bytes as they were; and it must fail *before* training starts.

Faults are simulated by monkeypatching the ``os``/``tempfile`` functions the ledger module
calls (running as root, chmod cannot make a folder read-only, and /dev/full is a device, not a
folder the ledger could live in).  The "before training" guarantee needs an up-front writability
check on the ledger: the API requested from the accounting package is

    BudgetLedger.preflight() -> None
        Under the lock, create a temporary file in the ledger's folder (same naming as the atomic
        write), write about as many bytes as the next version of the ledger will need, flush,
        fsync and unlink it; raise OSError naming the folder if any step fails.  Leaves no
        file behind and does not modify the ledger.

It was added in adcc220 (ledger: preflight()).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import accounting.ledger as ledger_module
import accounting.ledger_lock as ledger_lock_module
from accounting import BudgetLedger, GaussianEvent, SelfComposedEvent

EVENT = SelfComposedEvent(GaussianEvent(50.0), 10)


def _ledger(folder: Path) -> BudgetLedger:
    ledger = BudgetLedger(folder / "budget.json", target_epsilon=5.0, target_delta=1e-6)
    ledger.spend(EVENT, label="earlier run")
    return ledger


def _snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _erofs(*args, **kwargs):
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


def _eacces(*args, **kwargs):
    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))


FAULTS = {
    "enospc_fsync": (ledger_module.os, "fsync", _enospc),
    "enospc_replace": (ledger_module.os, "replace", _enospc),
    "erofs_mkstemp": (ledger_lock_module.tempfile, "mkstemp", _erofs),
    "eacces_mkstemp": (ledger_lock_module.tempfile, "mkstemp", _eacces),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_spend_under_fault_fails_loudly_and_keeps_the_ledger(fault, tmp_path, monkeypatch):
    ledger = _ledger(tmp_path)
    before = _snapshot(tmp_path)
    target, name, replacement = FAULTS[fault]
    monkeypatch.setattr(target, name, replacement)
    with pytest.raises(OSError):
        ledger.spend(EVENT, label="this run")
    monkeypatch.undo()
    assert _snapshot(tmp_path) == before  # same files, same bytes, no temporary left
    assert len(ledger.history) == 1


@pytest.mark.parametrize("fault", ["erofs_mkstemp", "eacces_mkstemp", "enospc_fsync"])
def test_new_ledger_in_unwritable_folder_fails_at_construction(fault, tmp_path, monkeypatch):
    target, name, replacement = FAULTS[fault]
    monkeypatch.setattr(target, name, replacement)
    with pytest.raises(OSError):
        BudgetLedger(tmp_path / "budget.json", target_epsilon=1.0, target_delta=1e-6)
    monkeypatch.undo()
    assert not (tmp_path / "budget.json").exists()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_check_writes_nothing(tmp_path):
    ledger = _ledger(tmp_path)
    before = _snapshot(tmp_path)
    ledger.check(EVENT)
    assert _snapshot(tmp_path) == before


def _train_with_ledger(ledger: BudgetLedger, trained: list) -> None:
    """The protocol a training entry point follows: preflight, check, train, record."""
    ledger.preflight()
    ledger.check(EVENT)
    trained.append(True)  # stands for fit(): touches the data
    ledger.spend(EVENT, label="run")


@pytest.mark.parametrize("fault", ["enospc_fsync", "erofs_mkstemp", "eacces_mkstemp"])
def test_full_or_readonly_disk_fails_before_training(fault, tmp_path, monkeypatch):
    ledger = _ledger(tmp_path)
    before = _snapshot(tmp_path)
    target, name, replacement = FAULTS[fault]
    monkeypatch.setattr(target, name, replacement)
    trained: list = []
    with pytest.raises(OSError):
        _train_with_ledger(ledger, trained)
    monkeypatch.undo()
    assert trained == []  # failed before the data was touched
    assert _snapshot(tmp_path) == before


def test_preflight_on_a_healthy_ledger_leaves_no_trace(tmp_path):
    ledger = _ledger(tmp_path)
    before = _snapshot(tmp_path)
    ledger.preflight()
    assert _snapshot(tmp_path) == before
