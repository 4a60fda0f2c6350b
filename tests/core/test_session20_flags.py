"""Flags that were silently ignored or accepted (session 20): ``audit --pairs`` without
``--sensitivity`` (and ``--runs`` with it), and ``verbose=-1``."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.cli import main


def _one_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("argv,word", [
    (["audit", "--pairs", "50"], "--pairs applies only with --sensitivity"),
    (["audit", "--setting", "run", "--pairs", "5"], "--pairs applies only with --sensitivity"),
    (["audit", "--sensitivity", "--runs", "100"], "not of --sensitivity: use --pairs"),
])
def test_audit_refuses_a_flag_the_chosen_audit_ignores(argv, word, capsys):
    line = _one_line(capsys, main(argv))
    assert line.startswith("dpboost audit: error: ") and word in line


@pytest.mark.parametrize("verbose", [-1, np.int64(-3)])
def test_negative_verbose_is_refused(verbose):
    X = np.random.default_rng(0).normal(size=(40, 2)) / 3
    y = (X[:, 0] > 0).astype(int)
    clf = PrivateHalfspaceClassifier(target_epsilon=1, target_delta=1e-6, verbose=verbose,
                                     random_state=0)
    with pytest.raises(TypeError, match=r"must be a bool or an int >= 0\. Got .*-[13]"):
        clf.fit(X, y)


@pytest.mark.parametrize("verbose", [0, 1, 2, True, False])
def test_non_negative_verbose_is_taken(verbose, capsys):
    X = np.random.default_rng(0).normal(size=(40, 2)) / 3
    y = (X[:, 0] > 0).astype(int)
    PrivateHalfspaceClassifier(target_epsilon=1, target_delta=1e-6, verbose=verbose,
                               n_rounds=3, random_state=0).fit(X, y)
    assert bool(capsys.readouterr().err) == bool(verbose)
