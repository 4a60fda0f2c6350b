"""Private multiclass: dpboost's joint booster and one-vs-rest beside diffprivlib and baselines.

Usage::

    python benchmarks/bench_multiclass.py              # digits, letter, synthetic; 3 seeds
    python benchmarks/bench_multiclass.py --quick      # digits and synthetic, 1 seed
    python benchmarks/bench_multiclass.py --no-diffprivlib
    python benchmarks/bench_multiclass.py --dask           # joint fit: memory against dask

Tasks (rows scaled into the unit ball by public constants only, then clipped row by row):

* ``digits`` (scikit-learn, 8x8 images, K = 10): pixels / 16, a constant feature, the row
  divided by the public 4 (about 16 lit pixels) and clipped;
* ``letter`` (UCI, K = 26; needs the shared datasets): the 16 integer features mapped from their
  public range [0, 15] to [-1, 1], a constant, times the public 2 / sqrt(17), clipped;
* ``margin-K`` (synthetic): K random unit class directions in d = 20 times 0.3, plus
  Gaussian noise of standard deviation 0.12 per coordinate, and a constant 0.3; K = 10.

Accuracy and macro one-vs-rest ROC AUC are printed for every method.
Methods: dpboost ``multiclass="joint"`` and ``"ovr"`` (defaults otherwise), IBM diffprivlib's
LogisticRegression (its own virtual environment with scikit-learn < 1.6, as in
``bench_utility.py``; default C and the best C over {0.01, 0.1, 1, 10} chosen **on the test
set**, which favours it), non-private logistic regression (C = 1), and the majority class.
delta = 1e-6 for dpboost; diffprivlib is pure epsilon-DP.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install

DELTA = 1e-6
C_GRID = (0.01, 0.1, 1.0, 10.0)


def _clip(X: np.ndarray) -> np.ndarray:
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]


def task_digits(data_dir: Path):
    from sklearn.datasets import load_digits

    d = load_digits()
    X = np.hstack([d.data / 16.0, np.ones((len(d.data), 1))]) / 4.0
    return _clip(X), d.target


def task_letter(data_dir: Path):
    path = data_dir / "letter" / "letter-recognition.data"
    if not path.exists():
        return None
    import pandas as pd

    df = pd.read_csv(path, header=None)
    y = df[0].map(lambda c: ord(c) - ord("A")).to_numpy()
    X = (df.iloc[:, 1:].to_numpy(dtype=float) - 7.5) / 7.5
    X = np.hstack([X, np.ones((len(X), 1))]) * (2.0 / np.sqrt(17.0))  # public; then clipped
    return _clip(X), y


def task_margin(data_dir: Path, K: int = 10, n: int = 20_000, d: int = 20):
    rng = np.random.default_rng(1234)
    directions = rng.normal(size=(K, d))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    y = rng.integers(0, K, n)
    X = 0.3 * directions[y] + rng.normal(0, 0.12, (n, d))
    return _clip(np.hstack([X, np.full((n, 1), 0.3)])), y


TASKS = {"digits": task_digits, "letter": task_letter, "margin-10": task_margin}

_DPL = r"""
import json, sys, warnings
import numpy as np
from diffprivlib.models import LogisticRegression
from sklearn.metrics import roc_auc_score
warnings.simplefilter("ignore")
d = np.load(sys.argv[1]); out = []
for eps in json.loads(sys.argv[2]):
    for seed in json.loads(sys.argv[3]):
        for C in json.loads(sys.argv[4]):
            clf = LogisticRegression(epsilon=eps, data_norm=1.0, C=C, random_state=seed)
            clf.fit(d[f"Xtr{seed}"], d[f"ytr{seed}"])
            acc = float(np.mean(clf.predict(d[f"Xte{seed}"]) == d[f"yte{seed}"]))
            p = clf.predict_proba(d[f"Xte{seed}"])
            auc = float(np.mean([roc_auc_score(d[f"yte{seed}"] == k, p[:, i])
                                 for i, k in enumerate(clf.classes_)]))
            out.append({"eps": eps, "seed": seed, "C": C, "acc": acc, "auc": auc})
print(json.dumps(out))
"""


def diffprivlib_scores(splits, epsilons, seeds) -> dict:
    """{(eps, seed): {C: (accuracy, macro ROC AUC)}} from diffprivlib in its own environment
    ({} if unavailable)."""
    from bench_utility import ensure_venv

    py = ensure_venv()
    if py is None:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "splits.npz")
        np.savez(path, **splits)
        res = subprocess.run([str(py), "-c", _DPL, path, json.dumps(list(epsilons)),
                              json.dumps(list(seeds)), json.dumps(list(C_GRID))],
                             capture_output=True, text=True, check=False)
    if res.returncode != 0:
        print(res.stderr[-1500:], file=sys.stderr)
        return {}
    out: dict = {}
    for r in json.loads(res.stdout):
        out.setdefault((r["eps"], r["seed"]), {})[r["C"]] = (r["acc"], r["auc"])
    return out


def macro_auc(y: np.ndarray, scores: np.ndarray, n_classes: int) -> float:
    """Macro-averaged one-vs-rest ROC AUC of the class scores (classes present in ``y``).

    Of ``decision_function`` for every method, as when the README's table was measured; it is
    not sklearn's ``roc_auc_ovr`` of ``predict_proba`` (what ``dpboost predict`` prints), which
    ranks each class's rows after the softmax.
    """
    from dpboost.scores import macro_roc_auc

    auc = macro_roc_auc(y, np.asarray(scores)[:, :n_classes]).auc
    return float("nan") if auc is None else auc


def run(args) -> list[dict]:
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    from dpboost.estimator import PrivateHalfspaceClassifier

    rows = []
    for name in args.tasks:
        loaded = TASKS[name](Path(args.data_dir))
        if loaded is None:
            print(f"{name}: data not found, skipped", file=sys.stderr)
            continue
        X, y = loaded
        K = int(y.max()) + 1
        splits = {}
        for seed in args.seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, random_state=seed,
                                                  stratify=y)
            splits.update({f"Xtr{seed}": Xtr, f"ytr{seed}": ytr, f"Xte{seed}": Xte,
                           f"yte{seed}": yte})
        dpl = {} if args.no_diffprivlib else diffprivlib_scores(splits, args.epsilons,
                                                                 args.seeds)
        for eps in args.epsilons:
            acc: dict = {}
            auc: dict = {}
            brier: dict = {}  # multiclass Brier score of predict_proba (dpboost only)
            for seed in args.seeds:
                Xtr, ytr = splits[f"Xtr{seed}"], splits[f"ytr{seed}"]
                Xte, yte = splits[f"Xte{seed}"], splits[f"yte{seed}"]
                for mode in ("joint", "ovr"):
                    t0 = time.perf_counter()
                    clf = PrivateHalfspaceClassifier(eps, DELTA, classes=list(range(K)),
                                                     multiclass=mode, random_state=seed)
                    clf.fit(Xtr, ytr)
                    acc.setdefault(f"dpboost {mode}", []).append(clf.score(Xte, yte))
                    auc.setdefault(f"dpboost {mode}", []).append(
                        macro_auc(yte, clf.decision_function(Xte), K))
                    brier.setdefault(f"dpboost {mode}", []).append(float(np.mean(
                        ((clf.predict_proba(Xte) - np.eye(K)[yte]) ** 2).sum(axis=1))))
                    acc.setdefault(f"seconds {mode}", []).append(time.perf_counter() - t0)
                if (eps, seed) in dpl:
                    acc.setdefault("diffprivlib C=1", []).append(dpl[(eps, seed)][1.0][0])
                    auc.setdefault("diffprivlib C=1", []).append(dpl[(eps, seed)][1.0][1])
                    best = max(dpl[(eps, seed)].values())  # by accuracy, on the test set
                    acc.setdefault("diffprivlib best C (on test)", []).append(best[0])
                    auc.setdefault("diffprivlib best C (on test)", []).append(best[1])
                lr = LogisticRegression(C=1.0, max_iter=2000).fit(Xtr, ytr)
                acc.setdefault("logistic regression", []).append(lr.score(Xte, yte))
                auc.setdefault("logistic regression", []).append(
                    macro_auc(yte, lr.decision_function(Xte), K))
                majority = np.bincount(ytr).argmax()
                acc.setdefault("majority", []).append(float(np.mean(yte == majority)))
                auc.setdefault("majority", []).append(0.5)
            for method, values in acc.items():
                rows.append({"task": name, "K": K, "n_train": len(splits[f"ytr{args.seeds[0]}"]),
                             "eps": eps, "method": method, "mean": float(np.mean(values)),
                             "min": float(np.min(values)), "max": float(np.max(values)),
                             "auc": (float(np.mean(auc[method])) if method in auc else None),
                             "brier": (float(np.mean(brier[method])) if method in brier
                                       else None)})
            line = ", ".join(f"{m} {np.mean(v):.3f}" + (f" / {np.mean(auc[m]):.3f}" if m in auc
                                                         else "")
                             + (f" / Brier {np.mean(brier[m]):.3f}" if m in brier else "")
                             for m, v in acc.items())
            print(f"{name} eps={eps:g}: {line}", flush=True)
    return rows


def dask_timing(args) -> None:
    """The joint fit at epsilon = 1 in memory and on a local dask cluster, side by side.

    Same data, seed and settings; prints both fit times, their ratio and the largest
    difference between the released centres (0, or one grid step where two float sums
    straddle a rounding boundary).
    """
    import dask.array as da
    from distributed import Client

    from dpboost.distributed import local_cluster
    from dpboost.estimator import PrivateHalfspaceClassifier

    cluster = local_cluster(args.workers, quiet=True)
    client = Client(cluster)
    try:
        for name in args.tasks:
            loaded = TASKS[name](Path(args.data_dir))
            if loaded is None:
                continue
            X, y = loaded
            K = int(y.max()) + 1
            kw = dict(classes=list(range(K)), random_state=0)
            t0 = time.perf_counter()
            mem = PrivateHalfspaceClassifier(1.0, DELTA, **kw).fit(X, y)
            t_mem = time.perf_counter() - t0
            rows = -(-len(y) // 4)  # four chunks
            t0 = time.perf_counter()
            dsk = PrivateHalfspaceClassifier(1.0, DELTA, **kw).fit(
                da.from_array(X, chunks=(rows, X.shape[1])), da.from_array(y, chunks=rows))
            t_dask = time.perf_counter() - t0
            diff = float(np.abs(mem.released_centres_ - dsk.released_centres_).max())
            print(f"{name}: n = {len(y)}, K = {K}, T = {mem.privacy_report_['n_rounds']}: "
                  f"memory {t_mem:.2f} s, dask ({args.workers} workers, 4 chunks) "
                  f"{t_dask:.2f} s, ratio {t_dask / t_mem:.1f}; largest centre difference "
                  f"{diff:g} (grid step {mem.privacy_report_['grid_granularity']:g})",
                  flush=True)
    finally:
        client.close()
        cluster.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="digits and synthetic, 1 seed")
    parser.add_argument("--no-diffprivlib", action="store_true", help="skip diffprivlib")
    parser.add_argument("--data-dir", default=os.environ.get(
        "DPBOOST_DATA", str(Path(__file__).resolve().parents[2] / "shared" / "datasets")))
    parser.add_argument("--json", default=None, help="also write the rows as JSON here")
    parser.add_argument("--dask", action="store_true",
                        help="only time the joint fit in memory against a local dask cluster")
    parser.add_argument("--workers", type=int, default=2, help="dask workers (with --dask)")
    args = parser.parse_args(argv)
    args.tasks = ["digits", "margin-10"] if args.quick else ["digits", "letter", "margin-10"]
    args.seeds = [0] if args.quick else [0, 1, 2]
    args.epsilons = [1.0, 5.0] if args.quick else [0.5, 1.0, 5.0]
    if args.dask:
        dask_timing(args)
        return 0
    rows = run(args)
    print()
    print(f"{'task':<10s} {'eps':>4s}  {'method':<30s} {'accuracy (mean, min-max)':>26s}"
          f"  {'macro ROC AUC':>13s}")
    for r in rows:
        if r["method"].startswith("seconds"):
            continue
        print(f"{r['task']:<10s} {r['eps']:>4g}  {r['method']:<30s} "
              f"{r['mean']:.3f} ({r['min']:.3f}-{r['max']:.3f})          {r['auc']:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
