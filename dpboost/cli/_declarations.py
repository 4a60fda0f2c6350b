"""What a schema and the flags of ``dpboost train`` declare about a file: its format.

How a file is read must follow public declarations, never its content: in a headerless file
line 1 is a private row, and a reading chosen from it (LIBSVM or a table, a header inferred
from words) changes how every other row is read or what the model contains (red team, session
23).  :func:`declared_format` is what :func:`dpboost.readers.table_format` is told;
:func:`check_declarations` refuses declarations that contradict each other, before any data is
read.
"""

from __future__ import annotations

from dpboost.cli._options import UserError

__all__ = ["check_declarations", "declared_format", "declares_table"]


def declares_table(schema) -> bool:
    """Whether the schema declares a table (columns or ``"names"``): then the file is read as
    one whatever its first line holds (:func:`dpboost.readers.table_format`)."""
    return schema is not None and (bool(schema.columns) or schema.names is not None)


def declared_format(args, schema) -> str | None:
    """``"table"``, ``"libsvm"`` (an index base declared: ``--index-base`` or the schema's
    ``index_base``, LIBSVM's alone) or None (by suffix, then by the first line)."""
    if declares_table(schema):
        return "table"
    if args.index_base is not None or (schema is not None and schema.index_base is not None):
        return "libsvm"
    return None


def _named_as_table(path) -> bool:
    from pathlib import Path

    from dpboost.data import _CSV_SUFFIXES
    from dpboost.readers import _PARQUET_SUFFIXES

    return Path(path).name.lower().endswith(_CSV_SUFFIXES + _PARQUET_SUFFIXES)


def check_declarations(args, schema) -> None:
    """Refuse a schema with ``"names"`` but no ``"columns"``, LIBSVM flags beside a table, and
    a LIBSVM declaration on a file named as a table.

    A names-only schema, or a ``.csv`` file under an index base, was read as a numeric file
    whose header was inferred: a first row of words became the header, so the model trained
    on ``n - 1`` rows with that row's cells as its feature names, where the neighbour's had
    ``n`` rows and none (red team, session 23).
    """
    if schema is not None and schema.names is not None and not schema.columns:
        raise UserError(f"{args.schema} declares 'names' but no 'columns': a headerless file "
                        "is read through its declared columns only; declare each feature "
                        "under 'columns' (a number as {\"type\": \"numeric\", \"lower\": ..., "
                        "\"upper\": ...} from public bounds), or give the file a header row "
                        "and delete 'names'.")
    if declares_table(schema) and (args.n_features is not None or args.index_base is not None):
        raise UserError(f"--n-features/--index-base declare a LIBSVM file, but {args.schema} "
                        "declares a table (its 'columns' or 'names'); remove the flags.")
    if declared_format(args, schema) == "libsvm" and _named_as_table(args.data):
        # read as the table its name says, its header was inferred from the first row
        raise UserError(f"{args.data} is named as a table (.csv, .tsv or Parquet), but an index "
                        "base (--index-base, or the schema's 'index_base') declares LIBSVM: "
                        "rename the file (e.g. .svm), or drop the LIBSVM declarations.")
