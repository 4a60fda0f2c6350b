"""Worker memory of ``--workers`` reading a CSV: does it follow the block size or the file?

``read_encoded`` (the spool pass of ``train --workers``) is run on a 2-worker LocalCluster for
two CSV files, one ``--scale`` times the other, with the same block size; the peak resident
memory of every worker process above its start is polled (psutil, every 20 ms).  Out of core
means the ratio of the peaks stays near 1 as the file grows.  Until session 29 every partition
waited for the field counts of every block, so parsed partitions piled up: helper G measured
440 MB at 92 MB of text and 680 / 852 MB at 368 MB (16 MB blocks).

    python benchmarks/bench_workers_memory.py [--mb 50] [--scale 4] [--block-mb 8]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install

SCHEMA = {"columns": {**{f"x{j}": {"type": "numeric", "lower": 0, "upper": 1000}
                         for j in range(10)},
                      "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"]},
                      "note": {"type": "drop"}},
          "label": {"column": "label", "classes": ["no", "yes"]}}


def _write(path: str, mb: int, rng: np.random.Generator) -> None:
    with open(path, "w") as handle:
        handle.write(",".join([*[f"x{j}" for j in range(10)], "job", "note", "label"]) + "\n")
        while handle.tell() < mb * 1_000_000:
            X = rng.uniform(0, 1000, size=(50_000, 10)).round(3)
            jobs = np.array(["clerk", "sales", "eng"])[rng.integers(0, 3, len(X))]
            handle.write("".join(",".join(f"{v:.3f}" for v in x) + f',{j},"free text",'
                                 f"{'yes' if x[0] + x[1] > 1000 else 'no'}\n"
                                 for x, j in zip(X, jobs)))


def _peak(client, path: str, blocksize: int) -> tuple[list[float], float, int]:
    """Worker peaks above their start (MB), seconds, partitions of one read_encoded."""
    import psutil

    from dpboost.cli._distributed import read_encoded
    from dpboost.schema import Schema

    procs = [psutil.Process(p) for p in client.run(os.getpid).values()]
    base = [p.memory_info().rss for p in procs]
    peak, stop = list(base), threading.Event()

    def poll():
        while not stop.is_set():
            for k, p in enumerate(procs):
                peak[k] = max(peak[k], p.memory_info().rss)
            time.sleep(0.02)

    thread = threading.Thread(target=poll)
    thread.start()
    t0 = time.perf_counter()
    X, _, _ = read_encoded(path, Schema.from_dict(SCHEMA), dtype=np.float64,
                           blocksize=blocksize)
    seconds = time.perf_counter() - t0
    stop.set()
    thread.join()
    return [(p - b) / 1e6 for p, b in zip(peak, base)], seconds, len(X.chunks[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50, help="the smaller file, MB")
    parser.add_argument("--scale", type=int, default=4, help="the larger file is this many times")
    parser.add_argument("--block-mb", type=int, default=8)
    args = parser.parse_args()
    from distributed import Client

    from dpboost.cli._distributed import cluster_client  # noqa: F401 (spool cleanup)
    from dpboost.distributed import local_cluster

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DPBOOST_SPOOL_DIR"] = os.path.join(folder, "spool")
        paths = [os.path.join(folder, f"{m}.csv") for m in (args.mb, args.mb * args.scale)]
        for path, mb in zip(paths, (args.mb, args.mb * args.scale)):
            _write(path, mb, rng)
        rows = []
        for path in paths:
            cluster = local_cluster(2, "8GiB", quiet=True)
            client = Client(cluster)
            try:
                peaks, seconds, parts = _peak(client, path, args.block_mb << 20)
            finally:
                client.close()
                cluster.close()
            rows.append({"file_MB": round(os.path.getsize(path) / 1e6),
                         "partitions": parts, "seconds": round(seconds, 2),
                         "worker_peak_MB": [round(p) for p in peaks]})
            print(json.dumps(rows[-1]), flush=True)
    small, large = (max(r["worker_peak_MB"]) for r in rows)
    print(f"largest worker peak: {small} MB at {rows[0]['file_MB']} MB, {large} MB at "
          f"{rows[1]['file_MB']} MB of CSV ({args.block_mb} MB blocks): ratio "
          f"{large / max(small, 1):.2f} for {args.scale}x the file (1 = out of core)")


if __name__ == "__main__":
    main()
