"""A warning a command does not print itself is one line, once (red team, session 36).

``audit --setting estimator --target-delta 0.9999`` printed Python's format, the source
path and line of dpboost's code under the text, and once for every fit; ``curves`` did the
same with its noise warning.  Now ``dpboost CMD: warning: TEXT``, once per text.
"""

from __future__ import annotations

import warnings

from dpboost.cli import _one_line_warnings


def test_one_line_once_per_text(capsys):
    with _one_line_warnings("dpboost demo"):
        for _ in range(3):
            warnings.warn("the noise\n  dominates", UserWarning)
        warnings.warn("another", RuntimeWarning)
    err = capsys.readouterr().err.splitlines()
    assert err == ["dpboost demo: warning: the noise dominates",
                   "dpboost demo: warning: another"]


def test_the_audit_warns_once_without_a_source_line(capsys):
    from dpboost.cli import main

    assert main(["audit", "--setting", "estimator", "--target-delta", "0.9999", "--runs",
                 "100"]) == 3
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("dpboost audit: warning: "), err
    assert ".py:" not in err[0]
