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
        "job":    {"type": "categorical", "categories": ["a", "b"], "missing": "indicator",
                   "na_values": ["unknown"]},     # optional: missing in THIS column
        "grade":  {"type": "ordinal", "categories": ["low", "mid", "high"]},  # -1, 0, 1
        "id":     {"type": "drop"}},
     "label": {"column": "y", "classes": ["no", "yes"]},
     "names": ["id", "age", ...],          # optional: column names of a headerless file
     "na_values": ["?"],                   # optional: strings missing in every column
     "decimal": ",",                       # optional: the file writes 12,5 for 12.5
     "thousands": ".",                     # optional: the file writes 1.234,5 for 1234.5
     "separator": ";",                     # optional: ",", ";", "\t", "|" or "whitespace"
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

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from dpboost.cell_text import DATE_ADVICE, category_key, category_text, is_nan_text
from dpboost.schema_columns import (
    MAX_BINS,
    CategoricalColumn,
    ColumnSpec,
    DropColumn,
    Label,
    NumericColumn,
    OrdinalColumn,
    _err,
    _number,
    list_hint,
    token_text,
)
from dpboost.schema_spellings import did_you_mean, json_mistake, key_hint
from dpboost.separators import SEPARATORS
from dpboost.thousands import THOUSANDS_SEPARATORS

__all__ = [
    "MAX_BINS",
    "CategoricalColumn",
    "ColumnSpec",
    "DropColumn",
    "Label",
    "NumericColumn",
    "OrdinalColumn",
    "Schema",
    "category_key",
    "is_nan_text",
]


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


def _columns_hint(raw) -> str:
    """What to write for ``"columns"`` given as a list of ``{"name": ..., ...}`` objects."""
    if isinstance(raw, list) and raw and all(isinstance(c, dict) and "name" in c for c in raw):
        first = {k: v for k, v in raw[0].items() if k != "name"}
        return (" Key each spec by its column's name: "
                f"{{{json.dumps(str(raw[0]['name']))}: {json.dumps(first)}, ...}}.")
    return ""


def _separator(value) -> str | None:
    """A schema's ``"separator"``, validated: it decides how every row of a text table is
    split (:func:`dpboost.separators.file_delimiter`), where otherwise the first line of the
    file, in a headerless file a private row, is sniffed."""
    if value is None or value in SEPARATORS:
        return value
    spaced = isinstance(value, str) and value.strip().lower() in ("", "space", "spaces", "blank")
    tab = isinstance(value, str) and value.strip().lower() in ("tab", "\\t", "tabs")
    raise ValueError(_err("'separator'", "one of ',', ';', '\\t' (a tab), '|' or 'whitespace'",
                          value)
                     + (" Write \"whitespace\" for fields apart by spaces." if spaced else
                        ' Write "\\t" in the JSON for a tab.' if tab else ""))


def _check_global_tokens(na_values, columns: dict, decimal: str) -> None:
    """Refuse a top-level ``na_values`` token written as one of a column's categories or levels
    (:meth:`Schema.check_na_values`).

    The top-level list applies to every column and a reader drops such a cell before the
    encoder sees it, so that category would never match: its column would be silently all
    zeros.  (A token that differs as text, ``"999"`` against ``"0999"``, is fine: a cell
    written as the category is that category.)
    """
    for name, spec in columns.items():
        texts = {category_text(c, decimal) for c in getattr(spec, "categories", ())}
        both = [v for v in na_values if category_text(v, decimal) in texts]
        if both:
            raise ValueError(f"The schema's top-level 'na_values' lists {both[0]!r}, which is "
                             f"also a declared category of column {name!r}: those apply to "
                             "every column, so that category would always read as missing; "
                             "list it instead in the 'na_values' of the columns where it "
                             "means missing.")


#: What an unknown column 'type' of ``date`` (``datetime``, ``timestamp``, ``time``) adds.
_DATE_HINT = f" A date is not a type: {DATE_ADVICE}."


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
    thousands: str | None = None
    separator: str | None = None

    @classmethod
    def from_dict(cls, content: object) -> Schema:
        """Validate a JSON-like dict and build the schema (one-line errors on bad input)."""
        if isinstance(content, Schema):
            return content
        if not isinstance(content, dict):
            raise TypeError(_err("top level", 'an object {"columns": ..., "label": ...}',
                                 type(content).__name__))
        known = {"columns", "label", "names", "na_values", "n_features", "index_base",
                 "norm_bound", "note", "_comment", "decimal", "thousands", "separator"}
        unknown = set(content) - known
        if unknown:
            raise ValueError(_err("top-level keys", "among " + ", ".join(sorted(known)),
                                  sorted(unknown))
                             + (did_you_mean(sorted(unknown), ("label", "columns", "na_values"),
                                              {"target": "label", "y": "label",
                                               "labels": "label", "features": "columns"})
                                or key_hint(unknown)))
        decimal = content.get("decimal", ".")
        if decimal not in (".", ","):
            raise ValueError(_err("'decimal'", "'.' or ','", decimal))
        thousands = content.get("thousands")
        if thousands not in (None, *THOUSANDS_SEPARATORS) or thousands == decimal:
            raise ValueError(_err("'thousands'", "one of ',', '.', \"'\" or ' ' (a space), "
                                  f"other than the decimal mark {decimal!r}", thousands))
        separator = _separator(content.get("separator"))
        raw = content.get("columns", {})
        if not isinstance(raw, dict):
            raise TypeError(_err("'columns'", "an object mapping names to column specs", raw)
                            + _columns_hint(raw))
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
            elif kind == "ordinal":
                columns[name] = OrdinalColumn.from_dict(spec, name, decimal)
            elif kind == "drop":
                columns[name] = DropColumn.from_dict(spec, f"drop column {name!r}")
            else:
                raise ValueError(_err(f"'type' of column {name!r}",
                                      "'numeric', 'categorical', 'ordinal' or 'drop'", kind)
                                 + did_you_mean(kind, ("numeric", "categorical", "ordinal",
                                                       "drop"))
                                 + (" The label is declared at the top level, as \"label\": "
                                    '{"column": ..., "classes": [negative, positive]}, and '
                                    "not among 'columns'." if isinstance(kind, str) and
                                    kind.strip().lower() in ("label", "target", "class",
                                                             "outcome", "y") else "")
                                 + (_DATE_HINT if isinstance(kind, str) and kind.strip().lower()
                                    in ("date", "datetime", "timestamp", "time") else ""))
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
                if quoted else list_hint(na_values)))
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
        if separator is not None and (n_features is not None or index_base is not None):
            raise ValueError("A schema's 'separator' is a table's; a LIBSVM file (declared by "
                             "'n_features' or 'index_base') has none.")
        norm_bound = content.get("norm_bound")
        if norm_bound is not None:
            norm_bound = _number(norm_bound, "'norm_bound'")
            if norm_bound <= 0:
                raise ValueError(_err("'norm_bound'", "a number > 0", norm_bound))
            if columns:
                raise ValueError("A schema with 'columns' needs no 'norm_bound': its encoding "
                                 "has norm at most 1 by construction.")
        return cls(columns, label, names, tuple(na_values), n_features, index_base,
                   content.get("note"), norm_bound, decimal, thousands, separator)

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
        if self.thousands is not None:
            out["thousands"] = self.thousands
        if self.separator is not None:
            out["separator"] = self.separator
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
        """Columns a reader keeps as text: every column the schema encodes, and the label.

        Read as text, a declared category ``"NaN"`` is never turned into a float NaN (missing)
        by a reader's type inference, and a numeric column is read cell by cell by one parser
        (:func:`dpboost.tabular_cells.parse_numbers`).  Until session 26 numeric columns were
        typed by pyarrow's guess from all their cells, so one row (``true``, ``(45)``, a
        missing-value marker of the column's own) sent every other cell of its column to
        another parser, whose values could differ: neighbouring files encoded up to every row
        differently, or one trained where the other was refused (red team, session 26).
        """
        label = (self.label.column,) if self.label and self.label.column else ()
        return tuple(dict.fromkeys(self.used_columns + label))

    @property
    def read_columns(self) -> tuple[str, ...]:
        """Columns a reader must find: every named column and the label column."""
        label = (self.label.column,) if self.label and self.label.column else ()
        return tuple(self.columns) + label

    @property
    def column_na_values(self) -> dict[str, tuple[str, ...]]:
        """``{column: na_values_of(column)}`` for each column (and the label column) that
        declares ``na_values`` of its own: what a reader marks missing column by column."""
        specs = dict(self.columns)
        if self.label is not None and self.label.column:
            specs[self.label.column] = self.label
        return {name: self.na_values_of(name) for name, spec in specs.items()
                if getattr(spec, "na_values", ())}

    def na_values_of(self, name: str) -> tuple[str, ...]:
        """The texts that mean *missing* in column ``name`` (or the label column): the
        schema's ``na_values``, which apply to every column, then the column's own (a number
        as :func:`~dpboost.schema_columns.token_text` writes it).

        Examples
        --------
        >>> s = Schema.from_dict({"na_values": ["?"], "columns": {
        ...     "age": {"type": "numeric", "lower": 0, "upper": 99, "na_values": [999, "-"]},
        ...     "job": {"type": "categorical", "categories": ["a"]}}})
        >>> s.na_values_of("age"), s.na_values_of("job")
        (('?', '999', '-'), ('?',))
        """
        spec = (self.label if self.label is not None and name == self.label.column
                else self.columns.get(name))
        own = tuple(token_text(t) for t in getattr(spec, "na_values", ()))
        return tuple(dict.fromkeys(self.na_values + own))

    def check_na_values(self) -> None:
        """Refuse a top-level ``na_values`` token written as a declared category or level.

        Checked when an encoder is fitted (``dpboost train``), not when a schema is read, so
        a model file saved before the check still loads and predicts as it did.
        """
        _check_global_tokens(self.na_values, self.columns, self.decimal)

    def draft_marks(self) -> list[str]:
        """Columns (and ``"label"``) whose declarations were read from the data."""
        marked = [n for n, s in self.columns.items() if getattr(s, "from_data", ())]
        if self.label is not None and self.label.from_data:
            marked.append(f"label {self.label.column!r}")
        return marked
