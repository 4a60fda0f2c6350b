"""Checks of the data for its owner: values clipped, undeclared or differing only in spelling.

These read the data WITHOUT privacy: ``dpboost predict`` prints them, and ``dpboost train``
only with ``--non-private-figures``.  They hold no value of the data, only fractions and
declared (public) categories.
"""

from __future__ import annotations

import re

import numpy as np

from dpboost.cell_text import DeclaredValues
from dpboost.schema import CategoricalColumn, NumericColumn, OrdinalColumn, Schema, category_key
from dpboost.tabular_cells import _factorize, _missing_categories, _numeric_values, na_keys

__all__ = ["combine_checks", "declaration_counts", "empty_columns", "loose_key",
           "outside_declarations", "owner_checks", "shares", "spelling_mismatches",
           "summed_counts"]


def spelling_mismatches(frame, schema: Schema) -> dict[str, tuple[str, ...]]:
    """Categorical columns holding a value that matches a declaration only if case is ignored
    and runs of spaces, ``_`` and ``-`` read alike (:func:`loose_key`).

    Categories match as written (``"Clerk"`` is not ``"clerk"``, ``"misc adult"`` is not
    ``"misc_adult"``; an undeclared value is all zeros), so a schema written in another case
    or spelling than the file silently empties a column (red team, session 35: R's covid data
    writes the documented level ``misc_adult`` as ``misc adult``, 15.8% of the rows).
    This check is for the data's owner: it reads the data without privacy, so its result must
    only be shown, never released.  It names, for each such column, every *declared* (public)
    category that was matched this way, in declared order (until session 21 only the first,
    so a column of ``y``/``n`` under ``["Y", "N"]`` was warned about for ``'N'`` alone), never
    a value of the data.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Schema.from_dict({"columns": {"job": {"type": "categorical",
    ...                                           "categories": ["clerk", "eng", "ops_lead"]}}})
    >>> spelling_mismatches(pd.DataFrame({"job": ["OPS lead", "clerk", "ENG", "Eng"]}), s)
    {'job': ('eng', 'ops_lead')}
    """
    found: dict[str, tuple[str, ...]] = {}
    for name, spec in schema.columns.items():
        if not isinstance(spec, (CategoricalColumn, OrdinalColumn)) or name not in frame.columns:
            continue
        declared = DeclaredValues(spec.categories, schema.decimal)
        folded = {loose_key(category_key(c, schema.decimal)): c
                  for c in reversed(spec.categories)}  # the first declared of a folded key
        na = na_keys(schema.na_values_of(name), schema.decimal)  # missing, not a near miss
        _, uniques = _factorize(frame[name], f"Column {name!r}")
        matched = set()
        for value in uniques:
            key = category_key(value, schema.decimal)
            if (key is not None and declared.index(value) == -1 and key not in na
                    and key not in declared.keys
                    and (near := folded.get(loose_key(key))) is not None):
                matched.add(near)
        if matched:
            found[name] = _in_declared_order(matched, spec)
    return found


def loose_key(key: str) -> str:
    """``key`` case-folded, each run of spaces, ``_`` and ``-`` one space, stripped.

    >>> loose_key(" Misc_Adult "), loose_key("misc -  adult"), loose_key("a.b")
    ('misc adult', 'misc adult', 'a.b')
    """
    return _SEPARATOR_RUN.sub(" ", key.casefold()).strip()


_SEPARATOR_RUN = re.compile(r"[\s_-]+")


def _in_declared_order(matched, spec) -> tuple[str, ...]:
    return tuple(c for c in spec.categories if c in matched)


def outside_declarations(frame, schema: Schema) -> dict[str, dict[str, float]]:
    """Per column, the fractions of present values outside what the schema declares.

    A numeric column gives ``{"below": f, "above": f}`` (values clipped to ``lower`` or
    ``upper``), a categorical or ordinal column ``{"undeclared": f}`` (values encoded as all
    zeros, or as 0 on an ordinal scale).
    Both are by design, but a bound typed too tight or a category left out of the list
    silently flattens a column.  Like :func:`spelling_mismatches` this reads the data
    without privacy: show the result to the data's owner, never release it.  It holds no
    value of the data, only fractions.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Schema.from_dict({"columns": {
    ...     "age": {"type": "numeric", "lower": 0, "upper": 100},
    ...     "job": {"type": "categorical", "categories": ["clerk"]}}})
    >>> found = outside_declarations(pd.DataFrame({"age": [50, 150, None, -1, 7],
    ...                                            "job": ["clerk", "eng", "", "clerk", ""]}), s)
    >>> found["age"], found["job"]
    ({'below': 0.25, 'above': 0.25}, {'undeclared': 0.3333333333333333})
    """
    return shares(declaration_counts(frame, schema))


def declaration_counts(frame, schema: Schema) -> dict[str, dict[str, int]]:
    """Per column read, the counts behind :func:`outside_declarations`: additive over the
    parts of a table (dask partitions), so the fractions of a whole table are those of the
    summed counts (:func:`combine_checks`).

    A numeric column gives ``{"below": i, "above": i, "present": i}``, a categorical or
    ordinal column ``{"undeclared": i, "present": i}`` (``present``: values not missing).
    """
    counts: dict[str, dict[str, int]] = {}
    for name, spec in schema.columns.items():
        if name not in frame.columns:
            continue
        if isinstance(spec, NumericColumn):
            x = _numeric_values(frame[name], name, schema.na_values_of(name), schema.decimal,
                                schema.thousands, (spec.prefix, spec.suffix))
            x = x[~np.isnan(x)]
            counts[name] = {"below": int(np.sum(x < spec.lower)),
                            "above": int(np.sum(x > spec.upper)), "present": len(x)}
        elif isinstance(spec, (CategoricalColumn, OrdinalColumn)):
            declared = DeclaredValues(spec.categories, schema.decimal)
            codes, uniques = _factorize(frame[name], f"Column {name!r}")
            present = ~_missing_categories(uniques, declared, schema, name)[codes]
            undeclared = np.array([declared.index(u) == -1
                                   for u in uniques] + [False])[codes] & present
            counts[name] = {"undeclared": int(undeclared.sum()), "present": int(present.sum())}
    return counts


def empty_columns(frame, schema: Schema) -> list[str]:
    """The columns read that hold no value at all (every cell empty or one of its missing
    tokens), in schema order: each is encoded as missing on every row, which a typo in
    ``na_values`` or an empty export column does silently."""
    return [name for name, c in declaration_counts(frame, schema).items() if not c["present"]]


def shares(counts: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    """The fractions of :func:`outside_declarations` from :func:`declaration_counts`."""
    return {name: {key: value / c["present"] for key, value in c.items() if key != "present"}
            for name, c in counts.items() if c["present"]}


def owner_checks(frame, schema: Schema) -> tuple[dict, dict]:
    """``(declaration_counts, spelling_mismatches)`` of one part of a table."""
    return declaration_counts(frame, schema), spelling_mismatches(frame, schema)


def combine_checks(parts, schema: Schema) -> tuple[dict[str, tuple], dict[str, dict[str, float]],
                                                    list[str]]:
    """``(spelling_mismatches, outside_declarations, empty_columns)`` of a table from the
    :func:`owner_checks` of its parts, in row order: the same as of the whole table at once
    (counts add up; a column's case-only matches are those of all parts, in declared order).

    Examples
    --------
    >>> import pandas as pd
    >>> s = Schema.from_dict({"columns": {"job": {"type": "categorical",
    ...                                           "categories": ["clerk", "eng"]}}})
    >>> whole = pd.DataFrame({"job": ["clerk", "x", "ENG", "Clerk", "y"]})
    >>> parts = [owner_checks(whole.iloc[:2], s), owner_checks(whole.iloc[2:], s)]
    >>> combine_checks(parts, s) == (spelling_mismatches(whole, s),
    ...                              outside_declarations(whole, s), empty_columns(whole, s))
    True
    """
    parts = list(parts)
    counts = summed_counts([part_counts for part_counts, _ in parts], schema)
    case: dict[str, set] = {}
    for _, part_case in parts:
        for name, matches in part_case.items():
            case.setdefault(name, set()).update(matches)
    order = list(schema.columns)  # as the whole table's checks list them
    return ({name: _in_declared_order(case[name], schema.columns[name]) for name in order
             if name in case}, shares(counts),
            [name for name, c in counts.items() if not c["present"]])


def summed_counts(parts, schema: Schema) -> dict[str, dict[str, int]]:
    """The :func:`declaration_counts` of a table from those of its parts, in schema order."""
    counts: dict[str, dict[str, int]] = {}
    for part_counts in parts:
        for name, c in part_counts.items():
            total = counts.setdefault(name, dict.fromkeys(c, 0))
            for key, value in c.items():
                total[key] += value
    return {name: counts[name] for name in schema.columns if name in counts}
