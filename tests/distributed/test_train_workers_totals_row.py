"""``train --workers`` names a numeric column's totals row as memory does (session 32; the
in-memory case and its reason: ``tests/tabular/test_totals_row_in_a_numeric_column.py``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.slow
def test_train_refuses_a_numeric_totals_row_alike_on_a_cluster(tmp_path, client, capsys):
    """``Total,,`` below a table whose first column is numeric: ``train`` names the totals row
    in memory and on a cluster, one same line (it advised declaring the column categorical)."""
    from _refusal_cases import ledger_train_argv, refusal_lines

    rng = np.random.default_rng(3)
    rows = "".join(f"{v:.2f},{'yes' if v > 5 else 'no'}\n" for v in rng.uniform(0, 10, 500))
    data = tmp_path / "d.csv"
    data.write_text("a,y\n" + rows + "Total,\n")
    argv, ledger = ledger_train_argv(tmp_path, data, SCHEMA)
    lines = refusal_lines(argv, client, capsys, ledger, blocksize=1_000)
    assert "line 502, the last, looks like a totals row" in lines[0][0]
