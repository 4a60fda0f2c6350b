"""Benchmark: reading a numeric CSV with the old hand-written parser vs pyarrow (load_csv).

Writes a synthetic CSV of the a9a-like size in the issue (32,561 rows x 109 columns, header,
float values, a label column), reads it with

* ``legacy``: the pre-pyarrow ``load_csv`` (``csv.reader`` + ``float`` per cell, kept here
  verbatim in its essentials so the comparison stays reproducible), and
* ``load_csv``: today's :func:`dpboost.data.load_csv` (pyarrow, with the same one-line errors),
* ``encoder``: the schema path, :func:`dpboost.readers.read_table` + ``TabularEncoder`` on the
  same file (a numeric schema for every column), with the columns typed by pyarrow's guess
  (``typed``, how ``train`` read numeric columns until session 26) and read as text, each cell
  parsed alone (``text``: ``Schema.text_columns``, how ``train`` and ``predict`` read them now),

checks that the first two give identical matrices, and prints the times and the ratio in one
run.  Usage: ``python benchmarks/bench_io.py [--rows N] [--cols D] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install


def legacy_load_csv(path: Path, label: str):
    """The hand-written parser that ``load_csv`` used before pyarrow (same output)."""
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    rows = [[c.strip() for c in row] for row in csv.reader(io.StringIO(text)) if any(row)]
    names, rows = rows[0], rows[1:]
    j_label = names.index(label)
    columns = list(zip(*rows))
    features = [np.fromiter(map(float, col), dtype=np.float64, count=len(col))
                for j, col in enumerate(columns) if j != j_label]
    X = np.ascontiguousarray(np.column_stack(features))
    y = np.array(columns[j_label], dtype=np.float64).astype(np.int64)
    return X, y


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=32_561)
    parser.add_argument("--cols", type=int, default=109)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from dpboost.data import load_csv
    from dpboost.readers import read_table
    from dpboost.tabular import TabularEncoder

    rng = np.random.default_rng(0)
    X = np.round(rng.uniform(-1, 1, (args.rows, args.cols)), 6)
    y = rng.choice([-1, 1], args.rows)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.csv"
        header = ",".join(f"f{j}" for j in range(args.cols)) + ",label"
        body = "\n".join(",".join(f"{v:.6f}" for v in row) + f",{lab}"
                         for row, lab in zip(X, y))
        path.write_text(header + "\n" + body + "\n")
        t_old, (X_old, y_old) = _best(lambda: legacy_load_csv(path, "label"), args.repeat)
        t_new, (X_new, y_new) = _best(lambda: load_csv(path, label="label"), args.repeat)
        assert np.array_equal(X_old, X_new) and np.array_equal(y_old, y_new)
        schema = {"columns": {f"f{j}": {"type": "numeric", "lower": -1, "upper": 1}
                              for j in range(args.cols)}}
        encoder = TabularEncoder(schema)
        names = list(schema["columns"])
        t_enc, X_typed = _best(lambda: encoder.transform(read_table(path, columns=names)),
                               args.repeat)
        t_txt, X_text = _best(lambda: encoder.transform(read_table(
            path, columns=names, text_columns=names)), args.repeat)
        assert np.array_equal(X_typed, X_text)
    size = f"{args.rows} x {args.cols}"
    print(f"CSV {size}: legacy parser {t_old:.3f} s, load_csv (pyarrow) {t_new:.3f} s, "
          f"read_table + TabularEncoder {t_enc:.3f} s typed, {t_txt:.3f} s as text "
          f"(best of {args.repeat})")
    print(f"schema path, text / typed: {t_txt / t_enc:.2f}x")
    print(f"speed-up load_csv vs legacy: {t_old / t_new:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
