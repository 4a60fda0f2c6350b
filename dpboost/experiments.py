"""Measured sample complexity of private boosting: the ``dpboost curves`` runner.

For each cell ``(tau, eps, alpha, eta)`` of a grid, :func:`find_sample_complexity` finds
``n*``, the smallest training-set size at which HS-StL (the :class:`PrivateHalfspaceClassifier`)
has test error at most ``alpha`` (against *clean* test labels) in at least ``1 - beta`` of
``n_trials`` independent trials.  The search doubles ``n`` from ``n_start`` until the criterion
holds, then bisects on a log scale down to a ratio ``resolution``.  The trials of a cell share
one data pool per trial (training sets are prefixes of it), so the pass/fail answer is close to
monotone in ``n`` (common random numbers).

Practical mode (the default, documented): the theory's settings need ``10^5``-``10^6`` rounds, so
the runner keeps the *shape* of Algorithm 5 with smaller constants:

* ``kappa = alpha / 4``  (Algorithm 5);
* ``n_rounds = ceil(rounds_constant * log(1/kappa) / tau^2)`` with ``rounds_constant = 1``
  (Theorem 24's ``16 log(1/kappa)/gamma^2`` at an assumed advantage ``gamma = 4 tau``;
  Algorithm 5 uses ``1024``);
* ``learning_rate = learning_rate_constant / tau`` with ``learning_rate_constant = 0.1``.  The
  centering weak learner's hypotheses ``x -> z.x`` have ``|h| ~ tau``, far from the ``[-1, 1]``
  range the proof assumes, so the proof's ``lambda = tau/32`` never moves the measure in a few
  hundred rounds.

``mode="theory"`` uses :func:`dpboost.theory.algorithm5_parameters` instead (slow).  Data come
from ``make_margin_data(kind="skewed")``, where a single centroid stays at 20% error and boosting
is needed.  Noise is calibrated by the estimator from ``(eps, delta, T)`` only.

Seeding: every cell's randomness comes from ``SeedSequence(seed, spawn_key=cell key)`` where the
key is built from the cell's parameter values, so results do not depend on the grid, the order
or the number of workers.  Every finished cell is appended to the CSV (flush + fsync); a rerun
skips cells already present, and the file is finally rewritten in grid order, so an interrupted
and resumed run produces the same bytes as an uninterrupted one.

The figures of these results are drawn by :func:`dpboost.plotting.plot_all`.

References
----------
Bun, Carmosino & Sorrell (COLT 2020): Algorithm 5, Theorems 24, 30, 33, Claim 2.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import math
import os
import sys
import time
from fractions import Fraction
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from dpboost import theory
from dpboost._validation import check_choice, check_scalar

__all__ = [
    "CSV_COLUMNS",
    "Cell",
    "CurveSettings",
    "find_sample_complexity",
    "make_grid",
    "noise_tolerance",
    "practical_parameters",
    "read_results",
    "run_grid",
    "training_diagnostics",
    "trial_errors",
]

CSV_COLUMNS = ("margin", "epsilon", "accuracy", "noise_rate", "n_star", "censored", "n_rounds",
               "kappa", "learning_rate", "n_trials", "passes_needed", "evaluations", "settings_id")


@dataclass(frozen=True, order=True)
class Cell:
    """One grid cell.

    Margin ``tau``, privacy ``eps``, accuracy ``alpha``, label-noise rate ``eta``."""

    margin: float
    epsilon: float
    accuracy: float
    noise_rate: float = 0.0

    def key(self) -> tuple[int, ...]:
        """Integer spawn key from the values (1e-9 resolution): independent of grid and order."""
        return tuple(_key_int(v) for v in (self.margin, self.epsilon, self.accuracy,
                                           self.noise_rate))


def _key_int(value: float) -> int:  # exact where v * 1e9 overflows (eps = 1e300 is a cell)
    scaled = value * 1e9
    if math.isfinite(scaled):
        return int(round(scaled))
    return int(Fraction(value) * 10**9)


@dataclass(frozen=True)
class CurveSettings:
    """Everything but the cell that determines a cell's result (documented defaults)."""

    delta: float = 1e-6
    failure_probability: float = 0.2
    n_trials: int = 5
    n_test: int = 2000
    dimension: int = 10
    n_start: int = 64
    n_max: int = 2**17
    resolution: float = 2**0.25
    kind: str = "skewed"
    mode: str = "practical"
    rounds_constant: float = 1.0
    learning_rate_constant: float = 0.1
    seed: int = 0

    def validate(self) -> CurveSettings:
        owner = "CurveSettings"
        check_scalar(self.delta, "delta", owner, low=0.0, high=1.0)
        check_scalar(self.failure_probability, "failure_probability", owner, low=0.0, high=1.0,
                     closed="left")
        check_scalar(self.n_trials, "n_trials", owner, kind="int", low=1, closed="left")
        check_scalar(self.n_test, "n_test", owner, kind="int", low=1, closed="left")
        check_scalar(self.dimension, "dimension", owner, kind="int", low=2, closed="left")
        check_scalar(self.n_start, "n_start", owner, kind="int", low=2, closed="left")
        check_scalar(self.n_max, "n_max", owner, kind="int", low=self.n_start, closed="left")
        check_scalar(self.resolution, "resolution", owner, low=1.0, high=2.0, closed="right")
        check_choice(self.kind, "kind", owner, ("skewed", "symmetric"))
        check_choice(self.mode, "mode", owner, ("practical", "theory"))
        check_scalar(self.rounds_constant, "rounds_constant", owner, low=0.0)
        check_scalar(self.learning_rate_constant, "learning_rate_constant", owner, low=0.0)
        check_scalar(self.seed, "seed", owner, kind="int", low=0, closed="left")
        return self

    @property
    def passes_needed(self) -> int:
        """Trials that must reach error <= alpha: ``ceil((1 - beta) n_trials)``."""
        return int(math.ceil((1.0 - self.failure_probability) * self.n_trials - 1e-9))

    def identifier(self) -> str:
        """Short hash of the settings, stored in every CSV row (resume refuses a mismatch)."""
        blob = json.dumps(asdict(self), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:12]


def practical_parameters(cell: Cell, settings: CurveSettings) -> dict:
    """``n_rounds``, ``kappa``, ``learning_rate`` used for a cell (module docstring)."""
    if settings.mode == "theory":
        p = theory.algorithm5_parameters(cell.margin, cell.accuracy)
        return {"n_rounds": p.n_rounds, "kappa": p.kappa, "learning_rate": p.learning_rate}
    kappa = cell.accuracy / 4.0
    rounds = int(math.ceil(settings.rounds_constant * math.log(1.0 / kappa) / cell.margin**2))
    return {"n_rounds": max(rounds, 1), "kappa": kappa,
            "learning_rate": settings.learning_rate_constant / cell.margin}


def make_grid(margins, epsilons, accuracies, noise_rates=(0.0,), *, design: str = "star",
              center: Cell | None = None) -> list[Cell]:
    """Cells of a full product grid, or a ``"star"``: the centre plus one axis varied at a time.

    The star design is what the slope fits need (each axis varied with the others held at the
    centre) at a fraction of the product's cost.  The centre defaults to the middle value of
    each list (``noise_rates[0]`` for the noise).
    """
    design = check_choice(design, "design", "make_grid", ("star", "full"))
    lists = [sorted(set(map(float, v))) for v in (margins, epsilons, accuracies, noise_rates)]
    for name, values in zip(("margins", "epsilons", "accuracies", "noise_rates"), lists):
        if not values:
            raise ValueError(f"The {name!r} parameter of make_grid must be a non-empty list. "
                             "Got [] instead.")
    if design == "full":
        return [Cell(*v) for v in itertools.product(*lists)]
    if center is None:
        center = Cell(lists[0][len(lists[0]) // 2], lists[1][len(lists[1]) // 2],
                      lists[2][len(lists[2]) // 2], float(sorted(map(float, noise_rates))[0]))
    cells = {center}
    for axis, values in enumerate(lists):
        for v in values:
            fields = [center.margin, center.epsilon, center.accuracy, center.noise_rate]
            fields[axis] = v
            cells.add(Cell(*fields))
    return sorted(cells)


# ---------------------------------------------------------------------------------------------
# one cell
# ---------------------------------------------------------------------------------------------


def _trial_pool(cell: Cell, trial: int, settings: CurveSettings):
    """Data pool of one trial: clean test set, training prefix pool, noisy training labels."""
    from dpboost.data import make_margin_data

    seq = np.random.SeedSequence(settings.seed, spawn_key=cell.key() + (trial,))
    data_seq, flip_seq = seq.spawn(2)
    X, y = make_margin_data(settings.n_max + settings.n_test, settings.dimension, cell.margin,
                            random_state=np.random.default_rng(data_seq), kind=settings.kind)
    flips = np.random.default_rng(flip_seq).random(settings.n_max) < cell.noise_rate
    X_test, y_test = X[:settings.n_test], y[:settings.n_test]
    X_pool, y_pool = X[settings.n_test:], y[settings.n_test:]
    return X_test, y_test, X_pool, np.where(flips, -y_pool, y_pool)


def _fit(X, y, cell: Cell, params: dict, settings: CurveSettings, rng: np.random.Generator,
         diagnostics: bool = False):
    from dpboost.estimator import PrivateHalfspaceClassifier

    model = PrivateHalfspaceClassifier(
        target_epsilon=cell.epsilon, target_delta=settings.delta, margin=cell.margin,
        accuracy=cell.accuracy, failure_probability=settings.failure_probability,
        n_rounds=params["n_rounds"], kappa=params["kappa"],
        learning_rate=params["learning_rate"], classes=(-1, 1), diagnostics=diagnostics,
        random_state=rng)
    return model.fit(X, y)


def trial_errors(cell: Cell, n: int, settings: CurveSettings, pools: list,
                 stop_when_decided: bool = True) -> list[float]:
    """Clean test errors of the trials at training size ``n`` (stops once pass/fail is decided)."""
    params = practical_parameters(cell, settings)
    need = settings.passes_needed
    errors: list[float] = []
    for trial, (X_test, y_test, X_pool, y_pool) in enumerate(pools):
        seq = np.random.SeedSequence(settings.seed, spawn_key=cell.key() + (trial, int(n), 1))
        model = _fit(X_pool[:n], y_pool[:n], cell, params, settings, np.random.default_rng(seq))
        errors.append(float(np.mean(model.predict(X_test) != y_test)))
        passes = sum(e <= cell.accuracy for e in errors)
        fails = len(errors) - passes
        if stop_when_decided and (passes >= need or fails > settings.n_trials - need):
            break
    return errors


def find_sample_complexity(cell: Cell, settings: CurveSettings) -> dict:
    """Search ``n*`` for one cell; return the CSV row (see :data:`CSV_COLUMNS`).

    The search starts at ``max(n_start, ceil(1/kappa))`` (the estimator needs ``kappa n >= 1``).
    ``censored`` is ``"upper"`` when even ``n_max`` fails (``n_star`` is then ``inf``), or when
    ``n_max < ceil(1/kappa)`` so that no admissible size fits (nothing is trained), ``"lower"``
    when the first size already passes, else ``""``.  The bisection runs between the last size
    that failed and the first that passed.
    """
    pools = [_trial_pool(cell, r, settings) for r in range(settings.n_trials)]
    evaluations: dict[int, list[float]] = {}

    def passes(n: int) -> bool:
        errs = trial_errors(cell, n, settings, pools)
        evaluations[n] = errs
        return sum(e <= cell.accuracy for e in errs) >= settings.passes_needed

    # the estimator needs kappa * n >= 1: start no lower than 1/kappa
    kappa = practical_parameters(cell, settings)["kappa"]
    n_first = max(settings.n_start, int(math.ceil(1.0 / kappa - 1e-9)))
    n, censored, last_fail = n_first, "", n_first
    if n_first > settings.n_max:  # the pool holds n_max rows: no size the estimator takes
        n, censored = math.inf, "upper"
    while censored == "" and not passes(n):
        if n >= settings.n_max:
            n, censored = math.inf, "upper"
            break
        last_fail, n = n, min(2 * n, settings.n_max)
    if censored == "" and n == n_first:
        censored = "lower"
    elif censored == "":
        lo, hi = last_fail, n
        while hi / lo > settings.resolution:
            mid = int(round(math.sqrt(lo * hi)))
            if mid in (lo, hi):
                break
            if passes(mid):
                hi = mid
            else:
                lo = mid
        n = hi
    params = practical_parameters(cell, settings)
    evals = ";".join(
        f"{k}:" + "|".join(f"{e:.4f}" for e in v) for k, v in sorted(evaluations.items()))
    return {
        "margin": cell.margin, "epsilon": cell.epsilon, "accuracy": cell.accuracy,
        "noise_rate": cell.noise_rate, "n_star": n, "censored": censored,
        "n_rounds": params["n_rounds"], "kappa": params["kappa"],
        "learning_rate": params["learning_rate"], "n_trials": settings.n_trials,
        "passes_needed": settings.passes_needed, "evaluations": evals,
        "settings_id": settings.identifier(),
    }


# ---------------------------------------------------------------------------------------------
# the grid: parallel, resumable, reproducible
# ---------------------------------------------------------------------------------------------


def _format_row(row: dict) -> list[str]:
    out = []
    for name in CSV_COLUMNS:
        v = row[name]
        out.append(repr(float(v)) if isinstance(v, float) else str(v))
    return out


def _parse_row(raw: dict) -> dict:
    row = dict(raw)
    for name in ("margin", "epsilon", "accuracy", "noise_rate", "n_star", "kappa",
                 "learning_rate"):
        row[name] = float(row[name])
    for name in ("n_rounds", "n_trials", "passes_needed"):
        row[name] = int(row[name])
    row["evaluations"] = {
        int(k): [float(e) for e in v.split("|")]
        for k, v in (item.split(":") for item in raw["evaluations"].split(";") if item)
    }
    return row


def read_results(path: str | os.PathLike) -> list[dict]:
    """Rows of a curves CSV with numbers parsed and ``evaluations`` as ``{n: [errors]}``.

    A row that does not parse raises ValueError naming the file and line.
    """
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or tuple(reader.fieldnames) != CSV_COLUMNS:
            raise ValueError(f"{path} is not a dpboost curves CSV (expected columns "
                             f"{', '.join(CSV_COLUMNS)}).")
        rows = []
        for raw in reader:
            try:
                rows.append(_parse_row(raw))
            except (ValueError, TypeError, AttributeError) as exc:
                raise ValueError(f"{path} line {reader.line_num} is not a complete dpboost "
                                 f"curves row ({exc}); fix or delete that line, or use another "
                                 "--out.") from None
        return rows


def _drop_partial_last_row(path: Path) -> None:
    """Cut an unterminated last line (a run killed mid-append; its cell runs again)."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)
            handle.flush()
            os.fsync(handle.fileno())


def _cell_of(row: dict) -> Cell:
    return Cell(float(row["margin"]), float(row["epsilon"]), float(row["accuracy"]),
                float(row["noise_rate"]))


def _progress(done: int, total: int, start: float, stream) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    elapsed = time.monotonic() - start
    stream.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {done}/{total} cells "
                 f"{elapsed:6.0f}s")
    if done == total:
        stream.write("\n")
    stream.flush()


def _worker_init() -> None:
    try:  # one BLAS thread per worker: two threads were slower on the shared machine
        from threadpoolctl import threadpool_limits
        threadpool_limits(1)
    except ImportError:  # pragma: no cover
        pass


def run_grid(cells: list[Cell], settings: CurveSettings, csv_path: str | os.PathLike, *,
             n_jobs: int | None = None, progress: bool = True, max_cells: int | None = None,
             stream=None) -> list[dict]:
    """Run every cell not yet in ``csv_path``; append each finished cell (flush + fsync).

    Parameters
    ----------
    cells : list of Cell
    settings : CurveSettings
    csv_path : path
        Created if missing; cells already present are skipped (their ``settings_id`` must match).
    n_jobs : int, optional
        Worker processes (default: all cores).  ``1`` runs in this process.
    progress : bool
        Draw a progress bar on ``stream`` (default stderr).
    max_cells : int, optional
        Stop after this many new cells (simulates an interruption; used by tests).

    Returns
    -------
    list of dict
        All rows for ``cells`` present in the CSV, in grid order.  When every cell is present the
        CSV is rewritten in grid order, so its bytes do not depend on scheduling or interruptions.
    """
    settings = settings.validate()
    stream = sys.stderr if stream is None else stream
    path = Path(csv_path)
    ident = settings.identifier()
    done: dict[Cell, dict] = {}
    if path.is_file():
        _drop_partial_last_row(path)
    if path.exists() and path.stat().st_size > 0:
        for row in read_results(path):
            if row["settings_id"] != ident:
                raise ValueError(f"{path} was written with other settings (id "
                                 f"{row['settings_id']}, now {ident}); use another --out or "
                                 "the same settings to resume.")
            done[_cell_of(row)] = row
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerow(CSV_COLUMNS)
            handle.flush()
            os.fsync(handle.fileno())
    todo = [c for c in dict.fromkeys(cells) if c not in done]
    if max_cells is not None:
        todo = todo[:max_cells]
    total, start = len(todo), time.monotonic()

    def record(row: dict) -> None:
        with open(path, "a", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerow(_format_row(row))
            handle.flush()
            os.fsync(handle.fileno())
        done[_cell_of(row)] = _parse_row(dict(zip(CSV_COLUMNS, _format_row(row))))

    if progress and total:
        _progress(0, total, start, stream)
    n_jobs = os.cpu_count() or 1 if n_jobs is None else int(n_jobs)
    if n_jobs <= 1 or total <= 1:
        for i, cell in enumerate(todo):
            record(find_sample_complexity(cell, settings))
            if progress:
                _progress(i + 1, total, start, stream)
    else:
        with ProcessPoolExecutor(max_workers=min(n_jobs, total), initializer=_worker_init) as pool:
            pending = {pool.submit(find_sample_complexity, c, settings) for c in todo}
            finished = 0
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in ready:
                    record(fut.result())
                    finished += 1
                    if progress:
                        _progress(finished, total, start, stream)
    ordered = [done[c] for c in dict.fromkeys(cells) if c in done]
    if len(ordered) == len(dict.fromkeys(cells)):
        import io

        from dpboost._io import atomic_write_text

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        for row in sorted(done.values(), key=lambda r: _cell_of(r)):
            raw = dict(row)
            raw["evaluations"] = ";".join(
                f"{k}:" + "|".join(f"{e:.4f}" for e in v)
                for k, v in sorted(row["evaluations"].items()))
            writer.writerow(_format_row(raw))
        atomic_write_text(path, buf.getvalue())
    return ordered


# ---------------------------------------------------------------------------------------------
# diagnostics the theorems promise (Theorem 24): margin fraction and smoothness per round
# ---------------------------------------------------------------------------------------------


def training_diagnostics(cell: Cell, n: int, settings: CurveSettings, trial: int = 0) -> dict:
    """Per-round margin and smoothness diagnostics on one real (non-private-to-report) run.

    Recomputes, from the released per-round hypotheses and LazyBregBoost's measure, after each
    round ``t``: the fraction of training points with margin ``y H_t(x) <= gamma`` where
    ``H_t = mean_{s<=t} clip(z_s . x, -1, 1)`` is Theorem 24's aggregated hypothesis (the theorem
    promises ``<= kappa`` once ``t >= 16 log(1/kappa)/gamma^2`` when every round has advantage
    ``gamma`` and ``lambda = gamma/4``; here ``gamma`` is the measured mean advantage
    ``0.5 sum_i mu_hat(i) y_i h_t(x_i)``), ``max_i mu_hat_t(i) * kappa * n`` (smoothness,
    ``<= 1``), and the clean test error of the estimator's predictor (sign of the mean
    ``z_t . x``).  These look at the training data and are **not** differentially private.
    """
    from dpboost.lazy_breg import LazyBregBoost

    X_test, y_test, X_pool, y_pool = _trial_pool(cell, trial, settings)
    X, y = X_pool[:n], y_pool[:n]
    params = practical_parameters(cell, settings)
    seq = np.random.SeedSequence(settings.seed, spawn_key=cell.key() + (trial, int(n), 2))
    rng = np.random.default_rng(seq)
    hypotheses = _released_hypotheses(X, y, cell, params, settings, rng)
    producer = LazyBregBoost(params["kappa"], params["learning_rate"])
    T = len(hypotheses)
    running = np.zeros(n)
    margins_t, smooth_t, advantage_t, test_error_t = [], [], [], []
    test_running = np.zeros(len(y_test))
    for t, h in enumerate(hypotheses):
        mu = producer.measure(X, y, hypotheses[:t])
        mu_hat = mu / mu.sum()
        hv = np.clip(h(X), -1.0, 1.0)
        advantage_t.append(float(0.5 * np.sum(mu_hat * y * hv)))
        smooth_t.append(float(mu_hat.max() * params["kappa"] * n))
        running += hv
        test_running += X_test @ h.coef  # the estimator's predictor: the mean of the z_t
        margins_t.append(y * running / (t + 1))
        test_error_t.append(float(np.mean(np.where(test_running >= 0, 1, -1) != y_test)))
    gamma = max(float(np.mean(advantage_t)), 1e-12)
    frac = [float(np.mean(m <= gamma)) for m in margins_t]
    return {"rounds": np.arange(1, T + 1), "margin_fraction": np.array(frac),
            "smoothness": np.array(smooth_t), "advantage": np.array(advantage_t),
            "test_error": np.array(test_error_t), "gamma": gamma, "kappa": params["kappa"],
            "n": n, "cell": cell, "round_bound": theory.theorem24_rounds(min(gamma, 0.5),
                                                                        params["kappa"])}


def _released_hypotheses(X, y, cell, params, settings, rng) -> list:
    """The per-round hypotheses ``x -> clip(z_t . x, -1, 1)`` of one fit (its released ``z_t``)."""
    from dpboost.weak_learners import HalfspaceHypothesis

    model = _fit(X, y, cell, params, settings, rng)
    return [HalfspaceHypothesis(np.asarray(w, dtype=np.float64)) for w in model.hypothesis_coefs_]
def noise_tolerance(center: Cell, noise_rates, n: int, settings: CurveSettings) -> dict:
    """Clean test errors of all trials at one training size ``n`` for each label-noise rate.

    Used with ``n = factor * n*(eta=0)`` to check Claim 2 / Section 5: under random
    classification noise the error against clean labels stays <= alpha at a modest multiple of
    the noise-free sample size.  Same seeds as the search, so the numbers match the CSV's.
    """
    out = {}
    for eta in sorted(set(map(float, noise_rates))):
        cell = Cell(center.margin, center.epsilon, center.accuracy, eta)
        pools = [_trial_pool(cell, r, settings) for r in range(settings.n_trials)]
        out[eta] = trial_errors(cell, int(n), settings, pools, stop_when_decided=False)
    return {"n": int(n), "center": center, "errors": out}
