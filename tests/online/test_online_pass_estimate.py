"""``dpboost online`` says how long a long pass will take, and shows its progress.

Session 35's note: ``--n-learners 3000000`` ran silently for hours (one row took 4-10 s with
three million learners).  A pass is now probed first (:mod:`dpboost.cli._online_estimate`) and
one estimated over :data:`SAY_AFTER_SECONDS` is announced on stderr, with a bar of rows on a
terminal.  The probes are separate models with their own generator, so the run's output is
that of a run without them.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import _online_estimate as estimate
from dpboost.cli import main
from dpboost.cli.online import make_model


@pytest.fixture()
def csv_file(tmp_path):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=500) > 0, "yes", "no")
    path = tmp_path / "rows.csv"
    path.write_text("a,b,c,d,y\n" + "".join(f"{x[0]:.3f},{x[1]:.3f},{x[2]:.3f},{x[3]:.3f},{t}\n"
                                           for x, t in zip(X, y)))
    return path


def _run(path, capsys, algorithm, mode="weight"):
    args = ["online", str(path), "--label", "y", "--algorithm", algorithm, "--n-learners",
            "600", "--seed", "4", "--json"] + (["--mode", mode] if algorithm == "bbm" else [])
    assert main(args) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    out.pop("seconds")
    return out, captured.err


@pytest.mark.parametrize("algorithm,mode", [("bbm", "sample"), ("adaboost-ol", "weight"),
                                            ("agnostic", "weight")])
def test_the_probes_leave_the_run_as_it_was(csv_file, capsys, monkeypatch, algorithm, mode):
    """500 rows x 600 learners are probed (over PROBE_AFTER_CELLS); the boosters that draw
    (BBM sampling, AdaBoost.OL's and the agnostic booster's drawn labels) give the same
    losses as when no probe runs."""
    calls = []
    probe = estimate._probe_seconds
    monkeypatch.setattr(estimate, "_probe_seconds",
                        lambda *a: calls.append(a[1]) or probe(*a))
    probed, _ = _run(csv_file, capsys, algorithm, mode)
    assert calls == [16, 600]
    monkeypatch.setattr(estimate, "PROBE_AFTER_CELLS", 10**12)
    calls.clear()
    assert _run(csv_file, capsys, algorithm, mode)[0] == probed and calls == []


def test_a_long_pass_is_announced_with_a_bar_of_rows(csv_file, capsys, monkeypatch):
    monkeypatch.setattr(estimate, "pass_seconds", lambda *a: 7300.0)
    monkeypatch.setattr("dpboost.progress.on_terminal", lambda: True)
    _, err = _run(csv_file, capsys, "adaboost-ol")
    first = err.splitlines()[0]
    assert first.startswith("dpboost online: adaboost-ol with 600 learners on 500 rows x 4 "
                            "features; estimated 2.0 h"), err
    assert "400/400 rows (100%)" in err  # the training part, 80% of 500


def test_a_short_pass_says_nothing(csv_file, capsys, monkeypatch):
    monkeypatch.setattr(estimate, "pass_seconds", lambda *a: 2.9)
    monkeypatch.setattr("dpboost.progress.on_terminal", lambda: True)
    assert _run(csv_file, capsys, "adaboost-ol")[1] == ""


def test_the_line_through_two_probes(monkeypatch):
    """Above the larger probe, ``rows (a + b N)`` through the two probes' times per row."""
    X, y = np.zeros((50, 3)), np.ones(50)
    times = {16: 9.0, 1024: 8 * (40e-6 + 1024 * 0.5e-6), 4096: 8 * (40e-6 + 4096 * 0.5e-6)}
    monkeypatch.setattr(estimate, "_probe_seconds", lambda build, k, X, y: times[k])
    assert estimate.pass_seconds(None, 100_000, X, y, 2_000) == pytest.approx(
        2_000 * (40e-6 + 100_000 * 0.5e-6))
    times[3000] = 8 * 1e-3  # at most the larger probe: the run's own N, probed whole
    assert estimate.pass_seconds(None, 3000, X, y, 2_000) == pytest.approx(2_000 * 1e-3)
    assert estimate.pass_seconds(None, 10, X, y, 2_000) is None  # 20,000 cells: no probe


def test_pass_seconds_measures_a_real_probe():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    seconds = estimate.pass_seconds(
        lambda k: make_model("bbm", n_learners=k, random_state=np.random.default_rng(1)),
        5_000, X, y, 40)
    assert 0 < seconds < 600
