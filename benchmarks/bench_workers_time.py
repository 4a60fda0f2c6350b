"""Where the time of ``dpboost train --workers K`` goes, and the CSV block size it reads with.

Usage::

    python benchmarks/bench_workers_time.py        # n = 50k, 150k, 300k; 2-3 min
    python benchmarks/bench_workers_time.py --ds 5,20,45 --blocksizes 64MB
    python benchmarks/bench_workers_time.py --blocksizes 64MB,/2 --cli    # 10-15 min more
    python benchmarks/bench_workers_time.py --multiclass --rounds 20   # joint K-class round

Synthetic CSVs of ``n`` rows x ``d`` numeric columns (``--ds``) and a 4-category column
(``d + 5`` encoded features) and their schema are written to a temporary folder.  On one
``LocalCluster`` of ``--workers`` processes (as ``--workers`` starts it), for each CSV and each
block size (dask's partitions of the file):

* ``read``: :func:`~dpboost.cli._distributed.read_encoded`, the one pass that parses, encodes
  and spools the file (before the fit, so before the plan line is printed);
* ``fit``: the default private fit (``epsilon = 1``, ``delta = 1e-6``) with ``--rounds``
  rounds; ``round`` is the median time between consecutive rounds (the seconds of one
  boosting round on dask), and ``fit - T round`` the passes of the fit outside the rounds (the
  private centre, whitening, scale, count and calibration);
* beside them the plan line's estimate of the rounds, in memory
  (:func:`dpboost.progress.estimated_seconds`, what ``--workers`` printed before) and on dask.

``--cli`` also runs ``python -m dpboost train CSV --schema S --workers K`` end to end (the
default ``T``) and prints its wall time next to its plan line.  Timings depend on the machine
and its load (printed); they belong here, never in a unit test.

Measured on the 2-core machine, 2026-11-27, 2 workers, 25 features, load 1.6-2.5 (what
:mod:`dpboost.progress` and ``CSV_BLOCKSIZE`` in :mod:`dpboost.cli._distributed` cite):

| n | T | in-memory estimate | dask estimate | round x T | whole command (1 / 2 partitions) |
|---:|---:|---:|---:|---:|---:|
| 50,000 | 576 | 2.9 s | 77.0 s | 82 s | 95.4 s / 133.2 s |
| 150,000 | 192 | 2.7 s | 36.7 s | 31-38 s | 40.1 s / 49.9 s |
| 300,000 | 150 | 4.1 s | 41.6 s | 40-43 s | 55.2 s / 52.3 s; 47.6 s / 47.2 s |

``--multiclass`` (load 1): a joint round took 0.118 s (n = 20,000, d = 21, K = 10), 0.124 s
(d = 17, K = 26) and 0.160 s (n = 100,000, d = 21, K = 10), estimated 0.115, 0.113 and
0.153 s with ``d`` cells a row (0.202, 0.308 and 0.588 s with ``K d``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def write_csv(folder: Path, n: int, d: int, seed: int = 0) -> tuple[Path, Path]:
    """A CSV of ``n`` rows (``d`` numbers with 3 decimals, a category, a yes/no label)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    cols = {f"x{j}": (X[:, j] * 10 + 50).round(3) for j in range(d)}
    cols["cat"] = rng.choice(["a", "b", "c", "d"], n)
    cols["y"] = np.where(X @ rng.normal(size=d) + rng.normal(size=n) > 0, "yes", "no")
    path = folder / f"data_{n}_{d}.csv"
    pd.DataFrame(cols).to_csv(path, index=False)
    schema = {"columns": {**{f"x{j}": {"type": "numeric", "lower": 0, "upper": 100}
                             for j in range(d)},
                          "cat": {"type": "categorical", "categories": ["a", "b", "c", "d"]}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    schema_path = folder / f"schema_{d}.json"
    schema_path.write_text(json.dumps(schema))
    return path, schema_path


def fit_seconds(X, y, n_rounds: int, classes=(0, 1)) -> tuple[float, float]:
    """``(whole fit, median round)`` seconds of the default private fit with ``n_rounds``.

    The round time is the median gap between consecutive rounds' progress callbacks, so a
    burst of load from another process moves it less than it moves the whole fit.
    """
    import dpboost.estimator as estimator_module
    import dpboost.progress as progress_module
    from dpboost.estimator import PrivateHalfspaceClassifier

    stamps: list[float] = []
    original = progress_module.round_callback  # the binary fit's name, the multiclass fit's
    estimator_module.round_callback = progress_module.round_callback = lambda *a, **k: (
        lambda t, mu, h: stamps.append(time.perf_counter()), lambda: None)
    try:
        clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=list(classes), n_rounds=n_rounds,
                                         random_state=0)
        start = time.perf_counter()
        clf.fit(X, y)
        whole = time.perf_counter() - start
    finally:
        estimator_module.round_callback = progress_module.round_callback = original
    return whole, float(np.median(np.diff(stamps)))


def multiclass_rounds(workers: int, rounds: int) -> None:
    """The joint ``K``-class round on dask (one chunk, as a small CSV reads) against the plan
    line's estimate, which counts ``d`` cells a row on dask (``K d`` in memory)."""
    import dask.array as da

    from dpboost.cli._distributed import cluster_client
    from dpboost.progress import estimated_seconds

    print("| n | d | K | joint round (s) | dask estimate, d cells (s) | K d cells (s) | load |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with cluster_client(workers=workers):
        for n, d, K in ((20_000, 21, 10), (20_000, 17, 26), (100_000, 21, 10)):
            rng = np.random.default_rng(0)
            X = rng.normal(size=(n, d)) / (2 * np.sqrt(d))
            y = rng.integers(0, K, n)
            Xd, yd = da.from_array(X, chunks=(n, d)).persist(), da.from_array(y, n).persist()
            _, per_round = fit_seconds(Xd, yd, rounds, classes=list(range(K)))  # on the workers
            print(f"| {n} | {d} | {K} | {per_round:.3f} | "
                  f"{estimated_seconds(n, d, 1, dask=True):.3f} | "
                  f"{estimated_seconds(n, K * d, 1, dask=True):.3f} | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)


def components(path: Path, schema_path: Path, workers: int, blocksizes,
               rounds: int) -> None:
    from distributed import Client

    from dpboost.cli._distributed import cluster_client, read_encoded
    from dpboost.progress import estimated_seconds
    from dpboost.schema import Schema

    schema = Schema.load(str(schema_path))
    with cluster_client(workers=workers) as client:
        assert isinstance(client, Client)
        for blocksize in blocksizes:
            start = time.perf_counter()
            X, y, _ = read_encoded(str(path), schema, dtype=np.float64,
                                   blocksize=block_bytes(path, blocksize))
            read = time.perf_counter() - start
            n, d = X.shape
            whole, per_round = fit_seconds(X, y, rounds)
            print(f"| {n} | {d} | {blocksize or 'default'} | {X.numblocks[0]} | {read:.2f} | "
                  f"{whole:.2f} | {per_round:.3f} | {whole - rounds * per_round:.2f} | "
                  f"{estimated_seconds(n, d, rounds):.2f} | "
                  f"{estimated_seconds(n, d, rounds, dask=True):.2f} | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)


def block_bytes(path: Path, blocksize: str | None):
    """``/P``: the file's size over ``P`` (``P`` partitions); else as given (None: default)."""
    if blocksize is not None and blocksize.startswith("/"):
        return path.stat().st_size // int(blocksize[1:])
    return blocksize


def cli_run(path: Path, schema_path: Path, workers: int, out: Path, blocksize=None) -> None:
    """``python -m dpboost train`` end to end; ``blocksize`` set as ``CSV_BLOCKSIZE``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = ["train", str(path), "--schema", str(schema_path), "--workers", str(workers),
            "--target-epsilon", "1", "--target-delta", "1e-6", "--out", str(out)]
    size = block_bytes(path, blocksize)
    code = ("import sys, dpboost.cli._distributed as d; "
            + (f"d.CSV_BLOCKSIZE = {size!r}; " if size is not None else "")
            + "from dpboost.cli import main; sys.exit(main(sys.argv[1:]))")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          env=env, cwd=out.parent, check=False)
    wall = time.perf_counter() - start
    plan = re.search(r"\w+: .*estimated .*", done.stderr)
    print(f"| {path.name} | {blocksize or 'default'} | {wall:.1f} | "
          f"{plan.group(0) if plan else done.stderr.strip()} | {os.getloadavg()[0]:.1f} |",
          flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="50000,150000,300000")
    ap.add_argument("--ds", default="20", help="numeric columns (features: d + 5)")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--blocksizes", default="64MB,auto",
                    help="comma-separated; 'auto' is read_encoded's own choice, '/P' the "
                         "file's size over P")
    ap.add_argument("--cli", action="store_true", help="also time the whole command")
    ap.add_argument("--no-components", action="store_true", help="only the whole command")
    ap.add_argument("--multiclass", action="store_true",
                    help="only the joint multiclass round (synthetic arrays, no CSV)")
    args = ap.parse_args(argv)
    blocksizes = [None if b == "auto" else b for b in args.blocksizes.split(",")]
    print(f"load average {os.getloadavg()}, {os.cpu_count()} cores, {args.workers} workers")
    if args.multiclass:
        multiclass_rounds(args.workers, args.rounds)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        files = [write_csv(Path(tmp), int(n), int(d)) for d in args.ds.split(",")
                 for n in args.sizes.split(",")]
        print(f"| n | features | block size | partitions | read (s) | fit T={args.rounds} (s) | "
              "round (s) | fit - T round (s) | in-memory estimate (s) | dask estimate (s) | load |")
        print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for path, schema_path in [] if args.no_components else files:
            components(path, schema_path, args.workers, blocksizes, args.rounds)
        if args.cli:
            print("| file | block size | wall (s) | plan line | load |\n|---|---|---:|---|---:|")
            for path, schema_path in files:
                for blocksize in blocksizes:  # alternating, so that load hits both alike
                    cli_run(path, schema_path, args.workers, Path(tmp) / "model.json",
                            blocksize)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
