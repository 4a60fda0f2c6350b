"""A schema of public facts about a table: what each column is, its public range, the label.

A private model may only depend on the data through its private mechanism.  Everything else
that shapes the model (the number of features, the range each value is scaled from, the list
of categories, the set of labels) must be *declared* from public knowledge: a data
dictionary, a law, a unit, a form's list of choices.  :class:`Schema` holds those
declarations; :class:`dpboost.tabular.TabularEncoder` turns a table into unit-norm rows using
nothing else.  Reading them from the data instead (the data's own min/max, the categories
that happen to occur) is a leak: IBM diffprivlib's issues #20 and #58 are about exactly that.

JSON layout (the same as the Python object, via :meth:`Schema.from_dict` / :meth:`to_dict`)::

    {"columns": {
        "age":    {"type": "numeric", "lower": 17, "upper": 100},
        "amount": {"type": "numeric", "lower": 0, "upper": 1e6, "transform": "log"},
        "hours":  {"type": "numeric", "lower": 0, "upper": 100, "bins": 5},
        "job":    {"type": "categorical", "categories": ["a", "b"], "missing": "indicator"},
        "id":     {"type": "drop"}},
     "label": {"column": "y", "classes": ["no", "yes"]},
     "names": ["id", "age", ...],          # optional: column names of a headerless file
     "na_values": ["?"],                   # optional: strings that mean "missing"
     "decimal": ",",                       # optional: the file writes 12,5 for 12.5
     "n_features": 123, "index_base": 1,   # LIBSVM files only: the public dimension
     "norm_bound": 3.7417}                 # LIBSVM/numeric files: a public bound on ||x||

Columns of the data that the schema does not name are not used.  A column named in the
schema but absent from the data is an error.  The second label class is the positive one.

A draft read from the data (:mod:`dpboost.schema_draft`, ``dpboost schema``) carries
``"from_data"`` marks on every value it read; training with a schema that still carries one
raises a :class:`~dpboost.exceptions.PrivacyLeakWarning` naming the columns.

References
----------
Holohan, N. et al. (2019). diffprivlib: the IBM differential privacy library
(arXiv:1907.02444); its issues #20 and #58 (bounds read from the data leak privacy).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dpboost.cell_text import category_key, is_nan_text
from dpboost.schema_spellings import LABEL_SPELLINGS, did_you_mean, json_mistake

__all__ = [
    "CategoricalColumn",
    "DropColumn",
    "Label",
    "NumericColumn",
    "Schema",
    "category_key",
    "is_nan_text",
]

_TRANSFORMS = (None, "log", "signed-log")
_MISSING = ("zero", "indicator")


def _err(what: str, expected: str, got: object) -> str:
    return f"The {what} in the schema must be {expected}. Got {got!r} instead."


def _number(value, what: str) -> float:
    """``value`` as a finite float; a one-line error for text, a bool, NaN, inf or an int too
    large for a float (JSON allows ``1e400`` written out in 401 digits)."""
    if isinstance(value, str) and category_key(value) is not None:
        try:
            float(value)
        except ValueError:
            pass
        else:
            raise TypeError(_err(what, "a number", value)
                            + f" Write it without quotes: {value.strip()}.")
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(_err(what, "a number", value))
    try:
        number = float(value)
    except OverflowError:
        digits = len(str(abs(int(value))))
        raise ValueError(f"The {what} in the schema must be a finite number. Got an integer "
                         f"of {digits} digits instead, too large for a float.") from None
    if not math.isfinite(number):
        raise ValueError(_err(what, "a finite number", number))
    return number


#: The most bins one numeric column may declare: each is a one-hot feature (the noise on the
#: halfspace grows with the square root of the dimension), and 10,000 already makes a
#: million-row table 80 GB dense.
MAX_BINS = 10_000

class _DuplicateKeyError(ValueError):
    pass


def _unique_keys(pairs: list) -> dict:
    """A JSON object as a dict, refusing a repeated key (``json`` would keep the last silently).

    In a hand-edited schema a repeated ``"columns"`` or column name silently dropped every
    declaration before it.
    """
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(f"the key {key!r} appears twice in one object; JSON keeps "
                                     "only the last, so merge or rename them.")
        out[key] = value
    return out


def _json_int(text: str) -> int:
    """An integer literal of the JSON; Python refuses to convert over 4300 digits."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"it holds an integer of {len(text.lstrip('-'))} digits, too large "
                         "to read; a public bound or category is a much shorter number."
                         ) from None


def _scalars(values, what: str) -> None:
    """Categories and classes are texts, numbers or booleans (a nested list never matches)."""
    for value in values:
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise TypeError(_err(what, "a list of texts, numbers or booleans", list(values)))


def _from_data(spec: dict, where: str) -> tuple[str, ...]:
    marks = spec.get("from_data", ())
    if isinstance(marks, bool):
        marks = ("values",) if marks else ()
    if isinstance(marks, str):
        marks = (marks,)
    if not all(isinstance(m, str) for m in marks):
        raise TypeError(_err(f"'from_data' of {where}", "a list of field names", marks))
    return tuple(marks)


def _missing(spec: dict, where: str) -> str:
    missing = spec.get("missing", "zero")
    if missing not in _MISSING:
        raise ValueError(_err(f"'missing' of {where}", "'zero' or 'indicator'", missing))
    return missing


@dataclass(frozen=True)
class NumericColumn:
    """A number with a public range ``[lower, upper]`` (values outside are clipped to it).

    ``transform``: None, ``"log"`` (``log(1 + x - lower)``, for non-negative heavy tails) or
    ``"signed-log"`` (``sign(x) log(1 + |x|)``).  The transformed range must have a finite,
    positive width (``[-1e308, 1e308]`` overflows a float: use ``"signed-log"``).  ``bins``
    (k equal-width bins between the transformed bounds) or ``edges`` (increasing bin
    boundaries in the raw unit, within ``[lower, upper]``; usually the first and last are the
    bounds) one-hot encode the value instead of scaling it.  A cell reading
    ``true``/``false`` (any case) counts as 1/0; an empty cell, one of the schema's
    ``na_values`` or the text ``NaN`` (any case, :func:`is_nan_text`) is missing; any other
    text is an error naming its line.
    """

    lower: float
    upper: float
    transform: str | None = None
    bins: int | None = None
    edges: tuple[float, ...] | None = None
    missing: str = "zero"
    from_data: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, spec: dict, name: str) -> NumericColumn:
        where = f"numeric column {name!r}"
        unknown = set(spec) - {"type", "lower", "upper", "transform", "bins", "edges",
                               "missing", "from_data", "note"}
        if unknown:
            raise ValueError(_err(f"keys of {where}", "among type, lower, upper, transform, "
                                  "bins, edges, missing, from_data, note", sorted(unknown))
                             + did_you_mean(sorted(unknown), ("lower", "upper")))
        for key in ("lower", "upper"):
            if key not in spec:
                raise ValueError(f"The {where} in the schema needs a public '{key}' bound.")
        lower = _number(spec["lower"], f"'lower' of {where}")
        upper = _number(spec["upper"], f"'upper' of {where}")
        if not lower < upper:
            raise ValueError(_err(f"'upper' of {where}", f"a number above lower = {lower:g}",
                                  upper))
        transform = spec.get("transform")
        if transform not in _TRANSFORMS:
            raise ValueError(_err(f"'transform' of {where}", "'log' or 'signed-log'",
                                  transform))
        bins, edges = spec.get("bins"), spec.get("edges")
        if bins is not None and edges is not None:
            raise ValueError(f"The {where} in the schema gives both 'bins' and 'edges'; "
                             "give one.")
        if bins is not None and (isinstance(bins, bool) or not isinstance(bins, int)
                                 or not 2 <= bins <= MAX_BINS):
            raise ValueError(_err(f"'bins' of {where}", f"an int from 2 to {MAX_BINS:,}",
                                  bins if not isinstance(bins, int) or bins < 10**12
                                  else f"an int of {len(str(bins))} digits"))
        if edges is not None:
            if not isinstance(edges, (list, tuple)) or len(edges) < 3:
                raise ValueError(_err(f"'edges' of {where}", "a list of at least 3 numbers",
                                      edges))
            edges = tuple(_number(e, f"'edges' of {where}") for e in edges)
            if any(b <= a for a, b in itertools.pairwise(edges)):
                raise ValueError(_err(f"'edges' of {where}", "strictly increasing", edges))
            if not (lower <= edges[0] and edges[-1] <= upper):
                raise ValueError(_err(f"'edges' of {where}",
                                      f"within [lower, upper] = [{lower:g}, {upper:g}]",
                                      list(edges))
                                 + " Values are clipped to that range before binning.")
        column = cls(lower, upper, transform, bins, edges, _missing(spec, where),
                     _from_data(spec, where))
        column._check_scale(where)
        return column

    def transformed(self, x) -> np.ndarray:
        """Values in ``[lower, upper]`` on the scale the encoding is linear in (float64)."""
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked at load
            if self.transform == "log":
                return np.log1p(x - self.lower)
            if self.transform == "signed-log":
                return np.sign(x) * np.log1p(np.abs(x))
        return x

    def _check_scale(self, where: str) -> None:
        """Refuse a range the encoder cannot scale: its transformed width must be finite and
        positive, or every value would encode as NaN (``[-1e308, 1e308]``: 2e308 overflows)."""
        lo, hi = self.transformed([self.lower, self.upper])
        with np.errstate(over="ignore", invalid="ignore"):
            width = float(hi - lo)
        bounds = f"[{self.lower:g}, {self.upper:g}]"
        if not math.isfinite(width):
            hint = ('; declare a narrower public range, or "transform": "signed-log"'
                    if self.transform != "signed-log" else "")
            raise ValueError(f"The range {bounds} of {where} in the schema is too wide to "
                             f"compute with: upper - lower overflows a float{hint}.")
        if not width > 0:
            raise ValueError(f"The range {bounds} of {where} in the schema is too narrow for "
                             f"its {self.transform!r} transform: both bounds transform to the "
                             "same number; drop the transform.")
        if self.edges is not None and not np.isfinite(self.transformed(self.edges)).all():
            raise ValueError(_err(f"'edges' of {where}", "finite after the "
                                  f"{self.transform!r} transform", list(self.edges)))

    def to_dict(self) -> dict:
        out: dict = {"type": "numeric", "lower": self.lower, "upper": self.upper}
        for key in ("transform", "bins"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.edges is not None:
            out["edges"] = list(self.edges)
        if self.missing != "zero":
            out["missing"] = self.missing
        if self.from_data:
            out["from_data"] = list(self.from_data)
        return out


@dataclass(frozen=True)
class CategoricalColumn:
    """One of a public list of categories, one-hot encoded; any other value is all zeros.

    A value matches a declared category when their :func:`category_key` agree: surrounding
    spaces are ignored and ``2``, ``2.0``, ``"2"`` agree, as do ``TRUE`` and ``true``, but
    other text is compared case-sensitively (``"Clerk"`` is not ``"clerk"``: it is all zeros,
    and ``dpboost train``/``predict`` warn when a column holds such near misses).  An empty
    cell, one of the schema's ``na_values`` or the text ``NaN`` (any case,
    :func:`is_nan_text`) is missing, as in a numeric column, unless that exact text is one of
    the declared ``categories``: then it is that category.
    """

    categories: tuple
    missing: str = "zero"
    from_data: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, spec: dict, name: str, decimal: str = ".") -> CategoricalColumn:
        """Validate a column spec; ``decimal`` is the schema's (``","``: ``"1,5"`` is ``1.5``)."""
        where = f"categorical column {name!r}"
        unknown = set(spec) - {"type", "categories", "missing", "from_data", "note"}
        if unknown:
            raise ValueError(_err(f"keys of {where}", "among type, categories, missing, "
                                  "from_data, note", sorted(unknown))
                             + did_you_mean(sorted(unknown), ("categories",)))
        cats = spec.get("categories")
        if not isinstance(cats, (list, tuple)) or not cats:
            raise ValueError(_err(f"'categories' of {where}", "a non-empty list", cats))
        _scalars(cats, f"'categories' of {where}")
        keys = [category_key(c, decimal) for c in cats]
        if None in keys:
            raise ValueError(_err(f"'categories' of {where}", "a list without empty values",
                                  list(cats)))
        if len(set(keys)) != len(keys):
            raise ValueError(_err(f"'categories' of {where}", "a list without duplicates",
                                  list(cats)))
        return cls(tuple(cats), _missing(spec, where), _from_data(spec, where))

    def to_dict(self) -> dict:
        out: dict = {"type": "categorical", "categories": list(self.categories)}
        if self.missing != "zero":
            out["missing"] = self.missing
        if self.from_data:
            out["from_data"] = list(self.from_data)
        return out


@dataclass(frozen=True)
class DropColumn:
    """A column that is read (so a header check finds it) but never used."""

    def to_dict(self) -> dict:
        return {"type": "drop"}


@dataclass(frozen=True)
class Label:
    """The label column and its public classes (K >= 2; the second is positive if K = 2)."""

    column: str | None
    classes: tuple
    from_data: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, spec: dict, decimal: str = ".") -> Label:
        """Validate a label spec; ``decimal`` is the schema's (``","``: ``"1,5"`` is ``1.5``)."""
        if not isinstance(spec, dict):
            raise TypeError(_err("'label'", 'an object {"column": ..., "classes": [...]}',
                                 spec))
        unknown = set(spec) - {"column", "classes", "from_data", "note"}
        if unknown:  # e.g. "name" for "column": the label would be silently incomplete
            raise ValueError(_err("keys of the label", "among column, classes, from_data, note",
                                  sorted(unknown))
                             + did_you_mean(sorted(unknown), ("column", "classes"),
                                             LABEL_SPELLINGS))
        column = spec.get("column")
        if column is not None and not isinstance(column, str):
            raise TypeError(_err("'column' of the label", "a column name", column))
        column = column.strip() if column is not None else None
        classes = spec.get("classes")
        if not isinstance(classes, (list, tuple)) or len(classes) < 2:
            raise ValueError(_err("'classes' of the label", "a list of at least 2 labels",
                                  classes))
        _scalars(classes, "'classes' of the label")
        keys = [category_key(c, decimal) for c in classes]
        if None in keys or len(set(keys)) != len(keys):
            raise ValueError(_err("'classes' of the label", "distinct non-empty labels",
                                  list(classes)))
        return cls(column, tuple(classes), _from_data(spec, "the label"))

    def to_dict(self) -> dict:
        out: dict = {"column": self.column, "classes": list(self.classes)}
        if self.from_data:
            out["from_data"] = list(self.from_data)
        return out


ColumnSpec = NumericColumn | CategoricalColumn | DropColumn


@dataclass(frozen=True)
class Schema:
    """Public facts about a table (see the module docstring for the JSON layout).

    Build one with :meth:`from_dict`, :meth:`load` (a JSON file) or
    :func:`~dpboost.schema_draft.draft_schema`;
    ``to_dict`` / :meth:`save` give the JSON back.  Every number and category in it must be
    declared from public knowledge, never read from the private data.

    Examples
    --------
    >>> s = Schema.from_dict({"columns": {"age": {"type": "numeric", "lower": 0,
    ...                                            "upper": 100}},
    ...                       "label": {"column": "y", "classes": ["no", "yes"]}})
    >>> s.used_columns, s.label.classes
    (('age',), ('no', 'yes'))
    """

    columns: dict = field(default_factory=dict)
    label: Label | None = None
    names: tuple[str, ...] | None = None
    na_values: tuple[str, ...] = ()
    n_features: int | None = None
    index_base: int | None = None
    note: str | None = None
    norm_bound: float | None = None
    decimal: str = "."

    @classmethod
    def from_dict(cls, content: object) -> Schema:
        """Validate a JSON-like dict and build the schema (one-line errors on bad input)."""
        if isinstance(content, Schema):
            return content
        if not isinstance(content, dict):
            raise TypeError(_err("top level", 'an object {"columns": ..., "label": ...}',
                                 type(content).__name__))
        known = {"columns", "label", "names", "na_values", "n_features", "index_base",
                 "norm_bound", "note", "_comment", "decimal"}
        unknown = set(content) - known
        if unknown:
            raise ValueError(_err("top-level keys", "among " + ", ".join(sorted(known)),
                                  sorted(unknown))
                             + did_you_mean(sorted(unknown), ("label", "columns"),
                                             {"target": "label", "y": "label",
                                              "labels": "label", "features": "columns"}))
        decimal = content.get("decimal", ".")
        if decimal not in (".", ","):
            raise ValueError(_err("'decimal'", "'.' or ','", decimal))
        raw = content.get("columns", {})
        if not isinstance(raw, dict):
            raise TypeError(_err("'columns'", "an object mapping names to column specs", raw))
        columns: dict = {}
        for name, spec in raw.items():
            name = name.strip()  # a reader strips the header's names; "age " would never match
            if name in columns:
                raise ValueError(f"The schema's 'columns' name {name!r} twice (once with "
                                 "spaces around it); names are compared without them.")
            if not isinstance(spec, dict):
                raise TypeError(_err(f"entry of column {name!r}", "an object", spec))
            kind = spec.get("type")
            if kind == "numeric":
                columns[name] = NumericColumn.from_dict(spec, name)
            elif kind == "categorical":
                columns[name] = CategoricalColumn.from_dict(spec, name, decimal)
            elif kind == "drop":
                columns[name] = DropColumn()
            else:
                raise ValueError(_err(f"'type' of column {name!r}",
                                      "'numeric', 'categorical' or 'drop'", kind)
                                 + did_you_mean(kind, ("numeric", "categorical", "drop")))
        label = (Label.from_dict(content["label"], decimal)
                 if content.get("label") is not None else None)
        if label is not None and label.column in columns:
            raise ValueError(f"The label column {label.column!r} is also listed in the "
                             "schema's 'columns'; a label is never a feature.")
        names = content.get("names")
        if names is not None:
            if (not isinstance(names, (list, tuple)) or not names
                    or not all(isinstance(n, str) for n in names)):
                raise TypeError(_err("'names'", "a list of column names", names))
            names = [n.strip() for n in names]
            if len(set(names)) != len(names):
                raise ValueError(_err("'names'", "a list without duplicates", list(names)))
            wanted = list(columns) + ([label.column] if label and label.column else [])
            absent = [c for c in wanted if c not in names]
            if absent:
                raise ValueError(f"The schema's 'names' do not include the column(s) "
                                 f"{absent} that it describes.")
            names = tuple(names)
        na_values = content.get("na_values", [])
        if not isinstance(na_values, (list, tuple)) or not all(
                isinstance(v, str) for v in na_values):
            quoted = (isinstance(na_values, (list, tuple)) and all(
                isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in na_values))
            raise TypeError(_err("'na_values'", "a list of strings", na_values) + (
                f" Write each in quotes: {json.dumps([str(v) for v in na_values])}."
                if quoted else ""))
        # cells are compared stripped (a reader strips them), so " ?" must mean "?"
        na_values = list(dict.fromkeys(v.strip() for v in na_values if v.strip()))
        n_features = content.get("n_features")
        if n_features is not None and (isinstance(n_features, bool)
                                       or not isinstance(n_features, int) or n_features < 1):
            raise ValueError(_err("'n_features'", "an int >= 1", n_features))
        index_base = content.get("index_base")
        if index_base not in (None, 0, 1) or isinstance(index_base, bool):
            raise ValueError(_err("'index_base'", "0 or 1", index_base))
        if n_features is not None and columns:
            raise ValueError("A schema declares either 'columns' (a table) or 'n_features' "
                             "(a LIBSVM file), not both.")
        norm_bound = content.get("norm_bound")
        if norm_bound is not None:
            norm_bound = _number(norm_bound, "'norm_bound'")
            if norm_bound <= 0:
                raise ValueError(_err("'norm_bound'", "a number > 0", norm_bound))
            if columns:
                raise ValueError("A schema with 'columns' needs no 'norm_bound': its encoding "
                                 "has norm at most 1 by construction.")
        return cls(columns, label, names, tuple(na_values), n_features, index_base,
                   content.get("note"), norm_bound, decimal)

    def to_dict(self) -> dict:
        out: dict = {}
        if self.note is not None:
            out["note"] = self.note
        if self.names is not None:
            out["names"] = list(self.names)
        if self.na_values:
            out["na_values"] = list(self.na_values)
        if self.decimal != ".":
            out["decimal"] = self.decimal
        if self.n_features is not None:
            out["n_features"] = self.n_features
        if self.index_base is not None:
            out["index_base"] = self.index_base
        if self.norm_bound is not None:
            out["norm_bound"] = self.norm_bound
        if self.columns:
            out["columns"] = {name: spec.to_dict() for name, spec in self.columns.items()}
        if self.label is not None:
            out["label"] = self.label.to_dict()
        return out

    @classmethod
    def load(cls, path: str | os.PathLike) -> Schema:
        """Read and validate a schema JSON file (UTF-8, a byte-order mark allowed; errors name
        the file).

        Every problem is a one-line ``ValueError`` or ``TypeError`` naming the file: text
        that is not UTF-8 (Latin-1, UTF-16), invalid JSON, a repeated key, JSON nested too
        deeply to parse, a number too large for a float, or a bad declaration.
        """
        path = Path(path)
        data = path.read_bytes()
        try:
            text = data.decode("utf-8-sig")  # Notepad's byte-order mark is dropped
        except UnicodeDecodeError as exc:
            utf16 = " (it looks like UTF-16)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
            raise ValueError(f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                             f"offset {exc.start}){utf16}; re-save it as UTF-8.") from None
        try:
            content = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_json_int)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}."
                             + json_mistake(text, exc.pos)) from None
        except RecursionError:
            raise ValueError(f"{path} nests JSON lists or objects too deeply to read; a schema "
                             "is an object of column objects, a few levels deep.") from None
        except ValueError as exc:  # a repeated key, or an int of over 4300 digits
            raise ValueError(f"{path}: {exc}") from None
        try:
            return cls.from_dict(content)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{path}: {exc}") from None
        except RecursionError:  # a deeply nested category list, shown in a message
            raise ValueError(f"{path} nests JSON lists or objects too deeply; a category or "
                             "class is a text, a number or a boolean.") from None

    def save(self, path: str | os.PathLike) -> None:
        """Write the schema as indented JSON, atomically."""
        from dpboost._io import atomic_write_text

        atomic_write_text(path, json.dumps(self.to_dict(), indent=2) + "\n")

    # -- derived facts (all from the declarations, none from data) ------------------------
    @property
    def used_columns(self) -> tuple[str, ...]:
        """Names of the columns that become features, in schema order."""
        return tuple(n for n, s in self.columns.items() if not isinstance(s, DropColumn))

    @property
    def text_columns(self) -> tuple[str, ...]:
        """Columns a reader keeps as text: the categorical ones and the label column.

        Read as text, a declared category ``"NaN"`` is never turned into a float NaN (missing)
        by a reader's type inference.
        """
        label = (self.label.column,) if self.label and self.label.column else ()
        return tuple(n for n, s in self.columns.items()
                     if isinstance(s, CategoricalColumn)) + label

    @property
    def read_columns(self) -> tuple[str, ...]:
        """Columns a reader must find: every named column and the label column."""
        label = (self.label.column,) if self.label and self.label.column else ()
        return tuple(self.columns) + label

    def draft_marks(self) -> list[str]:
        """Columns (and ``"label"``) whose declarations were read from the data."""
        marked = [n for n, s in self.columns.items() if getattr(s, "from_data", ())]
        if self.label is not None and self.label.from_data:
            marked.append(f"label {self.label.column!r}")
        return marked
