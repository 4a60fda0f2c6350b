"""Reproduce BKL15 Table 3 (a9a, letter A-M vs N-Z, covtype) beside Vowpal Wabbit, and time both.

For each dataset: one random 80/20 split (seed 0); every algorithm is tuned by progressive-
validation 0-1 loss on (the first ``--tune-rows`` rows of) the training part only, then makes
one full online pass over the training part with the chosen setting and is scored (0-1 error)
on the held-out 20%.  Vowpal Wabbit's own ``--boosting`` reduction (BBM; ``adaptive`` =
AdaBoost.OL) and its plain learner run on the same split, the same rows in the same order, with
the same grids (VW's ``--gamma`` is half the paper's gamma, which is what we pass it).

``bbm-default`` is Online BBM with the library's defaults (``OnlineBBM()``, the settings
``dpboost online`` uses), untuned: how far the defaults are from the tuned figure.

Throughput: Online BBM with N = 100 on a9a's training part, examples per second of dpboost
(the progressive-validation pass, data already in memory) and of VW (its whole run: parsing its
text file plus learning) measured in the same process, one after the other; the ratio is printed.

Usage::

    python benchmarks/bench_online.py                 # full table (several minutes;
                                                      # covtype dominates)
    python benchmarks/bench_online.py --quick         # 6,000-row subsamples, small grids
    python benchmarks/bench_online.py --datasets a9a --throughput-only
    python benchmarks/bench_online.py --datasets a9a --splits 10   # paired BBM-minus-base table

Needs ``vowpalwabbit`` (the ``bench`` extra) and the data under ``--data-dir``.

References
----------
Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting", ICML 2015,
Section 5, Table 3.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install

from dpboost.data import load_csv, load_dataset, load_libsvm
from dpboost.online.adaboost_ol import AdaBoostOL, AdaBoostOLS
from dpboost.online.bbm import OnlineBBM
from dpboost.online.evaluate import progressive_val_score
from dpboost.online.learners import OnlineLinearLearner

ALGOS = ("base", "bbm", "bbm-default", "adaboost-ol", "adaboost-ol-s")
VW_ALGOS = ("base", "bbm", "adaboost-ol")  # VW's --alg adaptive is AdaBoost.OL


# ----------------------------------------------------------------------------------- data
def load(name: str, data_dir: str, cache_dir: str | None):
    cache = os.path.join(cache_dir, f"{name}.npz") if cache_dir else None
    if cache and os.path.exists(cache):
        d = np.load(cache)
        return d["X"], d["y"]
    if name == "a9a":
        X1, y1 = load_libsvm(os.path.join(data_dir, "a9a", "a9a"), n_features=123)
        X2, y2 = load_libsvm(os.path.join(data_dir, "a9a", "a9a.t"), n_features=123)
        X, y = np.vstack([X1, X2]), np.where(np.concatenate([y1, y2]) > 0, 1.0, -1.0)
    elif name == "letter":
        X, raw = load_csv(os.path.join(data_dir, "letter", "letter-recognition.data"), label=0,
                          header=False)
        y = np.where(np.asarray(raw, dtype=str) <= "M", 1.0, -1.0)  # A-M vs N-Z
    elif name == "covtype":
        X, raw = load_dataset(os.path.join(data_dir, "covtype", "covtype.binary.csv.gz"),
                              label=0)
        y = np.where(np.asarray(raw) == 2, 1.0, -1.0)
    else:
        raise ValueError(f"unknown dataset {name!r}")
    if cache:
        os.makedirs(cache_dir, exist_ok=True)
        np.savez(cache, X=X, y=y)
    return X, y


def split(n: int, seed: int = 0):
    perm = np.random.default_rng(seed).permutation(n)
    n_train = round(0.8 * n)
    return perm[:n_train], perm[n_train:]


def write_vw(path: str, X: np.ndarray, y: np.ndarray) -> None:
    with open(path, "w") as f:
        for x, t in zip(X, y):
            nz = np.flatnonzero(x)
            feats = " ".join(f"f{j}:{x[j]:.17g}" for j in nz)
            f.write(("1" if t > 0 else "-1") + " | " + feats + "\n")


# ------------------------------------------------------------------------------- dpboost
def make(algo: str, cfg: dict, seed: int = 0):
    if algo == "bbm-default":  # the library's (and `dpboost online`'s) defaults, untuned
        return OnlineBBM(random_state=seed)
    if algo == "base":
        return OnlineLinearLearner(cfg["lr"])
    if algo == "bbm":
        return OnlineBBM(cfg["N"], cfg["gamma"], learning_rate=cfg["lr"], random_state=seed)
    cls = AdaBoostOL if algo == "adaboost-ol" else AdaBoostOLS
    return cls(cfg["N"], learning_rate=cfg["lr"], random_state=seed)


def ours_run(algo, cfg, Xtr, ytr, Xte=None, yte=None):
    model = make(algo, cfg)
    start = time.perf_counter()
    pv = progressive_val_score(model, Xtr, ytr)
    seconds = time.perf_counter() - start
    err = None if Xte is None else float(np.mean(model.predict(Xte) != yte))
    return pv, err, seconds


# ------------------------------------------------------------------------------------ VW
def vw_args(algo: str, cfg: dict) -> str:
    args = f"--binary --quiet -l {cfg['lr']:g}"
    if algo == "bbm":
        args += f" --boosting {cfg['N']} --alg BBM --gamma {cfg['gamma'] / 2:g}"
    elif algo == "adaboost-ol":
        args += f" --boosting {cfg['N']} --alg adaptive"
    return args


def vw_run(algo, cfg, train_file, test_file=None, model_file=None):
    from vowpalwabbit import Workspace

    extra = f" -f {model_file}" if test_file else ""
    start = time.perf_counter()
    ws = Workspace(f"-d {train_file} {vw_args(algo, cfg)}{extra}")
    ws.run_parser()
    n = ws.get_weighted_examples()
    pv = ws.get_sum_loss() / n
    ws.finish()
    seconds = time.perf_counter() - start
    err = None
    if test_file:
        ws = Workspace(f"-i {model_file} -t -d {test_file} --binary --quiet")
        ws.run_parser()
        err = ws.get_sum_loss() / ws.get_weighted_examples()
        ws.finish()
    return pv, err, seconds


# -------------------------------------------------------------------------------- tuning
def grids(quick: bool, lr_best: float | None = None):
    lrs = [0.1, 0.5, 1.0] if not quick else [0.5]
    lr = [lr_best] if lr_best is not None else lrs
    Ns = [20, 60] if not quick else [20]
    gammas = [0.1, 0.2, 0.4] if not quick else [0.2]
    return {
        "base": [{"lr": v} for v in lrs],
        "bbm": [{"N": n, "gamma": g, "lr": v} for n, g, v in itertools.product(Ns, gammas, lr)],
        "bbm-default": [{}],
        "adaboost-ol": [{"N": n, "lr": v} for n, v in itertools.product(Ns, lr)],
        "adaboost-ol-s": [{"N": n, "lr": v} for n, v in itertools.product(Ns, lr)],
    }


def bench_dataset(name, X, y, args, tmp, seed=0, only=None):
    """Tune and score every algorithm (or those in ``only``) on the 80/20 split ``seed``."""
    train, test = split(len(y), seed)
    tune = train[: args.tune_rows]
    Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
    files = {}
    if not args.skip_vw:
        for key, idx in (("train", train), ("test", test), ("tune", tune)):
            files[key] = os.path.join(tmp, f"{name}_{key}.vw")
            write_vw(files[key], X[idx], y[idx])
    rows = {}
    for who in ("dpboost",) + (() if args.skip_vw else ("vw",)):
        algos = [a for a in (ALGOS if who == "dpboost" else VW_ALGOS)
                 if only is None or a in only]
        best_lr = None
        for algo in algos:
            grid = grids(args.quick, best_lr)[algo]
            scores = [0.0] if len(grid) == 1 else []  # nothing to tune
            for cfg in grid if len(grid) > 1 else ():
                if who == "dpboost":
                    pv = ours_run(algo, cfg, X[tune], y[tune])[0]
                else:
                    pv = vw_run(algo, cfg, files["tune"])[0]
                scores.append(pv)
            cfg = grid[int(np.argmin(scores))]
            if algo == "base":
                best_lr = cfg["lr"]
            if who == "dpboost":
                pv, err, sec = ours_run(algo, cfg, Xtr, ytr, Xte, yte)
            else:
                pv, err, sec = vw_run(algo, cfg, files["train"], files["test"],
                                      os.path.join(tmp, "model.vw"))
            rows[(who, algo)] = {"config": cfg, "pv": pv, "test_error": err, "seconds": sec}
            print(f"  {name:8s} s{seed:<3d} {who:8s} {algo:14s} {json.dumps(cfg):45s} pv {pv:.4f} "
                  f"test {err:.4f} ({sec:.1f} s)", flush=True)
    return {"n_train": len(train), "n_test": len(test), "rows": rows}


def throughput(X, y, args, tmp, n_learners=100):
    train, _ = split(len(y))
    Xtr, ytr = X[train], y[train]
    cfg = {"N": n_learners, "gamma": 0.2, "lr": 0.5}
    _, _, ours_sec = ours_run("bbm", cfg, Xtr, ytr)
    path = os.path.join(tmp, "a9a_throughput.vw")
    write_vw(path, Xtr, ytr)
    _, _, vw_sec = vw_run("bbm", cfg, path)
    ours_eps, vw_eps = len(ytr) / ours_sec, len(ytr) / vw_sec
    print(f"\nThroughput, Online BBM N={n_learners} on a9a ({len(ytr)} training rows, same "
          f"process, one after the other):")
    print(f"  dpboost {ours_eps:10.0f} examples/s")
    print(f"  VW      {vw_eps:10.0f} examples/s (including parsing its text file)")
    print(f"  ratio dpboost/VW = {ours_eps / vw_eps:.3f} (target >= 0.05, i.e. 1/20)")
    return {"dpboost": ours_eps, "vw": vw_eps, "ratio": ours_eps / vw_eps}


def paired_splits(name, X, y, args, tmp):
    """Paired BBM-minus-base test errors over ``args.splits`` random 80/20 splits.

    Each split (seeds 0..K-1) is re-tuned from scratch by progressive validation on its own
    training part, exactly as the single-split table; the base learner and BBM of one library
    are scored on the same held-out rows, so their difference is paired.
    """
    keys = [("dpboost", "base"), ("dpboost", "bbm")]
    if not args.skip_vw:
        keys += [("vw", "base"), ("vw", "bbm")]
    per_split = []
    for seed in range(args.splits):
        rows = bench_dataset(name, X, y, args, tmp, seed=seed, only=("base", "bbm"))["rows"]
        per_split.append({f"{w}/{a}": rows[(w, a)] for w, a in keys})
    err = {f"{w}/{a}": np.array([s[f"{w}/{a}"]["test_error"] for s in per_split])
           for w, a in keys}
    diffs = {"dpb BBM-base": err["dpboost/bbm"] - err["dpboost/base"]}
    if not args.skip_vw:
        diffs["VW BBM-base"] = err["vw/bbm"] - err["vw/base"]
        diffs["dpbBBM-VWBBM"] = err["dpboost/bbm"] - err["vw/bbm"]
    print(f"\n{name}: paired test 0-1 errors over {args.splits} random 80/20 splits (each "
          f"re-tuned by progressive validation on its training part)")
    cols = list(err) + list(diffs)
    names = {"dpboost/base": "dpb base", "dpboost/bbm": "dpb BBM", "vw/base": "VW base",
             "vw/bbm": "VW BBM"}
    print(f"{'seed':>4s} | " + " ".join(f"{names.get(c, c):>12s}" for c in cols))
    for i in range(args.splits):
        print(f"{i:4d} | " + " ".join(f"{err[c][i]:12.4f}" for c in err) + " "
              + " ".join(f"{diffs[c][i]:+12.4f}" for c in diffs))
    k = args.splits
    se = {c: (float(np.std(v, ddof=1) / np.sqrt(k)) if k > 1 else float("nan"))
          for c, v in {**err, **diffs}.items()}
    print(f"{'mean':>4s} | " + " ".join(f"{err[c].mean():12.4f}" for c in err) + " "
          + " ".join(f"{diffs[c].mean():+12.4f}" for c in diffs))
    print(f"{'se':>4s} | " + " ".join(f"{se[c]:12.4f}" for c in cols))
    print("(differences are paired on the same split; se = sample sd / sqrt(K); "
          "mean/se ~ t with K-1 d.f.)")
    return {"test_error": {c: v.tolist() for c, v in err.items()},
            "paired": {c: {"per_split": v.tolist(), "mean": float(v.mean()), "se": se[c]}
                       for c, v in diffs.items()},
            "configs": [{c: s[c]["config"] for c in s} for s in per_split]}


def print_table(results):
    print("\nTable 3 reproduction: test 0-1 error (80/20 split, seed 0; tuned by progressive "
          "validation on the training part)")
    head = (f"{'dataset':9s} | {'dpb base':>8s} {'dpb BBM':>8s} {'BBM dflt':>8s} {'dpb OL':>8s} "
            f"{'dpb OL.S':>8s} |"
            f" {'VW base':>8s} {'VW BBM':>8s} {'VW OL':>8s}")
    print(head)
    print("-" * len(head))
    for name, res in results.items():
        r = res["rows"]

        def cell(key, r=r):
            return f"{r[key]['test_error']:8.4f}" if key in r else f"{'-':>8s}"

        print(f"{name:9s} | " + " ".join(cell(("dpboost", a)) for a in ALGOS) + " | "
              + " ".join(cell(("vw", a)) for a in VW_ALGOS))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data-dir",
        default=os.environ.get(
            "DPBOOST_DATA", str(Path(__file__).resolve().parents[2] / "shared" / "datasets")),
        help="folder holding a9a/, letter/, covtype/ (default: $DPBOOST_DATA or ../shared/datasets "
             "beside the repository)")
    parser.add_argument("--datasets", default="a9a,letter,covtype")
    parser.add_argument("--quick", action="store_true",
                        help="subsample 6,000 rows per dataset and use one-point grids")
    parser.add_argument("--tune-rows", type=int, default=20_000,
                        help="rows of the training part used for tuning (default 20,000)")
    parser.add_argument("--cache-dir", default=None, help="cache the loaded arrays as .npz")
    parser.add_argument("--skip-vw", action="store_true")
    parser.add_argument("--throughput-only", action="store_true")
    parser.add_argument("--splits", type=int, default=0, metavar="K",
                        help="instead of the table, re-tune base and BBM on K random 80/20 "
                             "splits (seeds 0..K-1) and print paired BBM-minus-base differences")
    parser.add_argument("--out", default=None, help="write the results as JSON")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.data_dir):
        print(f"bench_online: no data directory {args.data_dir}", file=sys.stderr)
        return 2
    if args.quick:
        args.tune_rows = min(args.tune_rows, 2_000)
    results, out = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.datasets.split(","):
            X, y = load(name, args.data_dir, args.cache_dir)
            if args.quick and len(y) > 6000:
                keep = np.sort(np.random.default_rng(1).choice(len(y), 6000, replace=False))
                X, y = X[keep], y[keep]
            if args.splits:
                print(f"\n{name}: {len(y)} rows, {X.shape[1]} features", flush=True)
                out.setdefault("splits", {})[name] = paired_splits(name, X, y, args, tmp)
                continue
            if name == "a9a" and not args.skip_vw:
                out["throughput"] = throughput(X, y, args, tmp)
            if args.throughput_only:
                continue
            print(f"\n{name}: {len(y)} rows, {X.shape[1]} features", flush=True)
            results[name] = bench_dataset(name, X, y, args, tmp)
    if results:
        print_table(results)
    if args.out:
        out["table"] = {name: {"n_train": r["n_train"], "n_test": r["n_test"],
                               "rows": {f"{w}/{a}": v for (w, a), v in r["rows"].items()}}
                        for name, r in results.items()}
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
