"""How dpboost's gap to non-private logistic regression shrinks with the number of rows.

Issue 14 asks, for tasks under 10,000 training rows, for the gap and how it shrinks with n.
This script subsamples the training split of the larger tasks of ``bench_utility.py`` (same
public preprocessing, same held-out test rows) to n = 500, 1,000, ... and fits, on the same
rows, dpboost's defaults at epsilon (default 1, delta = 1e-6) and scikit-learn's
``LogisticRegression(C=100)`` (non-private).  It prints, per task and n, the mean over seeds of
accuracy and ROC AUC for both and the gap (logistic regression minus dpboost).

Usage::

    python benchmarks/bench_gap_n.py                       # a9a, covtype, letter-A; 3 seeds
    python benchmarks/bench_gap_n.py --tasks a9a --epsilon 2 --seeds 5

Needs the shared data folder (``--data-dir``, default ``$DPBOOST_DATA`` or
``../shared/datasets``).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

SIZES = (500, 1000, 2000, 4000, 8000, 16000, 32000)


def main(argv=None) -> int:
    import bench_utility as bu
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from dpboost.estimator import PrivateHalfspaceClassifier

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default=os.environ.get(
        "DPBOOST_DATA", str(ROOT.parent / "shared" / "datasets")))
    ap.add_argument("--tasks", default="a9a,covtype,letter-A")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args(argv)
    data = Path(args.data_dir)
    print("| task | n_train | dpboost (acc / AUC) | logreg (acc / AUC) | gap (acc / AUC) |")
    print("|---|---:|---:|---:|---:|")
    for task in args.tasks.split(","):
        for n in SIZES:
            rows = []
            for seed in range(args.seeds):
                Ztr, ytr, Zte, yte, c = bu.TASKS[task](data, seed, None)
                if n > len(ytr):
                    break
                idx = np.random.default_rng(500 + seed).permutation(len(ytr))[:n]
                Xtr, Xte, y = Ztr[idx] / c, Zte / c, ytr[idx]
                if np.unique(y).size < 2:
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    dp = PrivateHalfspaceClassifier(args.epsilon, bu.DELTA, classes=[0, 1],
                                                    random_state=seed).fit(Xtr, y)
                    lr = LogisticRegression(C=100, max_iter=2000).fit(Xtr, y)
                rows.append([np.mean(dp.predict(Xte) == yte),
                             roc_auc_score(yte, dp.decision_function(Xte)),
                             np.mean(lr.predict(Xte) == yte),
                             roc_auc_score(yte, lr.decision_function(Xte))])
            if not rows:
                continue
            a, b, la, lb = np.mean(rows, axis=0)
            print(f"| {task} | {n} | {a:.3f} / {b:.3f} | {la:.3f} / {lb:.3f} | "
                  f"{la - a:+.3f} / {lb - b:+.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
