"""Shared checks of the tabular command-line tests."""

import pytest


@pytest.fixture
def one_line_error(capsys):
    """``check(code, *needles)``: exit code 2 and exactly one stderr line (progress lines and
    the noise warning of a train on a few rows before it aside), no traceback, holding every
    needle; returns the line."""

    def check(code: int, *needles: str) -> str:
        captured = capsys.readouterr()
        assert code == 2, captured
        lines = [ln for ln in captured.err.strip().splitlines()
                 if " boosting rounds on " not in ln and "the noise dominates" not in ln]
        assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
        for needle in needles:
            assert needle in lines[0], lines[0]
        return lines[0]

    return check
