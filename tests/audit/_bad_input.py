"""Shared helpers of the bad-input suite (tests/audit/test_bad_input_*.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from accounting import BudgetLedger
from dpboost.cli import build_parser, main

GOOD_ROWS = [
    "0.10,0.20,-0.30,1", "-0.20,0.10,0.30,0", "0.30,-0.10,0.05,1", "-0.25,-0.20,0.10,0",
    "0.15,0.05,-0.20,1", "-0.05,0.25,0.20,0", "0.20,0.20,0.00,1", "-0.30,0.00,-0.10,0",
]
GOOD_CSV = "a,b,c,label\n" + "\n".join(GOOD_ROWS * 3) + "\n"
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--classes", "0,1",
         "--n-rounds", "4", "--kappa", "0.5", "--learning-rate", "1", "--seed", "0"]


def _train_options() -> set[str]:
    parser = build_parser()
    for action in parser._actions:  # test-only look at argparse's registry
        if isinstance(action, argparse._SubParsersAction) and "train" in action.choices:
            return set(action.choices["train"]._option_string_actions)
    return set()


TRAIN_HAS_LEDGER = "--ledger" in _train_options()


def make_ledger(folder: Path) -> Path:
    """A ledger with one spend in ``folder``; tests compare its bytes before and after."""
    from accounting import GaussianEvent

    path = folder / "budget.json"
    BudgetLedger(path, target_epsilon=10.0, target_delta=1e-5).spend(GaussianEvent(5.0), "prior")
    return path


def leftovers(folder: Path) -> list[str]:
    """Temporary or partial files an interrupted atomic write would leave."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def run_cli_expect_error(capsys, argv: list[str], folder: Path, outputs=()) -> str:
    """Run the CLI; assert exit code 2, one stderr line, no traceback, no partial output and
    an untouched ledger.  Returns the error line."""
    ledger = (make_ledger(folder) if not (folder / "budget.json").exists()
              else folder / "budget.json")
    before = ledger.read_bytes()
    if TRAIN_HAS_LEDGER and argv and argv[0] == "train":
        argv = argv + ["--ledger", str(ledger)]
    code = main(argv)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, (code, captured.err)
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("dpboost"), lines
    assert "Traceback" not in captured.err
    for out in outputs:
        assert not Path(out).exists(), f"partial output {out} left behind"
    assert leftovers(folder) == []
    assert ledger.read_bytes() == before
    return lines[0]
