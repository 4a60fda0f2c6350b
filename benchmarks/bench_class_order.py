"""Which class is the positive one: the same task with its rare class positive and negative.

``dpboost.private_platt``'s rules for the threshold (the pooling that drops the bins above the
last group, the two-Gaussian upper crossing, the group edge) look for a rare class in the upper
tail of the scores.  Making the rare class the negative one (a schema's first class; in
Python the label that sorts first: it is then in the lower tail) left them looking in the
wrong place, and such fits predicted only the majority far more often.  Since session 31 the
cells are fitted mirrored when their noisy positive total exceeds the negative one.  This
script fits each task three times with one seed (everything before the calibration is then
the same draw): the rare class positive; the rare class negative with the mirroring off; and
on.  It prints held-out accuracy and the share of fits predicting a single class.

Tasks: ``bench_synthetic.py``'s generator (3,000 / 10,000 / 50,000 rows, 10 and 40 features,
1 / 5 / 30% positives; no data folder) and, with ``DPBOOST_DATA`` (default
``../shared/datasets``), 10 letters against the rest.

Usage::

    python benchmarks/bench_class_order.py              # 2 seeds, epsilon 0.5 / 1 / 2
    python benchmarks/bench_class_order.py --seeds 1 --epsilons 1

Not part of the test suite.
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


def synthetic_tasks(seeds):
    import bench_synthetic as bs

    for n in (3_000, 10_000, 50_000):
        for d in (10, 40):
            for rate in (0.01, 0.05, 0.3):
                for seed in seeds:
                    yield f"synthetic n={n} d={d} {rate:.0%}", seed, *bs.task(n, d, rate, seed)


def letter_tasks(seeds):
    data = Path(os.environ.get("DPBOOST_DATA", ROOT.parent / "shared" / "datasets"))
    if not (data / "letter").exists():
        print(f"no letter data under {data}: the letter tasks are skipped")
        return
    import bench_imbalance as bi

    for seed in seeds:
        for name, Xtr, ytr, Xte, yte in bi.letter_tasks(data, seed):
            if name[-1] in "AEIOUXYZQJ":
                yield name, seed, Xtr, ytr, Xte, yte


def _fit(Xtr, ytr, Xte, yte, eps, seed, mirror):
    """Held-out (accuracy, whether one class only is predicted)."""
    import dpboost.private_platt as pp
    from dpboost.estimator import PrivateHalfspaceClassifier

    kept = pp.MIRROR_POSITIVE_MAJORITY
    try:
        pp.MIRROR_POSITIVE_MAJORITY = mirror
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1],
                                             random_state=seed).fit(Xtr, ytr)
    finally:
        pp.MIRROR_POSITIVE_MAJORITY = kept
    pred = clf.predict(Xte)
    return float(np.mean(pred == yte)), bool(np.unique(pred).size == 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--epsilons", default="0.5,1,2")
    args = ap.parse_args(argv)
    seeds = range(args.seeds)
    epsilons = [float(e) for e in args.epsilons.split(",")]
    cells: dict = {}
    for gen in (synthetic_tasks(seeds), letter_tasks(seeds)):
        for name, seed, Xtr, ytr, Xte, yte in gen:
            for eps in epsilons:
                row = (_fit(Xtr, ytr, Xte, yte, eps, seed, True),
                       _fit(Xtr, 1 - ytr, Xte, 1 - yte, eps, seed, False),
                       _fit(Xtr, 1 - ytr, Xte, 1 - yte, eps, seed, True))
                cells.setdefault((name.split("-")[0] if "letter" in name else name, eps),
                                 []).append(row)
    print("| task | ε | fits | rare class positive: acc / single | rare negative, before | "
          "rare negative, mirrored |")
    print("|---|---:|---:|---:|---:|---:|")
    total = []
    for (name, eps), rows in cells.items():
        total.extend(rows)
        cols = [f"{np.mean([r[k][0] for r in rows]):.4f} / "
                f"{sum(r[k][1] for r in rows)}" for k in range(3)]
        print(f"| {name} | {eps:g} | {len(rows)} | " + " | ".join(cols) + " |", flush=True)
    for k, what in enumerate(("rare positive", "rare negative before", "rare negative after")):
        print(f"{what}: mean accuracy {np.mean([r[k][0] for r in total]):.5f}, single-class "
              f"fits {sum(r[k][1] for r in total)} of {len(total)}")
    delta = [r[2][0] - r[1][0] for r in total]
    print(f"fits changed by the mirroring: {sum(r[1] != r[2] for r in total)}; largest loss "
          f"{-min(delta) * 100:.2f} points, largest gain {max(delta) * 100:.2f}; lower "
          f"accuracy in {sum(x < 0 for x in delta)}, higher in {sum(x > 0 for x in delta)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
