"""``dpboost predict``: apply a saved halfspace model to a CSV, Parquet or LIBSVM file.

Prediction is post-processing of the released weights, so it costs no privacy.  Columns are
matched **by name**: a model trained through a schema encodes the file with that schema (any
column order, extra columns ignored, a missing column is a one-line error); a model trained
on a numeric CSV with a header picks the same header names.  The output has the columns
``prediction``, ``score`` (the decision function, positive means the second class; each row
is clipped to the model's norm bound first, as the training rows were) and
``probability`` when the model offers ``predict_proba``; a multiclass model writes
``score_<class>`` and ``probability_<class>`` for every class.  With ``--label COL`` the command
also prints the accuracy and ROC AUC on the file (on test data: they say nothing private
about the training data, but they are not noisy either).  ``--keep id,name`` copies columns
of the file (an ID, say), as written, in front of the predictions, so each row can be joined
back; a file without a header has no names to keep and is refused.

A model file that is truncated, of another format version, or expects another number of
features is a :class:`~dpboost.exceptions.ModelFileError`: one line on stderr, exit code 2, and
no output file is written (the output is written atomically, after every check).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

from dpboost.cli._keep_columns import csv_cell, kept_columns
from dpboost.cli._options import UserError, add_label, add_out

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "predict",
        help="predict labels with a model saved by 'dpboost train'",
        description="Predict the labels of a CSV, Parquet or LIBSVM file with a saved "
                    "halfspace model; columns are matched by name.",
    )
    parser.add_argument("data", metavar="DATA",
                        help="CSV (.csv, .csv.gz; any separator), Parquet or LIBSVM file")
    parser.add_argument("--model", required=True, metavar="MODEL.json",
                        help="a model written by 'dpboost train' (required)")
    add_label(parser, help="the label column of the file: never used as a feature; with it "
                           "the accuracy and ROC AUC are printed (LIBSVM: any value turns "
                           "them on)", default_text="none")
    parser.add_argument("--keep", default=None, metavar="COL[,COL...]",
                        help="copy these columns of DATA (header names; an ID, say) as "
                             "written to the front of the output, to join the predictions "
                             "back to the rows; a name with a comma is written with a "
                             "backslash before it (default: none)")
    add_out(parser, metavar="PREDS.csv",
            help="write the predictions here (columns prediction, score[, probability])",
            default_text="standard output")
    from dpboost.cli._distributed import add_cluster_options

    add_cluster_options(parser)  # --workers K / --scheduler ADDRESS: stream with dask
    parser.set_defaults(func=run)
    return parser


def _saved_schema_hint(error: Exception, args) -> Exception:
    """``error``, which asks to declare the file's format (a decimal comma, a thousands
    separator) in "the schema", saying which schema that is and the two ways out: ``predict``
    has no flag for it (a user trial, session 26, looked for ``--decimal``)."""
    text = str(error)
    if not any(key in text for key in ('"decimal"', '"thousands"')):
        return error
    return type(error)(f"{text[:-1]} (the schema is the one saved in {args.model}: re-save "
                       f"{args.data} in the format it declares, or retrain with a schema "
                       "declaring this file's).")


def _format(values: np.ndarray) -> list[str]:
    out = []
    for v in values.tolist():
        if isinstance(v, float) and v.is_integer():
            out.append(str(int(v)) if abs(v) < 2**53 else repr(v))
        else:
            out.append(str(v))
    return out


def _encoded(model, args):
    """(X, true labels or None) for a model that carries a schema with columns."""
    from dpboost.readers import read_table
    from dpboost.tabular import BadValueError, TabularEncoder

    schema = model.schema_
    label = args.label or (schema.label.column if schema.label else None)
    frame_columns = list(schema.used_columns)  # a "drop" column may be absent from the file
    from dpboost.readers import field_count, header_names, table_format

    has_label = False
    names = schema.names
    _refuse_feature_label(args, schema)
    if label is not None:
        if names is not None and table_format(args.data, declared="table") == "csv":
            # a headerless test file may leave out the label: one field fewer than 'names'
            has_label = label in names and field_count(
                args.data, schema.decimal, schema.separator) != len(names) - 1
            if label in names and not has_label:
                names = tuple(n for n in names if n != label)
        else:
            has_label = label in (header_names(args.data, separator=schema.separator) or [])
        if args.label is not None and not has_label:
            raise UserError(f"{args.data} has no label column {args.label!r}."
                            + _label_hint(args, schema, names))
    read = frame_columns + ([label] if has_label else [])
    frame = read_table(args.data, names=names, columns=read, na_values=schema.na_values,
                       decimal=schema.decimal, column_na_values=schema.column_na_values,
                       separator=schema.separator,
                       text_columns=[c for c in dict.fromkeys([*schema.text_columns, label])
                                     if c in read])
    encoder = TabularEncoder.of_model(schema)
    try:
        X = encoder.transform(frame)
    except BadValueError as exc:
        from dpboost.cli._row_lines import with_line

        raise _saved_schema_hint(with_line(exc, args.data, frame), args) from None
    from dpboost.cli._owner_checks import warn_data_checks

    warn_data_checks(frame, schema, "predict")
    truth = frame[label].to_numpy(dtype=object) if has_label and args.label else None
    _check_truth(truth, args.data, frame)
    return X, truth, frame.attrs.get("dpboost_header", True)


def _refuse_feature_label(args, schema) -> None:
    if args.label is not None and args.label in schema.columns:
        raise UserError(f"--label {args.label!r} is one of the model schema's 'columns', "
                        "not its label; the label column is the one under 'label'"
                        + (f" ({schema.label.column!r})." if schema.label and
                           schema.label.column else "."))


def _label_hint(args, schema, names, header=None) -> str:
    """What ``--label`` may have meant: the model's label column, or the file's header name
    closest to it (a typo); public facts and header names, never a row.  Then, in memory as
    with ``--workers``: drop ``--label`` to only predict.  ``header``: the file's column
    names (default: read from ``args.data``, a file)."""
    import difflib

    from dpboost.readers import header_names, table_format

    drop = " Drop --label to only predict (--label reads the true labels for the accuracy)."
    ours = schema.label.column if schema.label is not None else None
    if ours and ours != args.label:
        return f" The model's label column is {ours!r}.{drop}"
    if header is None:
        header = (list(names) if names is not None else
                  header_names(args.data, "infer", separator=schema.separator)
                  if table_format(args.data) == "csv" else header_names(args.data))
    if (schema.separator is not None and names is None and table_format(args.data) == "csv"
            and len(header_names(args.data, separator=schema.separator)) == 1
            and len(header_names(args.data)) > 1):
        from dpboost.column_check import single_column_hint

        # the header split by another separator held --label: 'Did you mean' it, and 'drop
        # --label' (red team, session 36), sent the user to the name they had typed, then to
        # the refusal of every feature column
        return single_column_hint(schema.separator)
    close = difflib.get_close_matches(args.label, header or [], n=1, cutoff=0.75)
    return (f" Did you mean {close[0]!r}?" if close else "") + drop


def _check_dask_label(schema, args) -> None:
    """``--label`` with ``--workers``: the in-memory refusals, from the header or the first
    Parquet file's footer (no row read).  Before, the model's label column was read whatever
    ``--label`` named, and its absence said "has no column ... (named in the schema)",
    without the hint.  The true labels are the model's label column's."""
    from dpboost.cli._distributed import _parquet_paths
    from dpboost.readers import field_count, header_names

    _refuse_feature_label(args, schema)
    ours = schema.label.column if schema.label is not None else None
    names, files = schema.names, _parquet_paths(str(args.data))
    if files:
        header = header_names(files[0])
    elif names is not None:  # a headerless test file may leave out the label
        header = [n for n in names if n != ours or field_count(
            args.data, schema.decimal, schema.separator) == len(names)]
    else:
        header = header_names(args.data, separator=schema.separator) or []
    if args.label not in header:
        raise UserError(f"{args.data} has no label column {args.label!r}."
                        + _label_hint(args, schema, names, header))
    if args.label != ours:
        raise UserError(f"--workers/--scheduler read the true labels from the model's label "
                        f"column {ours!r}, not {args.label!r}: predict in memory (without "
                        "--workers) to score another column.")


def _check_truth(truth, path, frame) -> None:
    """A missing label in the file is a one-line error naming its line (as in train)."""
    from dpboost.cli._labels import LabelTally, missing_refusal, missing_rows
    from dpboost.readers import frame_line

    if truth is None:
        return
    lost = missing_rows(truth)
    if lost.size:
        tally = LabelTally(len(truth), missing=lost.size, first_missing=int(lost[0]))
        raise UserError(missing_refusal(path, tally, frame_line(path, frame,
                                                                 tally.first_missing)))


def _by_name(model, args):
    """(X, true labels or None) for a numeric model with feature names (CSV with header)."""
    from dpboost.cell_text import first_non_number
    from dpboost.data import _check_finite
    from dpboost.readers import header_names, line_of, read_table

    names = header_names(args.data, "infer")
    if names is None:
        return None
    missing = [n for n in model.feature_names_ if n not in names]
    if missing:
        raise UserError(f"{args.data} has no column {missing[0]!r}, which the model was "
                        f"trained on; its columns are {names[:30]}.")
    if args.label is not None and args.label in model.feature_names_:  # (user trial, s. 26)
        raise UserError(f"--label {args.label!r} is one of the model's features (its training "
                        "file was read without --label, so the label was another column; "
                        "'dpboost train' names it): retrain with --label "
                        f"{args.label}, or pass the --label the model was trained with.")
    wanted = list(dict.fromkeys([*model.feature_names_,
                                 *([args.label] if args.label in names else [])]))
    frame = read_table(args.data, columns=wanted, na_values=None,
                       text_columns=[args.label] if args.label in names else [])
    X = np.empty((len(frame), len(model.feature_names_)))
    header = frame.attrs.get("dpboost_header", True)
    for j, name in enumerate(model.feature_names_):
        try:
            X[:, j] = frame[name].to_numpy(dtype=np.float64)
        except (TypeError, ValueError):
            bad = first_non_number(frame[name])
            if bad is None:  # every cell reads as a number, yet the column did not convert
                raise UserError(f"{args.data}: column {name!r} is not numeric.") from None
            row, kind = bad
            raise UserError(f"{args.data}: column {name!r} {kind} at line "
                            f"{line_of(args.data, row, header=header)}; the model's features "
                            "are numbers.") from None
    _check_finite(X, Path(args.data), lambda row: line_of(args.data, row, header=header))
    if args.label is not None and args.label not in names:
        raise UserError(f"{args.data} has no label column {args.label!r}.")
    truth = frame[args.label].to_numpy(dtype=object) if args.label else None
    _check_truth(truth, args.data, frame)
    return X, truth, True  # the file has a header: its names matched the model's


def _positional(model, args):
    """(X, true labels or None) the version-1 way: every column but --label, in order."""
    from dpboost.data import _load_csv, detect_format, load_libsvm
    from dpboost.exceptions import ModelFileError

    d = model.n_features_in_
    if detect_format(args.data) == "libsvm":
        schema = model.schema_
        index_base = schema.index_base if schema is not None else None
        with warnings.catch_warnings():  # test data: the shape comes from the model
            warnings.simplefilter("ignore")
            X, y = load_libsvm(args.data, n_features=d if index_base is not None else None,
                               index_base=index_base)
        if X.shape[1] < d:  # a LIBSVM file need not mention the last features: zeros
            X = np.hstack([X, np.zeros((X.shape[0], d - X.shape[1]))])
        truth = y if args.label is not None else None
    else:
        try:
            X, y = _load_csv(args.data, args.label, header="infer",
                             with_label=args.label is not None)
        except ValueError as exc:
            raise _without_schema_flag(exc, args) from None
        truth = y
    if X.shape[1] != d:
        raise ModelFileError(f"{args.model} expects {d} features but {args.data} has "
                             f"{X.shape[1]}" + ("" if args.label is not None else
                                                 " (pass --label to drop a label column)")
                             + ("" if model.schema_ is not None else
                                "; the model file carries no schema, so every column is read "
                                "as a number, in order: to predict a raw table, save the "
                                "model with save_model(..., schema=, feature_names=) or a "
                                "fitted Pipeline(TabularEncoder, model), or train it with "
                                "'dpboost train --schema'"))
    return X, truth, None  # a header row is inferred, as the reader did


#: The fix :func:`dpboost.data._load_csv` offers for a text cell, which names train's flag.
_SCHEMA_FIX = "Encode categories as numbers first, or declare a schema (--schema)."


def _without_schema_flag(exc: ValueError, args) -> Exception:
    """The numeric reader's refusal of a text cell, reworded for predict, which has no
    ``--schema``: without ``--label`` the cell may be the label column's (every column is
    then read as a feature); else the model must be trained with a schema."""
    text = str(exc)
    if _SCHEMA_FIX not in text:
        return exc
    fix = ("Encode categories as numbers first, or train the model with a schema that "
           "declares the columns ('dpboost train --schema')." if args.label is not None else
           "If it is the label column, name it with --label (without it every column is read "
           "as a feature); else encode categories as numbers first, or train the model with a "
           "schema that declares the columns ('dpboost train --schema').")
    return UserError(text.replace(_SCHEMA_FIX, fix))


_AUC_UNDEFINED = "ROC AUC: undefined (the file holds one class)"


def _metrics(model, truth, score, pred, path=None, header: bool | None = None) -> str:
    """The accuracy and ROC AUC line; the AUC is stated undefined on a file of one class.

    The ROC AUC compares positives with negatives, so a file whose labels hold one class has
    none: the line says so rather than printing ``nan``.  Labels match the model's classes as
    a schema's classes do (:func:`~dpboost.cli._labels.declared_positions`); a label outside
    them is an error naming its line in ``path`` (``header``: whether the file has a header
    row), the count and the classes, never the label (a missing-value marker such as ``?``
    is said to be one, as ``train`` says it).
    """
    from dpboost.cli._labels import declared_positions, unknown_labels, unknown_refusal

    schema = getattr(model, "schema_", None)  # under a comma, "1,5" is 1.5
    decimal, separator = (schema.decimal, schema.separator) if schema is not None else (
        ".", None)
    classes = model.classes_.tolist()
    index = declared_positions(np.asarray(truth, dtype=object), classes, decimal)
    message = unknown_labels(truth, index, classes, "the model's classes", path,
                             header=header, decimal=decimal, separator=separator)
    if message is not None:
        raise UserError(unknown_refusal(message))
    predicted = declared_positions(np.asarray(pred, dtype=object), classes, decimal)
    accuracy = float(np.mean(index == predicted))
    if np.ndim(score) == 2:  # multiclass: macro one-vs-rest ROC AUC over the classes present
        from dpboost.scores import macro_roc_auc, probabilities

        # of the probabilities (the softmax of the scores, which carry the fit's temperature),
        # as sklearn's roc_auc_score(y, predict_proba(X), multi_class="ovr") and the
        # "roc_auc_ovr" scorer: on the raw scores a trial read 0.8746 where sklearn read 0.9079
        auc = macro_roc_auc(index, probabilities(np.asarray(score, dtype=np.float64)))
        text = auc.text() if auc.auc is not None else _AUC_UNDEFINED
        return f"accuracy {accuracy:.4f}, {text} on {len(index)} rows"
    return f"accuracy {accuracy:.4f}, {_binary_auc(index == 1, score)} on {len(index)} rows"


def _binary_auc(positive: np.ndarray, score: np.ndarray) -> str:
    """``ROC AUC x`` of the scores, or the statement that it is undefined on one class."""
    from sklearn.metrics import roc_auc_score

    if 0 < positive.sum() < len(positive):
        return f"ROC AUC {float(roc_auc_score(positive, score)):.4f}"
    return _AUC_UNDEFINED


def run(args) -> int:
    from dpboost._io import atomic_write_text, check_writable
    from dpboost.cli._predict_notes import (refuse_totals_row, say_blank_lines, say_one_class,
                                            say_padding_rows)
    from dpboost.model_io import in_declared_order, load_model

    if args.out is not None and "*" not in str(args.out):
        check_writable(args.out, what="--out",  # before reading anything
                       inputs=[("data", args.data), ("--model", args.model)])
    if not Path(args.model).is_file():
        raise UserError(f"--model {args.model}: no such file.")
    model = in_declared_order(load_model(args.model))  # score: the declared positive class
    refuse_totals_row(args.data)
    if args.workers is not None or args.scheduler is not None:
        return _run_dask(model, args)
    result = None
    if model.schema_ is not None and model.schema_.columns:
        result = _encoded(model, args)
    elif model.feature_names_ is not None:
        result = _by_name(model, args)
    if result is None:
        result = _positional(model, args)
    X, truth, header = result
    kept = kept_columns(model, args, X.shape[0])  # before any work: a missing name is cheap
    score = model.decision_function(X)
    pred = model.predict(X)
    columns = kept + [("prediction", [csv_cell(p) for p in _format(pred)])]
    proba = getattr(model, "predict_proba", None)
    if score.ndim == 2:  # multiclass: one score (and probability) column per class
        names = _format(model.classes_)  # the header cell is quoted whole, class and prefix
        columns += [(csv_cell(f"score_{c}"), [repr(float(v)) for v in score[:, k]])
                    for k, c in enumerate(names)]
        if proba is not None:
            P = np.asarray(proba(X))
            columns += [(csv_cell(f"probability_{c}"), [repr(float(v)) for v in P[:, k]])
                        for k, c in enumerate(names)]
    else:
        columns.append(("score", [repr(float(s)) for s in score]))
        if proba is not None:
            columns.append(("probability",
                            [repr(float(p)) for p in np.asarray(proba(X))[:, 1]]))
    first_line = ",".join(name for name, _ in columns)  # not `header`: the file's flag
    rows = zip(*(values for _, values in columns))
    text = first_line + "\n" + "".join(",".join(row) + "\n" for row in rows)
    summary = (_metrics(model, truth, score, pred, args.data, header)
               if truth is not None else None)
    if args.out is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.out, text)
        print(f"wrote {X.shape[0]} predictions to {args.out}", file=sys.stderr)
    say_blank_lines(args.data)
    say_padding_rows(args.data)
    say_one_class(pred, model.classes_)
    if summary is not None:
        print(f"test: {summary}", file=sys.stderr if args.out is None else sys.stdout)
    return 0


def _run_dask(model, args) -> int:
    """Stream a Parquet folder / large CSV through the model's schema on dask.

    ``--out 'preds/part-*.csv'`` (a ``*`` in the name) writes one file per partition;
    any other ``--out`` writes one file.
    """
    from dpboost.cli._bad_values import file_error
    from dpboost.cli._distributed import cluster_client
    from dpboost.cli._labels import predict_label_refusal
    from dpboost.tabular import BadValueError

    if model.schema_ is None or not model.schema_.columns:
        raise UserError("--workers/--scheduler need a model trained with --schema.")
    if model.schema_.decimal != ".":
        raise UserError('--workers/--scheduler read numbers with a decimal point only; the '
                        'model\'s schema declares "decimal": ",": predict in memory.')
    if args.keep is not None:
        raise UserError("--keep is read in memory only: predict without --workers/--scheduler "
                        "to copy columns to the output.")
    if args.out is None:
        raise UserError("--workers/--scheduler write to --out (a file, or 'folder/part-*.csv' "
                        "for one file per partition).")
    if args.label is not None:  # before the cluster starts, from the header alone
        _check_dask_label(model.schema_, args)
    with cluster_client(args.workers, args.scheduler, args.memory_limit), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # one line each, after the work (none on an error)
        try:  # a bad value surfaces when a partition is first encoded
            _predict_dask(model, args)
        except BadValueError as exc:
            raise _saved_schema_hint(file_error(exc, args.data, model.schema_, of_model=True,
                                                labels=predict_label_refusal(model, args.data)),
                                     args) from None
    for warning in caught:
        print(f"dpboost predict: warning: {' '.join(str(warning.message).split())}",
              file=sys.stderr)
    return 0


def _to_csv_atomic(frame, out: str, also=()):
    """dask's ``to_csv`` into a temporary file beside ``out``, renamed over it when complete;
    returns ``also`` (dask collections) computed in the same pass as the write.

    A bad value surfaces only when its partition is encoded, midway through the write: before,
    ``out`` was left truncated (an earlier file of predictions lost, a partial one in its
    place).  A pattern with ``*`` (one file per partition) is written as dask writes it.
    """
    import os
    import tempfile

    import dask

    if "*" in out:
        return dask.compute(frame.to_csv(out, index=False, compute=False), also)[1]
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(out)}.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        written = dask.compute(frame.to_csv(tmp, index=False, single_file=True,
                                            compute=False), also)[1]
        os.replace(tmp, out)
        return written
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _output_block(names: list[str], *cells):
    """One block of the output of :func:`_predict_dask`: its columns, named, in order."""
    import pandas as pd

    return pd.DataFrame(dict(zip(names, cells)))


def _predict_dask(model, args) -> None:
    """The predictions (and the accuracy with ``--label``) of :func:`_run_dask`, on its cluster.

    The columns are those of the in-memory path: a multiclass model writes the class of the
    largest score, then ``score_<class>`` and ``probability_<class>`` for every class.
    """
    import dask
    import dask.dataframe as dd
    from scipy.special import expit

    from dpboost.cli._distributed import read_encoded
    from dpboost.cli._predict_notes import (class_counts, say_blank_lines,
                                            say_one_class_of_counts, say_padding_rows)
    from dpboost.clipping import clip_for_scoring, scoring_norm_bound
    from dpboost.distributed import class_probabilities, decision_scores, predict_labels

    # a spool pays only when X is read again (the accuracy pass after the predictions)
    X, truth, _, found = read_encoded(args.data, model.schema_, dtype=np.float64,
                                      with_labels=args.label is not None,
                                      spool=args.label is not None, checks=True,
                                      of_model=True)
    if found is not None:  # the in-memory path's warnings, from the partitions' counts
        from dpboost.cli._owner_checks import warn_data_checks

        warn_data_checks(None, model.schema_, "predict", found=found, n_rows=X.shape[0])
    # rows clipped to the model's norm bound, as in memory (dpboost.clipping.clip_for_scoring)
    X = clip_for_scoring(X, scoring_norm_bound(model))
    score = decision_scores(X, model.coef_, model.intercept_).astype(np.float64)
    classes = np.asarray(model.classes_)
    has_proba = getattr(model, "predict_proba", None) is not None
    columns = {"prediction": predict_labels(score, classes, X, model.coef_, model.intercept_)}
    if score.ndim == 2:  # multiclass: one score (and probability) column per class
        proba = (class_probabilities(X, score, model.coef_, model.intercept_) if has_proba
                 else None)  # one-hot where the scores overflowed, as in memory
        for k, c in enumerate(_format(classes)):
            columns[f"score_{c}"] = score[:, k]
        for k, c in enumerate(_format(classes) if has_proba else []):
            columns[f"probability_{c}"] = proba[:, k]
    else:
        columns["score"] = score
        if has_proba:
            columns["probability"] = score.map_blocks(expit, dtype=np.float64)
    # each column's blocks unoptimised, so that every column (and the counts) of a block share
    # its one read and encoding: dd.from_dask_array fused each column's graph apart, and a
    # block was read and encoded 3 times for a binary model, 4 for 3 classes (without --label;
    # the output is byte-identical, session 26)
    names = list(columns)
    blocks = list(zip(*(columns[k].to_delayed(optimize_graph=False).ravel() for k in names)))
    meta = _output_block(names, *(np.empty(0, dtype=columns[k].dtype) for k in names))
    frame = dd.from_delayed([dask.delayed(_output_block, pure=True)(names, *b) for b in blocks],
                            meta=meta, verify_meta=False)
    # the rows predicted each class, block by block in the pass that writes them (the
    # in-memory path's one-class note; a fact of the user's test file, not of training data)
    counts = [dask.delayed(class_counts, pure=True)(b[0], classes)  # b[0]: "prediction"
              for b in blocks]
    # the true labels too: a Parquet file's are read lazily, and an undeclared one found after
    # the write left --out written beside the refusal, where memory writes nothing (session 32)
    counts, t = _to_csv_atomic(frame, str(args.out), also=(counts, truth))
    print(f"wrote {X.shape[0]} predictions to {args.out}", file=sys.stderr)
    say_blank_lines(args.data)
    say_padding_rows(args.data)
    say_one_class_of_counts(np.sum(counts, axis=0) if counts else np.zeros(len(classes)),
                            classes)
    if truth is not None:  # truth: class index; the scores are gathered once
        s, labels = dask.compute(score, columns["prediction"])
        s, t = np.asarray(s), np.asarray(t)
        if s.ndim == 2:
            summary = _metrics(model, classes[t], s, np.asarray(labels))
            print(f"test: {summary}", file=sys.stdout)
            return
        positive = t == 1
        acc = float(np.mean((s > 0) == positive))
        print(f"test: accuracy {acc:.4f}, {_binary_auc(positive, s)} on "
              f"{positive.size} rows", file=sys.stdout)
