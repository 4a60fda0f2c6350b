"""``TabularEncoder``: a table to rows of norm at most 1, from a schema of public facts alone.

Every column of the :class:`~dpboost.schema.Schema` becomes one *block* of features whose
Euclidean norm is at most 1 whatever the value:

* numeric: the value is clipped to the public ``[lower, upper]``, optionally transformed
  (``log`` / ``signed-log``), and mapped linearly onto ``[-1, 1]``; with ``bins``/``edges`` it
  is one-hot encoded instead (norm 1);
* categorical: one-hot over the declared categories; any other value (unseen in the
  declaration) is all zeros, never a new column; a text cell matches a declared text by its
  exact text (``"02134"`` is not ``"2134"``, ``"428.0"`` not ``"428"``), a number cell by
  its number (:class:`~dpboost.cell_text.DeclaredValues`); feature names carry the declared
  text;
* ordinal: one feature, the k-th of K ordered levels mapped to ``-1 + 2k/(K-1)``; any other
  value is 0;
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

import math
import warnings
from collections import Counter

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from dpboost.cell_text import (NA_WORDS, DeclaredValues, category_text, control_hint,
                               is_decimal_number)
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.schema import (
    CategoricalColumn,
    DropColumn,
    NumericColumn,
    OrdinalColumn,
    Schema,
    category_key,
    is_nan_text,
)
from dpboost.schema_draft import draft_schema
from dpboost.tabular_cells import (
    BadValueError,
    _declared_positions,
    _factorize,
    _missing_categories,
    _numeric_values,
    declared_text,
    na_keys,
)
from dpboost.tabular_checks import outside_declarations, spelling_mismatches
from dpboost.tabular_warnings import (
    PANDAS_NA_TEXTS,
    warn_guessed_label,
    warn_guessed_types,
    warn_pandas_na,
)

__all__ = ["PANDAS_NA_TEXTS", "BadValueError", "TabularEncoder", "outside_declarations",
           "spelling_mismatches"]

#: Relative shrink of the 1/sqrt(B) factor, so rounding never lifts a norm above 1.
_SHRINK = 1.0 - 1e-12

def _as_table(X, schema: Schema):
    """A DataFrame from a DataFrame, a dict of columns, records or a 2-d array."""
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        return X
    if isinstance(X, dict) or (isinstance(X, np.ndarray) and X.dtype.names):
        return pd.DataFrame(X)
    if isinstance(X, (list, tuple)) and X and isinstance(X[0], dict):
        return pd.DataFrame.from_records(X)
    if hasattr(X, "tocsr"):  # scipy.sparse: np.asarray made it a 0-d object, "shape ()"
        raise TypeError("TabularEncoder needs a table (DataFrame, records or a 2-d array); a "
                        "scipy sparse matrix is not one: pass X.toarray() or the raw table.")
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
        schema.check_na_values()
        marked = schema.draft_marks()
        if marked:
            warnings.warn(
                f"The schema still carries values read from the data (marked 'from_data') "
                f"for {', '.join(marked)}: the encoding, and so the model, depends on the data "
                "without privacy. Replace them with public facts and delete the marks.",
                PrivacyLeakWarning, stacklevel=2)
        return self._fitted(schema)

    @classmethod
    def of_model(cls, schema) -> TabularEncoder:
        """The encoder of a trained model's schema, ready to transform, with no check again.

        ``dpboost train`` checked the schema when it fitted the encoder; a check added since
        (:meth:`~dpboost.schema.Schema.check_na_values`) must not refuse an older model file,
        and a draft's warning was given at training.  ``dpboost predict`` encodes with this,
        in memory and on dask alike, so both read a model's rows the same way.
        """
        encoder = cls(schema)
        return encoder._fitted(encoder._schema())

    def _fitted(self, schema: Schema) -> TabularEncoder:
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
                names += [f"{name}={category_text(c)}" for c in spec.categories]
            elif isinstance(spec, OrdinalColumn) or (spec.bins is None and spec.edges is None):
                names.append(name)
            else:
                # the edges on the column's own scale (bins equal on a log scale: their
                # edges through the inverse, not "bin0", red team s35)
                e = (spec.edges if spec.edges is not None
                     else spec.untransformed(self._edges(spec)))
                k = len(e) - 1
                names += [f"{name}[{e[i]:g},{e[i + 1]:g})" for i in range(k)]
            if spec.missing == "indicator":
                names.append(f"{name}_missing")
        return names + ["intercept"]

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of the encoded features (from the schema alone)."""
        return np.asarray(self._names(self._schema()), dtype=object)

    def _block(self, spec, values, name: str, schema: Schema) -> np.ndarray:
        n = len(values)
        if isinstance(spec, (CategoricalColumn, OrdinalColumn)):
            declared = DeclaredValues(spec.categories, schema.decimal)
            codes, uniques = _factorize(values, f"Column {name!r}")
            missing = _missing_categories(uniques, declared, schema, name)
            noun = "levels" if isinstance(spec, OrdinalColumn) else "categories"
            cat = _declared_positions(codes, uniques, missing[:-1], declared,
                                      f"Column {name!r}", name, noun)  # code -1 is missing
            missing = missing[codes]
            hit = cat >= 0
            if isinstance(spec, OrdinalColumn):  # one feature: the level's place in [-1, 1]
                block = np.where(hit, spec.levels()[np.maximum(cat, 0)], 0.0)[:, None]
            else:
                block = np.zeros((n, len(spec.categories)))
                block[np.flatnonzero(hit), cat[hit]] = 1.0
        else:
            x = _numeric_values(values, name, schema.na_values_of(name), schema.decimal,
                                schema.thousands, (spec.prefix, spec.suffix))
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
        if table is X:  # a frame the caller read: its reader may have dropped "NA", or
            warn_pandas_na(table, schema)  # guessed a column's type from every cell
            warn_guessed_types(table, schema)
        # names are matched without spaces around them, as the file readers strip a header
        # (pandas keeps the spaces of "age, job": the schema's 'job' missed ' job')
        columns = {str(c).strip(): c for c in table.columns}
        absent = [c for c in schema.used_columns if c not in columns]
        if absent:
            raise ValueError(f"The data has no column {absent[0]!r} (named in the schema); "
                             f"its columns are {list(columns)[:20]}.")
        named = Counter(str(c).strip() for c in table.columns)
        repeated = [c for c in schema.used_columns if named[c] > 1]
        if repeated:
            raise ValueError(f"The data has {named[repeated[0]]} columns named "
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
        match the declared classes as categories do (:class:`~dpboost.cell_text.DeclaredValues`:
        a text label by its stripped text first, so ``"01"`` and ``"1"`` may be two classes;
        else ``1`` = ``"1"`` = ``1.0`` and ``TRUE`` = ``true`` when one class alone has that
        key; a number two classes share is an error asking for a text column) but
        case-sensitively otherwise: ``"Yes"`` is not ``"yes"``, and the message says so.
        """
        schema = getattr(self, "schema_", None) or self._schema()
        if schema.label is None:
            raise ValueError("The schema declares no label: add "
                             '{"label": {"column": ..., "classes": [...]}}.')
        if np.ndim(y) != 1:  # a frame or a 2-d array: pandas' own error named no fix
            raise ValueError(f"encode_labels takes the label column alone (1-d), e.g. "
                             f"frame[{(schema.label.column or 'label')!r}]. Got an input of "
                             f"shape {np.shape(y)} instead.")
        warn_guessed_label(y, schema)
        declared = DeclaredValues(schema.label.classes, schema.decimal)
        column = schema.label.column or "label"
        what = f"The label column {column!r}"
        codes, uniques = _factorize(y, what)
        tokens = schema.na_values_of(schema.label.column)
        na = na_keys(tokens, schema.decimal)
        gone = [category_key(u, schema.decimal) in na and not declared_text(u, declared, tokens)
                for u in uniques]  # a class written exactly so is that class
        out = _declared_positions(codes, uniques, gone, declared, what, column, "classes")
        if (out < 0).any():
            lost = np.array([g or is_nan_text(u) or category_key(u, schema.decimal) is None
                             for u, g in zip(uniques, gone)] + [True])[codes] & (out < 0)
            raise _label_error(out, lost, np.asarray(y, dtype=object), schema, column)
        return out

    def declared_labels(self, y) -> np.ndarray:
        """Each label as the schema declares its class: ``"1"`` read from a text column is the
        declared ``1`` (matched as :meth:`encode_labels` matches), so ``y`` fits an estimator
        given ``classes=schema.label.classes``.  Errors as :meth:`encode_labels`.

        Examples
        --------
        >>> enc = TabularEncoder({"columns": {"a": {"type": "numeric", "lower": 0,
        ...                       "upper": 1}}, "label": {"column": "y", "classes": [1, 2]}})
        >>> enc.declared_labels(["2", " 1", "2.0"]).tolist()
        [2, 1, 2]
        """
        schema = getattr(self, "schema_", None) or self._schema()
        positions = self.encode_labels(y)
        return np.asarray(schema.label.classes)[positions]


def every_label_hint(n: int) -> str:
    """The label error's hint when none of the ``n`` labels read is a declared class (the
    classes written otherwise than the column writes them); ``--workers`` counts the whole
    file's rows, not one partition's (:mod:`dpboost.cli._bad_values`)."""
    return (f"; none of the {n} labels read is one of them: write the classes as the label "
            "column writes them")


def _label_error(out, lost, y, schema: Schema, column: str) -> BadValueError:
    """The error for the first row of ``y`` without a declared class (``out`` < 0), missing
    (``lost``) or outside the classes.

    The message names the row and the declared classes, never the label: a hint
    says what kind of text it is (a case variant of *some* class, a trailing dot, a
    missing-value marker) without naming the class it resembles, which would give the
    label away (README, "Reading files").
    """
    row = int(np.flatnonzero(out < 0)[0])
    n, dec, classes = len(out), schema.decimal, schema.label.classes
    k = int((lost if lost[row] else (out < 0) & ~lost).sum())
    # no count of such rows: on dask the error comes from one partition, and the message
    # must be the same whichever backend read the file (tests/distributed)
    count = "."
    if lost[row]:
        both = [v for v in schema.na_values if category_key(v, dec) in
                {category_key(c, dec) for c in classes}]
        why = (f" (its cell is empty or one of the schema's 'na_values' {both}, which "
               "apply to every column: the label's class "
               f"{both[0]!r} always reads as missing; remove it from 'na_values')"
               if both else ": remove the rows without one (to only predict them, "
               "run predict without --label)")
        return BadValueError(f"The label is missing at row {row}{why}{count}", column=column,
                             row=row)
    key = category_key(y[row], dec)
    keys = [category_key(c, dec) for c in classes]
    text = category_text(y[row], dec)
    if any(category_text(c, dec).casefold() == text.casefold() for c in classes):
        hint = " (labels are case-sensitive and must be written as the schema declares them)"
    elif key in keys and all(isinstance(c, str) for c in classes):  # 1.0 against "1"
        numbers = all(is_decimal_number(k) for k in keys)
        declare = f"declare them as JSON numbers, \"classes\": [{', '.join(keys)}], or " \
            if numbers else ""
        hint = (" (it reads as the number of a class, but the classes are declared as text, "
                f"which a label matches only as written: {declare}write them as the column "
                "does)")
    elif key.endswith(".") and key[:-1] in keys:
        hint = " (it ends in '.', as UCI adult.test's labels do: remove the dots)"
    elif control := control_hint(text):
        hint = f" ({control})"
    elif key.lower() in NA_WORDS:
        hint = (" (it reads as a missing-value marker: remove the rows without a label; to "
                "only predict them, run predict without --label)")
    elif n > 1 and k == n:
        hint, count = every_label_hint(n), ""
    else:
        hint = ""
    error = BadValueError(f"The label at row {row} is not one of the schema's classes "
                          f"{list(classes)}{hint}{count or '.'}", column=column, row=row)
    # for a reader of parts (dpboost.cli._bad_values): no other hint applies to this label,
    # and every label read is outside the classes (the every-label hint's two conditions)
    error.hint_free, error.all_undeclared = hint in ("", every_label_hint(n)), k == n
    return error
