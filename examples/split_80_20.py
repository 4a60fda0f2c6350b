"""Split a raw data file 80/20 into train and test files, line by line, with a fixed seed.

The files keep their raw form (separator, quoting, line endings); a header line, if any, is
copied to both.  A gzip-compressed DATA file is decompressed first (its bytes split by lines
were garbage); a TRAIN or TEST name ending in ``.gz`` is written compressed.  Usage::

    python examples/split_80_20.py DATA TRAIN TEST [--seed 0] [--no-header]
"""

from __future__ import annotations

import argparse
import gzip

import numpy as np


def _open(path: str, mode: str):
    """``path`` for bytes, gzip undone (reading: by its magic; writing: by a ``.gz`` name)."""
    if mode == "rb":
        with open(path, "rb") as handle:
            packed = handle.read(2) == b"\x1f\x8b"
    else:
        packed = path.lower().endswith(".gz")
    return gzip.open(path, mode) if packed else open(path, mode)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--no-header", action="store_true")
    args = parser.parse_args(argv)
    with _open(args.data, "rb") as handle:
        lines = [line for line in handle.read().splitlines(keepends=True) if line.strip()]
    header, rows = ([], lines) if args.no_header else (lines[:1], lines[1:])
    order = np.random.default_rng(args.seed).permutation(len(rows))
    n_test = int(round(args.test_fraction * len(rows)))
    test, train = sorted(order[:n_test]), sorted(order[n_test:])
    for path, picked in ((args.train, train), (args.test, test)):
        with _open(path, "wb") as handle:
            handle.writelines(header + [rows[i] for i in picked])
    print(f"{len(train)} train rows -> {args.train}, {len(test)} test rows -> {args.test}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
