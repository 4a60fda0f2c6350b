"""``--workers`` names a missing column before any row is read, as ``train`` in memory does.

Before session 28, dask parsed a sample of the file when the reader was built, before the
column check: a file missing a schema column and holding a row of too many fields near the
top was refused under ``--workers`` for that row ("line 4: expected 3 fields"), in memory for
the missing column (with its "Did you mean" hint).  The blocks are now parsed on the workers,
after the check (:mod:`dpboost.csv_blocks`).
"""

from __future__ import annotations

import pytest

from _refusal_cases import ledger_train_argv, refusal_lines

SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                      "hours": {"type": "numeric", "lower": 0, "upper": 100}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("bad_row", [1, 3, 200])
def test_a_missing_column_is_named_whatever_the_rows_hold(tmp_path, capsys, client, bad_row):
    rows = [f"{20 + i % 50},{i % 90},{'yes' if i % 2 else 'no'}" for i in range(400)]
    rows[bad_row] += ",extra"
    data = tmp_path / "m.csv"
    data.write_text("age,hourz,y\n" + "\n".join(rows) + "\n")
    argv, ledger = ledger_train_argv(tmp_path, data, SCHEMA)
    _, (line,) = refusal_lines(argv, client, capsys, ledger)  # in memory, on the cluster
    assert "has no column 'hours'" in line and "Did you mean 'hourz'?" in line
