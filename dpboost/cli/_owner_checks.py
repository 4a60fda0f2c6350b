"""The data owner's checks of a raw table, printed by ``dpboost train`` and ``dpboost predict``.

They read the data WITHOUT privacy (:mod:`dpboost.tabular_checks` counts; this module words
them): each is one warning line on stderr naming a column and a declared value, never a cell.
``train`` prints them only with ``--non-private-figures``; ``predict`` always (its input is
not a release).  The README lists them as outside the guarantee.
"""

from __future__ import annotations

import sys

__all__ = ["CASE_NAMES_SHOWN", "CLIP_WARN_FRACTION", "OTHER_WARN_FRACTION",
           "warn_data_checks"]

#: Above this fraction of a column's values (or of training rows) clipped, train and predict
#: warn.
CLIP_WARN_FRACTION = 0.01
#: Above this fraction of undeclared values in a categorical column, train and predict warn
#: (0: any undeclared value; a list of the main categories that leaves an 'other' out is
#: warned about too, so its owner knows how many values went there).
OTHER_WARN_FRACTION = 0.0


def warn_data_checks(frame, schema, command: str, *, found=None, n_rows: int = 0) -> None:
    """The data owner's checks, one warning line each (NON-private: they name columns and
    declared values, never a cell): values matching a declared category only if case is
    ignored, over 1% of a column clipped or any value undeclared, and columns without a
    single value.

    ``found``: the :func:`~dpboost.tabular_checks.combine_checks` of a table counted partition
    by partition (dask), with its ``n_rows``; else they are counted from ``frame`` in one pass.
    """
    from dpboost.tabular_checks import combine_checks, owner_checks

    if found is None:
        found, n_rows = combine_checks([owner_checks(frame, schema)], schema), len(frame)
    case, outside, empty = found
    _warn_case_mismatches(schema, command, case)
    _warn_outside_declarations(schema, command, outside)
    if n_rows:  # a file without rows has no column to call empty
        _warn_empty_columns(command, empty)


def _warn_outside_declarations(schema, command: str, found: dict) -> None:
    """Per column, over 1% of its values clipped, or any value undeclared (until session 18
    only over 10%: a few undeclared values, the 'other' of a list of the main categories,
    went unmentioned, and so did a category missing from the list)."""
    from dpboost.schema import OrdinalColumn

    for column, share in found.items():
        spec = schema.columns[column]
        for side, word in (("below", "lower"), ("above", "upper")):
            if share.get(side, 0.0) > CLIP_WARN_FRACTION:
                bound = getattr(spec, word)
                print(f"dpboost {command}: warning: {share[side]:.1%} of the values present "
                      f"in column {column!r} lie {side} its declared {word} bound {bound:g} and "
                      "were clipped to it; if that bound is a typo, correct it from the "
                      "public source, not from the data (a non-private check).",
                      file=sys.stderr)
        if share.get("undeclared", 0.0) > OTHER_WARN_FRACTION:
            ordinal = isinstance(spec, OrdinalColumn)
            kind, one, coded = (("levels", "level", "0 (the middle of its scale)") if ordinal
                                else ("categories", "category", "all zeros ('other')"))
            print(f"dpboost {command}: warning: {_percent(share['undeclared'])} of the values "
                  f"present in column {column!r} (missing ones aside) are none of its "
                  f"declared {kind} and were encoded "
                  f"as {coded}; if the list misses a {one}, add it from the "
                  "public source, not from the data (a non-private check).", file=sys.stderr)


def _percent(share: float) -> str:
    """``12.5%``, or ``under 0.1%`` for a share that one decimal would print as 0.0%."""
    return f"{share:.1%}" if share >= 0.0005 else "under 0.1%"


#: The case warning names at most this many declared categories, then "and N more".
CASE_NAMES_SHOWN = 5


def _warn_case_mismatches(schema, command: str, found: dict) -> None:
    """Per categorical (or ordinal) column, values that differ from a declaration in case:
    every declared category so matched (:func:`~dpboost.tabular_checks.spelling_mismatches`),
    the first :data:`CASE_NAMES_SHOWN` by name.  Until session 21 only the first was named, so a
    ``smoker`` column of ``y``/``n`` under ``["Y", "N"]`` was warned about for one of them."""
    from dpboost.schema import OrdinalColumn

    for column, matches in found.items():
        coded = "0" if isinstance(schema.columns[column], OrdinalColumn) else "all zeros"
        print(f"dpboost {command}: warning: column {column!r} holds values that match the "
              f"{_declared_names(matches)} only if case is "
              f"ignored (or spaces, '_' and '-' read alike); categories match only as "
              f"written, so those values were encoded as "
              f"undeclared ({coded}). Fix the schema or the file (a non-private check of the "
              "data).", file=sys.stderr)


def _declared_names(categories) -> str:
    """``declared category 'Y'``, ``declared categories 'Y', 'N'``, or the first
    :data:`CASE_NAMES_SHOWN` of them and ``and N more``.

    Examples
    --------
    >>> _declared_names(["Y", "N"])
    "declared categories 'Y', 'N'"
    >>> _declared_names("abcdefg")
    "declared categories 'a', 'b', 'c', 'd', 'e' and 2 more"
    """
    categories = list(categories)
    if len(categories) == 1:
        return f"declared category {categories[0]!r}"
    shown = ", ".join(map(repr, categories[:CASE_NAMES_SHOWN]))
    more = len(categories) - CASE_NAMES_SHOWN
    return f"declared categories {shown}" + (f" and {more} more" if more > 0 else "")


def _warn_empty_columns(command: str, empty: list) -> None:
    """The columns without a single value in the file (every cell empty or one of the
    column's ``na_values``): each is encoded as missing on every row, which a typo in
    'na_values' or an empty export column does silently."""
    if empty:
        print(f"dpboost {command}: warning: column{'s' if len(empty) > 1 else ''} "
              f"{', '.join(map(repr, empty))} hold{'' if len(empty) > 1 else 's'} no value in "
              "this file (every cell is empty or one of its 'na_values'), so each is encoded as "
              "missing on every row (a non-private check).", file=sys.stderr)
