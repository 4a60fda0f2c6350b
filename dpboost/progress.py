"""``verbose`` output of a fit: the plan and an estimated time before, a progress bar during.

Everything printed is public (``n``, ``d``, ``T`` and the settings) or already private output;
it goes to ``stderr`` so that ``stdout`` stays clean for pipes.  The time estimate is a linear
model of one boosting round, ``c0 + c1 n d + c2 n`` seconds, measured on the 2-core development
machine on 2026-11-27 (a round took 0.56-0.93 ms at n = 150, d = 5; 2.5 ms at n = 20,000,
d = 30; 10-14 ms at n = 50,000, d = 100); it is a guide, not a promise.  Without the fixed
cost ``c0`` (the projection, the noise draw, the bookkeeping of one round) a trial's 377,742
rounds on iris were estimated at 1.9 s and ran for minutes.

On dask (``fit`` given a dask array, as ``dpboost train --workers K`` does) a round is three or
four round trips to the workers (:mod:`dpboost.distributed`) and two passes over the spooled
chunks, so its model is ``T (c0 + c1 n d)`` with ``c0 = 0.105 s`` and ``c1 = 23 ns``: the least
squares fit of the round times measured by ``benchmarks/bench_workers_time.py`` (median gap
between rounds) on the 2-core machine on 2026-11-27 (load 1-2.3), a ``LocalCluster`` of 2
workers, CSVs of 50,000-300,000 rows x 10-50 features read as ``--workers 2`` reads them (one
partition): 0.115-0.158 s a round at d = 10, 0.128-0.286 s at d = 25, 0.154-0.428 s at
d = 50, the model within 0.90-1.10 of each (with other jobs on the machine, load 3-9, rounds
took 1.05-1.55 times as long).  With the in-memory model ``--workers 2`` printed "estimated
4.1 s" for 150 rounds on 300,000 rows x 25 features, which ran for 48-56 s (user trial,
session 26); the dask model says 42 s, and the whole command took 47.6 s here.
It estimates **the rounds only**, which is what is left of the fit when the line is printed:
the dask cluster has started (0.7-0.8 s), the CSV has been read, encoded and spooled (1.7-5 s
here), and the private centre, whitening, scale and count have been released; after the
rounds come the calibration and, with ``--non-private-figures``, a scoring pass (0.5-2.7 s
outside the rounds in all).  A joint ``K``-class round on dask reduces the ``K`` class sums in
one pass over the chunks, so it is estimated as a binary round (``d`` cells a row, not
``K d``): measured 0.118 s at n = 20,000, d = 21, K = 10; 0.124 s at d = 17, K = 26; 0.160 s at
n = 100,000, d = 21, K = 10 (one chunk, load 1), the model within 0.91-0.97 (with ``K d``
cells, 1.7-3.7).  It does not use the number of workers or of partitions (a CSV's
partition count follows its bytes, which one row can change): the line is a function of
``n``, ``d``, ``T`` and the settings alone.

The bar reads no clock: it redraws at fixed rounds (every hundredth of the total) and shows
the rounds done, never an elapsed time or a rate.  A tqdm bar printed both, and redrew when
enough time had passed, so its output depended on how long rounds took, which depends on the
data (the measure's projection, the exponential mechanism's exact sampler): a figure outside
every mechanism, in output the guarantee otherwise covers.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

__all__ = ["RoundBar", "estimated_seconds", "round_callback"]

#: Seconds per round, per (row x feature) and per row of one boosting round (measured; see
#: the module doc).
SECONDS_PER_ROUND = 6.0e-4
SECONDS_PER_CELL = 1.2e-9
SECONDS_PER_ROW = 6.0e-8
#: Runs expected to take longer than this get a progress bar.
BAR_AFTER_SECONDS = 3.0
#: Seconds per round and per (row x feature) of a boosting round on dask: its round trips to
#: the workers and its passes over the spooled chunks (measured; see the module doc).
DASK_SECONDS_PER_ROUND = 0.105
DASK_SECONDS_PER_CELL = 2.3e-8


def estimated_seconds(n: int, d: int, n_rounds: int, *, dask: bool = False) -> float:
    """Estimated boosting time ``T (c0 + c1 n d + c2 n)`` in seconds.

    ``dask``: the rounds of a fit on dask, ``T (c0 + c1 n d)`` with the dask constants, whose
    ``c0`` is the round trips to the workers (see the module doc).

    Examples
    --------
    >>> round(estimated_seconds(50000, 100, 100), 2)
    0.96
    >>> round(estimated_seconds(150, 15, 377742))  # the trial's iris run: minutes, not 1.9 s
    231
    >>> round(estimated_seconds(300000, 25, 150), 1)  # what --workers printed (user trial) ...
    4.1
    >>> round(estimated_seconds(300000, 25, 150, dask=True))  # ... for a 48-56 s run
    42
    """
    if dask:
        return n_rounds * (DASK_SECONDS_PER_ROUND + DASK_SECONDS_PER_CELL * n * d)
    return n_rounds * (SECONDS_PER_ROUND + SECONDS_PER_CELL * n * d + SECONDS_PER_ROW * n)


def round_callback(owner: str, n: int, d: int, n_rounds: int, verbose, *, n_classes: int = 2,
                   multiclass: str = "joint",
                   dask: bool = False) -> tuple[Callable | None, Callable[[], None]]:
    """Print the plan to stderr; return ``(callback, close)`` for a progress bar (or none).

    ``verbose`` false: prints nothing and returns ``(None, no-op)``.  The bar is drawn on a
    terminal only; the plan line is printed anywhere.  With ``n_classes >= 3``
    the plan names the multiclass booster: a joint round scores ``K`` classes (the estimate
    counts ``K d`` cells a row in memory, ``d`` on dask), one-vs-rest runs ``K`` binary
    boosters of ``n_rounds`` rounds (the bar counts all ``K n_rounds``).  ``dask``: the fit
    runs on dask; the estimate is that of its rounds (:func:`estimated_seconds`) and the line
    says so, with the in-memory estimate of the same rounds beside it: a red team's
    ``--workers 2`` on 17,818 rows took 67-92 s against 2.4-3.5 s in memory, and the line
    gave no hint that dask pays only for rows that do not fit in memory.

    Examples
    --------
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     _ = round_callback("Demo", 1000, 8, 12, 1, n_classes=10, multiclass="ovr")
    >>> print(err.getvalue().strip())
    Demo: 10 one-vs-rest runs of 12 boosting rounds on 1000 rows x 8 features; estimated 0.1 s
    >>> with contextlib.redirect_stderr(err):
    ...     _ = round_callback("Demo", 300000, 25, 150, 1, dask=True)
    >>> for part in err.getvalue().splitlines()[-1].split("; "):
    ...     print(part)
    Demo: 150 boosting rounds on 300000 rows x 25 features
    estimated 41.6 s for the rounds on dask (4.1 s in memory)
    """
    if not verbose:
        return None, lambda: None
    total, what, cells, memory_cells = n_rounds, f"{n_rounds} boosting rounds", d, d
    if n_classes > 2 and multiclass == "ovr":
        total, what = n_classes * n_rounds, f"{n_classes} one-vs-rest runs of {what}"
    elif n_classes > 2:  # on dask the K class sums are one pass over the rows (module doc)
        memory_cells = n_classes * d
        cells = d if dask else memory_cells
        what = f"{n_rounds} joint {n_classes}-class boosting rounds"
    secs = estimated_seconds(n, cells, total, dask=dask)
    shown = _seconds_shown(secs)
    if dask:  # the in-memory figure beside it: dask pays only where the rows do not fit
        in_memory = estimated_seconds(n, memory_cells, total)
        shown += f" for the rounds on dask ({_seconds_shown(in_memory)} in memory)"
    print(f"{owner}: {what} on {n} rows x {d} features; estimated {shown}", file=sys.stderr)
    if secs < BAR_AFTER_SECONDS or not on_terminal():  # a log file got one line of ~100
        return None, lambda: None  # redraws joined by carriage returns (user trial, s. 26)
    bar = RoundBar(owner, total)
    return (lambda t, mu, h: bar.update()), bar.close


def _seconds_shown(secs: float) -> str:
    """``"1.2 s"``, or ``"< 0.1 s"`` (never ``"0.0 s"``)."""
    return "< 0.1 s" if secs < 0.05 else f"{secs:.1f} s"


def on_terminal() -> bool:
    """Whether stderr is a terminal, where a redrawn bar belongs."""
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


class RoundBar:
    """``owner: done/total rounds (p%)`` on one stderr line, redrawn at fixed rounds
    (``unit``: what is counted, ``rows`` for ``dpboost online``).

    The output is a function of ``owner``, ``total`` and ``unit`` alone (no clock, no rate):
    the same characters for every run of the same plan.

    Examples
    --------
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     bar = RoundBar("Demo", 3)
    ...     for _ in range(3):
    ...         bar.update()
    ...     bar.close()
    >>> err.getvalue().count("/3 rounds")
    4
    """

    def __init__(self, owner: str, total: int, unit: str = "rounds") -> None:
        self.owner, self.total, self.done, self.unit = owner, int(total), 0, unit
        self.step = max(1, math.ceil(self.total / 100))
        self._width = 0
        self._draw()

    def _draw(self) -> None:
        text = (f"{self.owner}: {self.done}/{self.total} {self.unit} "
                f"({100 * self.done // max(1, self.total)}%)")
        self._width = max(self._width, len(text))
        print("\r" + text, end="", file=sys.stderr, flush=True)

    def update(self) -> None:
        self.done += 1
        if self.done % self.step == 0 or self.done == self.total:
            self._draw()

    def close(self) -> None:
        """Clear the line (as a bar that does not stay)."""
        print("\r" + " " * self._width + "\r", end="", file=sys.stderr, flush=True)
