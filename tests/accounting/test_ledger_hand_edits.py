"""Hand-edited ledgers whose content a rewrite would lose are refused (red team, session 36).

* A key named twice (two ``"spends"`` lists after a bad merge, two ``"target_epsilon"``):
  ``json`` kept the last silently, and the next spend rewrote the file without the other, a
  spend over the target among them.  Now one line names the key, and nothing is written.
* A key the ledger does not hold (a top-level ``"owner"``, a spend's ``"note2"``, an event's
  ``"extra"``): dropped on the next rewrite.  Now refused the same way.
* A path that is not a regular file: a FIFO hung the reader, ``/dev/zero`` filled the memory;
  a loop of symbolic links read as "no ledger".  Now one line each.
"""

from __future__ import annotations

import json
import os

import pytest

from accounting import BudgetLedger, GaussianEvent

HEAD = '{"format": "dpboost-budget-ledger", "version": 1, "target_epsilon": 3.0, ' \
       '"target_delta": 1e-06'
SPEND = '{"timestamp": "t", "label": "big run", "event": {"type": "GaussianEvent", ' \
        '"noise_multiplier": 1.0}}'

CASES = {
    "two spends lists": (HEAD + f', "spends": [{SPEND}], "spends": []}}', "'spends' twice"),
    "two targets": (HEAD + ', "target_epsilon": 100, "spends": []}', "'target_epsilon' twice"),
    "a spend's key twice": (HEAD + ', "spends": [' + SPEND[:-1] + ', "label": "x"}]}',
                            "'label' twice"),
    "an event's key twice": (HEAD + ', "spends": [' + SPEND.replace(
        '1.0}', '1.0, "noise_multiplier": 90}') + ']}', "'noise_multiplier' twice"),
    "a top-level key": (HEAD + ', "owner": "me", "spends": []}', "the key 'owner'"),
    "a spend's key": (HEAD + ', "spends": [' + SPEND[:-1] + ', "note2": "x"}]}',
                      "spend 1 has the key 'note2'"),
    "an event's key": (HEAD + ', "spends": [' + SPEND.replace('1.0}', '1.0, "extra": 1}') +
                       ']}', "has the key 'extra'"),
}


@pytest.mark.parametrize("name", CASES)
def test_refused_in_one_line_and_left_as_it_was(tmp_path, name):
    text, said = CASES[name]
    json.loads(text)  # valid JSON: only the ledger's reading refuses it
    path = tmp_path / "l.json"
    path.write_text(text)
    for act in (lambda: BudgetLedger.open(path),
                lambda: BudgetLedger(path, 3.0, 1e-6),
                lambda: BudgetLedger.open(path).spend(GaussianEvent(50.0), label="new")):
        with pytest.raises(ValueError, match="malformed") as info:
            act()
        assert said in str(info.value) and "\n" not in str(info.value)
    assert path.read_text() == text


def test_a_ledger_written_by_the_ledger_reads_back(tmp_path):
    path = tmp_path / "l.json"
    ledger = BudgetLedger(path, 3.0, 1e-6)
    ledger.spend(GaussianEvent(50.0), label="a")
    ledger.reserve(GaussianEvent(60.0), label="b")  # a spend with a "reservation" key
    assert [s.label for s in BudgetLedger.open(path).history] == ["a", "b"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_path_that_is_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        if not os.path.exists(path):
            continue
        with pytest.raises(ValueError, match="is not a regular file"):
            BudgetLedger.open(path)
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(ValueError, match="Too many levels of symbolic links"):
        BudgetLedger.open(a)


def test_init_refuses_a_ledger_another_init_created_first(tmp_path, capsys, monkeypatch):
    """Two concurrent ``budget init`` both said "created" (red team, session 36): the second
    passed the existence check before the first created the file, then opened it.  The race
    is replayed by hiding the file from that check."""
    from dpboost.cli import budget, main

    path = tmp_path / "l.json"
    first = BudgetLedger(path, 3.0, 1e-6)
    assert first.created and not BudgetLedger(path, 3.0, 1e-6).created
    assert not BudgetLedger.open(path).created
    before = path.read_bytes()
    monkeypatch.setattr(budget.os.path, "exists", lambda p: False)
    assert main(["budget", "init", str(path), "--target-epsilon", "3",
                 "--target-delta", "1e-6"]) == 2
    assert "already exists" in capsys.readouterr().err and path.read_bytes() == before
