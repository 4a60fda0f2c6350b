"""``verbose`` output of a fit: the plan and an estimated time before, a progress bar during.

Everything printed is public (``n``, ``d``, ``T`` and the settings) or already private output;
it goes to ``stderr`` so that ``stdout`` stays clean for pipes.  The time estimate is a linear
model of one boosting round, ``c1 n d + c2 n`` seconds, measured on the 2-core development
machine (a round at n = 50,000, d = 100 took about 7 ms); it is a guide, not a promise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["estimated_seconds", "round_callback"]

#: Seconds per (row x feature) and per row of one boosting round (measured; see module doc).
SECONDS_PER_CELL = 1.2e-9
SECONDS_PER_ROW = 2.0e-8
#: Runs expected to take longer than this get a progress bar.
BAR_AFTER_SECONDS = 3.0


def estimated_seconds(n: int, d: int, n_rounds: int) -> float:
    """Estimated boosting time ``T (c1 n d + c2 n)`` in seconds.

    Examples
    --------
    >>> round(estimated_seconds(50000, 100, 100), 2)
    0.7
    """
    return n_rounds * (SECONDS_PER_CELL * n * d + SECONDS_PER_ROW * n)


def round_callback(owner: str, n: int, d: int, n_rounds: int, verbose, *, n_classes: int = 2,
                   multiclass: str = "joint") -> tuple[Callable | None, Callable[[], None]]:
    """Print the plan to stderr; return ``(callback, close)`` for a tqdm bar (or no bar).

    ``verbose`` false: prints nothing and returns ``(None, no-op)``.  With ``n_classes >= 3``
    the plan names the multiclass booster: a joint round scores ``K`` classes (the estimate
    counts ``K d`` cells a row), one-vs-rest runs ``K`` binary boosters of ``n_rounds`` rounds
    (the bar counts all ``K n_rounds``).

    Examples
    --------
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     _ = round_callback("Demo", 1000, 8, 12, 1, n_classes=10, multiclass="ovr")
    >>> print(err.getvalue().strip())
    Demo: 10 one-vs-rest runs of 12 boosting rounds on 1000 rows x 8 features; estimated 0.0 s
    """
    if not verbose:
        return None, lambda: None
    total, what, cells = n_rounds, f"{n_rounds} boosting rounds", d
    if n_classes > 2 and multiclass == "ovr":
        total, what = n_classes * n_rounds, f"{n_classes} one-vs-rest runs of {what}"
    elif n_classes > 2:
        cells, what = n_classes * d, f"{n_rounds} joint {n_classes}-class boosting rounds"
    secs = estimated_seconds(n, cells, total)
    print(f"{owner}: {what} on {n} rows x {d} features; estimated {secs:.1f} s",
          file=sys.stderr)
    if secs < BAR_AFTER_SECONDS:
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=total, desc=owner, unit="round", file=sys.stderr, leave=False)
    return (lambda t, mu, h: bar.update(1)), bar.close
