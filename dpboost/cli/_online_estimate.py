"""How long ``dpboost online`` will take, said early in its pass, its progress during it, and
whether its learners fit in memory.

Every weak learner of an online booster sees every row, so a pass with ``N`` learners costs
``N`` times a row's cost per learner, which depends on the booster, the weak learner, ``d``,
the caches and the machine.  ``--n-learners 3000000`` on 2,000 rows of 20 features ran
silently: one row took 4-10 s with three million learners (2.9 GB), so the pass would have
taken hours (session 35's note).

The pass now times itself (:class:`PassClock`, called after each row it learns): once
:data:`CLOCK_ROWS` rows are learnt, or :data:`CLOCK_SECONDS` have passed, the time per row
so far (from the second row on, when there is one: the first carries the first calls'
set-up) times the rows left, the held-out rows included, is the estimate; a pass expected to
last longer than :data:`SAY_AFTER_SECONDS` more is announced on stderr, and gets a bar of
rows on a terminal.  Short probes of separate models were tried first: a line through their
times per row said 64 min for that pass of three million learners (a probe of 4,096 learners
fits in the caches), and 1.7 s for a BBM pass of 10,000 learners that took 13 s (16 and 128
learners: a row's fixed cost of about 40 us hides the cost per learner).  Timing the run
itself reads the cost where it is paid, and changes nothing the run draws or outputs.

**Memory.**  The learners' arrays are allocated at the first row: ``N (d + 1)`` weights and
as many squared-gradient sums for the linear learners, ``N d`` weights for the perceptrons,
``16 N d`` counts for the stumps.  A run whose arrays alone exceed the memory the system says
is available (``MemAvailable``, Linux) cannot finish, and is refused before its first row in
one line naming the largest ``--n-learners`` whose arrays would fit: past it the kernel may
kill the process without a word.  The pass needs more than its arrays (per-row temporaries of
about ``4 N (nnz + 1)`` floats: 1,000,000 BBM linear learners peaked at 1.2 GB on 20 dense
features, 2.6 GB on 124 features with 14 non-zero, against 0.34 and 2.0 GB of arrays), so
a run close to the limit may still fail; the check refuses only what must.

Nothing here is private: the online learners are not (:data:`~dpboost.cli.online.NOT_PRIVATE`),
and a clock is read only to say how long the user will wait.
"""

from __future__ import annotations

import sys
import time

__all__ = ["CLOCK_ROWS", "CLOCK_SECONDS", "SAY_AFTER_SECONDS", "PassClock", "available_bytes",
           "refuse_if_too_large"]

#: The estimate is made after this many rows, or after this many seconds if sooner.
CLOCK_ROWS = 20
CLOCK_SECONDS = 1.0
#: A pass expected to last longer than this (after the estimate) is announced, with a bar.
SAY_AFTER_SECONDS = 3.0
def available_bytes() -> int | None:
    """The memory the system says is available (``MemAvailable`` of ``/proc/meminfo``), or
    None where it does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def refuse_if_too_large(model, d: int, available: int | None = None) -> None:
    """Refuse (:class:`~dpboost.cli._options.UserError`) a model whose learners' arrays for
    ``d`` features exceed the ``available`` memory (default: :func:`available_bytes`);
    nothing when either is unknown.

    >>> from dpboost.online import OnlineBBM
    >>> refuse_if_too_large(OnlineBBM(n_learners=3_000_000), 20, available=2 * 10**9)
    >>> refuse_if_too_large(OnlineBBM(n_learners=3_000_000), 20, available=10**9)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dpboost.cli._options.UserError: 3000000 learners on 20 features need at least 1.0 GB of ...
    """
    from dpboost.cli._options import UserError

    bank = getattr(model, "bank_", None)
    size = bank.array_bytes(d) if bank is not None and hasattr(bank, "array_bytes") else None
    available = available_bytes() if available is None else available
    if not size or available is None or size <= available:
        return
    n = bank.n_learners
    most = max(1, int(n * available / size))
    most = most // 10_000 * 10_000 or most
    raise UserError(f"{n} learners on {d} features need at least {size / 1e9:.1f} GB of memory "
                    f"for their arrays alone, and {available / 1e9:.1f} GB is available: use "
                    f"at most about {most} learners (fewer leave room for the pass itself).")


def _shown(seconds: float) -> str:
    """``12 s``, ``64 min`` or ``5.5 h``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


class PassClock:
    """Called after each training row of a pass: estimates the rest, then draws the bar.

    ``what``: the plan, as the line names it; ``train_rows``: the rows the pass learns;
    ``test_rows``: held-out rows predicted after it (counted as rows learnt: an upper bound).
    ``seconds``: the estimate once made, after row ``done_at``; ``close()`` clears the bar.

    Examples
    --------
    >>> import contextlib, io
    >>> ticks = iter([0.0, 0.2, 0.7, 1.2])  # the start, then rows 1-3 (0.5 s a row after row 1)
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     clock = PassClock("demo", "bbm with 100 learners", 3, 18, clock=lambda: next(ticks))
    ...     for _ in range(3):
    ...         clock()
    >>> print(err.getvalue().strip())
    demo: bbm with 100 learners; estimated 9 s more (timed on its first 3 rows)
    """

    def __init__(self, owner: str, what: str, train_rows: int, test_rows: int = 0, *,
                 clock=time.perf_counter, terminal: bool | None = None) -> None:
        self.owner, self.what = owner, what
        self.train_rows, self.rows = int(train_rows), int(train_rows) + int(test_rows)
        self._clock, self._terminal = clock, terminal
        self.done, self.bar, self.seconds, self.done_at = 0, None, None, None
        self._start = clock()
        self._after_first = None

    def __call__(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update()
            return
        if self.seconds is not None:
            return
        now = self._clock()
        if self.done == 1:
            self._after_first = now
        if self.done < min(CLOCK_ROWS, self.train_rows) and now - self._start < CLOCK_SECONDS:
            return
        per_row = ((now - self._after_first) / (self.done - 1) if self.done > 1
                   else now - self._start)
        self.seconds, self.done_at = per_row * (self.rows - self.done), self.done
        if self.seconds >= SAY_AFTER_SECONDS:
            self._say()

    def _say(self) -> None:
        from dpboost.progress import RoundBar, on_terminal

        print(f"{self.owner}: {self.what}; estimated {_shown(self.seconds)} more (timed on "
              f"its first {self.done} row{'s' if self.done > 1 else ''})", file=sys.stderr,
              flush=True)
        terminal = on_terminal() if self._terminal is None else self._terminal
        if terminal and self.done < self.train_rows:
            self.bar = RoundBar(self.owner, self.train_rows, unit="rows")
            self.bar.done = self.done - 1
            self.bar.update()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
