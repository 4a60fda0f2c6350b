"""Scale: the private boosting round on dask, out of core, against the in-memory numpy round.

Usage::

    python benchmarks/bench_scale.py            # n = 10^7, d = 100 float32 (4 GB of Parquet)
    python benchmarks/bench_scale.py --quick    # n up to 10^6 (a minute or two)

Needs the optional extra ``pip install "dpboost[dask]"``.  Every figure is measured in one run
on the same files, so the ratios stay meaningful on a shared machine:

(a) **Out of core.**  ``n x d`` float32 rows (unit ball) and labels are written to Parquet files
    of 131,072 rows.  A ``distributed.LocalCluster`` of ``--workers`` processes, whose total
    memory limit is below the data size, runs Boost (LazyBregBoost + the Gaussian centering
    learner, the same code as in memory) on dask arrays of ``--chunk-files`` files a chunk,
    read through a spool (:mod:`dpboost.distributed_spool`, as ``dpboost train --workers``
    does): the first read decodes the files and writes each chunk once; every round then maps
    the chunks from the page cache, twice (the gains, then the centre); nothing of ``X`` is
    persisted.  Per-round time against the in-memory numpy round at the same ``n`` (a ratio;
    target <= 2x) and the peak resident memory of every process (client, workers, nannies)
    above its start-up peak, against the size of one chunk.
(b) **Scaling.**  The dask round time for ``n`` from ``10^5`` to the largest ``n`` on the same
    cluster, the fitted exponent of ``time ~ n^b`` (linear: ``b = 1``) and the linear fit
    ``t = fixed + slope n`` (the fixed part is scheduling and the round trips).
(c) **Floors.**  The first read (Parquet decode and spool write, once per fit), one read of
    the spool (a BLAS pass over every mapped chunk; a round reads twice) and one in-memory
    BLAS pass.  The files are in the OS page cache after writing (24 GB RAM), so these are
    decode and memory floors, not the disk's.

BLAS threads are pinned to 1 (the workers do the same); the client's machine load is printed.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install


def _piece(seed: int, rows: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, d), dtype=np.float32)
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    X *= 0.5
    y = np.where(X[:, 0] + 0.1 * X[:, 1] > 0, 1, -1).astype(np.int8)
    return X, y


def write_parquet(folder: str, n_files: int, rows: int, d: int) -> list[str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = []
    for k in range(n_files):
        path = os.path.join(folder, f"part-{k:05d}.parquet")
        meta = pq.ParquetFile(path).metadata if os.path.exists(path) else None
        if meta is not None and (meta.num_rows, meta.num_columns) == (rows, d + 1):
            paths.append(path)  # kept from an earlier run with the same --dir
            continue
        X, y = _piece(k, rows, d)
        cols = {f"x{j}": X[:, j] for j in range(d)}
        cols["y"] = y
        pq.write_table(pa.table(cols), path, compression=None)
        paths.append(path)
    return paths


def _read_X(paths: list[str], d: int) -> np.ndarray:
    """The rows of consecutive Parquet files, row-major float32 (one spool chunk)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = [pq.ParquetFile(p) for p in paths]
    out = np.empty((sum(f.metadata.num_rows for f in files), d), dtype=np.float32)
    start = 0
    for f in files:  # one file's columns at a time: the chunk plus one file in memory
        table = f.read(columns=[f"x{j}" for j in range(d)])
        for j, col in enumerate(table.columns):
            out[start:start + table.num_rows, j] = col.to_numpy()
        start += table.num_rows
        del table
    pa.default_memory_pool().release_unused()  # Arrow's allocator keeps freed buffers
    return out


def _read_y(paths: list[str]) -> np.ndarray:
    import pyarrow.parquet as pq

    return np.concatenate([pq.read_table(p, columns=["y"]).column(0).to_numpy().astype(np.int8)
                           for p in paths])


def dask_arrays(paths: list[str], rows: int, d: int, spool: str, per_chunk: int):
    """``X`` and ``y`` read from the Parquet files through a spool, ``per_chunk`` files a chunk.

    The first read of a chunk decodes its files and writes the chunk to ``spool``; every later
    read maps the spooled chunk from the page cache (:mod:`dpboost.distributed_spool`).
    """
    from functools import partial

    from dpboost.distributed_spool import spooled_array

    groups = [paths[i:i + per_chunk] for i in range(0, len(paths), per_chunk)]
    lengths = [rows * len(g) for g in groups]
    X = spooled_array([partial(_read_X, g, d) for g in groups], lengths, (d,), np.float32,
                      os.path.join(spool, "X"))
    y = spooled_array([partial(_read_y, g) for g in groups], lengths, (), np.int8,
                      os.path.join(spool, "y"))
    return X, y


def round_seconds(X, y, n_rounds: int) -> float:
    """Median seconds per round over rounds 2..n_rounds (as in bench_boost.py)."""
    from dpboost.boost import boost
    from dpboost.lazy_breg import LazyBregBoost
    from dpboost.weak_learners import GaussianCenteringHalfspace

    stamps: list[float] = []
    boost(X, y, measure_producer=LazyBregBoost(0.25, 5.0),
          weak_learner=GaussianCenteringHalfspace(noise_multiplier=40.0, kappa=0.25),
          n_rounds=n_rounds, rng=np.random.default_rng(0),
          callback=lambda t, mu, h: stamps.append(time.perf_counter()))
    return float(np.median(np.diff(stamps)))


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def peak_memory(client) -> dict:
    workers = client.run(_peak_mb)
    nannies = client.run(_peak_mb, nanny=True)
    return {"client+scheduler": _peak_mb(),
            **{f"worker {i}": v for i, v in enumerate(workers.values())},
            **{f"nanny {i}": v for i, v in enumerate(nannies.values())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 10^6")
    parser.add_argument("--n-max", type=int, default=None, help="largest n (default 10^7)")
    parser.add_argument("--d", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk-files", type=int, default=4,
                        help="Parquet files per dask chunk (default 4: 200 MiB chunks)")
    parser.add_argument("--dir", default=None, help="where to write the Parquet files (temp)")
    args = parser.parse_args()

    from distributed import Client

    from dpboost.distributed import local_cluster
    from dpboost.distributed_spool import remove_spool

    d = args.d
    rows = 1 << 15 if args.quick else 1 << 17
    n_max = args.n_max or (10**6 if args.quick else 10**7)
    n_files = -(-n_max // rows)
    data_bytes = n_files * rows * d * 4
    # the cluster's total below the data size (full mode); at least 1 GiB a worker
    limit = max(int(0.7 * data_bytes / args.workers), 1 << 30)
    load = os.getloadavg()
    print(f"dpboost bench_scale ({'quick' if args.quick else 'full'}): d={d}, {n_files} files of "
          f"{rows:,} rows ({rows * d * 4 / 2**20:.0f} MiB each), data {data_bytes / 2**30:.2f} "
          f"GiB; {args.workers} workers, memory limit {limit / 2**30:.2f} GiB each (total "
          f"{'below' if limit * args.workers < data_bytes else 'ABOVE'} the data); "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    folder = args.dir or tempfile.mkdtemp(prefix="dpboost-scale-")
    os.makedirs(folder, exist_ok=True)
    spool = tempfile.mkdtemp(prefix="dpboost-scale-spool-")
    try:
        t0 = time.perf_counter()
        paths = write_parquet(folder, n_files, rows, d)
        print(f"wrote {n_files} Parquet files in {time.perf_counter() - t0:.1f} s")
        cluster = local_cluster(args.workers, limit)
        client = Client(cluster)
        baseline = peak_memory(client)  # after start-up: the imports, before any data
        try:
            # (c) the floors: the first read decodes Parquet and writes the spool (once per
            # fit); a second read maps the spooled chunks from the page cache
            X, y = dask_arrays(paths, rows, d, os.path.join(spool, "all"), args.chunk_files)
            t0 = time.perf_counter()
            ones = np.ones(d, dtype=np.float32)
            client.compute([(X @ ones).sum(), y.sum()], sync=True)
            t_decode = time.perf_counter() - t0
            t0 = time.perf_counter()
            (X @ ones).sum().compute()  # one BLAS pass over every mapped chunk
            t_read = time.perf_counter() - t0
            # (a) and (b): the largest size first (its spool is written above), then smaller
            # ones, each in its own spool folder (deleted after its rounds)
            sizes = sorted({max(1, round(n_files * f)) for f in
                            ((0.1, 0.3, 1.0) if args.quick else (0.01, 0.03, 0.1, 0.3, 1.0))},
                           reverse=True)
            times = {}
            for k in sizes:
                folder_k = os.path.join(spool, "all" if k == n_files else f"n{k}")
                Xk, yk = dask_arrays(paths[:k], rows, d, folder_k, args.chunk_files)
                times[k * rows] = round_seconds(Xk, yk, args.rounds)
                print(f"  dask round n={k * rows:>11,} ({Xk.numblocks[0]} chunks): "
                      f"{times[k * rows]:.3f} s")
                if k == n_files:
                    peaks = peak_memory(client)
                del Xk, yk
                if k != n_files:
                    remove_spool(folder_k)
        finally:
            client.close()
            cluster.close()
            shutil.rmtree(spool, ignore_errors=True)
        n = n_files * rows
        t_dask = times[n]
        # (a) the in-memory reference at the same n (after the cluster, so that the client's
        # peak memory above does not include this array)
        Xm = np.empty((n_files * rows, d), dtype=np.float32)  # filled piece by piece
        ym = np.empty(n_files * rows, dtype=np.int8)
        for k in range(n_files):
            Xm[k * rows:(k + 1) * rows], ym[k * rows:(k + 1) * rows] = _piece(k, rows, d)
        t_mem = round_seconds(Xm, ym, args.rounds)
        t_pass = fastest_pass(Xm)
        del Xm, ym
        ns = np.array(sorted(times), dtype=float)
        b = float(np.polyfit(np.log(ns), np.log([times[int(k)] for k in ns]), 1)[0])
        chunk_mb = rows * args.chunk_files * d * 4 / 2**20
        print(f"\n(a) n={n:,} d={d}: dask round {t_dask:.3f} s, in-memory numpy round "
              f"{t_mem:.3f} s: ratio {t_dask / t_mem:.2f} (target <= 2)")
        print("    peak resident memory (MiB, above the process's start-up peak): " + ", ".join(
            f"{k} {v:.0f} (+{v - baseline[k]:.0f})" for k, v in peaks.items())
            + f"; one chunk = {chunk_mb:.0f} MiB, data = {data_bytes / 2**20:.0f} MiB")
        ts = np.array([times[int(k)] for k in ns])
        slope, fixed = np.polyfit(ns, ts, 1)  # t = fixed + slope * n
        big = ns >= 1e6
        b_big = (float(np.polyfit(np.log(ns[big]), np.log(ts[big]), 1)[0])
                 if big.sum() >= 2 else float("nan"))
        above = f" (n^{b_big:.2f} over n >= 10^6)" if big.sum() >= 2 else ""
        print(f"(b) round time ~ n^{b:.2f} over n = {int(ns[0]):,} .. {int(ns[-1]):,}"
              f"{above}; linear fit t = {fixed:.3f} s + "
              f"{slope * 1e9:.1f} ns x n (the fixed part: scheduling and the round trips)")
        print(f"(c) first read (Parquet decode + spool write, once per fit): {t_decode:.3f} s "
              f"({data_bytes / t_decode / 1e9:.2f} GB/s); a spooled read: {t_read:.3f} s "
              f"({data_bytes / t_read / 1e9:.2f} GB/s); one in-memory BLAS pass {t_pass:.3f} s; "
              f"dask round / (2 spooled reads) = {t_dask / (2 * t_read):.2f}")
        load = os.getloadavg()
        print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


def fastest_pass(X: np.ndarray, repeat: int = 3) -> float:
    """The fastest single BLAS pass over ``X`` (best of ``X @ v`` and ``X.T @ u``)."""
    v, u = np.ones(X.shape[1], X.dtype), np.ones(X.shape[0], X.dtype)
    times = []
    for fn in (lambda: X @ v, lambda: X.T @ u):
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return min(times)


if __name__ == "__main__":
    main()
