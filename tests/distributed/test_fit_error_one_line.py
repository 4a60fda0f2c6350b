"""A failed dask fit is one line on the command line, not a traceback (red team, session 37).

A spooled chunk deleted mid-run (``SpoolLostError``) and workers killed for memory
(``KilledWorker``, wrapped as ``DistributedFitError``) printed a traceback and "internal error
... this is a bug in dpboost", against the README's one ``DistributedFitError``.  Neither is
a bug nor the input: one line, exit code 1.
"""

from __future__ import annotations

import pytest

from dpboost.cli._options import report_error
from dpboost.distributed import DistributedFitError
from dpboost.distributed_spool import SpoolLostError


@pytest.mark.parametrize("exc", [
    DistributedFitError("A dask computation failed (KilledWorker: 'x' on 4 workers\n"
                        "more). No model was produced."),
    SpoolLostError("The spooled chunk /tmp/sp/X/chunk-000000.bin is missing.")])
def test_a_distributed_failure_is_one_line(capsys, exc):
    try:
        raise exc
    except DistributedFitError as raised:
        assert report_error(raised, "train") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dpboost train: error: "), err
    assert "Traceback" not in err and "bug" not in err
