"""``dpboost train``: fit a differentially private halfspace on a raw CSV, Parquet or LIBSVM file.

With ``--schema`` (a JSON schema of public facts, :mod:`dpboost.schema`) a raw table with
string categories, empty cells and unused columns is encoded by
:class:`~dpboost.tabular.TabularEncoder` into rows of norm at most 1, so no row is clipped, and
the model file carries the schema so ``dpboost predict`` can match columns by name.  A LIBSVM
file must declare its dimension and index base (``--n-features``/``--index-base`` or the
schema's ``n_features``/``index_base``): read from the file, they would make the model's shape
depend on single rows.  Without a schema, a numeric CSV is used as it is; rows longer than
``--norm-bound`` are clipped.

The model file holds only the weights, the classes, the privacy report and the public schema
(:mod:`dpboost.model_io`), and by default stdout and stderr hold only public facts and private
releases too: they are released with the model.  ``--non-private-figures`` adds, for the data
owner only, figures computed from the training data without noise: the training accuracy, the
clipped fraction (a warning above 1%), and the schema checks (values outside the declared
bounds or categories, categories differing in case).  Printed by default, they differed
between neighbouring datasets (the accuracy by 1/n when one row changes).

References
----------
Bun, Carmosino & Sorrell (2020), Theorem 24 (the private halfspace learner).
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import warnings
from pathlib import Path

import numpy as np

from dpboost.cli._options import (
    UserError,
    add_json,
    add_label,
    add_n_rounds,
    add_out,
    add_seed,
    add_target_epsilon_delta,
    allow_negative_values,
    json_text,
)
from dpboost.cli._declarations import check_declarations, declared_format
from dpboost.cli._owner_checks import CLIP_WARN_FRACTION, warn_data_checks
from dpboost.cli._train_notes import no_label_message, privacy_line, say_unused_columns
from dpboost.cli._labels import (CLASSES_HELP, SPELLING_HELP, label_column, label_text,
                                 labels_not_classes, spelt_as_text)

__all__ = ["add_parser", "clipped_fraction", "fit_charged", "parse_classes",
           "raw_values_hint", "run"]

SCHEMA_HELP = ("a JSON schema of PUBLIC facts (column types, public bounds, declared "
               "categories, the label's classes; for LIBSVM files n_features and index_base). "
               "Every number and category in it must come from public knowledge (a data "
               "dictionary, a unit, a law), never from the data; 'dpboost schema' drafts one "
               "for you to review (default: none: a numeric CSV is used as it is)")
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")  # a class written as an integer, e.g. +1


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "train",
        help="fit a private halfspace (PrivateHalfspaceClassifier) and save it as JSON",
        description="Fit PrivateHalfspaceClassifier on a local CSV, Parquet or LIBSVM file and "
                    "write the model (weights, classes, privacy report, schema) as JSON.",
    )
    parser.add_argument("data", metavar="DATA",
                        help="CSV (comma, semicolon, tab, pipe or whitespace separated; .gz too), "
                             "Parquet or LIBSVM file")
    parser.add_argument("--schema", default=None, metavar="SCHEMA.json", help=SCHEMA_HELP)
    from dpboost.cli._distributed import add_cluster_options

    add_cluster_options(parser)  # --workers K / --scheduler ADDRESS: out of core with dask
    add_label(parser, help="the label column of a CSV/Parquet file: header name or index "
                           "(with --schema: the schema's label column; refused for a LIBSVM "
                           "file, whose label is the first field of each line)",
              default_text="the schema's label column, else the last column")
    add_target_epsilon_delta(parser)
    add_n_rounds(parser, default_text="the estimator's choice (see "
                                      "PrivateHalfspaceClassifier)")
    parser.add_argument("--kappa", type=float, default=None,
                        help="density kappa of the boosting measures (default: the "
                             "estimator's choice)")
    parser.add_argument("--learning-rate", type=float, default=None,
                        help="learning rate lambda (default: the estimator's choice)")
    parser.add_argument("--margin", type=float, default=None,
                        help="margin tau: theory mode (default: none, practical mode)")
    parser.add_argument("--multiclass", choices=("joint", "ovr"), default=None,
                        help="three or more classes: one joint release of all K class sums "
                             "per round, or K one-vs-rest runs sharing the budget (default: "
                             "joint; ignored for two classes)")
    parser.add_argument("--norm-bound", type=float, default=None,
                        help="public bound R on the rows' L2 norm: longer rows are clipped to "
                             "it (--non-private-figures reports the clipped fraction); a "
                             "number in [1e-100, 1e100] (default: the schema's 'norm_bound', "
                             "else 1)")
    parser.add_argument("--classes", default=None, metavar="NEG,POS[,...]",
                        help="the labels: two, negative first (e.g. --classes -1,1 or "
                             "--classes=no,yes), or three or more for a multiclass model "
                             "(--classes=a,b,c); a schema's label classes take its place "
                             "(default: none: read from the data, a privacy leak, warned "
                             "about); " + SPELLING_HELP + "; " + CLASSES_HELP)
    parser.add_argument("--n-features", type=int, default=None, metavar="N",
                        help="public number of features of a LIBSVM file (required for "
                             "LIBSVM unless the schema declares n_features); for a numeric "
                             "CSV, checked against the file (default: none)")
    parser.add_argument("--index-base", type=int, choices=(0, 1), default=None,
                        help="public index base of a LIBSVM file: 1 (LIBSVM's convention) or "
                             "0; required for LIBSVM unless the schema declares index_base "
                             "(default: none)")
    add_seed(parser, private=True, what="the privacy noise")
    add_out(parser, required=True, metavar="MODEL.json", help="where to write the model")
    parser.add_argument("--ledger", default=None, metavar="LEDGER.json",
                        help="a budget ledger (see 'dpboost budget init'): checked, and proved "
                             "writable, before the data is read; the run is recorded in it "
                             "before the model is written (default: none)")
    add_json(parser, help="print the privacy report (and, with --non-private-figures, those "
                          "figures) as JSON")
    parser.add_argument("--non-private-figures", action="store_true",
                        help="also print figures computed from the training data WITHOUT "
                             "noise, for the data owner only: the training accuracy, the "
                             "clipped fraction, and warnings about values outside the "
                             "schema's bounds or categories; not covered by the guarantee, "
                             "so never publish that output (default: off: stdout and stderr "
                             "hold only public facts and the private releases, except a "
                             "refusal of bad input, which names the first bad row and is not "
                             "covered either)")
    parser.set_defaults(func=run)
    allow_negative_values(parser)  # "--classes -1,0,1" is a value, not an option
    return parser


def parse_classes(text: str | None):
    """Parse ``"A,B[,C...]"`` into labels of the kind the declaration writes: integers when
    every class is written as one (``-1,+1``), numbers when every class is a number (``0.5,1``),
    else text as written (and text when one is written with a leading zero, ``01``).  The kind
    follows the declaration, never the data: it followed the labels' kind, so ``--classes
    0,1,a`` was refused ("the labels in the data are integers") unless some row held ``a``
    (red team, session 24).  Labels match the classes as a schema's classes match them
    (:func:`~dpboost.cli._labels.declared_positions`: ``1`` matches ``1.0`` and ``"1"``);
    :func:`_label_positions` matches them, once, and names the first label outside them.
    """
    if text is None:
        return None
    from dpboost.cli._labels import split_classes

    parts = split_classes(text)
    if len(parts) < 2 or not all(parts) or len(set(parts)) != len(parts):
        raise ValueError(f"--classes must be two or more different labels separated by commas, "
                         f"negative first when there are two (e.g. -1,1). Got {text!r} instead.")
    classes = parts
    if not spelt_as_text(parts):  # "--classes 01,02": codes, kept as written
        try:  # "-1,+1" declares integers: printed as -1, not -1.0
            classes = [int(p) if _INTEGER.match(p) else float(p) for p in parts]
        except ValueError:  # a class that is not a number: every class is text
            classes = parts
    return classes


def clipped_fraction(X: np.ndarray, norm_bound: float) -> float:
    """Share of rows the estimator clips: the norm test of ``clip_rows`` (``||x|| > R``)."""
    if X.shape[0] == 0:
        return 0.0
    with np.errstate(over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64))
    return float(np.mean(norms > norm_bound))


def _estimator(args, classes):
    from dpboost.estimator import PrivateHalfspaceClassifier

    optional = {"n_rounds": args.n_rounds, "kappa": args.kappa,
                "learning_rate": args.learning_rate, "margin": args.margin,
                "multiclass": args.multiclass}
    kwargs = {k: v for k, v in optional.items() if v is not None}
    if "verbose" in inspect.signature(PrivateHalfspaceClassifier).parameters:
        kwargs["verbose"] = not args.json  # progress on stderr for long runs
    return PrivateHalfspaceClassifier(
        target_epsilon=args.target_epsilon, target_delta=args.target_delta,
        norm_bound=args.norm_bound, classes=classes, random_state=args.seed, **kwargs)


def _warn_lines(caught, figures: bool = False) -> None:
    """One stderr line per warning of dpboost's own (public facts: a schema's marks, inferred
    classes); another library's warning is a figure of the data (pandas' "Columns (0: x)
    have mixed types" appears when one row of a whitespace file holds 'true'), shown only
    with ``--non-private-figures``."""
    from dpboost.exceptions import ClippedRowsWarning, LargeDeltaWarning

    for warning in caught:
        if issubclass(warning.category, ClippedRowsWarning):
            continue  # a count of the data: train states the clipped fraction itself,
            # with --non-private-figures only (above 1%, with the fix)
        if issubclass(warning.category, LargeDeltaWarning):
            continue  # fit_charged printed it before the fit (and the ledger's charge)
        own = warning.category.__module__.split(".")[0] in ("dpboost", "accounting")
        if not own and not figures:
            continue
        _print_warning(str(warning.message))


def _print_warning(message: str) -> None:
    """One stderr line: ``dpboost train: warning:`` and the message on one line."""
    print(f"dpboost train: warning: {' '.join(message.split())}", file=sys.stderr)


def _read_libsvm(args, schema):
    from dpboost.data import load_libsvm

    if args.label is not None:  # a table's column; ignored here, it would mislead the user
        raise UserError(f"--label {args.label}: {args.data} is a LIBSVM file, whose label is "
                        "always the first field of each line; remove --label.")
    n_features = args.n_features if args.n_features is not None else (
        schema.n_features if schema is not None else None)
    index_base = args.index_base if args.index_base is not None else (
        schema.index_base if schema is not None else None)
    if n_features is None or index_base is None:
        raise UserError(
            f"{args.data} is a LIBSVM file: declare its public number of features with "
            "--n-features N and its index base with --index-base 1 (or 0), or both in "
            "--schema as 'n_features' and 'index_base'; read from the file they would make "
            "the model's shape depend on single rows.")
    X, y = load_libsvm(args.data, n_features=n_features, index_base=index_base)
    from dpboost.schema import Schema

    label = schema.label if schema is not None else None
    norm_bound = schema.norm_bound if schema is not None else None
    return X, y, Schema(label=label, n_features=n_features, index_base=index_base,
                        norm_bound=norm_bound)


def _read_encoded(args, schema):
    """Raw table + schema -> (X, label positions, encoder)."""
    from dpboost.readers import read_table
    from dpboost.cli._row_lines import with_line
    from dpboost.tabular import BadValueError, TabularEncoder

    label = args.label or (schema.label.column if schema.label else None)
    if schema.label is not None and label is None:
        raise UserError(f"{args.schema} declares the label's classes but not its column: add "
                        '"column": NAME to its "label", or give --label NAME.')
    if schema.label is None or label is None:
        raise UserError(no_label_message(args.schema))
    if args.label is not None and schema.label.column not in (None, args.label):
        raise UserError(f"--label {args.label!r} differs from the schema's label column "
                        f"{schema.label.column!r}.")
    if len(schema.label.classes) < 2:
        raise UserError(f"The schema declares {len(schema.label.classes)} class; declare at "
                        "least two.")
    if args.classes is not None:
        raise UserError("--classes and a schema's label classes both declare the classes; "
                        "keep the schema's.")
    encoder = TabularEncoder(schema)
    encoder.fit()  # reads no data; warns if the schema is still a draft
    columns = list(dict.fromkeys([*schema.used_columns, label]))  # "drop" may be absent
    frame = read_table(args.data, names=schema.names, columns=columns,
                       na_values=schema.na_values, decimal=schema.decimal,
                       column_na_values=schema.column_na_values, separator=schema.separator,
                       text_columns=list(dict.fromkeys([*schema.text_columns, label])))
    try:
        X = encoder.transform(frame)
        y = encoder.encode_labels(frame[label])
    except BadValueError as exc:
        raise with_line(exc, args.data, frame) from None
    if _figures(args):  # non-private checks of the data, for its owner only
        warn_data_checks(frame, schema, "train")
    return X, y, encoder


def _figures(args) -> bool:
    """Whether to print figures of the training data computed without noise (opt-in)."""
    return bool(getattr(args, "non_private_figures", False))


def _label_from_flags(schema, args):
    """A schema without a label, completed by ``--label COL --classes NEG,POS`` (both public).

    The model file then carries the label, as if the schema had declared it.
    """
    from dpboost.schema import Schema

    from dpboost.cli._labels import split_classes

    parts = split_classes(args.classes)
    content = schema.to_dict()
    content["label"] = {"column": args.label, "classes": parts}
    try:
        completed = Schema.from_dict(content)
    except (TypeError, ValueError) as exc:
        raise UserError(f"--label/--classes: {exc}") from None
    args.classes = None  # now the schema's
    return completed


def run(args) -> int:
    from dpboost._io import check_writable
    from dpboost.cli._labels import split_classes
    from dpboost.model_io import model_to_dict, save_model
    from dpboost.readers import table_format
    from dpboost.schema import Schema

    check_writable(args.out, what="--out",  # fail before reading data or spending budget
                   inputs=[("data", args.data), ("--schema", args.schema),
                           ("--ledger", args.ledger)])
    if args.schema is not None and not Path(args.schema).is_file():
        raise UserError(f"--schema {args.schema}: no such file.")
    schema = Schema.load(args.schema) if args.schema is not None else None  # public facts
    if schema is not None and schema.columns and schema.label is None and args.label \
            and args.classes is not None:
        schema = _label_from_flags(schema, args)
    check_declarations(args, schema)  # the file's format: declared, never read from a row
    if args.norm_bound is None:
        args.norm_bound = (schema.norm_bound if schema is not None
                           and schema.norm_bound is not None else 1.0)
    on_dask = args.workers is not None or args.scheduler is not None
    if on_dask:  # refuse what dask cannot do before the ledger is opened or data read
        from dpboost.cli.train_dask import check_dask_args, run_dask

        check_dask_args(schema, args.schema)
    # Parameters are checked, and the noise calibrated, before any data is read.
    declared = (list(range(len(schema.label.classes)))
                if schema is not None and schema.label is not None and schema.label.classes
                else None if args.classes is None else split_classes(args.classes))
    planned = _estimator(args, declared).planned_privacy_event()
    ledger = None
    if args.ledger is not None:  # check before any data is touched (diffprivlib's order)
        from accounting import BudgetLedger

        ledger = BudgetLedger.open(args.ledger)
        ledger.preflight()
        ledger.check(planned)
    if on_dask:
        return run_dask(args, schema, ledger)
    fmt = table_format(args.data, declared=declared_format(args, schema))  # never by a row
    feature_names = public_classes = None
    by_flag = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if fmt == "libsvm":
            X, y, schema = _read_libsvm(args, schema)
            by_flag = schema.label is None  # the classes come from --classes
            classes = list(schema.label.classes) if not by_flag else parse_classes(args.classes)
        elif schema is not None and schema.columns:
            X, y, encoder = _read_encoded(args, schema)
            feature_names = encoder.get_feature_names_out().tolist()
            public_classes = list(schema.label.classes)
            classes = list(range(len(public_classes)))  # label positions in the schema
        else:
            X, y, feature_names = _read_numeric(args, schema, fmt)
            by_flag = schema is None or schema.label is None
            classes = list(schema.label.classes) if not by_flag else parse_classes(args.classes)
        _check_two_rows(args.data, X.shape[0])
        if classes is None and (message := labels_not_classes(args.data, args.label, y)):
            raise UserError(message)
        if public_classes is None and classes is not None:  # keep the declared order
            public_classes, y = list(classes), _label_positions(
                args.data, y, classes, schema.decimal if schema is not None else ".",
                "--classes" if by_flag else "the declared classes")
            classes = list(range(len(public_classes)))
        clipped = clipped_fraction(X, args.norm_bound) if _figures(args) else None
        estimator = _estimator(args, classes)
        fit_charged(estimator, X, y, ledger, args)
    _warn_lines(caught, _figures(args))
    if schema is not None and schema.columns and fmt != "libsvm":
        say_unused_columns(args.data, schema, args.label or (schema.label.column
                                                         if schema.label else None))
    if fmt == "csv" and args.label is None and (schema is None or schema.label is None):
        print(f"dpboost train: note: the label is {label_column(args.data, None)}; pass "
              "--label COL to choose another.", file=sys.stderr)  # (user trial, session 26)
    if fmt != "libsvm" and (schema is None or not schema.columns) and not _figures(args):
        print(raw_values_hint(args.norm_bound, args.label, schema is not None),
              file=sys.stderr)  # reads no data (with the figures: the clipped fraction)
    if clipped is not None and clipped > CLIP_WARN_FRACTION:
        print(f"dpboost train: warning: {clipped:.1%} of the training rows (non-private "
              f"figure) had a norm above "
              f"--norm-bound {args.norm_bound:g} and were clipped, which distorts the model. "
              "Declare a schema (--schema) whose public bounds scale every row into the unit "
              "ball; 'dpboost schema DATA --label COL' drafts one.", file=sys.stderr)
    save_model(estimator, args.out, schema=schema, feature_names=feature_names,
               classes=public_classes)
    report = model_to_dict(estimator)["privacy_report"]
    shown = public_classes or np.asarray(estimator.classes_).tolist()
    figures = None
    if _figures(args):
        figures = {"training_accuracy": float(np.mean(estimator.predict(X) == y)),
                   "clipped_fraction": clipped}
    if args.json:
        out = {"model": str(args.out), "n_features": int(X.shape[1]), "classes": shown,
               "privacy_report": report}
        print(json_text(out if figures is None else {**out, "non_private": figures},
                         indent=2))
    else:
        print(f"wrote {args.out}: {X.shape[1]} features, classes {shown}")
        print(f"privacy: {privacy_line(report)}")
        if figures is not None:
            print(f"non-private: training accuracy {figures['training_accuracy']:.4f}, "
                  f"clipped rows {clipped:.2%} (computed on the training data without "
                  "noise; not covered by the guarantee)")
    return 0


def raw_values_hint(norm_bound: float, label: str | None = None,
                    with_schema: bool = False) -> str:
    """The warning train prints after a fit on a table without column declarations (unless
    ``--non-private-figures`` states the clipped fraction itself).

    Such a table is used as given, so every row longer than ``norm_bound`` is clipped to it:
    on raw values (a trial's covertype CSV, norm bound 1) that was every row, and the model
    predicted one class.  A warning triggered by how many rows are clipped would be a
    noise-free release of the data, so this one reads nothing: its text is a function of the
    flags alone (``--norm-bound``, ``--label``, whether a schema was given; not even the
    path, so neighbouring files give the same stderr), printed whatever the file holds.
    ``--non-private-figures`` gives the owner the clipped fraction instead.
    """
    import shlex

    how = ("with a schema that declares no columns" if with_schema
           else "without a schema (--schema)")
    draft = f"dpboost schema DATA --label {shlex.quote(label or 'COL')}"
    return (f"dpboost train: warning: the data was read {how}, so its values were used as "
            f"given and every row whose L2 norm exceeds --norm-bound {norm_bound:g} was scaled "
            "down to that norm, which distorts the model unless the columns are already "
            f"scaled into that ball. Draft a schema with '{draft}', check its bounds against "
            "public sources (never the data) and pass it with --schema, or divide each column "
            "by a public bound before training; --non-private-figures shows you (the data "
            "owner; never publish it) the share of rows scaled down.")


def _read_numeric(args, schema, fmt):
    """A numeric CSV or Parquet file without column declarations: (X, y, feature names)."""
    from dpboost.data import _load_csv

    label = args.label
    if label is None and schema is not None and schema.label is not None:
        label = schema.label.column
    if fmt == "csv":  # (a Parquet file's column names are metadata, never a row)
        _check_inferred_header(args.data)
    names: list[str] = []  # the header's names, so predict can match columns by name
    # declared classes match each CSV label as written, cell by cell: read as numbers, a
    # column's kind came from every row, so one row ("01", "a") decided whether another row's
    # "1" or "0.0" matched a class, or whether its "inf" was refused (red team, session 25)
    declared = args.classes is not None or (schema is not None and schema.label is not None)
    try:
        X, y = _load_csv(args.data, label, header="infer", with_label=True, names_out=names,
                         text_labels=declared and fmt == "csv")
    except ValueError as exc:
        if schema is None or "declare a schema (--schema)" not in str(exc):
            raise
        raise UserError(str(exc).replace(  # the schema was given, but it lists no column
            "declare a schema (--schema)", f"declare the file's columns under 'columns' in "
            f"{args.schema} (it declares none, so every column is read as a number)")) from None
    if fmt == "csv" and not declared and y.dtype.kind in "iuf":  # "01" read as 1: its spelling
        text = label_text(args.data, label)
        if spelt_as_text(text):
            y = np.array(text, dtype=str)
    n_features = args.n_features if args.n_features is not None else (
        schema.n_features if schema is not None else None)
    if n_features is not None and X.shape[1] != n_features:
        raise UserError(f"{args.data} has {X.shape[1]} feature columns; --n-features "
                        f"declares {n_features}.")
    return X, y, names or None


def _check_inferred_header(path) -> None:
    """Refuse a first line read as a header that looks like a data row (before any release).

    Without column declarations the header is inferred from the file: line 1 is a header when
    one of its cells is not a number where line 2 has one (:func:`dpboost.readers.header_names`).
    In a file without a header, line 1 is a private row, and a missing value in it (an empty
    cell, ``NA``) passed that test: the row was dropped from the sample and its other cells,
    the row's values, became the model file's feature names, an output only that dataset can
    give (n = 299 and names like '0.123' where its neighbour gave n = 300 and no names).  So a
    header holding a number, or naming no feature column (every name empty or a missing-value
    word), is refused as the row it would be, naming the line, never a cell.
    """
    from dpboost.cell_text import NA_WORDS, is_decimal_number
    from dpboost.readers import header_names

    names = header_names(path, "infer")
    if names is None:
        return
    unnamed = [c for c in names[:-1] if c.strip().lower() in ("", *NA_WORDS)]
    if any(is_decimal_number(c) for c in names) or (names[:-1] and
                                                    len(unnamed) == len(names) - 1):
        raise UserError(
            f"{path}: line 1 reads as a header row (a cell of it is not a number where line 2 "
            "has one) but does not name the columns (it holds a number, or no name of a "
            "feature column): if it is a data row, it holds an empty or non-numeric value "
            "(declare a schema, --schema, for missing values); if it is a header, give every "
            "column a name that is not a number.")


def _check_two_rows(path, n: int) -> None:
    """Refuse fewer than two data rows (before the fit, so before the ledger is charged).

    ``n`` enters the sensitivity ``2R/(kappa n)``; one row is no sample.
    """
    if n < 2:
        raise UserError(f"{path} has {n} data row{'' if n == 1 else 's'}; training needs at "
                        "least 2.")


def _label_positions(path, y: np.ndarray, classes, decimal: str = ".",
                     what: str = "the declared classes") -> np.ndarray:
    """Each label's position in the declared ``classes``, as the schema path codes labels.

    Labels match as a schema's label classes do
    (:func:`~dpboost.cli._labels.declared_positions`).  The estimator would sort the declared
    classes; coded as positions, the first declared class stays the negative one, as
    ``--classes NEG,POS`` promises.  A label outside them (``what``: ``"--classes"`` or ``"the
    declared classes"``) is an error naming the first one's line and the classes, never the
    label, and no count (the rows are private).
    """
    from dpboost.cli._labels import declared_positions, unknown_labels
    from dpboost.schema import Label

    try:  # the schema's check of the classes: distinct, non-empty
        label = Label.from_dict({"column": None, "classes": list(classes)})
    except (TypeError, ValueError) as exc:
        raise UserError(f"--classes: {exc}") from None
    positions = declared_positions(np.asarray(y), label.classes, decimal)  # 1,0 is 1 under ','
    message = unknown_labels(np.asarray(y), positions, label.classes, what, path,
                             training=True, decimal=decimal)
    if message is not None:
        raise UserError(message)
    return positions


def fit_charged(estimator, X, y, ledger, args) -> None:
    """``estimator.fit(X, y)``, charged to ``ledger`` (if any) whenever it may have shown output.

    The ledger was checked before the data was read.  Just before the fit it **reserves** the
    planned event (``planned_privacy_event``: the cost ``fit`` spends, tested equal, and unlike
    the spent event it names no learned setting): a locked, re-checked, atomic write, so from
    then on a concurrent spend on the same ledger counts it and cannot take the same budget.
    A fit shows private output before it ends (the plan line and the bar state the rounds
    learned from the noisy count), so the reservation is settled, not refunded, when the fit
    ends ("dpboost train FILE") or fails other than on bad input: interrupted, a lost dask
    worker, a bug ("... (failed)"); a process killed outright leaves it as "... (running)".
    Bad input (``ValueError``, ``TypeError``) is refused by the checks that come before any
    release, in memory as on dask (where a bad value surfaces in the first pass over ``X``):
    that reservation alone is cancelled, and the ledger is as it was.  Whether the checks had
    passed is what the estimator says (``_start_releases``), not the exception's type: any
    failure before that point (bad input, or an interrupt during the checks) released nothing
    and is cancelled; any after it (even a ``ValueError``: a file changed under a dask fit that
    re-reads it) is charged.

    First, before the reservation (and before the fit's plan line), it prints the fit's
    :class:`~dpboost.exceptions.LargeDeltaWarning` when ``target_delta >= 1 / n``
    (:func:`~dpboost.privacy_report.large_delta_message`, from the public ``n`` and
    ``delta``): the fit warns only at its end, when the budget is spent, so the user could not
    stop before spending (session 28).  A warning, not a refusal: the run goes on and is
    charged as before; :func:`_warn_lines` drops the fit's own copy.
    """
    from dpboost.privacy_report import large_delta_message

    message = large_delta_message(float(estimator.target_delta), int(X.shape[0]),
                                  type(estimator).__name__)
    if message is not None:
        _print_warning(message)
    if ledger is None:
        estimator.fit(X, y)
        return
    planned = estimator.planned_privacy_event()
    label = f"dpboost train {Path(args.data).name}"
    reservation = ledger.reserve(planned, label=label + " (running)")
    try:
        estimator.fit(X, y)
    except BaseException:
        if not getattr(estimator, "_release_started", False):  # set by fit past its checks
            ledger.cancel(reservation)
        else:
            ledger.settle(reservation, label=label + " (failed)")
        raise
    ledger.settle(reservation, label=label)
