"""A wall-clock limit for tests of code that once looped forever (fail, do not hang CI)."""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def within(seconds: float):
    """Raise ``TimeoutError`` in the block if it runs longer than ``seconds`` (SIGALRM)."""

    def _alarm(signum, frame):
        raise TimeoutError(f"did not return within {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
