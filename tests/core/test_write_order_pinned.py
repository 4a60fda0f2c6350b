"""Write order pinned (mutation test, session 35): two changes survived the whole suite.

* ``save_model`` writes the model atomically (a temporary file, fsync, ``os.replace``): a
  failure while writing (a full disk) keeps the previous model and leaves no temporary file.
  Written in place, the old model was truncated first and ``predict`` then refused a half file.
* ``train --ledger`` proves the ledger writable (``preflight``) *before* the data is read: an
  unwritable ledger is refused without opening the data file.  Without the preflight the
  reservation still failed, but only after the data was read and checked, so the end state
  the other tests look at was the same.
"""

import errno
import os

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.model_io import load_model, save_model

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "3"]


def _model(coef):
    from dpboost.estimator import BoostedHalfspaceClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, len(coef))) / 3
    est = BoostedHalfspaceClassifier(n_rounds=3).fit(X, np.sign(X @ coef))
    return est


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_save_keeps_the_previous_model(tmp_path, monkeypatch, failing):
    path = tmp_path / "m.json"
    save_model(_model(np.array([1.0, -2.0])), path)
    before = path.read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, failing, full_disk)
    with pytest.raises(OSError):
        save_model(_model(np.array([3.0, 4.0])), path)
    monkeypatch.undo()
    assert path.read_bytes() == before  # the old model, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]  # no temporary file left
    assert load_model(path).coef_.shape == (2,)


def test_an_unwritable_ledger_is_refused_before_the_data_is_read(tmp_path, capsys,
                                                                    monkeypatch):
    from accounting import BudgetLedger, ledger_lock

    ledger = tmp_path / "b.json"
    BudgetLedger(ledger, 5.0, 1e-6)
    before = ledger.read_bytes()

    def full_disk(real, shown, suffix=".tmp"):
        raise OSError(errno.ENOSPC, f"Cannot write the budget ledger {str(shown)!r}: "
                                    "No space left on device")

    monkeypatch.setattr(ledger_lock, "temp_file", full_disk)
    missing = tmp_path / "does-not-exist.csv"  # were it opened, the error would name it
    code = main(["train", str(missing), *TRAIN, "--classes", "-1,1", "--ledger", str(ledger),
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "budget ledger" in err[0] and "does-not-exist" not in err[0], err
    assert ledger.read_bytes() == before and not (tmp_path / "m.json").exists()
