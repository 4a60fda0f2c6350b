"""Wall time of one default private fit at n = 50,000, d = 100 (issue 14's target: under 2 s).

Synthetic margin data (no download), the defaults (``PrivateHalfspaceClassifier(epsilon, 1e-6,
classes=[0, 1])``: private centre, scale, count, T rounds, calibration), best of ``--repeat``
fits per setting, and beside it one matrix-vector pass over X timed in the same run, so that the
ratio (fit / one pass) carries across machines.  Two class balances: the class-balanced first
measure and ``kappa = 2 p_hat`` change T on imbalanced data.

Usage::

    python benchmarks/bench_fit_time.py             # epsilon 0.5, 1, 5; about a minute
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def data(n: int, d: int, positive_rate: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / np.sqrt(d) / 1.5
    w = rng.normal(size=d)
    score = X @ w
    y = (score > np.quantile(score, 1 - positive_rate)).astype(int)
    return X, y


def main(argv=None) -> int:
    from dpboost.estimator import PrivateHalfspaceClassifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--epsilons", default="0.5,1,5")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"n = {args.n}, d = {args.d}, float64; best of {args.repeat}")
    print("| positive rate | ε | T | κ | fit (s) | one pass X.T v (ms) | fit / pass |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for rate in (0.5, 0.05):
        X, y = data(args.n, args.d, rate)
        v = np.ones(args.n)
        passes = []
        for _ in range(20):
            t = time.perf_counter()
            X.T @ v
            passes.append(time.perf_counter() - t)
        one_pass = min(passes)
        for eps in (float(e) for e in args.epsilons.split(",")):
            best, clf = np.inf, None
            for r in range(args.repeat):
                t = time.perf_counter()
                clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1],
                                                 random_state=r).fit(X, y)
                best = min(best, time.perf_counter() - t)
            rep = clf.privacy_report_
            print(f"| {rate:g} | {eps:g} | {rep['n_rounds']} | {rep['kappa']:.3f} | "
                  f"{best:.2f} | {1e3 * one_pass:.2f} | {best / one_pass:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
