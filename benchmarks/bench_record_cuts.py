"""What cutting a CSV at record boundaries costs (``dpboost.csv_blocks.record_cuts``), against
one plain read of the same file, measured side by side in one run.

``train --workers`` cuts a CSV into blocks where a record ends, never inside a quoted value
(session 28).  The cuts are found on the client before any worker reads, so their cost adds
to every ``--workers`` run.  Three files of about the same size: quoted text holding line
breaks, the same with stray quotes (``5'11"``), and numbers without quotes; 64 MB blocks (the
default) and 1 MB blocks.  The figure is the ratio to parsing the file once with
``pandas.read_csv(dtype=str)``, the work the workers share (a lower bound of a run's reading).

    python benchmarks/bench_record_cuts.py [--mb 200]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

from dpboost.csv_blocks import record_cuts


def _write(path: str, mb: int, kind: str, rng: np.random.Generator) -> None:
    rows = 100_000
    with open(path, "w") as handle:
        handle.write("age,job,note,hours,y\n")
        while handle.tell() < mb * 1_000_000:
            age, hours = rng.integers(17, 90, rows), rng.integers(1, 99, rows)
            if kind == "numbers":
                lines = [f"{a},{h % 3},{a * h},{h},{a % 2}\n" for a, h in zip(age, hours)]
            else:
                stray = "5'11\" " if kind == "stray quotes" else ""
                lines = [f'{a},"clerk, senior","{stray}note {a}\nsecond line",{h},'
                         f'{"yes" if a % 3 else "no"}\n' for a, h in zip(age, hours)]
            handle.write("".join(lines))


def _best(call, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def _parse(path: str) -> None:
    import pandas as pd

    pd.read_csv(path, dtype=str, keep_default_na=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of each file (default 200)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'file':<14} {'MB':>5} {'block':>6} {'cuts':>5} {'cut s':>8} {'parse s':>8} "
          f"{'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("quoted text", "stray quotes", "numbers"):
            path = os.path.join(folder, "f.csv")
            _write(path, args.mb, kind, rng)
            read = _best(lambda: _parse(path), repeat=1)
            for block in (64_000_000, 1_000_000):
                cuts: list[int] = []
                cut = _best(lambda: cuts.__setitem__(slice(None), record_cuts(path, block,
                                                                              ",")))
                print(f"{kind:<14} {os.path.getsize(path) / 1e6:>5.0f} {block / 1e6:>4.0f}MB "
                      f"{len(cuts) - 2:>5} {cut:>8.4f} {read:>8.4f} {cut / read:>6.4f}")


if __name__ == "__main__":
    main()
