"""``TabularEncoder``: a table to rows of norm at most 1, from a schema of public facts alone.

Every column of the :class:`~dpboost.schema.Schema` becomes one *block* of features whose
Euclidean norm is at most 1 whatever the value:

* numeric: the value is clipped to the public ``[lower, upper]``, optionally transformed
  (``log`` / ``signed-log``), and mapped linearly onto ``[-1, 1]``; with ``bins``/``edges`` it
  is one-hot encoded instead (norm 1);
* categorical: one-hot over the declared categories; any other value (unseen in the
  declaration) is all zeros, never a new column;
* missing: ``"zero"`` encodes the block as zeros; ``"indicator"`` adds a feature that is 1
  when the value is missing, and the rest of the block is then zero (norm still at most 1).

One more block, the constant 1, plays the intercept.  With B blocks each of norm at most 1,
the row divided by the public constant ``sqrt(B)`` has norm at most 1 *by construction*
(``||x||^2 = sum_b ||x_b||^2 / B <= 1``), so :class:`~dpboost.PrivateHalfspaceClassifier`
never has to clip a row and its sensitivity bound 2R/(kappa n) holds with R = 1.  The factor is
shrunk by 1e-12 so that rounding cannot push a norm past 1.  ``fit`` reads nothing from the
data: the encoding, its width and its feature names are functions of the schema only.

References
----------
Bun, Carmosino & Sorrell (2020), Theorem 24: the halfspace learner needs ``||x|| <= 1``.
Holohan et al. (2019), diffprivlib, issues #20 and #58: bounds read from the data leak.
"""

from __future__ import annotations

import functools
import math
import re
import warnings

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from dpboost.cell_text import NA_WORDS, is_decimal_number
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.schema import (
    CategoricalColumn,
    DropColumn,
    NumericColumn,
    Schema,
    category_key,
    is_nan_text,
)
from dpboost.schema_draft import draft_schema

__all__ = ["BadValueError", "TabularEncoder", "case_only_mismatches"]

#: Relative shrink of the 1/sqrt(B) factor, so rounding never lifts a norm above 1.
_SHRINK = 1.0 - 1e-12


class BadValueError(ValueError):
    """A value the schema cannot encode (text in a numeric column, an undeclared label).

    ``column`` and ``row`` (0-based position in the table) say where, so a file reader can
    translate the row to a line number.  The error pickles whole, so one raised on a dask
    worker reaches the client with its ``column`` and ``row``.

    Examples
    --------
    >>> error = BadValueError("The label 'x' at row 2 is not declared.", column="y", row=2)
    >>> str(error.moved(12)), error.moved(12).row
    ("The label 'x' at row 12 is not declared.", 12)
    """

    def __init__(self, message: str, *, column: str, row: int) -> None:
        super().__init__(message)
        self.column, self.row = column, row

    def __reduce__(self):
        return (functools.partial(type(self), column=self.column, row=self.row), self.args,
                self.__dict__)

    def moved(self, row: int, prefix: str = "") -> BadValueError:
        """The same error at row ``row`` (of a whole file rather than of a part of it)."""
        text = str(self).replace(f"at row {self.row}", f"at row {row}", 1)
        return type(self)(prefix + text, column=self.column, row=row)


def _as_table(X, schema: Schema):
    """A DataFrame from a DataFrame, a dict of columns, records or a 2-d array."""
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        return X
    if isinstance(X, dict) or (isinstance(X, np.ndarray) and X.dtype.names):
        return pd.DataFrame(X)
    if isinstance(X, (list, tuple)) and X and isinstance(X[0], dict):
        return pd.DataFrame.from_records(X)
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"TabularEncoder needs a table (DataFrame, records or a 2-d array). "
                         f"Got shape {arr.shape} instead.")
    names = list(schema.names) if schema.names is not None else list(schema.columns)
    if arr.shape[1] != len(names):
        raise ValueError(f"A 2-d array given to TabularEncoder must have one column per "
                         f"schema {'names' if schema.names else 'columns'} entry "
                         f"({len(names)}). Got {arr.shape[1]} columns instead.")
    return pd.DataFrame(arr, columns=names)


#: Text a numeric column reads as a number (as a spreadsheet does): any case.
_BOOLEANS = {"true": "1", "false": "0"}


#: A date or a time stamp as files write them: 2020-05-27, 27/05/2020, 2020-05-27 10:00.
_DATE_TEXT = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}.*)?")

_DATE_HINT = ("; it reads as a date: declare the column \"categorical\" with its public dates, "
              "\"drop\" it, or write it as a number (days since a public date) with public "
              "bounds")


def _number_hint(value: str) -> str:
    """What to change when a cell is a number written for people: ``1,234``, ``12,5``, ``40%``,
    ``12 kg``, ``$5``.  None is guessed (``1,234`` is a thousand or a decimal): the file or the
    schema must say."""
    import re

    core = re.sub(r"^[$€£¥\s]+|[^\d.,]+$", "", value)  # without a unit, %, or currency
    unit = value.replace(core, "", 1).strip() if core else ""
    if "," in core and re.fullmatch(r"[+-]?[\d.,]*\d", core):
        if core.count(",") == 1 and "." not in core:
            return (f"; numbers are read with a decimal point and no thousands separators: "
                    f"write {core.replace(',', '')} if the comma separates thousands; if it is "
                    "a decimal comma, declare \"decimal\": \",\" in the schema")
        return ("; numbers are read with a decimal point and no thousands separators: "
                "re-save the file with a number format without separators")
    if unit and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", core):
        return (f"; write the number alone, without {unit!r}, and give the column's "
                "'lower' and 'upper' in that unit")
    return ""


def na_keys(na_values, decimal: str = ".") -> frozenset:
    """The :func:`category_key` of each text of ``na_values``: a cell whose key is one of
    them is missing (``"999"`` matches ``999``, ``999.0`` and ``" 999.0 "``)."""
    return frozenset(category_key(v, decimal) for v in na_values) - {None}


def _is_na(values, keys: frozenset, decimal: str = ".") -> np.ndarray:
    """Which cells of ``values`` have their :func:`category_key` in ``keys`` (bool array)."""
    if not keys:
        return np.zeros(len(values), dtype=bool)
    codes, uniques = _factorize(values)
    hit = np.array([category_key(u, decimal) in keys for u in uniques] + [False])
    return hit[codes]


def _numeric_values(series, name: str, na_values: tuple[str, ...],
                    decimal: str = ".") -> np.ndarray:
    """float64 values with NaN for missing; one-line error naming a non-numeric cell.

    ``true``/``false`` (any case, or a bool) read as 1 and 0, as :func:`category_key`
    matches them; an empty cell, one of ``na_values`` (the column's, by :func:`na_keys`) or
    the text ``NaN`` in any case (:func:`~dpboost.schema.is_nan_text`) is missing.
    """
    import pandas as pd

    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return _na_numbers_missing(series.to_numpy(dtype=np.float64, na_value=np.nan),
                                   na_values)
    text = series.astype(object).where(series.notna(), None)
    text = text.map(lambda v: None if v is None else str(v).strip())
    missing = ((text == "") | text.map(is_nan_text).astype(bool)
               | _is_na(text, na_keys(na_values, decimal), decimal))
    text = text.where(~missing, None)
    text = text.map(lambda v: _BOOLEANS.get(v.lower(), v) if isinstance(v, str) else v)
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    bad = np.isnan(values) & text.notna().to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = text.iloc[row]
        na_hint = f"; if it means a missing value, list {value!r} in the schema's 'na_values'"
        hint = (na_hint if value.lower() in NA_WORDS else
                _DATE_HINT if _DATE_TEXT.fullmatch(value) else
                _number_hint(value) if any(c.isdigit() for c in value) else
                na_hint if len(value) <= 3 and not value.isalpha() else
                f"; if the column holds words (like {value!r}), declare it \"categorical\" "
                "with its list of categories; if it means a missing value, list it in "
                "the schema's 'na_values'")
        raise BadValueError(f"Column {name!r} is declared numeric but holds the non-numeric "
                            f"value {value!r} at row {row}{hint}.", column=name, row=row)
    return _na_numbers_missing(values, na_values)


def _na_numbers_missing(values: np.ndarray, na_values: tuple[str, ...]) -> np.ndarray:
    """``values`` with NaN where a value equals a number of the schema's ``na_values``.

    A sentinel such as ``"999"`` means missing wherever its number appears: a CSV reader
    turns the text ``999`` into a missing cell, but a Parquet column of numbers (or a CSV cell
    ``999.0``) holds the number itself, which was clipped as a value instead.
    """
    sentinels = [float(v) for v in na_values if is_decimal_number(v) and not is_nan_text(v)]
    if not sentinels:
        return values
    return np.where(np.isin(values, sentinels), np.nan, values)


class TabularEncoder(TransformerMixin, BaseEstimator):
    """Encode a table into rows of L2 norm at most 1 using a schema of public facts only.

    Parameters
    ----------
    schema : Schema, dict or str
        The schema (a :class:`~dpboost.schema.Schema`, its JSON dict, or a path to its JSON
        file).  Every number and category in it must come from public knowledge.

    Attributes
    ----------
    schema_ : Schema
        The validated schema (set by ``fit``; ``transform`` works without ``fit`` too).
    n_features_out_ : int
        Width of the encoding (a function of the schema only).

    Notes
    -----
    ``fit`` reads nothing from ``X``; it warns with ``PrivacyLeakWarning`` if the schema still
    carries ``"from_data"`` marks from :meth:`draft`.  Columns of ``X`` the schema does not
    name are ignored; a named column missing from ``X`` is an error.

    References
    ----------
    Bun, Carmosino & Sorrell (2020), Theorem 24 (rows in the unit ball).

    Examples
    --------
    >>> import pandas as pd
    >>> enc = TabularEncoder({"columns": {
    ...     "age": {"type": "numeric", "lower": 0, "upper": 100},
    ...     "job": {"type": "categorical", "categories": ["a", "b"]}}})
    >>> Z = enc.fit_transform(pd.DataFrame({"age": [50, 500], "job": ["b", "zzz"],
    ...                                     "id": [1, 2]}))
    >>> enc.get_feature_names_out().tolist()
    ['age', 'job=a', 'job=b', 'intercept']
    >>> bool((np.linalg.norm(Z, axis=1) <= 1).all())
    True
    """

    def __init__(self, schema) -> None:
        self.schema = schema

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.requires_fit = False
        return tags

    # -- the schema ----------------------------------------------------------------------
    def _schema(self) -> Schema:
        if isinstance(self.schema, Schema):
            schema = self.schema
        elif isinstance(self.schema, dict):
            schema = Schema.from_dict(self.schema)
        elif isinstance(self.schema, str) or hasattr(self.schema, "__fspath__"):
            schema = Schema.load(self.schema)
        else:
            raise TypeError(f"The 'schema' parameter of TabularEncoder must be a Schema, a "
                            f"dict or a path to a JSON file. Got {self.schema!r} instead.")
        if not schema.used_columns:
            raise ValueError("The 'schema' parameter of TabularEncoder must declare at least "
                             "one numeric or categorical column. Got none instead.")
        return schema

    @staticmethod
    def draft(frame, label: str | None = None, *, max_categories: int = 50) -> Schema:
        """Draft a schema FROM THE DATA (not private; see
        :func:`dpboost.schema_draft.draft_schema`)."""
        return draft_schema(frame, label, max_categories=max_categories)

    def fit(self, X=None, y=None):
        """Validate the schema; read nothing from ``X`` (warn if the schema is a draft)."""
        schema = self._schema()
        marked = schema.draft_marks()
        if marked:
            warnings.warn(
                f"The schema still carries values read from the data (marked 'from_data') "
                f"for {', '.join(marked)}: the encoding, and so the model, depends on the data "
                "without privacy. Replace them with public facts and delete the marks.",
                PrivacyLeakWarning, stacklevel=2)
        self.schema_ = schema
        self.n_features_out_ = len(self._names(schema))
        return self

    # -- the encoding --------------------------------------------------------------------
    @staticmethod
    def _edges(spec: NumericColumn) -> np.ndarray | None:
        if spec.edges is not None:
            return spec.transformed(spec.edges)
        if spec.bins is not None:
            lo, hi = spec.transformed([spec.lower, spec.upper])
            return np.linspace(lo, hi, spec.bins + 1)
        return None

    def _names(self, schema: Schema) -> list[str]:
        names = []
        for name, spec in schema.columns.items():
            if isinstance(spec, DropColumn):
                continue
            if isinstance(spec, CategoricalColumn):
                names += [f"{name}={category_key(c)}" for c in spec.categories]
            elif spec.bins is None and spec.edges is None:
                names.append(name)
            else:
                e = spec.edges if spec.edges is not None else np.linspace(
                    spec.lower, spec.upper, spec.bins + 1) if spec.transform is None else None
                k = spec.bins if spec.bins is not None else len(spec.edges) - 1
                names += ([f"{name}[{e[i]:g},{e[i + 1]:g})" for i in range(k)]
                          if e is not None else [f"{name}[bin{i}]" for i in range(k)])
            if spec.missing == "indicator":
                names.append(f"{name}_missing")
        return names + ["intercept"]

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of the encoded features (from the schema alone)."""
        return np.asarray(self._names(self._schema()), dtype=object)

    def _block(self, spec, values, name: str, schema: Schema) -> np.ndarray:
        n = len(values)
        if isinstance(spec, CategoricalColumn):
            index = {category_key(c, schema.decimal): j for j, c in enumerate(spec.categories)}
            codes, uniques = _factorize(values, f"Column {name!r}")
            missing = _missing_categories(uniques, index, schema, name)
            lookup = np.array([-1 if gone else index.get(category_key(u, schema.decimal), -1)
                               for u, gone in zip(uniques, missing)] + [-1])
            cat = lookup[codes]  # code -1 (missing) picks the trailing -1
            missing = missing[codes]
            block = np.zeros((n, len(spec.categories)))
            hit = cat >= 0
            block[np.flatnonzero(hit), cat[hit]] = 1.0
        else:
            x = _numeric_values(values, name, schema.na_values_of(name), schema.decimal)
            missing = np.isnan(x)
            t = spec.transformed(np.clip(np.where(missing, spec.lower, x), spec.lower,
                                         spec.upper))
            edges = self._edges(spec)
            if edges is None:
                lo, hi = spec.transformed([spec.lower, spec.upper])
                z = np.clip(2.0 * (t - lo) / (hi - lo) - 1.0, -1.0, 1.0)
                block = np.where(missing, 0.0, z)[:, None]
            else:
                k = len(edges) - 1
                j = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, k - 1)
                block = np.zeros((n, k))
                block[np.arange(n), j] = 1.0
                block[missing] = 0.0
        if spec.missing == "indicator":
            block = np.column_stack([block, missing.astype(np.float64)])
        return block

    def transform(self, X) -> np.ndarray:
        """Encode ``X`` (DataFrame, dict of columns, records, or 2-d array in schema order).

        Returns
        -------
        ndarray of shape (n, n_features_out_), float64, every row of L2 norm at most 1.
        """
        schema = getattr(self, "schema_", None) or self._schema()
        table = _as_table(X, schema)
        # names are matched without spaces around them, as the file readers strip a header
        # (pandas keeps the spaces of "age, job": the schema's 'job' missed ' job')
        columns = {str(c).strip(): c for c in table.columns}
        absent = [c for c in schema.used_columns if c not in columns]
        if absent:
            raise ValueError(f"The data has no column {absent[0]!r} (named in the schema); "
                             f"its columns are {list(columns)[:20]}.")
        named = [str(c).strip() for c in table.columns]
        repeated = [c for c in schema.used_columns if named.count(c) > 1]
        if repeated:
            raise ValueError(f"The data has {named.count(repeated[0])} columns named "
                             f"{repeated[0]!r} (named in the schema), so which one to encode "
                             "is ambiguous; rename or drop the others.")
        blocks = [self._block(spec, table[columns[name]], name, schema)
                  for name, spec in schema.columns.items() if not isinstance(spec, DropColumn)]
        blocks.append(np.ones((len(table), 1)))
        scale = _SHRINK / math.sqrt(len(blocks))
        return np.ascontiguousarray(np.hstack(blocks) * scale, dtype=np.float64)

    def encode_labels(self, y) -> np.ndarray:
        """The position of each label in the schema's ``label.classes`` (0 = first class).

        An empty or undeclared label raises :class:`BadValueError` naming the row.  Labels
        match the declared classes by :func:`~dpboost.schema.category_key` (stripped, ``1``
        = ``"1"`` = ``1.0``, ``TRUE`` = ``true``) but case-sensitively otherwise: ``"Yes"``
        is not ``"yes"``, and the message says so.
        """
        schema = getattr(self, "schema_", None) or self._schema()
        if schema.label is None:
            raise ValueError("The schema declares no label: add "
                             '{"label": {"column": ..., "classes": [...]}}.')
        index = {category_key(c, schema.decimal): j for j, c in enumerate(schema.label.classes)}
        column = schema.label.column or "label"
        codes, uniques = _factorize(y, f"The label column {column!r}")
        na = na_keys(schema.na_values_of(schema.label.column), schema.decimal)
        lookup = np.array([-1 if category_key(u, schema.decimal) in na else
                           index.get(category_key(u, schema.decimal), -1) for u in uniques]
                          + [-1])
        out = lookup[codes]
        if (out < 0).any():
            row = int(np.flatnonzero(out < 0)[0])
            value = np.asarray(y, dtype=object)[row]
            missing = is_nan_text(value) or category_key(value, schema.decimal) in na
            key = None if missing else category_key(value, schema.decimal)  # missing
            folded = [c for c in schema.label.classes if key is not None
                      and category_key(c, schema.decimal).casefold() == key.casefold()]
            dotted = [c for c in schema.label.classes if key is not None and key.endswith(".")
                      and category_key(c, schema.decimal) == key[:-1]]
            hint = (f" (labels are case-sensitive: the schema declares {folded[0]!r})"
                    if folded else
                    f" (it ends in '.', as UCI adult.test's labels do: remove the dots; the "
                    f"schema declares {dotted[0]!r})" if dotted else "")
            both = [v for v in schema.na_values if category_key(v, schema.decimal) in index]
            why = (f" (its cell is empty or one of the schema's 'na_values' {both}, which "
                   "apply to every column: the label's class "
                   f"{both[0]!r} always reads as missing; remove it from 'na_values')"
                   if both else "")
            raise BadValueError(
                f"The label {value!r} at row {row} is not one of the schema's classes "
                f"{list(schema.label.classes)}{hint}." if key is not None else
                f"The label is missing at row {row}{why}.", column=column, row=row)
        return out


def _factorize(values, what: str = "A categorical column"):
    """(codes with -1 for missing, uniques) of a 1-d sequence, in O(n) via pandas.

    A cell holding a list, a dict or another unhashable value is a ``TypeError`` naming
    ``what`` (``"Column 'job'"``) and the row, never pandas' bare "unhashable type".
    """
    import pandas as pd

    try:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object) if not hasattr(
            values, "dtype") else values, use_na_sentinel=True)
    except TypeError:
        cells = list(values)
        row = next((k for k, v in enumerate(cells) if not _hashable(v)), None)
        if row is None:
            raise
        raise TypeError(f"{what} holds a {type(cells[row]).__name__} at row {row}; a "
                        "category or label must be a text, a number or a boolean.") from None
    return np.asarray(codes), list(uniques)


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def case_only_mismatches(frame, schema) -> dict[str, str]:
    """Categorical columns holding a value that matches a declaration only if case is ignored.

    Categories match case-sensitively (``"Clerk"`` is not ``"clerk"``; an undeclared value is
    all zeros), so a schema written in another case than the file silently empties a column.
    This check is for the data's owner: it reads the data without privacy, so its result must
    only be shown, never released.  It names, for each such column, the first *declared*
    (public) category that was matched this way, never a value of the data.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Schema.from_dict({"columns": {"job": {"type": "categorical",
    ...                                           "categories": ["clerk", "eng"]}}})
    >>> case_only_mismatches(pd.DataFrame({"job": ["clerk", "ENG"]}), s)
    {'job': 'eng'}
    """
    found: dict[str, str] = {}
    for name, spec in schema.columns.items():
        if not isinstance(spec, CategoricalColumn) or name not in frame.columns:
            continue
        declared = {category_key(c, schema.decimal): c for c in spec.categories}
        folded = {k.casefold(): c for k, c in declared.items()}
        na = na_keys(schema.na_values_of(name), schema.decimal)  # missing, not a near miss
        _, uniques = _factorize(frame[name], f"Column {name!r}")
        for value in uniques:
            key = category_key(value, schema.decimal)
            if (key is not None and key not in declared and key not in na
                    and key.casefold() in folded):
                found[name] = folded[key.casefold()]
                break
    return found


def _missing_categories(uniques, declared, schema: Schema, name: str) -> np.ndarray:
    """Which distinct values of categorical column ``name`` mean *missing* (an empty cell, one
    of its ``na_values`` (:meth:`~dpboost.schema.Schema.na_values_of`), or NaN text unless
    ``declared``, the category keys, holds it), plus a trailing True for the code -1 of
    :func:`_factorize`: index it with the codes."""
    keys = na_keys(schema.na_values_of(name), schema.decimal)
    found = []
    for u in uniques:
        key = category_key(u, schema.decimal)
        found.append(key is None or key in keys or (is_nan_text(u) and key not in declared))
    return np.array(found + [True])


def outside_declarations(frame, schema) -> dict[str, dict[str, float]]:
    """Per column, the fractions of present values outside what the schema declares.

    A numeric column gives ``{"below": f, "above": f}`` (values clipped to ``lower`` or
    ``upper``), a categorical column ``{"undeclared": f}`` (values encoded as all zeros).
    Both are by design, but a bound typed too tight or a category left out of the list
    silently flattens a column.  Like :func:`case_only_mismatches` this reads the data
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
    found: dict[str, dict[str, float]] = {}
    for name, spec in schema.columns.items():
        if name not in frame.columns:
            continue
        if isinstance(spec, NumericColumn):
            x = _numeric_values(frame[name], name, schema.na_values_of(name), schema.decimal)
            x = x[~np.isnan(x)]
            if len(x):
                found[name] = {"below": float(np.mean(x < spec.lower)),
                               "above": float(np.mean(x > spec.upper))}
        elif isinstance(spec, CategoricalColumn):
            declared = {category_key(c, schema.decimal) for c in spec.categories}
            codes, uniques = _factorize(frame[name], f"Column {name!r}")
            present = ~_missing_categories(uniques, declared, schema, name)[codes]
            undeclared = np.array([category_key(u, schema.decimal) not in declared
                                   for u in uniques] + [False])[codes] & present
            if present.any():
                found[name] = {"undeclared": float(undeclared.sum() / present.sum())}
    return found
