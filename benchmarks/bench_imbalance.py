"""dpboost's defaults across many class balances: letter one-vs-rest and a9a subsampled.

``bench_utility.py`` has one task per balance; a default tuned to those would show on data of
another balance.  This script fits the defaults, beside non-private logistic regression on the
same features, on

* all 26 letter-against-the-rest tasks of UCI letter (3.7-4.1% positive, 15,000 training rows,
  the public preprocessing of ``bench_utility.py``), and
* a9a with its positive training and test rows subsampled to 10%, 5%, 2% and 1% (seeded),

and prints, per task and epsilon, accuracy / ROC AUC / rate of positive predictions, then a
summary: mean accuracy and AUC against logistic regression, the number of tasks on which
dpboost predicts a single class on the test rows while logistic regression does not, and the
number on which dpboost is less accurate than the majority class.

Usage::

    python benchmarks/bench_imbalance.py                   # epsilon 0.5, 1, 2; 1 seed; ~4 min
    python benchmarks/bench_imbalance.py --epsilons 1 --seeds 3

Needs the shared data folder (``--data-dir``, default ``$DPBOOST_DATA`` or
``../shared/datasets``).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import string
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def letter_tasks(data: Path, seed: int):
    import bench_utility as bu
    import pandas as pd

    df = pd.read_csv(data / "letter" / "letter-recognition.data", header=None)
    Z, c = bu._unit(df.iloc[:, 1:].to_numpy(float) / 15.0 * 2.0 - 1.0)
    for letter in string.ascii_uppercase:
        y = (df[0] == letter).astype(int).to_numpy()
        Ztr, ytr, Zte, yte = bu._split(Z, y, seed)
        yield f"letter-{letter}", Ztr / c, ytr, Zte / c, yte


def a9a_tasks(data: Path, seed: int, rates=(0.10, 0.05, 0.02, 0.01)):
    import bench_utility as bu

    Ztr, ytr, Zte, yte, c = bu.task_a9a(data, seed, None)
    rng = np.random.default_rng(seed)

    def subsample(X, y, rate):
        pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        k = int(rate / (1 - rate) * len(neg))
        i = np.concatenate([neg, rng.choice(pos, k, replace=False)])
        return X[i], y[i]

    for rate in rates:
        a, b = subsample(Ztr / c, ytr, rate)
        e, f = subsample(Zte / c, yte, rate)
        yield f"a9a-{rate:.0%}", a, b, e, f


def main(argv=None) -> int:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from dpboost.estimator import PrivateHalfspaceClassifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.environ.get(
        "DPBOOST_DATA", str(ROOT.parent / "shared" / "datasets")))
    ap.add_argument("--epsilons", default="0.5,1,2")
    ap.add_argument("--seeds", type=int, default=1)
    args = ap.parse_args(argv)
    data = Path(args.data_dir)
    epsilons = [float(e) for e in args.epsilons.split(",")]
    rows = []
    for seed in range(args.seeds):
        for gen in (letter_tasks(data, seed), a9a_tasks(data, seed)):
            for name, Xtr, ytr, Xte, yte in gen:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    lr = LogisticRegression(C=100.0, max_iter=5000).fit(Xtr, ytr)
                lr_pred = lr.predict(Xte)
                lr_auc = roc_auc_score(yte, lr.decision_function(Xte))
                majority = max(np.mean(yte), 1 - np.mean(yte))
                for eps in epsilons:
                    clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1],
                                                     random_state=seed).fit(Xtr, ytr)
                    pred = clf.predict(Xte)
                    rows.append(dict(
                        task=name, seed=seed, epsilon=eps, acc=np.mean(pred == yte),
                        auc=roc_auc_score(yte, clf.decision_function(Xte)), pos=pred.mean(),
                        lr_acc=np.mean(lr_pred == yte), lr_auc=lr_auc, lr_pos=lr_pred.mean(),
                        majority=majority))
                    r = rows[-1]
                    print(f"{name:10s} eps={eps:<4g} seed={seed} dpboost {r['acc']:.4f} / "
                          f"{r['auc']:.3f} / {r['pos']:.4f}   logreg {r['lr_acc']:.4f} / "
                          f"{r['lr_auc']:.3f} / {r['lr_pos']:.4f}   majority {majority:.4f}",
                          flush=True)
    print("\n| family | ε | tasks | dpboost acc / AUC | logreg acc / AUC | single class "
          "(logreg does not) | below majority |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for family in ("letter", "a9a"):
        for eps in epsilons:
            sel = [r for r in rows if r["task"].startswith(family) and r["epsilon"] == eps]
            if not sel:
                continue
            m = {k: np.mean([r[k] for r in sel]) for k in ("acc", "auc", "lr_acc", "lr_auc")}
            single = sum(1 for r in sel if r["pos"] in (0.0, 1.0) and 0 < r["lr_pos"] < 1)
            below = sum(1 for r in sel if r["acc"] < r["majority"] - 1e-12)
            print(f"| {family} | {eps:g} | {len(sel)} | {m['acc']:.4f} / {m['auc']:.3f} | "
                  f"{m['lr_acc']:.4f} / {m['lr_auc']:.3f} | {single} | {below} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
