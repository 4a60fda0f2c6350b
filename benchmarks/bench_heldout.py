"""dpboost's defaults on data shapes none of them was tuned on (held-out shapes).

The defaults were measured on a9a, letter, covtype, shoppers, german credit, breast cancer,
digits "8" and the ``make_classification`` grid of ``bench_synthetic.py``.  This script checks
them on other shapes, with no data folder: synthetic data and data shipped inside scikit-learn.

Synthetic shapes: heavy-tailed features (log-normal, Student-t with 2 degrees of freedom,
divided by a public constant so that most rows are small and 3% are clipped), mostly-binary
one-hot rows (Zipf-distributed categories of 2-30 levels), a few strong features among many
noise features (d = 300 / 500), label noise (``flip_y`` 0.1 / 0.3), rare positives (1% and
0.5% of 50,000 rows), duplicated and constant columns, features on very different scales
(divided by one public bound), d > n, very small n (150 / 300 rows) and two non-linear tasks
(moons, circles) where logistic regression itself is weak.  Shipped data: wine (class 0 against
the rest), iris (virginica against the rest), digits "3" and "9" against the rest, breast cancer
with its positives subsampled to 10%, diabetes thresholded at its median and at its 90th
percentile.  Every feature map uses public constants (documented ranges, the generator's
known scale), never statistics of the training rows.

For each task: ``PrivateHalfspaceClassifier(epsilon, 1e-6, classes=[0, 1])`` (the defaults) at
each epsilon and seed, non-private ``LogisticRegression(C=100)`` on the same rows, and the
majority class.  Printed per (task, epsilon), means over seeds: accuracy / ROC AUC / rate of
positive predictions of dpboost, accuracy / ROC AUC of logistic regression, the majority rate,
the learned kappa, T, input scale and whitening, and flags:

* ``single k/s``: dpboost predicts one class in k seeds where logistic regression predicts both;
* ``below-majority``: mean accuracy below the majority rate by more than 0.5 point;
* ``auc<0.5``: mean ROC AUC below 0.5;
* ``gap``: accuracy more than 3 points below logistic regression at n >= 10,000 and epsilon >= 1;
* ``exception`` / ``warning``: any raised or emitted during the fit (a clipping warning, which
  the heavy-tailed tasks expect, is named).

Usage::

    python benchmarks/bench_heldout.py --quick          # 1 seed, epsilon = 1 (about 2 minutes)
    python benchmarks/bench_heldout.py                  # 3 seeds, epsilon 0.5 / 1 / 4
    python benchmarks/bench_heldout.py --tasks moons,rare-1% --seeds 6 --cache /tmp/heldout

``--cache DIR`` keeps every fit's numbers in ``DIR/heldout.json`` so that a rerun only fits
what is missing.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DELTA = 1e-6
EPSILONS = (0.5, 1.0, 4.0)


# ------------------------------------------------------------------------------ helpers
def _holdout(X, y, n):
    """The first ``n`` rows train, the rest are held out (synthetic rows are i.i.d.)."""
    return X[:n], y[:n], X[n:], y[n:]


def _n_total(n):
    return n + max(n // 4, 5000)


def _split(X, y, seed, test_size=0.25, stratify=True):
    """A seeded split of a shipped data set (stratified, so tiny sets keep both classes)."""
    from sklearn.model_selection import train_test_split

    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=test_size, random_state=1000 + seed,
                                          stratify=y if stratify else None)
    return Xtr, ytr, Xte, yte


def _ranges(data, widen=0.1):
    """Per-feature [lo, hi] as a documented range table would print them, widened by 10%."""
    lo, hi = data.min(axis=0), data.max(axis=0)
    span = hi - lo
    return lo - widen * span, hi + widen * span


def _to_ball(Z):
    """Features already in [-1, 1] divided by sqrt(d) (public): every row in the unit ball."""
    return Z / math.sqrt(Z.shape[1])


def _make_classification(n, d, seed, **kw):
    from sklearn.datasets import make_classification

    args = dict(n_informative=max(2, d // 5), n_redundant=0, flip_y=0.02, class_sep=1.0)
    args.update(kw)
    return make_classification(n_samples=_n_total(n), n_features=d, random_state=seed, **args)


def _rows_shuffled(X, y, seed):
    """``shuffle=False`` keeps the informative columns first but also sorts the rows by class."""
    i = np.random.default_rng(seed).permutation(len(y))
    return X[i], y[i]


def _public_clip(X, bound=4.0):
    """make_classification's features are unit Gaussians around +-class_sep: [-4, 4] -> ball."""
    return np.clip(X, -bound, bound) / (bound * math.sqrt(X.shape[1]))


# -------------------------------------------------------------------------------- tasks
def task_lognormal(seed, n=10_000, d=20):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(_n_total(n), d))
    X = np.exp(Z)  # log-normal(0, 1): median 1, 99th percentile 10
    s = X[:, :5].sum(axis=1) - X[:, 5:8].sum(axis=1) + rng.normal(scale=2.0, size=len(X))
    y = (s > 2 * math.exp(0.5)).astype(int)  # the generator's mean of s: about 30% positive
    return _holdout(X / (5.0 * math.sqrt(d)), y, n)  # public constant: about 3% of rows clipped


def task_student_t(seed, n=10_000, d=20):
    rng = np.random.default_rng(seed)
    X = rng.standard_t(2.0, size=(_n_total(n), d))
    logit = np.clip(X[:, :4] @ np.array([1.0, 1.0, -1.0, 0.5]) + 0.5, -50.0, 50.0)
    y = (rng.random(len(X)) < 1.0 / (1.0 + np.exp(-logit))).astype(int)
    return _holdout(X / (6.0 * math.sqrt(d)), y, n)  # about 3% of rows clipped


def task_onehot(seed, n=20_000, n_vars=12):
    """Categorical attributes (2-30 Zipf-distributed levels) one-hot encoded, plus 2 numbers."""
    rng = np.random.default_rng(seed)
    gen = np.random.default_rng(12345)  # the task's structure is fixed; the rows vary by seed
    levels = gen.integers(2, 31, size=n_vars)
    effects = [gen.normal(scale=1.0 if j < 6 else 0.0, size=k) for j, k in enumerate(levels)]
    N = _n_total(n)
    blocks, logit = [], np.full(N, -1.2)
    for k, eff in zip(levels, effects):
        p = 1.0 / np.arange(1, k + 1) ** 1.2
        c = rng.choice(k, size=N, p=p / p.sum())
        blocks.append(np.eye(k)[c])
        logit += eff[c]
    num = rng.random((N, 2))  # two numeric attributes on a documented [0, 1] range
    logit += 1.5 * num[:, 0]
    y = (rng.random(N) < 1.0 / (1.0 + np.exp(-logit))).astype(int)
    X = np.hstack(blocks + [num]) / math.sqrt(n_vars + 2)  # every row: norm <= 1
    return _holdout(X, y, n)


def task_sparse300(seed):
    X, y = _make_classification(5000, 300, seed, n_informative=5)
    return _holdout(_public_clip(X), y, 5000)


def task_sparse500(seed):
    X, y = _make_classification(20_000, 500, seed, n_informative=8)
    return _holdout(_public_clip(X), y, 20_000)


def task_flip30(seed):
    X, y = _make_classification(10_000, 20, seed, n_informative=5, flip_y=0.3)
    return _holdout(_public_clip(X), y, 10_000)


def task_flip10(seed):
    X, y = _make_classification(3000, 20, seed, n_informative=5, flip_y=0.1)
    return _holdout(_public_clip(X), y, 3000)


def task_rare1(seed):
    X, y = _make_classification(50_000, 20, seed, n_informative=5, weights=[0.99],
                                flip_y=0.0)
    return _holdout(_public_clip(X), y, 50_000)


def task_rare05(seed):
    X, y = _make_classification(50_000, 30, seed, n_informative=6, weights=[0.995],
                                flip_y=0.0)
    return _holdout(_public_clip(X), y, 50_000)


def task_dupconst(seed, n=10_000):
    """20 features (5 informative), each informative one copied 4 times, 10 constant columns."""
    X, y = _rows_shuffled(*_make_classification(n, 20, seed, n_informative=5, shuffle=False),
                          seed)
    X = np.hstack([X, np.repeat(X[:, :5], 4, axis=1), np.full((len(X), 10), 2.0)])
    return _holdout(_public_clip(X), y, n)


def task_scales(seed, n=10_000, d=20):
    """Columns on scales 10^-2..10^2, divided by one public bound on the row norm."""
    X, y = _rows_shuffled(*_make_classification(n, d, seed, n_informative=5, shuffle=False),
                          seed)
    # the 5 informative columns on scales 10^-2, 10^-1, .., 10^2, the noise columns likewise
    scale = 10.0 ** np.concatenate([np.linspace(-2.0, 2.0, 5), np.linspace(-2.0, 2.0, d - 5)])
    X = np.clip(X, -4.0, 4.0) * scale
    bound = 4.0 * float(np.sqrt(np.sum(scale**2)))  # the documented ranges bound every row
    return _holdout(X / bound, y, n)


def task_wide(seed):
    X, y = _make_classification(400, 1000, seed, n_informative=10)
    return _holdout(_public_clip(X), y, 400)


def task_tiny150(seed):
    X, y = _make_classification(150, 8, seed, n_informative=3)
    return _holdout(_public_clip(X), y, 150)


def task_tiny300(seed):
    X, y = _make_classification(300, 20, seed, n_informative=4, weights=[0.7])
    return _holdout(_public_clip(X), y, 300)


def task_moons(seed, n=3000):
    from sklearn.datasets import make_moons

    X, y = make_moons(_n_total(n), noise=0.25, random_state=seed)
    # documented support: x in [-1.5, 2.5], y in [-1, 1.5] -> centre 0.5, 0.25, half-width 2
    return _holdout((X - [0.5, 0.25]) / (2.0 * math.sqrt(2.0)), y, n)


def task_circles(seed, n=3000):
    from sklearn.datasets import make_circles

    X, y = make_circles(_n_total(n), noise=0.1, factor=0.5, random_state=seed)
    return _holdout(X / (1.5 * math.sqrt(2.0)), y, n)


def task_wine(seed):
    from sklearn.datasets import load_wine

    d = load_wine()
    lo, hi = _ranges(d.data)  # the DESCR's min/max table, widened
    return _split(_to_ball(2 * (d.data - lo) / (hi - lo) - 1), (d.target == 0).astype(int), seed)


def task_iris(seed):
    from sklearn.datasets import load_iris

    d = load_iris()
    lo, hi = _ranges(d.data)
    return _split(_to_ball(2 * (d.data - lo) / (hi - lo) - 1), (d.target == 2).astype(int), seed)


def _digits(k, seed):
    from sklearn.datasets import load_digits

    d = load_digits()
    return _split(_to_ball(d.data / 8.0 - 1.0), (d.target == k).astype(int), seed)


def task_digits3(seed):
    return _digits(3, seed)


def task_digits9(seed):
    return _digits(9, seed)


def task_breast_rare(seed):
    from sklearn.datasets import load_breast_cancer

    d = load_breast_cancer()
    lo, hi = _ranges(d.data)
    Z = _to_ball(2 * (d.data - lo) / (hi - lo) - 1)
    y = (d.target == 0).astype(int)  # malignant
    rng = np.random.default_rng(500 + seed)
    pos = np.flatnonzero(y == 1)
    keep = np.sort(np.concatenate([np.flatnonzero(y == 0),
                                   rng.choice(pos, size=40, replace=False)]))  # 40 / 397 = 10%
    return _split(Z[keep], y[keep], seed)


def _diabetes(q, seed):
    from sklearn.datasets import load_diabetes

    d = load_diabetes()  # shipped centred, each column of norm 1: entries within about +-0.2
    y = (d.target > np.quantile(d.target, q)).astype(int)
    return _split(_to_ball(np.clip(d.data / 0.2, -1, 1)), y, seed)


def task_diabetes50(seed):
    return _diabetes(0.5, seed)


def task_diabetes90(seed):
    return _diabetes(0.9, seed)


TASKS = {
    "lognormal": task_lognormal, "student-t": task_student_t, "onehot": task_onehot,
    "sparse-d300": task_sparse300, "sparse-d500": task_sparse500,
    "flip-0.3": task_flip30, "flip-0.1": task_flip10,
    "rare-1%": task_rare1, "rare-0.5%": task_rare05,
    "dup-const": task_dupconst, "scales": task_scales, "wide-d>n": task_wide,
    "tiny-150": task_tiny150, "tiny-300": task_tiny300,
    "moons": task_moons, "circles": task_circles,
    "wine-0": task_wine, "iris-virginica": task_iris, "digits-3": task_digits3,
    "digits-9": task_digits9, "breast-10%": task_breast_rare,
    "diabetes-50": task_diabetes50, "diabetes-90": task_diabetes90,
}
QUICK_TASKS = tuple(TASKS)


# ------------------------------------------------------------------------------- methods
def _auc(y, s):
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, s)) if len(np.unique(y)) == 2 else float("nan")


def run_dpboost(Xtr, ytr, Xte, yte, eps, seed, **kw):
    from dpboost import PrivateHalfspaceClassifier

    out = {"warnings": [], "exception": None}
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            clf = PrivateHalfspaceClassifier(eps, DELTA, classes=[0, 1],
                                             random_state=np.random.default_rng(seed),
                                             **kw).fit(Xtr, ytr)
            pred, score = clf.predict(Xte), clf.decision_function(Xte)
        except Exception as exc:  # noqa: BLE001 -- reported as a flag
            out["exception"] = f"{type(exc).__name__}: {exc}"
            return out
    out["warnings"] = sorted({w.category.__name__ for w in caught})
    rep = clf.privacy_report_
    assert rep["epsilon"]["best"] <= eps * (1 + 1e-9)
    cal = rep.get("calibration") or {}
    white = rep.get("input_whitening") or {}
    thr = rep.get("threshold")
    out.update(
        accuracy=float(np.mean(pred == yte)), auc=_auc(yte, score),
        positive_rate=float(np.mean(pred == 1)), seconds=time.perf_counter() - t0,
        kappa=float(rep["kappa"]), T=int(rep["n_rounds"]),
        scale=float(rep.get("input_scale", 1.0) or 1.0),
        whitened=bool(white.get("applied", False)),
        threshold=("cut" if thr else str(cal.get("threshold", ""))[:40]))
    return out


def run_logreg(Xtr, ytr, Xte, yte):
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = LogisticRegression(C=100.0, max_iter=5000).fit(Xtr, ytr)
    pred = m.predict(Xte)
    return {"accuracy": float(np.mean(pred == yte)), "auc": _auc(yte, m.decision_function(Xte)),
            "positive_rate": float(np.mean(pred == 1))}


def majority(ytr, yte):
    return float(np.mean(yte == int(np.mean(ytr) > 0.5)))


# --------------------------------------------------------------------------------- driver
class Cache:
    def __init__(self, folder):
        self.path = None if folder is None else Path(folder) / "heldout.json"
        self.data = {}
        if self.path is not None and self.path.exists():
            self.data = json.loads(self.path.read_text())

    def get(self, key, compute):
        if key not in self.data:
            self.data[key] = compute()
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps(self.data))
        return self.data[key]


def evaluate(task, epsilons, seeds, cache):
    """Per epsilon: the seeds' dpboost rows, logistic regression rows and majority rates."""
    fn = TASKS[task]
    data = {}

    def split(seed):
        if seed not in data:
            data[seed] = fn(seed)
        return data[seed]

    base = []
    for seed in seeds:
        def compute(seed=seed):
            Xtr, ytr, Xte, yte = split(seed)
            return {**run_logreg(Xtr, ytr, Xte, yte), "majority": majority(ytr, yte),
                    "n": int(len(ytr)), "d": int(Xtr.shape[1]),
                    "clipped": float(np.mean(np.linalg.norm(Xtr, axis=1) > 1.0)),
                    "positives": float(np.mean(ytr))}
        base.append(cache.get(f"{task}|lr|{seed}", compute))
    fits = {}
    for eps in epsilons:
        fits[eps] = [cache.get(f"{task}|{eps:g}|{seed}",
                               lambda seed=seed, eps=eps: run_dpboost(*split(seed), eps, seed))
                     for seed in seeds]
    return base, fits


def flags_for(base, rows, eps):
    marks = []
    bad = [r for r in rows if r.get("exception")]
    if bad:
        marks.append(f"exception {len(bad)}: {bad[0]['exception'][:60]}")
    ok = [(r, b) for r, b in zip(rows, base) if not r.get("exception")]
    if not ok:
        return marks
    single = sum(1 for r, b in ok if r["positive_rate"] in (0.0, 1.0)
                 and 0.0 < b["positive_rate"] < 1.0)
    if single:
        marks.append(f"single {single}/{len(ok)}")
    acc = np.mean([r["accuracy"] for r, _ in ok])
    maj = np.mean([b["majority"] for _, b in ok])
    if acc < maj - 0.005:
        marks.append("below-majority")
    if np.nanmean([r["auc"] for r, _ in ok]) < 0.5:
        marks.append("auc<0.5")
    lr = np.mean([b["accuracy"] for _, b in ok])
    if base[0]["n"] >= 10_000 and eps >= 1 and lr - acc > 0.03:
        marks.append(f"gap {100 * (lr - acc):.1f}")
    warned = sorted({w for r, _ in ok for w in r["warnings"]})
    if warned:
        marks.append("warning " + "+".join(warned))
    return marks


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 seed, epsilon = 1")
    ap.add_argument("--seeds", type=int, default=None, help="number of seeds (default 3)")
    ap.add_argument("--epsilons", default=None, help="comma-separated (default 0.5,1,4)")
    ap.add_argument("--tasks", default=None, help="comma-separated subset of: "
                    + ", ".join(TASKS))
    ap.add_argument("--cache", default=None, help="folder keeping every fit's numbers")
    args = ap.parse_args(argv)
    seeds = range(args.seeds if args.seeds else (1 if args.quick else 3))
    epsilons = ([float(e) for e in args.epsilons.split(",")] if args.epsilons
                else [1.0] if args.quick else list(EPSILONS))
    tasks = args.tasks.split(",") if args.tasks else list(TASKS)
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        ap.error(f"unknown tasks {unknown}; choose from {', '.join(TASKS)}")
    cache = Cache(args.cache)

    print(f"delta = {DELTA:g}, {len(seeds)} seed(s); means over seeds\n")
    print("| task | n | d | pos | clip | eps | dpboost acc / AUC / pos | logreg acc / AUC | "
          "majority | kappa | T | scale | white | flags |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    n_flags = {}
    for task in tasks:
        base, fits = evaluate(task, epsilons, seeds, cache)
        b0 = base[0]
        lr_acc = np.mean([b["accuracy"] for b in base])
        lr_auc = np.nanmean([b["auc"] for b in base])
        maj = np.mean([b["majority"] for b in base])
        pos = np.mean([b["positives"] for b in base])
        clip = np.mean([b["clipped"] for b in base])
        for eps in epsilons:
            rows = fits[eps]
            ok = [r for r in rows if not r.get("exception")]
            marks = flags_for(base, rows, eps)
            for m in marks:
                key = m.split()[0]
                n_flags[key] = n_flags.get(key, 0) + 1
            if ok:
                acc = np.mean([r["accuracy"] for r in ok])
                auc = np.nanmean([r["auc"] for r in ok])
                pr = np.mean([r["positive_rate"] for r in ok])
                kap = np.mean([r["kappa"] for r in ok])
                T = np.mean([r["T"] for r in ok])
                sc = np.mean([r["scale"] for r in ok])
                wh = sum(r["whitened"] for r in ok)
                cells = (f"{acc:.3f} / {auc:.3f} / {pr:.3f} | {lr_acc:.3f} / {lr_auc:.3f} | "
                         f"{maj:.3f} | {kap:.3f} | {T:.0f} | {sc:.2f} | {wh}/{len(ok)}")
            else:
                cells = f"- | {lr_acc:.3f} / {lr_auc:.3f} | {maj:.3f} | - | - | - | -"
            print(f"| {task} | {b0['n']} | {b0['d']} | {pos:.3f} | {clip:.3f} | {eps:g} | "
                  f"{cells} | {', '.join(marks)} |", flush=True)
    print("\nflagged (task, epsilon) settings by kind: "
          + (", ".join(f"{k} {v}" for k, v in sorted(n_flags.items())) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
