"""The shared boundary pieces: the message template, the RNG rule, the CLI's one-line errors."""

import numpy as np
import pytest

from dpboost._validation import check_finite_rows, check_random_state, check_scalar
from dpboost.cli import main


def test_message_template():
    with pytest.raises(ValueError, match=r"^The 'kappa' parameter of Foo must be a float in "
                                         r"\(0, 1\)\. Got 1\.5 instead\.$"):
        check_scalar(1.5, "kappa", "Foo", low=0, high=1)
    with pytest.raises(TypeError):
        check_scalar("a", "kappa", "Foo", low=0, high=1)
    with pytest.raises(ValueError):
        check_scalar(float("nan"), "kappa", "Foo")
    with pytest.raises(TypeError):
        check_scalar(2.0, "n_rounds", "Foo", kind="int", low=1, closed="left")
    assert check_scalar(1, "n_rounds", "Foo", kind="int", low=1, closed="left") == 1


def test_random_state_never_global():
    a = check_random_state(3).normal(size=3)
    np.random.seed(0)
    b = check_random_state(3).normal(size=3)
    assert np.array_equal(a, b)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    with pytest.raises(TypeError):
        check_random_state(1.5)


def test_finite_rows_names_first_bad_row():
    X = np.zeros((5, 2))
    X[3, 1] = np.inf
    X[4, 0] = np.nan
    with pytest.raises(ValueError, match="first bad row: 3"):
        check_finite_rows(X)


def test_cli_bad_command_is_one_line(capsys):
    assert main(["no-such-command"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_atomic_write_gives_ordinary_permissions_and_leaves_nothing_on_failure(tmp_path):
    import os

    from dpboost._io import atomic_write_bytes, atomic_write_text

    target = tmp_path / "out.csv"
    umask = os.umask(0o022)
    try:
        atomic_write_text(target, "a\n")
    finally:
        os.umask(umask)
    assert target.read_text() == "a\n" and (target.stat().st_mode & 0o777) == 0o644
    with pytest.raises(TypeError):
        atomic_write_bytes(target, None)  # fails mid-way: old content kept, no temp file left
    assert target.read_text() == "a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_test_file_names_are_unique():
    """The test folders are not packages, so two test files with one basename stop collection
    ('import file mismatch'): CI once failed on two test_robustness_sweep3.py."""
    from collections import Counter
    from pathlib import Path

    names = Counter(p.name for p in Path(__file__).parent.rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []
