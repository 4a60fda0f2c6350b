"""How long ``dpboost online`` will take, said before its pass, and its progress during it.

Every weak learner of an online booster sees every row, so a pass costs about
``rows x (a + b N)`` seconds for ``N`` learners.  ``--n-learners 3000000`` on 2,000 rows of
20 features ran silently: one row took 4-10 s with 3 million learners (2.9 GB), so the pass
would have taken hours (session 35's note).  The constants depend on the booster, the weak
learner, ``d`` and the machine, so they are measured: before the pass, a probe of the same
booster learns the first :data:`PROBE_ROWS` training rows, with the run's ``N`` learners when
``N`` is at most the larger of :data:`PROBE_LEARNERS`, else once with each, and ``a``, ``b``
are the line through their times per row (a first tiny probe takes the first calls' set-up
out of them).  Small probes mislead: below a thousand learners a row's fixed cost (about
40 us) hides the cost per learner, and a line through 16 and 128 learners said 1.7 s for a
BBM pass of 10,000 learners that took 13 s.  The estimate is a guide, within a factor of
two of the pass on the 2-core machine with other jobs on it (load 4; 2,000 rows x 20
features, estimated / measured seconds): BBM 3,000 learners 5 / 2.7, 10,000 7 / 3.7, 30,000
21 / 29; AdaBoost.OL with stumps, 10,000: 15 / 23; AdaBoost.OL.S 20,000: 23 / 23; the
agnostic booster 10,000: 22 / 18, with perceptrons 3,000: 3 / 3.1.  Above 4,096 learners the
banks outgrow the caches, so a much larger run may take longer than said.  The probes are
separate models with their own generator: the run's model, its draws and its output are
those of a run without them.

Nothing here is private: the online learners are not (:data:`~dpboost.cli.online.NOT_PRIVATE`),
and a clock is read only to say how long the user will wait.
"""

from __future__ import annotations

import sys
import time

import numpy as np

__all__ = ["PROBE_LEARNERS", "PROBE_ROWS", "SAY_AFTER_SECONDS", "pass_seconds", "say_plan"]

#: The probes' numbers of learners (a run with at most the larger is probed whole), and
#: the rows they learn.
PROBE_LEARNERS = (1024, 4096)
PROBE_ROWS = 8
#: Rows x learners below which no probe runs (at most a few seconds at the slowest
#: measured cost, about 10 us per row and learner).
PROBE_AFTER_CELLS = 200_000
#: A pass estimated longer than this is announced, with a progress bar on a terminal.
SAY_AFTER_SECONDS = 3.0


def _probe_seconds(build, k: int, X: np.ndarray, y: np.ndarray) -> float:
    from dpboost.online.evaluate import progressive_val_score

    model = build(k)
    start = time.perf_counter()
    progressive_val_score(model, X, y)
    return time.perf_counter() - start


def pass_seconds(build, n_learners: int, X: np.ndarray, y: np.ndarray,
                 n_rows: int) -> float | None:
    """Estimated seconds for ``n_rows`` rows through ``build(n_learners)``.

    ``build(k)``: a fresh booster with ``k`` learners (and its own generator); ``X``, ``y``:
    the training rows, whose first :data:`PROBE_ROWS` the probes learn.  None when the run is
    too small to need a probe (:data:`PROBE_AFTER_CELLS`).

    Examples
    --------
    >>> import numpy as np
    >>> from dpboost.cli.online import make_model
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(64, 5)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    >>> build = lambda k: make_model("bbm", n_learners=k, random_state=np.random.default_rng(1))
    >>> pass_seconds(build, 10, X, y, 64) is None  # 640 row-learners: no probe
    True
    >>> pass_seconds(build, 100_000, X, y, 64) > 0
    True
    """
    if n_rows * n_learners < PROBE_AFTER_CELLS:
        return None
    rows = min(PROBE_ROWS, X.shape[0])
    X, y = X[:rows], y[:rows]
    _probe_seconds(build, 16, X, y)  # first calls' set-up, not a cost of the pass
    small, large = PROBE_LEARNERS
    if n_learners <= large:
        return n_rows * _probe_seconds(build, n_learners, X, y) / rows
    t_small = _probe_seconds(build, small, X, y)
    t_large = _probe_seconds(build, large, X, y)
    b = max(0.0, (t_large - t_small) / (rows * (large - small)))
    a = max(0.0, t_small / rows - b * small)
    return n_rows * (a + b * n_learners)


def say_plan(owner: str, what: str, seconds: float | None, rows: int):
    """Print the estimate of a long pass to stderr; return ``(progress, close)`` for a bar.

    ``seconds`` None or under :data:`SAY_AFTER_SECONDS`: nothing is printed and
    ``progress`` is None.  The bar (:class:`~dpboost.progress.RoundBar`, counting ``rows``)
    is drawn on a terminal only.
    """
    from dpboost.progress import RoundBar, on_terminal

    if seconds is None or seconds < SAY_AFTER_SECONDS:
        return None, lambda: None
    shown = f"{seconds:.0f} s" if seconds < 120 else (
        f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h")
    print(f"{owner}: {what}; estimated {shown} (from two short probes; fewer learners run "
          "proportionally faster)", file=sys.stderr)
    if not on_terminal():
        return None, lambda: None
    bar = RoundBar(owner, rows, unit="rows")
    return bar.update, bar.close
