"""The column declarations of a :class:`~dpboost.schema.Schema`, and the checks they share.

Each class holds the public facts about one column (its type, range, categories, how a
missing value is encoded) and validates its JSON spec with one-line errors;
:mod:`dpboost.schema` assembles them into a schema and re-exports them.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from dpboost.cell_text import category_key, category_text
from dpboost.number_symbols import check_symbols
from dpboost.schema_spellings import (
    LABEL_SPELLINGS,
    TRANSFORM_SPELLINGS,
    did_you_mean,
    key_hint,
    missing_hint,
)

__all__ = ["MAX_BINS", "CategoricalColumn", "ColumnSpec", "DropColumn", "Label",
           "NumericColumn", "OrdinalColumn"]

_TRANSFORMS = (None, "log", "signed-log")
_MISSING = ("zero", "indicator")


def _err(what: str, expected: str, got: object) -> str:
    return f"The {what} in the schema must be {expected}. Got {got!r} instead."


def _edges(edges, lower: float, upper: float, where: str) -> tuple:
    """A numeric column's ``"edges"``: increasing, from ``lower`` to ``upper`` exactly.

    Values are clipped to ``[lower, upper]`` before binning, so the first and last edges are
    the bounds: edges that stop short (``[20, 50, 70]`` on ``[0, 100]``) used to put 5 in the
    bin ``[20, 50)`` and 95 in ``[50, 70)``.  The message writes the list to use.
    """
    what = f"'edges' of {where}"
    if not isinstance(edges, (list, tuple)):
        raise ValueError(_err(what, f"a list of numbers from lower = {lower:g} to upper = "
                              f"{upper:g}", edges))
    edges = tuple(_number(e, what) for e in edges)
    if any(b <= a for a, b in itertools.pairwise(edges)):
        raise ValueError(_err(what, "strictly increasing", list(edges)))
    if edges and not (lower <= edges[0] and edges[-1] <= upper):
        raise ValueError(_err(what, f"within [lower, upper] = [{lower:g}, {upper:g}]",
                              list(edges)) + " Values are clipped to that range before binning.")
    spanned = [*([lower] if not edges or edges[0] > lower else []), *edges,
               *([upper] if not edges or edges[-1] < upper else [])]
    if len(spanned) < 3:
        raise ValueError(_err(what, f"a list of at least 3 numbers from lower = {lower:g} to "
                              f"upper = {upper:g} (one bin is a constant: add a cut point, "
                              f"e.g. [{lower:g}, {(lower + upper) / 2:g}, {upper:g}])",
                              list(edges)))
    if len(spanned) != len(edges):
        shown = ", ".join(f"{e:g}" for e in spanned)
        raise ValueError(f"The {what} in the schema must start at lower = {lower:g} and end "
                         f"at upper = {upper:g} (values are clipped to that range, then "
                         f"binned): write [{shown}]. Got [{', '.join(f'{e:g}' for e in edges)}] "
                         "instead.")
    return edges


def _bounds_from_edges(spec: dict, where: str) -> dict:
    """``spec`` with a missing ``"lower"``/``"upper"`` taken from the first/last of its
    ``"edges"``, which :func:`_edges` requires them to equal anyway: ``"edges": [0, 20, 40,
    100]`` alone was refused for want of a 'lower' (user trial 27u, finding 10).  The edges
    are a public declaration, so the bounds are too.  A bound given stays as given (and must
    still equal its edge).  Edges that cannot give bounds (not a list, fewer than two, a
    non-number, NaN or infinity, not increasing) are refused as edges, not as a missing
    'lower' nobody wrote (red team, session 27); numpy numbers are numbers here too.

    Examples
    --------
    >>> _bounds_from_edges({"edges": [0, 20, 100], "upper": 100}, "column 'x'")
    {'lower': 0, 'upper': 100, 'edges': [0, 20, 100]}
    """
    edges = spec.get("edges")
    if edges is None or ("lower" in spec and "upper" in spec):
        return spec
    finite = (isinstance(edges, (list, tuple)) and len(edges) >= 2
              and all(isinstance(e, (int, float, np.integer, np.floating))
                      and not isinstance(e, (bool, np.bool_)) and math.isfinite(e)
                      for e in edges))
    if not finite or any(b <= a for a, b in itertools.pairwise(edges)):
        raise ValueError(_err(f"'edges' of {where}", "a strictly increasing list of at least 2 "
                              "finite numbers (its first and last give the 'lower' and "
                              "'upper' left out)", edges))
    return {**dict(zip(("lower", "upper"), (edges[0], edges[-1]))), **spec}


def list_hint(value) -> str:
    """`` Write it as a JSON list: ["a", "b"].`` for a list typed as one text, else ``""``.

    Examples
    --------
    >>> list_hint("no,yes"), list_hint(["no"])
    (' Write it as a JSON list: ["no", "yes"].', '')
    """
    if not isinstance(value, str):
        return ""
    parts = [p.strip() for p in value.split(",")] if "," in value else [value.strip()]
    return f" Write it as a JSON list: {json.dumps(parts, ensure_ascii=False)}."


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
    if not isinstance(marks, (list, tuple)) or not all(isinstance(m, str) for m in marks):
        raise TypeError(_err(f"'from_data' of {where}", "a list of field names", marks))
    return tuple(marks)


def _missing(spec: dict, where: str) -> str:
    missing = spec.get("missing", "zero")
    if missing not in _MISSING:
        hint = (" List the texts that mean missing in 'na_values'; 'missing' says how a "
                "missing value is encoded." if isinstance(missing, (list, tuple)) else "")
        raise ValueError(_err(f"'missing' of {where}", "'zero' or 'indicator'", missing) + hint
                         + missing_hint(missing))
    return missing


def token_text(token) -> str:
    """The text of an ``na_values`` token: a text as it is, a number as :func:`category_key`
    writes it (``999`` and ``999.0`` are ``"999"``), so it matches that number wherever it
    appears (``999.0`` in a CSV, a Parquet number)."""
    return token if isinstance(token, str) else category_key(token)


def _na_tokens(spec: dict, where: str, declared: dict | None = None,
               decimal: str = ".") -> tuple:
    """A column's (or the label's) own ``na_values``: texts (stripped, empty ones dropped)
    and finite numbers, each once.  ``declared`` (category key -> category) refuses a token
    that is also a declared category or class: a cell holding it would be both."""
    tokens = spec.get("na_values", [])
    what = f"'na_values' of {where}"
    if isinstance(tokens, (str, int, float)) and not isinstance(tokens, bool):
        raise TypeError(_err(what, "a list of texts or numbers", tokens)
                        + f" Write it as a list: [{json.dumps(tokens)}].")
    if not isinstance(tokens, (list, tuple)) or not all(
            isinstance(t, (str, int, float)) and not isinstance(t, bool) for t in tokens):
        raise TypeError(_err(what, "a list of texts or numbers", tokens))
    out: list = []
    for token in tokens:
        if isinstance(token, str):
            token = token.strip()  # cells are compared stripped: " ?" means "?"
            if not token:
                continue
        elif not math.isfinite(token):
            raise ValueError(_err(what, "a list of texts or finite numbers", list(tokens)))
        if token_text(token) not in map(token_text, out):
            out.append(token)
    for token in out:
        key = category_key(token, decimal)
        if declared is not None and key in declared:
            raise ValueError(f"The {what} in the schema lists {token!r}, which is also its "
                             f"declared {'class' if where == 'the label' else 'category'} "
                             f"{declared[key]!r}: a cell {token!r} would be both; remove it "
                             "from one of the lists.")
    return tuple(out)


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
    ``na_values`` or of the column's own ``na_values`` (a number matches wherever it appears:
    ``999`` is ``999.0``), or the text ``NaN`` (any case, :func:`is_nan_text`) is missing; any other
    text is an error naming its line.  ``prefix``/``suffix``: symbols the cells may carry
    (``"$"``, ``"%"``, ``"kg"``), stripped before the number is read as written (``12%`` is
    12; :mod:`dpboost.number_symbols`).
    """

    lower: float
    upper: float
    transform: str | None = None
    bins: int | None = None
    edges: tuple[float, ...] | None = None
    missing: str = "zero"
    from_data: tuple[str, ...] = ()
    na_values: tuple = ()
    prefix: tuple[str, ...] = ()
    suffix: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, spec: dict, name: str) -> NumericColumn:
        where = f"numeric column {name!r}"
        unknown = set(spec) - {"type", "lower", "upper", "transform", "bins", "edges",
                               "missing", "na_values", "from_data", "note", "prefix", "suffix"}
        if unknown:
            raise ValueError(_err(f"keys of {where}", "among type, lower, upper, transform, "
                                  "bins, edges, missing, na_values, prefix, suffix, "
                                  "from_data, note", sorted(unknown))
                             + (did_you_mean(sorted(unknown), ("lower", "upper", "na_values",
                                                               "transform", "bins", "edges",
                                                               "prefix", "suffix"))
                                or key_hint(unknown, "numeric")))
        spec = _bounds_from_edges(spec, where)
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
                                  transform)
                             + did_you_mean(transform, ("log", "signed-log"),
                                            TRANSFORM_SPELLINGS))
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
            edges = _edges(edges, lower, upper, where)
        column = cls(lower, upper, transform, bins, edges, _missing(spec, where),
                     _from_data(spec, where), _na_tokens(spec, where),
                     check_symbols(spec.get("prefix"), "prefix", where),
                     check_symbols(spec.get("suffix"), "suffix", where))
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

    def untransformed(self, t) -> np.ndarray:
        """The inverse of :meth:`transformed`: values on the column's own scale (float64)."""
        t = np.asarray(t, dtype=np.float64)
        if self.transform == "log":
            return self.lower + np.expm1(t)
        if self.transform == "signed-log":
            return np.sign(t) * np.expm1(np.abs(t))
        return t

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
        for key in ("prefix", "suffix"):
            symbols = getattr(self, key)
            if symbols:
                out[key] = symbols[0] if len(symbols) == 1 else list(symbols)
        return _shared_keys(out, self)


def _shared_keys(out: dict, column) -> dict:
    """``out`` with the keys every column kind shares (``missing``, ``na_values``,
    ``from_data``), each only when it differs from its default."""
    if column.missing != "zero":
        out["missing"] = column.missing
    if column.na_values:
        out["na_values"] = list(column.na_values)
    if column.from_data:
        out["from_data"] = list(column.from_data)
    return out


def _categories(spec: dict, where: str, decimal: str, min_size: int) -> tuple[tuple, dict]:
    """The declared categories of a categorical (or ordinal) column, and a dict from their
    :func:`category_key` to them; one-line errors for unknown keys, empty values and repeats."""
    unknown = set(spec) - {"type", "categories", "missing", "na_values", "from_data", "note"}
    if unknown:
        raise ValueError(_err(f"keys of {where}", "among type, categories, missing, "
                              "na_values, from_data, note", sorted(unknown))
                         + (did_you_mean(sorted(unknown), ("categories", "na_values"))
                            or key_hint(unknown, "categorical")))
    cats = spec.get("categories")
    if not isinstance(cats, (list, tuple)) or len(cats) < min_size:
        raise ValueError(_err(f"'categories' of {where}", "a non-empty list" if min_size == 1
                              else f"a list of at least {min_size} levels", cats)
                         + list_hint(cats))
    _scalars(cats, f"'categories' of {where}")
    keys = [category_key(c, decimal) for c in cats]
    if None in keys:
        raise ValueError(_err(f"'categories' of {where}", "a list without empty values",
                              list(cats)))
    texts = [category_text(c, decimal) for c in cats]  # "250.1" and "250.10" are two codes
    if len(set(texts)) != len(texts):
        raise ValueError(_err(f"'categories' of {where}", "a list without duplicates",
                              list(cats)) + _twice(cats, texts))
    return tuple(cats), dict(zip(keys, cats))


def _twice(values, texts: list) -> str:
    """`` 'red' is listed twice.`` for the first declared value whose text repeats (a long
    list is hard to scan for it), else ``""``.

    Examples
    --------
    >>> _twice(["red", "green", " red"], ["red", "green", "red"])
    " 'red' is listed twice (at positions 1 and 3)."
    """
    seen: dict = {}
    for k, text in enumerate(texts):
        if text is not None and text in seen:
            return (f" {values[seen[text]]!r} is listed twice (at positions {seen[text] + 1} "
                    f"and {k + 1}).")
        seen[text] = k
    return ""


@dataclass(frozen=True)
class _ListedColumn:
    """What categorical and ordinal columns share: a declared list of values, ``missing``,
    ``from_data`` and the column's own ``na_values``; validation and JSON by ``KIND``."""

    categories: tuple
    missing: str = "zero"
    from_data: tuple[str, ...] = ()
    na_values: tuple = ()

    KIND: ClassVar[str] = ""
    MIN_SIZE: ClassVar[int] = 1

    @classmethod
    def from_dict(cls, spec: dict, name: str, decimal: str = "."):
        """Validate a column spec; ``decimal`` is the schema's (``","``: ``"1,5"`` is ``1.5``)."""
        where = f"{cls.KIND} column {name!r}"
        values, declared = _categories(spec, where, decimal, min_size=cls.MIN_SIZE)
        return cls(values, _missing(spec, where), _from_data(spec, where),
                   _na_tokens(spec, where, declared, decimal))

    def to_dict(self) -> dict:
        """The column's JSON (defaults left out)."""
        out: dict = {"type": self.KIND, "categories": list(self.categories)}
        return _shared_keys(out, self)


@dataclass(frozen=True)
class CategoricalColumn(_ListedColumn):
    """One of a public list of categories, one-hot encoded; any other value is all zeros.

    A value matches a declared category by :class:`~dpboost.cell_text.DeclaredValues`: a text
    cell by its exact text first (stripped: ``"02134"`` is not ``"2134"``), else, as a number
    or a number read from the cell, by :func:`category_key` when one declared category alone
    has it (``2``, ``2.0``, ``"2"`` agree, as do ``TRUE`` and ``true``); categories that
    differ as text may share a key (``"250.1"`` and ``"250.10"``), and a number cell matching
    two of them is an error asking to store the column as text.  Other text is compared
    case-sensitively (``"Clerk"`` is not ``"clerk"``: it is all zeros,
    and ``dpboost train``/``predict`` warn when a column holds such near misses).  An empty
    cell, one of the schema's ``na_values`` or of the column's own (a token that is also a
    declared category is refused at load), or the text ``NaN`` (any case,
    :func:`is_nan_text`) is missing, as in a numeric column, unless that exact text is one of
    the declared ``categories``: then it is that category.
    """

    KIND: ClassVar[str] = "categorical"


@dataclass(frozen=True)
class OrdinalColumn(_ListedColumn):
    """Ordered public levels (``["low", "medium", "high"]``), encoded as ONE number.

    The k-th of K levels (0-based) is ``-1 + 2k/(K-1)``: the first is -1, the last 1, the
    others evenly spaced between, so the block has norm at most 1 like every block.  Values
    match the levels as categories do (:class:`~dpboost.cell_text.DeclaredValues`: exact text
    first, then ``2``, ``2.0`` and ``"2"`` agree when one level alone has that key; spaces are
    stripped, text is compared in NFC, case is not folded).  A value outside the
    list is encoded 0 and counted as undeclared (``dpboost predict`` warns above 10%).  A
    missing value (an empty cell, one of the ``na_values``, NaN text) follows ``missing`` as in
    a numeric column: 0, or 0 plus an indicator feature.  K >= 2 levels.
    """

    KIND: ClassVar[str] = "ordinal"
    MIN_SIZE: ClassVar[int] = 2

    def levels(self) -> np.ndarray:
        """The encoded value of each level, in order: ``-1 + 2k/(K-1)`` (exactly -1 and 1 at
        the ends)."""
        k = len(self.categories)
        return -1.0 + 2.0 * np.arange(k) / (k - 1)


@dataclass(frozen=True)
class DropColumn:
    """A column that is read (so a header check finds it) but never used.

    ``note``: why (a draft says so of a column that held one value); kept when saved.
    """

    note: str | None = None
    from_data: tuple[str, ...] = ()  # a draft's: the choice to drop was read from the data

    @classmethod
    def from_dict(cls, spec: dict, where: str) -> DropColumn:
        note = spec.get("note")
        return cls(note if isinstance(note, str) else None, _from_data(spec, where))

    def to_dict(self) -> dict:
        return {"type": "drop", **({"note": self.note} if self.note else {}),
                **({"from_data": list(self.from_data)} if self.from_data else {})}


@dataclass(frozen=True)
class Label:
    """The label column and its public classes (K >= 2; the second is positive if K = 2).

    ``na_values``: texts (or numbers) that mean a missing label in this column, besides the
    schema's; a missing label is an error naming its line, never a class.
    """

    column: str | None
    classes: tuple
    from_data: tuple[str, ...] = ()
    na_values: tuple = ()

    @classmethod
    def from_dict(cls, spec: dict, decimal: str = ".") -> Label:
        """Validate a label spec; ``decimal`` is the schema's (``","``: ``"1,5"`` is ``1.5``)."""
        if not isinstance(spec, dict):
            raise TypeError(_err("'label'", 'an object {"column": ..., "classes": [...]}',
                                 spec)
                            + (f' Write "label": {{"column": {json.dumps(spec)}, "classes": '
                               '[negative, positive]}.' if isinstance(spec, str) else ""))
        unknown = set(spec) - {"column", "classes", "na_values", "from_data", "note"}
        if unknown:  # e.g. "name" for "column": the label would be silently incomplete
            raise ValueError(_err("keys of the label", "among column, classes, na_values, "
                                  "from_data, note", sorted(unknown))
                             + did_you_mean(sorted(unknown), ("column", "classes", "na_values"),
                                             LABEL_SPELLINGS)
                             + (" The positive class is the second of 'classes': list it "
                                "second." if unknown & {"positive", "pos_label", "positive_class"}
                                else ""))
        column = spec.get("column")
        if column is not None and not isinstance(column, str):
            raise TypeError(_err("'column' of the label", "a column name", column))
        column = column.strip() if column is not None else None
        classes = spec.get("classes")
        if "classes" not in spec:  # not "Got None instead": the key is missing
            raise ValueError('The label declares no "classes": list the labels its column '
                             'holds, negative first ("classes": [negative, positive]); '
                             "'dpboost train' takes them from --label COL --classes NEG,POS "
                             'only when the schema has no "label" at all.')
        if not isinstance(classes, (list, tuple)) or len(classes) < 2:
            raise ValueError(_err("'classes' of the label", "a list of at least 2 labels",
                                  classes) + list_hint(classes))
        _scalars(classes, "'classes' of the label")
        keys = [category_key(c, decimal) for c in classes]
        texts = [category_text(c, decimal) for c in classes]  # "01" and "1" are two classes
        if None in keys or len(set(texts)) != len(texts):
            raise ValueError(_err("'classes' of the label", "distinct non-empty labels",
                                  list(classes)) + _twice(classes, texts))
        return cls(column, tuple(classes), _from_data(spec, "the label"),
                   _na_tokens(spec, "the label", dict(zip(keys, classes)), decimal))

    def to_dict(self) -> dict:
        out: dict = {"column": self.column, "classes": list(self.classes)}
        if self.na_values:
            out["na_values"] = list(self.na_values)
        if self.from_data:
            out["from_data"] = list(self.from_data)
        return out


ColumnSpec = NumericColumn | CategoricalColumn | OrdinalColumn | DropColumn
