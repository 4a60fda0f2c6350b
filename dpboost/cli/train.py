"""``dpboost train``: fit a differentially private halfspace on a CSV or LIBSVM file.

The model file holds only the weights, the classes and the privacy report
(:mod:`dpboost.model_io`).  The training accuracy is printed, labelled non-private: it is a
function of the data computed without noise, so publishing it is outside the guarantee.

References
----------
Bun, Carmosino & Sorrell (2020), Theorem 24 (the private halfspace learner).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from pathlib import Path

import numpy as np

__all__ = ["add_parser", "parse_classes", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "train",
        help="fit a private halfspace (PrivateHalfspaceClassifier) and save it as JSON",
        description="Fit PrivateHalfspaceClassifier on a local CSV or LIBSVM file and write "
                    "the model (weights, classes, privacy report) as JSON.",
    )
    parser.add_argument("data", metavar="DATA", help="CSV (.csv, .csv.gz) or LIBSVM file")
    parser.add_argument("--label", default=None,
                        help="CSV label column: header name or index (default: last column)")
    parser.add_argument("--target-epsilon", type=float, required=True, metavar="E")
    parser.add_argument("--target-delta", type=float, required=True, metavar="D")
    parser.add_argument("--n-rounds", type=int, default=None, metavar="T")
    parser.add_argument("--kappa", type=float, default=None)
    parser.add_argument("--learning-rate", type=float, default=None)
    parser.add_argument("--margin", type=float, default=None)
    parser.add_argument("--norm-bound", type=float, default=1.0,
                        help="rows with a larger L2 norm are clipped to it (default 1)")
    parser.add_argument("--classes", default=None, metavar="NEG,POS",
                        help="the two labels, negative first (e.g. --classes -1,1 or "
                             "--classes=no,yes); without it the labels are read from the data "
                             "(a privacy leak, warned about)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for reproducibility only (a seeded run's noise is "
                             "predictable by whoever knows the seed)")
    parser.add_argument("--out", required=True, metavar="MODEL.json")
    parser.add_argument("--ledger", default=None, metavar="LEDGER.json",
                        help="a budget ledger (see 'dpboost budget init'): checked, and proved "
                             "writable, before the data is read; the run is recorded in it "
                             "before the model is written")
    parser.add_argument("--json", action="store_true",
                        help="print the privacy report and the (non-private) training "
                             "accuracy as JSON")
    parser.set_defaults(func=run)
    if hasattr(parser, "_negative_number_matcher"):
        # let "--classes -1,1" through as a value (argparse would take "-1,1" for an option)
        parser._negative_number_matcher = re.compile(r"^-\d*\.?\d+(,[^,]*)?$")
    return parser


def parse_classes(text: str | None, y: np.ndarray):
    """Parse ``"A,B"`` into two labels of the same kind as ``y`` (int, float or str)."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise ValueError(f"--classes must be two different labels separated by a comma, "
                         f"negative first (e.g. -1,1). Got {text!r} instead.")
    if y.dtype.kind in "iu":
        try:
            classes = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"--classes {text!r}: the labels in the data are integers.") from None
    elif y.dtype.kind == "f":
        try:
            classes = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"--classes {text!r}: the labels in the data are numbers.") from None
    else:
        classes = parts
    unknown = sorted({str(v) for v in np.unique(y)} - {str(c) for c in classes})
    if unknown:
        raise ValueError(f"The data holds labels {unknown[:5]} outside --classes {text!r}.")
    return classes


def _estimator(args, classes):
    from dpboost.estimator import PrivateHalfspaceClassifier

    optional = {"n_rounds": args.n_rounds, "kappa": args.kappa,
                "learning_rate": args.learning_rate, "margin": args.margin}
    kwargs = {k: v for k, v in optional.items() if v is not None}
    return PrivateHalfspaceClassifier(
        target_epsilon=args.target_epsilon, target_delta=args.target_delta,
        norm_bound=args.norm_bound, classes=classes, random_state=args.seed, **kwargs)


def _summary(report: dict) -> str:
    eps = report.get("epsilon")
    best = eps.get("best") if isinstance(eps, dict) else eps
    parts = [f"({best:.4g}, {report.get('delta'):.3g})-DP" if isinstance(best, float)
             else f"epsilon={best}"]
    for key in ("rho", "n_rounds", "kappa", "learning_rate", "noise_multiplier", "sigma"):
        if key in report:
            value = report[key]
            parts.append(f"{key}={value:.4g}" if isinstance(value, float) else f"{key}={value}")
    return ", ".join(parts)


def run(args) -> int:
    from dpboost.data import load_dataset
    from dpboost.model_io import model_to_dict, save_model

    folder = Path(args.out).parent
    if not folder.is_dir():  # fail before spending the budget
        raise FileNotFoundError(f"--out {args.out}: folder {folder} does not exist.")
    # Parameters are checked, and the noise calibrated, before any data is read.
    planned = _estimator(args, None).planned_privacy_event()
    ledger = None
    if args.ledger is not None:  # check before any data is touched (diffprivlib's order)
        from accounting import BudgetLedger

        ledger = BudgetLedger.open(args.ledger)
        ledger.preflight()
        ledger.check(planned)
    X, y = load_dataset(args.data, label=args.label)
    classes = parse_classes(args.classes, y)
    estimator = _estimator(args, classes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(X, y)
    for warning in caught:
        message = " ".join(str(warning.message).split())
        print(f"dpboost train: warning: {message}", file=sys.stderr)
    if ledger is not None:  # record before release; a concurrent overspend stops here
        ledger.spend(estimator.privacy_event_, label=f"dpboost train {Path(args.data).name}")
    save_model(estimator, args.out)
    report = model_to_dict(estimator)["privacy_report"]
    accuracy = float(np.mean(estimator.predict(X) == y))
    if args.json:
        print(json.dumps({"model": str(args.out), "privacy_report": report,
                          "non_private": {"training_accuracy": accuracy}}, indent=2))
    else:
        classes = np.asarray(estimator.classes_).tolist()
        print(f"wrote {args.out}: {X.shape[1]} features, classes {classes}")
        print(f"privacy: {_summary(report)}")
        print(f"non-private: training accuracy {accuracy:.4f} (computed on the training data "
              "without noise; not covered by the guarantee)")
    return 0
