"""Benchmark: ``dpboost schema`` and the schema encoder on wide files, time per column.

Writes synthetic CSV files of 50 rows and k columns (integer codes, one column in ten of text
categories, one in ten with a missing cell, a label), for k = 500, 2,000 and 8,000 by default,
and times in one run, for each k:

* ``draft``: ``dpboost schema FILE --label y --out DRAFT`` (the command, in process), and
* ``encode``: :func:`dpboost.readers.read_table` + ``TabularEncoder.fit_transform`` under that
  draft (what ``train`` and ``predict`` do before any noise).

It prints the milliseconds per column and the ratio of the per-column cost at the largest k to
that at the smallest: about 1 when the cost is linear in the number of columns.  Before
session 37 it grew with k (pandas deep-copied a reader's tuple of k column names into every
column it handed out, and two checks counted names in a list): 20,000 columns took minutes.
Usage: ``python benchmarks/bench_schema_wide.py [--cols 500 2000 8000] [--rows 50]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install


def write_wide(path: Path, rows: int, cols: int, seed: int = 0) -> None:
    """A CSV of ``rows`` rows: ``cols`` feature columns and a label ``y`` (synthetic)."""
    rng = np.random.default_rng(seed)
    words = np.array(["red", "green", "blue"])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(",".join(f"c{j}" for j in range(cols)) + ",y\n")
        for i in range(rows):
            cells = []
            for j in range(cols):
                if j % 10 == 3:
                    cells.append(str(rng.choice(words)))
                elif j % 10 == 7 and i == j % rows:
                    cells.append("")
                else:
                    cells.append(str(int(rng.integers(0, 100))))
            handle.write(",".join(cells) + f",{'yes' if rng.random() < 0.3 else 'no'}\n")


def time_one(folder: Path, rows: int, cols: int) -> tuple[float, float]:
    """Seconds for the draft and for reading + encoding under it."""
    from dpboost.cli import main
    from dpboost.readers import read_table
    from dpboost.schema import Schema
    from dpboost.tabular import TabularEncoder

    data, draft = folder / f"wide{cols}.csv", folder / f"wide{cols}.json"
    write_wide(data, rows, cols)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["schema", str(data), "--label", "y", "--out", str(draft)])
    seconds_draft = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"dpboost schema exited {code} on {data}")
    schema = Schema.from_dict(json.loads(draft.read_text(encoding="utf-8")))
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the draft's 'from_data' marks warn, as they should
        frame = read_table(data, names=schema.names, text_columns=schema.text_columns)
        TabularEncoder(schema).fit_transform(frame)
    return seconds_draft, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", type=int, nargs="+", default=[500, 2_000, 8_000])
    parser.add_argument("--rows", type=int, default=50)
    args = parser.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for cols in args.cols:
            results[cols] = time_one(Path(tmp), args.rows, cols)
    print(f"{'columns':>8} {'draft s':>8} {'ms/col':>7} {'encode s':>9} {'ms/col':>7}")
    for cols, (draft, encode) in results.items():
        print(f"{cols:>8,} {draft:>8.2f} {1e3 * draft / cols:>7.2f} {encode:>9.2f} "
              f"{1e3 * encode / cols:>7.2f}")
    small, large = min(results), max(results)
    for j, what in enumerate(("draft", "encode")):
        ratio = (results[large][j] / large) / (results[small][j] / small)
        print(f"{what}: per-column cost at {large:,} columns / at {small:,} = {ratio:.2f} "
              "(1 = linear in the columns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
