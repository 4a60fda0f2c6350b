"""The warnings :class:`~dpboost.tabular.TabularEncoder` gives about how a frame was read.

Each depends on the schema (public) and on the frame's provenance (whether
:func:`dpboost.readers.read_table` read it, and which columns it kept as text: its
``attrs``), never on a cell: a warning that fired on one dataset and not on its neighbour
would itself be a noise-free release of a row.

**Why a reader's type guessing matters.** ``pandas.read_csv`` (and pyarrow, and
:func:`~dpboost.readers.read_table` for a column not in ``text_columns``) chooses a column's
type from *every* cell: a column of codes ``1``/``2`` is read as integers, but one cell
``x`` makes the whole column text.  A number cell has lost its spelling, so it matches a
declared category by its number (``1`` is ``"1.0"``), while a text cell matches by its
spelling (``"1"`` is not ``"1.0"``: codes are text, ``"007"`` is not ``"7"``, see
:class:`~dpboost.cell_text.DeclaredValues`).  One row therefore changed how the whole
column encoded.  Measured (session 21, ``/tmp/trialE/dtype_attack.py``): 3,000 rows, a code
column of 1/2 declared ``["1.0", "2.0"]``, ``Pipeline(TabularEncoder,
PrivateHalfspaceClassifier(1, 1e-6))``; the fits on D and on D' (one cell ``x``) were told
apart in 198 of 200 (epsilon >= 2.85 against the claimed 1).  No matching rule makes a
number and the text it came from always encode alike without matching texts by their
number (``"1.0"`` read as the number 1 cannot be told from ``"1"``), which would undo
``"007"`` is not ``"7"``; nor may the encoder refuse or warn by the column's actual type,
which is the data-dependent bit itself.  So the encoder warns, from the schema and the
provenance alone, whenever such a column reaches it with a type a reader may have guessed.

References
----------
Dwork & Roth (2014), Definition 2.4: every output, a warning included, must be a randomised
function whose distribution moves little with one row.
"""

from __future__ import annotations

import math
import warnings

from dpboost.cell_text import category_key, category_text, is_decimal_number
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.schema import CategoricalColumn, OrdinalColumn, Schema

__all__ = ["PANDAS_NA_TEXTS", "numeric_looking", "typed_by_reader", "warn_guessed_label",
           "warn_guessed_types", "warn_pandas_na"]

#: The texts ``pandas.read_csv`` reads as missing by default (its ``keep_default_na``).
PANDAS_NA_TEXTS = frozenset({
    "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"})


def warn_pandas_na(table, schema: Schema) -> None:
    """Warn, once per column, of declared categories or levels that ``pandas.read_csv`` reads
    as missing by default (``"NA"``: Namibia), when the frame was not read by
    :func:`dpboost.readers.read_table` (which keeps them): such a cell would silently encode
    as missing.  The warning depends on the schema and on how the frame was read, never on
    its rows (whether a NaN arrived would be a noise-free bit of the training data)."""
    if "dpboost_header" in getattr(table, "attrs", {}):  # read by dpboost: kept as text
        return
    for name, spec in schema.columns.items():
        if isinstance(spec, (CategoricalColumn, OrdinalColumn)):
            found = [c for c in spec.categories if category_text(c) in PANDAS_NA_TEXTS]
            if found:
                warnings.warn(
                    f"Column {name!r} declares {found}, which pandas.read_csv reads as "
                    "missing by default: read so, such cells are encoded as missing, not as "
                    "that category. Read the file with pandas.read_csv(..., "
                    "keep_default_na=False, na_values=['']) or dpboost.readers.read_table.",
                    UserWarning, stacklevel=4)  # past sklearn's set_output wrapper


def numeric_looking(values) -> list:
    """The declared values that are *text* reading as a finite number (``"1.0"``, ``"007"``,
    ``"-2"``): a number cell and a text cell of the same code may match them differently.

    A value declared as a JSON number (``7``) is not listed: text cells match it by their
    number, as number cells do, so the cell's type cannot change its encoding.

    Examples
    --------
    >>> numeric_looking(["1.0", "007", 7, "a", "NaN", "inf", "TRUE", " 2 "])
    ['1.0', '007', ' 2 ']
    """
    out = []
    for v in values:
        if not isinstance(v, str) or not is_decimal_number(v):
            continue
        key = category_key(v)
        try:
            finite = key is not None and math.isfinite(float(key))
        except ValueError:  # more digits than a float holds: still a number
            finite = True
        if finite:
            out.append(v)
    return out


def typed_by_reader(table, name: str) -> bool:
    """Whether :func:`~dpboost.readers.read_table` read column ``name`` of ``table`` (a frame
    or a column of one) with a type no cell chose: kept as text, or a Parquet file's stored
    type.  Public provenance (the reader's arguments), not data.  A caller who read with
    ``pandas.read_csv(..., dtype=str)`` says so the same way:
    ``frame.attrs["dpboost_typed"] = tuple(frame.columns)`` (the column's actual type is
    never looked at: on a neighbour it may differ)."""
    typed = getattr(table, "attrs", {}).get("dpboost_typed")
    return typed is not None and name in {str(c).strip() for c in typed}


def _warn(what: str, declared: list, stacklevel: int = 5) -> None:
    shown = declared[:3] + (["..."] if len(declared) > 3 else [])
    warnings.warn(
        f"{what} declares {shown}, text that reads as a number, but the frame was not read "
        "as text by dpboost.readers.read_table: pandas.read_csv guesses a column's type from "
        "every cell (codes 1/2 read as numbers, and one cell 'x' makes them all text), and a "
        "number matches a declared code by its number, a text by its spelling, so one row "
        "can change how the whole column encodes, outside the privacy guarantee. Read the "
        "file with dpboost.readers.read_table(path, names=schema.names, "
        "text_columns=schema.text_columns), or "
        "with pandas.read_csv(..., dtype=str) and say so: frame.attrs['dpboost_typed'] = "
        "tuple(frame.columns).", PrivacyLeakWarning, stacklevel=stacklevel)


def warn_guessed_types(table, schema: Schema) -> None:
    """Warn (:class:`~dpboost.exceptions.PrivacyLeakWarning`), once per column, of each
    categorical or ordinal column that declares :func:`numeric_looking` values and that
    ``table`` holds with a type a reader may have guessed (not :func:`typed_by_reader`).

    From the schema and the frame's provenance only, so it fires on a dataset and on its
    neighbour alike (module docstring; the measurement that made it necessary)."""
    for name, spec in schema.columns.items():
        if isinstance(spec, (CategoricalColumn, OrdinalColumn)) and not typed_by_reader(
                table, name):
            declared = numeric_looking(spec.categories)
            if declared:
                _warn(f"Column {name!r}", declared)


def warn_guessed_label(y, schema: Schema) -> None:
    """:func:`warn_guessed_types` for the labels ``y`` (a pandas column) handed to
    :meth:`~dpboost.tabular.TabularEncoder.encode_labels`, when the classes mix text that
    reads as a number with other text (``["1", "x"]``).

    Only then can a row's type switch go unnoticed: a label outside the classes is an error,
    so with classes that all read as numbers the cell that makes the column text stops the
    run on its own.  Only a pandas object has a reader's type; a list or an array is the
    caller's own."""
    if schema.label is None or not hasattr(y, "attrs"):
        return
    classes = schema.label.classes
    declared = numeric_looking(classes)
    if not any(isinstance(c, str) and c not in declared for c in classes):
        return
    name = schema.label.column if schema.label.column is not None else getattr(y, "name", "")
    if declared and not typed_by_reader(y, str(name)):
        _warn(f"The label column {name!r}", declared, stacklevel=4)
