"""``dpboost online`` says how long a long pass will take, and shows its progress.

Session 35's note: ``--n-learners 3000000`` ran silently for hours (one row took 4-10 s with
three million learners).  The pass now times its first rows
(:class:`dpboost.cli._online_estimate.PassClock`) and a pass expected to last longer than
:data:`SAY_AFTER_SECONDS` more is announced on stderr, with a bar of rows on a terminal.  The
clock reads time only, so the run's output is that of a run without it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import _online_estimate as estimate
from dpboost.cli import main
from dpboost.cli._online_estimate import CLOCK_ROWS, PassClock


@pytest.fixture()
def csv_file(tmp_path):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=500) > 0, "yes", "no")
    path = tmp_path / "rows.csv"
    path.write_text("a,b,c,d,y\n" + "".join(f"{x[0]:.3f},{x[1]:.3f},{x[2]:.3f},{x[3]:.3f},{t}\n"
                                           for x, t in zip(X, y)))
    return path


def _run(path, capsys, algorithm="adaboost-ol", mode="weight"):
    args = ["online", str(path), "--label", "y", "--algorithm", algorithm, "--n-learners",
            "60", "--seed", "4", "--json"] + (["--mode", mode] if algorithm == "bbm" else [])
    assert main(args) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    out.pop("seconds")
    return out, captured.err


class _Ticks:
    """A clock that advances ``step`` seconds a reading (the first reading is 0)."""

    def __init__(self, step: float) -> None:
        self.step, self.now = step, -step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("algorithm,mode", [("bbm", "sample"), ("adaboost-ol", "weight"),
                                            ("agnostic", "weight")])
def test_a_long_pass_is_announced_and_its_output_unchanged(csv_file, capsys, monkeypatch,
                                                            algorithm, mode):
    """With a clock at 0.5 s a row the pass is announced, with a bar on a terminal that
    ends at 400/400 rows (80% of 500); the losses of the boosters that draw (BBM sampling,
    the drawn labels of AdaBoost.OL and the agnostic booster) are those of a silent run."""
    quiet, err = _run(csv_file, capsys, algorithm, mode)
    assert err == ""  # 500 rows x 60 learners: well under 3 s
    init = PassClock.__init__
    monkeypatch.setattr(PassClock, "__init__", lambda self, *a, **k: init(
        self, *a, **k, clock=_Ticks(0.5), terminal=True))
    loud, err = _run(csv_file, capsys, algorithm, mode)
    assert loud == quiet
    first = err.splitlines()[0]
    assert first == (f"dpboost online: {algorithm} with 60 learners on 400 rows x 4 features; "
                     "estimated 4 min more (timed on its first 2 rows)"), err
    assert "400/400 rows (100%)" in err


def _fed(clock, rows):
    for _ in range(rows):
        clock()
    return clock


@pytest.mark.parametrize("step,train,test", [(0.001, 1000, 250), (0.3, 50, 0), (0.01, 5, 1),
                                             (2.0, 7, 2), (0.0, 100, 0)])
def test_the_estimate_is_the_time_per_row_after_the_first_times_the_rows_left(
        capsys, step, train, test):
    """The clock is read at the start and after each row; the estimate comes after
    CLOCK_ROWS rows, or once CLOCK_SECONDS have passed, or at the last training row."""
    clock = _fed(PassClock("o", "w", train, test, clock=_Ticks(step), terminal=False), train)
    done = next(k for k in range(1, train + 1)
                if k >= min(CLOCK_ROWS, train) or k * step >= estimate.CLOCK_SECONDS)
    assert clock.done_at == done
    assert clock.seconds == pytest.approx(step * (train + test - done))
    said = capsys.readouterr().err
    assert (said != "") == (clock.seconds >= estimate.SAY_AFTER_SECONDS)


def test_no_bar_off_a_terminal_and_none_after_the_last_row(capsys):
    clock = _fed(PassClock("o", "w", 30, 0, clock=_Ticks(1.0), terminal=False), 30)
    assert clock.bar is None and "estimated" in capsys.readouterr().err
    clock = _fed(PassClock("o", "w", 1, 0, clock=_Ticks(9.0), terminal=True), 1)
    assert clock.bar is None  # nothing left to count


def test_the_bar_is_cleared_before_an_error_line(csv_file, capsys, monkeypatch):
    """A pass that fails midway clears its bar, so the one-line error starts a line of its
    own (out of memory, and any other error: before, only MemoryError cleared it)."""
    from dpboost.cli._options import UserError
    from dpboost.online import evaluate

    def failing(model, X, y, *, metric, progress):
        for _ in range(50):
            progress()
        raise failure

    init = PassClock.__init__
    monkeypatch.setattr(PassClock, "__init__", lambda self, *a, **k: init(
        self, *a, **k, clock=_Ticks(0.5), terminal=True))
    monkeypatch.setattr(evaluate, "progressive_val_score", failing)
    for failure, said in ((MemoryError(), "not enough memory"),
                          (UserError("a bad row."), "a bad row.")):
        assert main(["online", str(csv_file), "--label", "y", "--n-learners", "60"]) in (1, 2)
        err = capsys.readouterr().err
        bar, _, error = err.rpartition("\r")
        assert "48/400 rows" in bar, err
        assert error.startswith(f"dpboost online: error: {said}"), err


@pytest.mark.parametrize("weak_learner", ["linear", "perceptron", "stump"])
@pytest.mark.parametrize("d", [1, 7, 30])
def test_array_bytes_are_the_arrays_the_first_row_allocates(weak_learner, d):
    """The memory check counts what ``_allocate`` makes: every numpy array the bank holds
    after its first row, by ``nbytes``."""
    from dpboost.online.learners import make_bank

    bank = make_bank(weak_learner, 13)
    expected = bank.array_bytes(d)
    bank.learn(np.full(d, 0.5), 1.0, np.ones(13))
    held = sum(v.nbytes for v in vars(bank).values() if isinstance(v, np.ndarray))
    assert held == expected


def test_a_run_whose_arrays_exceed_memory_is_refused_before_its_first_row(
        csv_file, capsys, monkeypatch):
    from dpboost.online import evaluate

    size = 8 * 5 * (2 * 60 + 3)  # BBM's 60 linear learners on 4 features (+ the bias)
    monkeypatch.setattr(estimate, "available_bytes", lambda: size - 1)
    monkeypatch.setattr(evaluate, "progressive_val_score", lambda *a, **k: pytest.fail("ran"))
    assert main(["online", str(csv_file), "--label", "y", "--n-learners", "60"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpboost online: error: 60 learners on 4 features need at least "), err
    assert "use at most about 59 learners" in err and len(err.splitlines()) == 1
    monkeypatch.undo()
    for available in (size, None):  # exactly enough, or unknown: no refusal
        monkeypatch.setattr(estimate, "available_bytes", lambda: available)
        assert main(["online", str(csv_file), "--label", "y", "--n-learners", "60"]) == 0


def test_label_on_a_libsvm_file_is_refused(tmp_path, capsys):
    """Red team, session 36: ``online file.svm --label 1`` was taken and ignored (``train``
    refuses it: a LIBSVM label is each line's first field)."""
    path = tmp_path / "d.svm"
    path.write_text("+1 1:0.5 2:1\n-1 1:0.2\n+1 2:0.4\n-1 1:0.9\n")
    assert main(["online", str(path), "--label", "1"]) == 2
    assert "is a LIBSVM file, whose label is always the first field" in capsys.readouterr().err
