"""``train --workers --non-private-figures`` prints memory's line, clipped share included.

Red team, session 32: with ``--workers`` the line left out the clipped rows' share (and the
JSON said 0.0 whatever the rows), where memory prints "clipped rows 0.00%".  Both are now
computed in one pass after the fit, as memory computes them.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import main

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10},
                      "b": {"type": "numeric", "lower": 0, "upper": 10}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.slow
def test_the_figures_line_is_memorys(tmp_path, client, capsys):
    """A norm bound of 0.5 clips about half the rows (the schema's rows fill the unit ball):
    the same line and the same JSON figures in memory and on a cluster."""
    rng = np.random.default_rng(4)
    a, b = rng.uniform(0, 10, 600), rng.uniform(0, 10, 600)
    data, spec = tmp_path / "d.csv", tmp_path / "s.json"
    data.write_text("a,b,y\n" + "".join(f"{x:.2f},{z:.2f},{'yes' if x + z > 10 else 'no'}\n"
                                        for x, z in zip(a, b)))
    spec.write_text(json.dumps(SCHEMA))
    extra = ["--norm-bound", "0.5"]
    lines, figures = [], []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        argv = ["train", str(data), "--schema", str(spec), "--target-epsilon", "4",
                "--target-delta", "1e-6", "--seed", "1", "--non-private-figures",
                "--out", str(tmp_path / "m.json"), *extra, *cluster]
        assert main(argv) == 0
        lines.append([ln for ln in capsys.readouterr().out.splitlines()
                      if ln.startswith("non-private:")])
        assert main([*argv, "--json"]) == 0
        figures.append(json.loads(capsys.readouterr().out)["non_private"])
    assert lines[0] == lines[1] and len(lines[0]) == 1, lines
    assert "clipped rows" in lines[1][0]
    assert figures[0] == figures[1]
    assert figures[0]["clipped_fraction"] > 0.3
