"""dpboost's defaults across rows, features and class balance, on data no default was tuned on.

The utility benchmark's tasks are few, and the defaults were measured on them.  This script is
the check for data they have not seen: scikit-learn's ``make_classification`` (a fifth of the
features informative, 2% of the labels flipped, class separation 1) for every combination of
n in {500, 3,000, 20,000, 100,000} training rows, d in {5, 40, 300} features (n d at most
6 million) and a positive rate in {1%, 5%, 30%, 50%}, at epsilon 1 and 4 (delta = 1e-6).
Features get public-constant preprocessing only: each clipped to [-4, 4] and divided by
``4 sqrt(d)``, so every row lies in the unit ball.  On the same rows it fits dpboost's defaults
(``PrivateHalfspaceClassifier(epsilon, 1e-6, classes=[0, 1])``) and scikit-learn's
``LogisticRegression(C=100)`` (non-private), and scores both on 25% more rows drawn with them.

Printed per setting (mean over seeds): accuracy / ROC AUC and the rate of positive predictions
of both, the majority rate, fit seconds, and flags: ``single`` when dpboost predicts one class
in a seed where logistic regression does not, ``below-majority`` when dpboost's mean accuracy is
under the majority rate by more than 0.5 point.  The last lines count the flags and give the
mean gap to logistic regression by n.

Usage::

    python benchmarks/bench_synthetic.py                 # 3 seeds, about 2 minutes
    python benchmarks/bench_synthetic.py --seeds 5 --epsilons 0.5,1,2

No data folder needed.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = (500, 3000, 20000, 100000)
DIMS = (5, 40, 300)
RATES = (0.01, 0.05, 0.3, 0.5)
MAX_CELLS = 6e6  # n d


def task(n: int, d: int, rate: float, seed: int):
    """Training and held-out rows of one synthetic task (public-constant preprocessing)."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=int(n * 1.25), n_features=d,
                               n_informative=max(2, d // 5), n_redundant=0,
                               weights=[1.0 - rate], flip_y=0.02, class_sep=1.0,
                               random_state=seed)
    X = np.clip(X, -4.0, 4.0) / (4.0 * np.sqrt(d))
    return X[:n], y[:n], X[n:], y[n:]


def main(argv=None) -> int:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from dpboost import PrivateHalfspaceClassifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--epsilons", default="1,4")
    args = ap.parse_args(argv)
    epsilons = [float(e) for e in args.epsilons.split(",")]

    flags = {"single": 0, "below-majority": 0}
    gaps: dict[int, list] = {}
    print("| n | d | positive | eps | dpboost acc / AUC / pos | logreg acc / AUC / pos | "
          "majority | dpboost s | flags |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in SIZES:
        for d in DIMS:
            if n * d > MAX_CELLS:
                continue
            for rate in RATES:
                data = [task(n, d, rate, seed) for seed in range(args.seeds)]
                data = [t for t in data if len(np.unique(t[3])) == 2]
                lr = []
                for Xtr, ytr, Xte, yte in data:
                    m = LogisticRegression(C=100, max_iter=2000).fit(Xtr, ytr)
                    lr.append((m.score(Xte, yte), roc_auc_score(yte, m.decision_function(Xte)),
                               float(np.mean(m.predict(Xte)))))
                for eps in epsilons:
                    rows, single = [], 0
                    for seed, (Xtr, ytr, Xte, yte) in enumerate(data):
                        t0 = time.perf_counter()
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1],
                                                             random_state=seed).fit(Xtr, ytr)
                        secs = time.perf_counter() - t0
                        pred = clf.predict(Xte)
                        rows.append((float(np.mean(pred == yte)),
                                     roc_auc_score(yte, clf.decision_function(Xte)),
                                     float(np.mean(pred)), float(np.mean(yte == 0)), secs))
                        single += int(np.unique(pred).size == 1 and 0 < lr[seed][2] < 1)
                    dp, base = np.mean(rows, axis=0), np.mean(lr, axis=0)
                    marks = []
                    if single:
                        marks.append(f"single {single}/{len(rows)}")
                        flags["single"] += 1
                    if dp[0] < dp[3] - 0.005:
                        marks.append("below-majority")
                        flags["below-majority"] += 1
                    gaps.setdefault(n, []).append((base[0] - dp[0], base[1] - dp[1]))
                    print(f"| {n} | {d} | {rate:g} | {eps:g} | {dp[0]:.3f} / {dp[1]:.3f} / "
                          f"{dp[2]:.3f} | {base[0]:.3f} / {base[1]:.3f} / {base[2]:.3f} | "
                          f"{dp[3]:.3f} | {dp[4]:.1f} | {', '.join(marks)} |", flush=True)
    print(f"\nsettings with a single-class seed where logreg predicts both: {flags['single']}; "
          f"below the majority rate: {flags['below-majority']}")
    for n, g in gaps.items():
        g = np.array(g)
        print(f"n = {n}: mean gap to logreg {g[:, 0].mean() * 100:.2f} points accuracy, "
              f"{g[:, 1].mean():.3f} AUC (largest {g[:, 0].max() * 100:.1f} / {g[:, 1].max():.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
