"""The check shared by the dask CLI tests of bad rows: the same one line in memory and with a
cluster, and the ledger untouched (the refusal comes before any budget is spent)."""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main


def refusal_lines(argv, client, capsys, ledger, *, spool=True, blocksize=8_000
                  ) -> list[list[str]]:
    """stderr lines (without the plan line) of ``argv`` run in memory and on ``client``, each
    exiting 2 without a traceback or a change to ``ledger``, over CSV blocks of ``blocksize``
    bytes."""
    from dpboost.cli import _distributed

    errors = []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        capsys.readouterr()
        before = ledger.read_bytes()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_distributed, "CSV_BLOCKSIZE", blocksize)  # several blocks
            if not spool:
                patch.setattr(_distributed, "_spool_fits", lambda *a: False)
            assert main(argv + cluster) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and "internal error" not in err, err
        errors.append([ln for ln in err.splitlines() if " boosting rounds on " not in ln])
        assert ledger.read_bytes() == before
    assert errors[0] == errors[1] and len(errors[1]) == 1, errors
    return errors


def ledger_train_argv(tmp_path, data, schema: dict) -> tuple[list[str], object]:
    """``(argv, ledger)``: ``train`` of ``data`` with ``schema`` (written as JSON beside it) at
    epsilon 1, charged to a fresh ledger of epsilon 5, for :func:`refusal_lines`."""
    spec, ledger = tmp_path / "s.json", tmp_path / "ledger.json"
    spec.write_text(json.dumps(schema))
    assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                 str(ledger)]) == 0
    return ["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
            "--target-delta", "1e-6", "--ledger", str(ledger), "--out",
            str(tmp_path / "m")], ledger
