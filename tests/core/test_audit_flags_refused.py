"""``dpboost audit`` refuses the flags a chosen audit would ignore (red team, session 36).

The README said a flag of the other mode is "refused, not ignored", but ``--setting`` and
``--n-rounds`` with ``--sensitivity``, and ``--n-rounds`` with a setting that sets no rounds,
changed nothing; ``--runs 1`` to ``99`` failed naming an internal function, and ``--runs 101``
ran 100 runs.  Each is now one line, exit 2, before any run.
"""

from __future__ import annotations

import pytest

from dpboost.cli import main


@pytest.mark.parametrize("argv,said", [
    (["--sensitivity", "--setting", "mean"], "--setting chooses a mechanism audit"),
    (["--sensitivity", "--n-rounds", "3"], "--sensitivity searches one round's neighbours"),
    (["--n-rounds", "7"], "--setting round audits one round"),
    (["--setting", "mean", "--n-rounds", "3"], "--setting mean has no rounds"),
    (["--setting", "threshold", "--n-rounds", "3"], "--setting threshold has no rounds"),
    (["--runs", "99"], "--runs must be an even number of at least 100"),
    (["--runs", "101"], "got 101"),
])
def test_refused_in_one_line(capsys, argv, said):
    assert main(["audit", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.splitlines()) == 1, err


def test_n_rounds_with_a_run_is_taken(capsys):
    assert main(["audit", "--setting", "run", "--n-rounds", "2", "--runs", "200",
                 "--json"]) == 0
    assert '"n_rounds": 2' in capsys.readouterr().out


def test_a_claim_past_the_runs_search_says_no_run_count_can_show_it(capsys):
    """At epsilon 50 the runs search stops at its cap, 2^62, and the advice said "use --runs
    4611686018427387904 or more" (red team, session 36)."""
    assert main(["audit", "--runs", "200", "--target-epsilon", "50"]) == 3
    out = capsys.readouterr().out
    assert "no feasible number of runs (over 4.6e18) can show epsilon = 50" in out
    assert "4611686018427387904" not in out
