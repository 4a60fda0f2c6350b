"""Utility benchmark: dpboost's defaults beside the DP peers on public tabular tasks.

For every task, epsilon in {0.1, 0.5, 1, 2, 5} (delta = 1e-6) and 3 seeds (a fresh 75/25 split
per seed where the task has no fixed test file), the script fits and scores on held-out data:

* ``dpboost``: ``PrivateHalfspaceClassifier(epsilon, delta, classes=...)`` with its defaults
  (kappa and T learned privately, private Platt calibration);
* ``dpboost-tuned``: ``dpboost.selection.PrivateSelection`` over a small grid, its whole
  cost inside the same (epsilon, delta) (only if the module is present);
* ``dp-ebm``: interpret's ``DPExplainableBoostingClassifier(epsilon, delta)``, every feature
  continuous with the public bounds of the encoding, never bounds read from the data;
* ``diffprivlib``: IBM diffprivlib 0.6.6 ``LogisticRegression(epsilon, data_norm=1)``, default
  ``C = 1`` (pure epsilon-DP), in its own virtual environment with scikit-learn < 1.6
  (created on first use under ``~/.cache/dpboost-bench-venv``) and called through a
  subprocess (it does not import beside scikit-learn >= 1.6);
* ``logreg``: non-private scikit-learn ``LogisticRegression(C=100)`` on the same features;
* ``majority``: the training majority class (non-private; AUC 0.5).

Every method sees the same rows: features encoded from public facts only (documented ranges,
category lists, a constant feature) and rows divided by a public constant so that
``||x|| <= 1``.  Reported: accuracy, ROC AUC, the rate of positive predictions, the Brier score
(for the methods with probabilities) and fit seconds.  The table is printed (markdown), the raw
rows are written as CSV and two figures are written: accuracy and AUC against epsilon per task
(``docs/bench-utility.png``) and a reliability diagram of dpboost's ``predict_proba`` at
epsilon = 1 (``docs/bench-utility-reliability.png``).

Tasks (data under ``--data-dir``, default ``$DPBOOST_DATA`` or ``../shared/datasets``):
``a9a`` (UCI Adult, LIBSVM's binned one-hot form: a binned public schema, 24% positive),
``letter-A`` (letter A against the other 25, 4% positive), ``covtype`` (LIBSVM covtype.binary,
Lodgepole Pine against the rest, 49%; a 60,000-row sample: the stored copy has only the binary
label, so a second covtype class is not available), ``shoppers`` and ``german`` (the raw
online-shoppers and german-credit files through ``examples/schemas``), and scikit-learn's
``breast-cancer`` and ``digits-8`` (8 against the other digits, 10%), which need no data folder.

Usage::

    python benchmarks/bench_utility.py --quick          # a few minutes: 3 epsilons, small samples
    python benchmarks/bench_utility.py                  # the full table (tens of minutes)
    python benchmarks/bench_utility.py --tasks a9a,letter-A --epsilons 1 --seeds 1

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DELTA = 1e-6
EPSILONS = (0.1, 0.5, 1.0, 2.0, 5.0)
VENV = Path.home() / ".cache" / "dpboost-bench-venv"


# ------------------------------------------------------------------------------------ tasks
def _unit(Z: np.ndarray) -> tuple[np.ndarray, float]:
    """Append the constant feature; return rows / sqrt(d + 1) (public constant) and it."""
    Z = np.hstack([Z, np.ones((Z.shape[0], 1))])
    return Z, math.sqrt(Z.shape[1])


def _split(Z, y, seed, test_size=0.25):
    rng = np.random.default_rng(1000 + seed)
    idx = rng.permutation(len(y))
    k = int(round(len(y) * test_size))
    return Z[idx[k:]], y[idx[k:]], Z[idx[:k]], y[idx[:k]]


def task_a9a(data: Path, seed: int, cap: int | None):
    from sklearn.datasets import load_svmlight_file

    out = []
    for name in ("a9a", "a9a.t"):
        X, y = load_svmlight_file(str(data / "a9a" / name), n_features=123)
        Z, _ = _unit(X.toarray())
        out += [Z, (y > 0).astype(int)]
    Ztr, ytr, Zte, yte = out
    if cap:  # a seeded subsample of the fixed split
        rng = np.random.default_rng(seed)
        i = rng.permutation(len(ytr))[:cap]
        j = rng.permutation(len(yte))[: cap // 2]
        Ztr, ytr, Zte, yte = Ztr[i], ytr[i], Zte[j], yte[j]
    # 14 attributes, each one-hot (at most one 1 each), plus the constant: ||Z|| <= sqrt(15)
    return Ztr, ytr, Zte, yte, math.sqrt(15.0)


def task_letter(data: Path, seed: int, cap: int | None):
    import pandas as pd

    df = pd.read_csv(data / "letter" / "letter-recognition.data", header=None)
    y = (df[0] == "A").astype(int).to_numpy()
    Z, c = _unit(df.iloc[:, 1:].to_numpy(float) / 15.0 * 2.0 - 1.0)  # documented range 0..15
    return (*_cap(*_split(Z, y, seed), cap, seed), c)


# Public ranges of covtype's 10 quantitative attributes (UCI covtype.info units; rounded out).
COVTYPE_RANGES = [(1800, 3900), (0, 360), (0, 70), (0, 1400), (-200, 650), (0, 7200),
                  (0, 255), (0, 255), (0, 255), (0, 7200)]


def task_covtype(data: Path, seed: int, cap: int | None):
    import pandas as pd

    with gzip.open(data / "covtype" / "covtype.binary.csv.gz", "rt") as fh:
        A = pd.read_csv(fh, header=None).to_numpy(np.float64)
    rng = np.random.default_rng(7)
    A = A[rng.permutation(len(A))[: cap or 80_000]]
    y = (A[:, 0] == 2).astype(int)
    lo = np.array([r[0] for r in COVTYPE_RANGES], float)
    hi = np.array([r[1] for r in COVTYPE_RANGES], float)
    quant = 2.0 * (np.clip(A[:, 1:11], lo, hi) - lo) / (hi - lo) - 1.0
    Z, _ = _unit(np.hstack([quant, A[:, 11:]]))
    # 10 numeric blocks + wilderness (one 1) + soil (one 1) + constant: ||Z|| <= sqrt(13)
    return (*_split(Z, y, seed), math.sqrt(13.0))


def _schema_task(data: Path, seed: int, schema_name: str, data_file: str,
                 bins: int | None = None):
    """A raw file through its public schema; ``bins``: every numeric column one-hot in that
    many equal-width bins of its public (transformed) range instead (``bench_binned.py``)."""
    from dpboost.readers import read_table
    from dpboost.schema import Schema
    from dpboost.tabular import TabularEncoder

    schema = Schema.load(ROOT / "examples" / "schemas" / schema_name)
    if bins:
        spec = schema.to_dict()
        for col in spec["columns"].values():
            if col.get("type") == "numeric" and "edges" not in col:
                col["bins"] = bins
        schema = Schema.from_dict(spec)
    label = schema.label.column
    frame = read_table(data / data_file, names=schema.names, columns=list(schema.read_columns),
                       na_values=schema.na_values, text_columns=[label])
    enc = TabularEncoder(schema).fit()
    Z = enc.transform(frame)
    y = enc.encode_labels(frame[label]).astype(int)
    blocks = {name.split("=")[0] for name in enc.get_feature_names_out()}
    # TabularEncoder already divides by sqrt(#blocks); undo it for the per-feature view
    scale = math.sqrt(len(blocks) + 1)
    return (*_split(Z * scale, y, seed), scale)


def task_shoppers(data, seed, cap):
    return _schema_task(data, seed, "online-shoppers.json",
                        "online-shoppers/online_shoppers_intention.csv")


def task_german(data, seed, cap):
    # classes (1, 2): positive = class 2, "bad" credit (30%)
    return _schema_task(data, seed, "german-credit.json", "german-credit/german.data")


def task_breast(data, seed, cap):
    from sklearn.datasets import load_breast_cancer

    d = load_breast_cancer()
    # per-feature ranges as printed in the dataset's description (its DESCR table, which is the
    # data's own min/max: treated here as published documentation), widened by 10%
    lo = np.floor(d.data.min(axis=0) * 0.9)
    hi = np.ceil(d.data.max(axis=0) * 1.1)
    Z, c = _unit(2.0 * (d.data - lo) / (hi - lo) - 1.0)
    return (*_split(Z, (d.target == 0).astype(int), seed), c)


def task_digits(data, seed, cap):
    from sklearn.datasets import load_digits

    d = load_digits()
    Z, c = _unit(d.data / 16.0 * 2.0 - 1.0)  # pixel counts 0..16 (documented)
    return (*_split(Z, (d.target == 8).astype(int), seed), c)


def _cap(Ztr, ytr, Zte, yte, cap, seed):
    if not cap or len(ytr) <= cap:
        return Ztr, ytr, Zte, yte
    rng = np.random.default_rng(seed)
    i = rng.permutation(len(ytr))[:cap]
    return Ztr[i], ytr[i], Zte, yte


TASKS = {
    "a9a": task_a9a, "letter-A": task_letter, "covtype": task_covtype,
    "shoppers": task_shoppers, "german": task_german, "breast-cancer": task_breast,
    "digits-8": task_digits,
}
NEEDS_DATA = {"a9a": "a9a", "letter-A": "letter", "covtype": "covtype",
              "shoppers": "online-shoppers", "german": "german-credit"}


# ---------------------------------------------------------------------------------- methods
def _scores(y, pred, score, proba=None):
    from sklearn.metrics import brier_score_loss, roc_auc_score

    out = {"accuracy": float(np.mean(pred == y)), "positive_rate": float(np.mean(pred == 1)),
           "auc": float(roc_auc_score(y, score)) if len(np.unique(y)) == 2 else float("nan")}
    out["brier"] = float(brier_score_loss(y, proba)) if proba is not None else float("nan")
    return out


def run_dpboost(Xtr, ytr, Xte, yte, eps, seed):
    from dpboost.estimator import PrivateHalfspaceClassifier

    t0 = time.perf_counter()
    clf = PrivateHalfspaceClassifier(eps, DELTA, classes=[0, 1], random_state=seed).fit(Xtr, ytr)
    secs = time.perf_counter() - t0
    proba = clf.predict_proba(Xte)[:, 1]
    rep = clf.privacy_report_
    assert rep["epsilon"]["best"] <= eps * (1 + 1e-9)
    return {**_scores(yte, clf.predict(Xte), clf.decision_function(Xte), proba),
            "seconds": secs, "extra": f"T={rep['n_rounds']} kappa={rep['kappa']:.3f}"}, proba


def run_dpboost_tuned(Xtr, ytr, Xte, yte, eps, seed):
    try:
        from dpboost.selection import PrivateSelection
    except ImportError:
        return None
    t0 = time.perf_counter()
    sel = PrivateSelection(eps, DELTA, classes=[0, 1], random_state=seed).fit(Xtr, ytr)
    secs = time.perf_counter() - t0
    return {**_scores(yte, sel.predict(Xte), sel.decision_function(Xte),
                      sel.predict_proba(Xte)[:, 1]), "seconds": secs,
            "extra": str(sel.best_params_)}


def have_dp_ebm() -> bool:
    """Whether DP-EBM can run (``pip install ".[bench]"`` installs ``interpret-core``)."""
    try:
        from interpret.privacy import DPExplainableBoostingClassifier  # noqa: F401
    except ImportError:
        print("skip DP-EBM: interpret is not installed (pip install \".[bench]\")",
              file=sys.stderr)
        return False
    return True


def run_dp_ebm(Ztr, ytr, Zte, yte, eps, seed):
    from interpret.privacy import DPExplainableBoostingClassifier

    d = Ztr.shape[1] - 1  # the constant column is dropped: EBMs have their own intercept
    clf = DPExplainableBoostingClassifier(
        epsilon=eps, delta=DELTA, feature_types=["continuous"] * d,
        privacy_bounds=np.array([[-1.0, 1.0]] * d), random_state=seed, n_jobs=1)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(Ztr[:, :d], ytr)
    secs = time.perf_counter() - t0
    proba = clf.predict_proba(Zte[:, :d])[:, 1]
    return {**_scores(yte, (proba > 0.5).astype(int), proba, proba), "seconds": secs}


def run_logreg(Xtr, ytr, Xte, yte):
    from sklearn.linear_model import LogisticRegression

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = LogisticRegression(C=100.0, max_iter=5000).fit(Xtr, ytr)
    secs = time.perf_counter() - t0
    proba = clf.predict_proba(Xte)[:, 1]
    return {**_scores(yte, clf.predict(Xte), proba, proba), "seconds": secs}


def run_majority(ytr, yte):
    maj = int(np.mean(ytr) > 0.5)
    return {**_scores(yte, np.full(len(yte), maj), np.zeros(len(yte)),
                      np.full(len(yte), float(np.mean(ytr)))), "seconds": 0.0}


_DPL_SCRIPT = r"""
import json, sys, time, warnings
import numpy as np
from diffprivlib.models import LogisticRegression
warnings.simplefilter("ignore")
d = np.load(sys.argv[1])
out = []
for eps in json.loads(sys.argv[2]):
    for seed in json.loads(sys.argv[3]):
        Xtr, ytr, Xte = d[f"Xtr{seed}"], d[f"ytr{seed}"], d[f"Xte{seed}"]
        t0 = time.perf_counter()
        clf = LogisticRegression(epsilon=eps, data_norm=1.0, random_state=seed).fit(Xtr, ytr)
        secs = time.perf_counter() - t0
        out.append({"eps": eps, "seed": seed, "pred": clf.predict(Xte).tolist(),
                    "proba": clf.predict_proba(Xte)[:, 1].tolist(), "seconds": secs})
print(json.dumps(out))
"""


def ensure_venv() -> Path | None:
    """The diffprivlib environment (scikit-learn < 1.6), created with pip on first use."""
    py = VENV / "bin" / "python"
    if not py.exists():
        print(f"creating {VENV} for diffprivlib (scikit-learn < 1.6) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "scikit-learn<1.6",
                        "diffprivlib==0.6.6"], check=True)
    ok = subprocess.run([str(py), "-c", "import diffprivlib"], capture_output=True, check=False)
    return py if ok.returncode == 0 else None


def run_diffprivlib(splits: dict, yte_by_seed: dict, epsilons, seeds) -> dict:
    py = ensure_venv()
    if py is None:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "splits.npz")
        np.savez(path, **splits)
        res = subprocess.run([str(py), "-c", _DPL_SCRIPT, path, json.dumps(list(epsilons)),
                              json.dumps(list(seeds))], capture_output=True, text=True,
                             check=False)
    if res.returncode != 0:
        print(res.stderr[-2000:], file=sys.stderr)
        return {}
    out = {}
    for r in json.loads(res.stdout):
        yte = yte_by_seed[r["seed"]]
        proba = np.array(r["proba"])
        out[(r["eps"], r["seed"])] = {**_scores(yte, np.array(r["pred"]), proba, proba),
                                      "seconds": r["seconds"]}
    return out


# -------------------------------------------------------------------------------------- main
def run(args) -> list[dict]:
    data = Path(args.data_dir)
    rows = []
    reliability = {}
    ebm = args.peers and have_dp_ebm()
    for task in args.tasks:
        if task in NEEDS_DATA and not (data / NEEDS_DATA[task]).is_dir():
            print(f"skip {task}: {data / NEEDS_DATA[task]} not found", file=sys.stderr)
            continue
        splits, yte_by_seed, per_seed = {}, {}, {}
        for seed in args.seeds:
            Ztr, ytr, Zte, yte, c = TASKS[task](data, seed, args.cap)
            Xtr, Xte = Ztr / c, Zte / c
            per_seed[seed] = (Ztr, ytr, Zte, yte, Xtr, Xte)
            splits.update({f"Xtr{seed}": Xtr, f"ytr{seed}": ytr, f"Xte{seed}": Xte})
            yte_by_seed[seed] = yte
            base = {"task": task, "n_train": len(ytr), "d": Xtr.shape[1],
                    "positive_rate_true": float(np.mean(yte)), "seed": seed}
            if args.baselines:
                rows.append({**base, "method": "logreg", "epsilon": math.inf,
                             **run_logreg(Xtr, ytr, Xte, yte)})
                rows.append({**base, "method": "majority", "epsilon": math.inf,
                             **run_majority(ytr, yte)})
        dpl = run_diffprivlib(splits, yte_by_seed, args.epsilons, args.seeds) if args.peers else {}
        for eps in args.epsilons:
            for seed in args.seeds:
                Ztr, ytr, Zte, yte, Xtr, Xte = per_seed[seed]
                base = {"task": task, "n_train": len(ytr), "d": Xtr.shape[1],
                        "positive_rate_true": float(np.mean(yte)), "seed": seed, "epsilon": eps}
                res, proba = run_dpboost(Xtr, ytr, Xte, yte, eps, seed)
                rows.append({**base, "method": "dpboost", **res})
                if eps == 1.0:
                    reliability.setdefault(task, []).append((yte, proba))
                tuned = (run_dpboost_tuned(Xtr, ytr, Xte, yte, eps, seed)
                         if args.tuned and (args.tuned_epsilons is None
                                            or eps in args.tuned_epsilons) else None)
                if tuned:
                    rows.append({**base, "method": "dpboost-tuned", **tuned})
                if ebm:
                    rows.append({**base, "method": "dp-ebm",
                                 **run_dp_ebm(Ztr, ytr, Zte, yte, eps, seed)})
                if (eps, seed) in dpl:
                    rows.append({**base, "method": "diffprivlib", **dpl[(eps, seed)]})
            print(f"{task} eps={eps:g} done", file=sys.stderr, flush=True)
    args.reliability = reliability
    return rows


METHODS = ("dpboost", "dpboost-tuned", "dp-ebm", "diffprivlib", "logreg", "majority")


def table(rows: list[dict]) -> str:
    """Markdown table: mean over seeds of accuracy / AUC / positive rate / seconds."""
    import pandas as pd

    df = pd.DataFrame(rows)
    g = df.groupby(["task", "epsilon", "method"], sort=False)
    agg = g[["accuracy", "auc", "positive_rate", "brier", "seconds"]].mean().reset_index()
    lines = ["| task (n_train, positive rate) | eps | " + " | ".join(
        m for m in METHODS if m in set(agg.method)) + " |"]
    present = [m for m in METHODS if m in set(agg.method)]
    lines.append("|---|---:|" + "---:|" * len(present))
    for task, tdf in agg.groupby("task", sort=False):
        first = df[df.task == task].iloc[0]
        ref = {m: tdf[(tdf.method == m)].iloc[0] for m in ("logreg", "majority")
               if (tdf.method == m).any()}
        for eps in sorted(e for e in tdf.epsilon.unique() if np.isfinite(e)):
            cells = []
            for m in present:
                r = ref.get(m)
                if r is None:
                    sub = tdf[(tdf.method == m) & (tdf.epsilon == eps)]
                    if sub.empty:
                        cells.append("")
                        continue
                    r = sub.iloc[0]
                cells.append(f"{r.accuracy:.3f} / {r.auc:.3f} / {r.positive_rate:.2f}"
                             f" / {r.seconds:.1f}s")
            lines.append(f"| {task} ({first.n_train}, {first.positive_rate_true:.2f}) | "
                         f"{eps:g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figure(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    df = pd.DataFrame(rows)
    tasks = list(dict.fromkeys(df.task))
    fig, axes = plt.subplots(2, len(tasks), figsize=(3.2 * len(tasks), 6), squeeze=False)
    for j, task in enumerate(tasks):
        tdf = df[df.task == task]
        for i, metric in enumerate(("accuracy", "auc")):
            ax = axes[i, j]
            for m in METHODS:
                sub = tdf[tdf.method == m]
                if sub.empty:
                    continue
                if not np.isfinite(sub.epsilon).any():
                    ax.axhline(sub[metric].mean(), ls="--" if m == "logreg" else ":", lw=1,
                               color="k" if m == "logreg" else "grey", label=m)
                    continue
                mean = sub.groupby("epsilon")[metric].mean()
                ax.plot(mean.index, mean.values, marker="o", ms=3, label=m)
            ax.set_xscale("log")
            ax.set_title(f"{task}: {metric}", fontsize=9)
            ax.set_xlabel("epsilon (delta = 1e-6)", fontsize=8)
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def reliability_figure(reliability: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], "k--", lw=1)
    edges = np.linspace(0, 1, 11)
    for task, pairs in reliability.items():
        y = np.concatenate([p[0] for p in pairs])
        p = np.concatenate([p[1] for p in pairs])
        idx = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 9)
        keep = np.bincount(idx, minlength=10) >= 20
        mp = np.bincount(idx, weights=p, minlength=10)[keep] / np.bincount(idx, minlength=10)[keep]
        my = np.bincount(idx, weights=y, minlength=10)[keep] / np.bincount(idx, minlength=10)[keep]
        ax.plot(mp, my, marker="o", ms=3, label=task)
    ax.set_xlabel("predicted probability (dpboost, eps = 1)")
    ax.set_ylabel("observed positive rate")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    default_data = os.environ.get("DPBOOST_DATA", str(ROOT.parent / "shared" / "datasets"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default=default_data)
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--epsilons", default=",".join(f"{e:g}" for e in EPSILONS))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--quick", action="store_true",
                    help="epsilons 0.5,1,5, at most 4,000 training rows, 2 seeds")
    ap.add_argument("--no-peers", dest="peers", action="store_false",
                    help="skip DP-EBM and diffprivlib")
    ap.add_argument("--no-baselines", dest="baselines", action="store_false",
                    help="skip logistic regression and the majority class")
    ap.add_argument("--no-tuned", dest="tuned", action="store_false")
    ap.add_argument("--tuned-epsilons", default=None,
                    help="run dpboost-tuned only at these epsilons (it fits ~8 models each)")
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--merge", default=None, metavar="CSV",
                    help="rows of an earlier run; (task, method, epsilon) cells measured again "
                         "here replace them (e.g. re-run dpboost alone after a change)")
    args = ap.parse_args(argv)
    args.tasks = [t for t in args.tasks.split(",") if t]
    unknown = [t for t in args.tasks if t not in TASKS]
    if unknown:
        ap.error(f"unknown task(s) {unknown}; choose from {list(TASKS)}")
    args.epsilons = [float(e) for e in args.epsilons.split(",")]
    if args.tuned_epsilons is not None:
        args.tuned_epsilons = [float(e) for e in args.tuned_epsilons.split(",")]
    args.cap = None
    if args.quick:
        args.epsilons = [0.5, 1.0, 5.0]
        args.cap = 4000
        args.seeds = min(args.seeds, 2)
    args.seeds = list(range(args.seeds))
    rows = run(args)
    if args.merge:
        import pandas as pd

        new = {(r["task"], r["method"], r["epsilon"]) for r in rows}
        old = pd.read_csv(args.merge).to_dict("records")
        rows = [r for r in old if (r["task"], r["method"], r["epsilon"]) not in new] + rows
    text = table(rows)
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "-quick" if args.quick else ""
    import pandas as pd

    pd.DataFrame(rows).to_csv(out / f"bench-utility{suffix}.csv", index=False)
    figure(rows, out / f"bench-utility{suffix}.png")
    if getattr(args, "reliability", None):
        reliability_figure(args.reliability, out / f"bench-utility-reliability{suffix}.png")
    print(f"\nwrote {out / f'bench-utility{suffix}.png'} and .csv", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
