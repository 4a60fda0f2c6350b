"""The dask branch of ``dpboost train`` (``--workers K`` or ``--scheduler ADDRESS``).

A table too large for memory is encoded partition by partition by the schema's
:class:`~dpboost.tabular.TabularEncoder` (:mod:`dpboost.cli._distributed`) and fitted on dask
(:mod:`dpboost.distributed`): the same model file, report and ledger charge as in memory.
"""

from __future__ import annotations

import warnings

import numpy as np

from dpboost.cli._options import UserError, json_text
from dpboost.cli._train_notes import no_label_message, privacy_line, say_unused_columns
from dpboost.cli.train import (
    _check_two_rows,
    _estimator,
    _figures,
    _warn_lines,
    fit_charged,
    warn_data_checks,
)
from dpboost.tabular import BadValueError

__all__ = ["check_dask_args", "run_dask"]


def check_dask_args(schema, path=None) -> None:
    """What ``--workers``/``--scheduler`` cannot do, refused from the schema (file ``path``)
    alone.

    Called before the ledger is opened and before any data is read.
    """
    if schema is not None and schema.columns and schema.label is None:  # (red team s35 F6)
        raise UserError(no_label_message(path))  # as train words it in memory
    if schema is None or not schema.columns or schema.label is None:
        raise UserError("--workers/--scheduler need --schema with columns and a label (the "
                        "table is encoded partition by partition by its TabularEncoder).")
    if schema.decimal != ".":
        raise UserError('--workers/--scheduler read numbers with a decimal point only; the '
                        'schema declares "decimal": ",": train in memory (without --workers).')


def run_dask(args, schema, ledger) -> int:
    """--workers / --scheduler: a Parquet folder or large CSV, encoded and fitted on dask.

    The arguments were checked by :func:`check_dask_args`.
    """
    from dpboost.cli._bad_values import file_error
    from dpboost.cli._distributed import cluster_client, read_encoded
    from dpboost.model_io import model_to_dict, save_model

    with cluster_client(args.workers, args.scheduler, args.memory_limit), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:  # a bad value surfaces when a partition is first encoded: in the fit, or here
            # with --non-private-figures, the checks of the data as in memory (else none)
            # float64, as the in-memory reader encodes: float32 rows moved the model (a
            # coefficient 1e-6 apart) from the in-memory fit of the same file and seed
            X, y, encoder, *checked = read_encoded(args.data, schema, dtype=np.float64,
                                                   checks=_figures(args))
            if checked and checked[0] is not None:
                warn_data_checks(None, schema, "train", found=checked[0], n_rows=X.shape[0])
            _check_two_rows(args.data, X.shape[0])  # n is known, nothing is fitted yet
            estimator = _estimator(args, list(range(len(schema.label.classes))))
            fit_charged(estimator, X, y, ledger, args)
            accuracy = clipped = None
            if _figures(args):  # one pass; the clipped share as memory computes it
                import dask
                import dask.array as da

                norms = da.sqrt((X * X).sum(axis=1))
                accuracy, clipped = (float(v) for v in dask.compute(
                    (estimator.predict(X) == y).mean(), (~(norms <= args.norm_bound)).mean()))
        except BadValueError as exc:
            raise file_error(exc, args.data, schema) from None
    _warn_lines(caught, _figures(args))
    say_unused_columns(args.data, schema, args.label or schema.label.column)
    save_model(estimator, args.out, schema=schema,
               feature_names=encoder.get_feature_names_out().tolist(),
               classes=list(schema.label.classes))
    report = model_to_dict(estimator)["privacy_report"]
    if args.json:
        out = {"model": str(args.out), "n_features": int(X.shape[1]),
               "classes": list(schema.label.classes), "privacy_report": report}
        if accuracy is not None:
            out["non_private"] = {"training_accuracy": accuracy, "clipped_fraction": clipped}
        print(json_text(out, indent=2))
    else:
        # not the number of partitions: a CSV's is its size in bytes over the block size,
        # which one row's length can change (a figure of the data outside the mechanism)
        print(f"wrote {args.out}: {X.shape[1]} features, classes "
              f"{list(schema.label.classes)} (dask)")
        print(f"privacy: {privacy_line(report)}")
        if accuracy is not None:
            print(f"non-private: training accuracy {accuracy:.4f}, clipped rows {clipped:.2%} "
                  "(computed on the training data without noise; not covered by the "
                  "guarantee)")
    return 0
