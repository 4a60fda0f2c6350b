"""``dpboost predict``: apply a saved halfspace model to a CSV or LIBSVM file.

Prediction is post-processing of the released weights, so it costs no privacy.  A model file
that is truncated, of another format version, or expects another number of features is a
:class:`~dpboost.exceptions.ModelFileError`: one line on stderr, exit code 2, and no output
file is written (the output is written atomically, after every check).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "predict",
        help="predict labels with a model saved by 'dpboost train'",
        description="Predict the labels of a CSV or LIBSVM file with a saved halfspace model.",
    )
    parser.add_argument("data", metavar="DATA", help="CSV (.csv, .csv.gz) or LIBSVM file")
    parser.add_argument("--model", required=True, metavar="MODEL.json")
    parser.add_argument("--label", default=None,
                        help="CSV column to ignore (e.g. the true labels); default: every "
                             "column is a feature. LIBSVM labels are always ignored.")
    parser.add_argument("--out", default=None, metavar="PREDS.csv",
                        help="write the predictions here (one column 'prediction'); default: "
                             "standard output")
    parser.set_defaults(func=run)
    return parser


def _format(values: np.ndarray) -> list[str]:
    out = []
    for v in values.tolist():
        if isinstance(v, float) and v.is_integer():
            out.append(str(int(v)) if abs(v) < 2**53 else repr(v))
        else:
            out.append(str(v))
    return out


def run(args) -> int:
    from dpboost._io import atomic_write_text
    from dpboost.data import detect_format, load_features
    from dpboost.exceptions import ModelFileError
    from dpboost.model_io import load_model

    model = load_model(args.model)
    d = model.n_features_in_
    X = load_features(args.data, label=args.label)
    if detect_format(args.data) == "libsvm" and X.shape[1] < d:
        # a LIBSVM file need not mention the last features: they are zeros
        X = np.hstack([X, np.zeros((X.shape[0], d - X.shape[1]))])
    if X.shape[1] != d:
        raise ModelFileError(f"{args.model} expects {d} features but {args.data} has "
                             f"{X.shape[1]}" + ("" if args.label is not None else
                                                 " (pass --label to drop a label column)"))
    text = "prediction\n" + "".join(f"{p}\n" for p in _format(model.predict(X)))
    if args.out is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.out, text)
        print(f"wrote {X.shape[0]} predictions to {args.out}", file=sys.stderr)
    return 0
