"""What a person writing a schema by hand often types, and the spelling the schema uses.

A schema is written from a data dictionary, often by someone who has never read the module
docstring of :mod:`dpboost.schema`: ``"number"`` for ``"numeric"``, ``"min"`` for ``"lower"``,
``"values"`` for ``"categories"``.  The schema refuses such a key or type in one line, and
:func:`did_you_mean` adds the spelling to write instead.
"""

from __future__ import annotations

import re

__all__ = ["LABEL_SPELLINGS", "SPELLINGS", "TRANSFORM_SPELLINGS", "did_you_mean", "json_mistake",
           "key_hint", "missing_hint"]

#: A word typed by hand (lower case), and the schema's word for it.
SPELLINGS = {
    "number": "numeric", "numerical": "numeric", "float": "numeric", "int": "numeric",
    "integer": "numeric", "continuous": "numeric", "real": "numeric", "double": "numeric",
    "category": "categorical", "categories": "categorical", "nominal": "categorical",
    "string": "categorical", "str": "categorical", "text": "categorical",
    "enum": "categorical", "bool": "categorical", "boolean": "categorical",
    "factor": "categorical", "ignore": "drop", "id": "drop", "skip": "drop",
    "min": "lower", "max": "upper", "low": "lower", "high": "upper", "minimum": "lower",
    "maximum": "upper", "values": "categories", "levels": "categories",
    "choices": "categories", "name": "column", "labels": "classes",
    "na": "na_values", "nas": "na_values", "na_value": "na_values", "nan_values": "na_values",
    "missing_values": "na_values", "null_values": "na_values", "nulls": "na_values",
    "na_strings": "na_values", "na_tokens": "na_values",
    "ordered": "ordinal", "ordered_categorical": "ordinal", "ordered categorical": "ordinal",
    "ordered-categorical": "ordinal", "likert": "ordinal",
    "binary": "categorical", "categoric": "categorical", "cat": "categorical",
    "dichotomous": "categorical", "exclude": "drop", "identifier": "drop", "none": "drop",
    "transformation": "transform", "scale": "transform", "nbins": "bins", "n_bins": "bins",
    "num_bins": "bins", "bin_edges": "edges", "cutpoints": "edges", "breaks": "edges",
}

#: A transform typed by hand, and the schema's.  The base of a logarithm is a constant
#: factor, which the scaling onto [-1, 1] cancels: ``log10`` encodes as ``log`` does.
TRANSFORM_SPELLINGS = {
    "log1p": "log", "ln": "log", "log10": "log", "log2": "log", "logarithm": "log",
    "logarithmic": "log", "log-transform": "log", "signed_log": "signed-log",
    "signedlog": "signed-log", "signed log": "signed-log", "symlog": "signed-log",
    "asinh": "signed-log", "arcsinh": "signed-log", "slog": "signed-log",
}


#: Keys of the whole file, and keys of a numeric or of a categorical column (lower case).
FILE_KEYS = {"decimal", "thousands", "separator", "names", "index_base", "n_features",
             "norm_bound"}
NUMERIC_KEYS = {"lower", "upper", "transform", "bins", "edges", "prefix", "suffix"}


def key_hint(unknown, place: str = "top") -> str:
    """What to write for keys that are not one word for another: ``"range": [0, 120]``,
    ``"log": true``, ``"impute"``, a key of a column written at the top level, or a key
    written in the wrong place (``place``: ``"top"``, ``"numeric"`` or ``"categorical"``,
    where the keys were found).

    Examples
    --------
    >>> key_hint(["range"]).split(" (")[0]
    ' Write the range as two keys, "lower" and "upper"'
    >>> key_hint(["thousands"], "numeric").split(":")[0]
    ' "thousands" is a key of the whole schema, written at its top level beside "columns"'
    >>> key_hint(["upper"], "categorical").split(";")[0]
    ' "upper" belongs to a numeric column ("type": "numeric")'
    """
    words = {str(k).strip().lower() for k in unknown}
    if place != "top" and words & FILE_KEYS:
        word = sorted(words & FILE_KEYS)[0]
        return (f' "{word}" is a key of the whole schema, written at its top level beside '
                '"columns": it applies to every column of the file.')
    if place == "categorical" and words & NUMERIC_KEYS:
        word = sorted(words & NUMERIC_KEYS)[0]
        return (f' "{word}" belongs to a numeric column ("type": "numeric"); a categorical '
                'or ordinal column lists its "categories".')
    if place == "numeric" and "categories" in words:
        return (' "categories" belongs to a categorical or ordinal column ("type": '
                '"categorical" or "ordinal"); a numeric column declares "lower" and "upper".')
    if words & {"range", "bounds", "limits", "interval", "domain"}:
        word = sorted(words & {"range", "bounds", "limits", "interval", "domain"})[0]
        return (' Write the range as two keys, "lower" and "upper" (e.g. "lower": 0, '
                f'"upper": 120), not "{word}".')
    if words & {"log", "log_transform", "log1p"}:
        return ' Write "transform": "log" (or "signed-log" for values below zero).'
    if words & {"impute", "imputation", "fill", "fillna", "fill_value", "default"}:
        return (' Write "missing": "zero" or "indicator": a missing value is encoded, never '
                "filled with a value read from the data.")
    if place == "top" and words & {"missing", "transform", "lower", "upper", "categories",
                                   "type"}:
        return (" That key belongs inside a column's entry under \"columns\" (the top-level "
                'keys that apply to every column are "na_values", "decimal", "thousands" and '
                '"separator").')
    return ""


def missing_hint(missing) -> str:
    """What to write for a ``"missing"`` that would fill a value read from the data."""
    if isinstance(missing, str) and missing.strip().lower() in (
            "mean", "median", "mode", "impute", "average", "most_frequent", "ffill", "drop",
            "skip", "remove"):
        return (' A mean, median or mode would be read from the data, outside the private '
                'mechanism, and rows are never dropped: write "zero" (the default) or '
                '"indicator" (a feature that says the value is missing).')
    return ""

#: The same for the keys of ``"label"``.
LABEL_SPELLINGS = {"values": "classes", "categories": "classes", "levels": "classes",
                   "target": "column", "col": "column"}


def did_you_mean(got, allowed, spellings: dict | None = None) -> str:
    """`` Write 'numeric' for 'number'.`` for a known misspelling of an allowed word, else ``""``.

    Examples
    --------
    >>> did_you_mean("number", ("numeric", "categorical", "drop"))
    " Write 'numeric' for 'number'."
    >>> did_you_mean(["min", "colour"], ("lower", "upper"))
    " Write 'lower' for 'min'."
    """
    words = [got] if isinstance(got, str) else list(got) if isinstance(got, list) else []
    hints = []
    for word in words:
        if not isinstance(word, str):
            continue
        key = word.strip().lower()
        right = key if key in allowed else {**SPELLINGS, **(spellings or {})}.get(key)
        if right in allowed and right != word:
            hints.append(f"{right!r} for {word!r}")
    return f" Write {', '.join(hints)}." if hints else ""


def json_mistake(text: str, pos: int) -> str:
    """What to change for the JSON slips of a schema typed by hand, at the parser's error
    position ``pos`` of ``text`` (a comment, single quotes, a trailing comma, Python's
    ``True``/``None``), else ``""``.

    Examples
    --------
    >>> json_mistake('{"a": 1,\\n}', 9)
    ' A comma at line 1 ends an object or a list: JSON allows none there; delete it.'
    >>> json_mistake("{'a': 1}", 1)
    ' JSON writes names and texts in double quotes ("), not single ones.'
    >>> json_mistake('{"upper": NaN00}', 13)
    ' NaN and Infinity are not allowed: a bound must be a finite number.'
    """
    rest, before = text[pos:].lstrip(), text[:pos].rstrip()
    if rest.startswith(("//", "/*", "#")):
        return ' JSON has no comments: delete it, or write it as a "note" key.'
    if rest.startswith("'"):
        return ' JSON writes names and texts in double quotes ("), not single ones.'
    if before.endswith(",") and rest[:1] in ("}", "]"):
        line = text.count("\n", 0, len(before)) + 1
        return (f" A comma at line {line} ends an object or a list: JSON allows none there; "
                "delete it.")
    if (re.search(r"(?:NaN|Infinity)$", before)  # NaN00000: the parser stops after NaN
            or re.match(r"[+-]?(?:nan|inf(?:inity)?)\b", rest, re.IGNORECASE)):
        return " NaN and Infinity are not allowed: a bound must be a finite number."
    for python, json_word in (("True", "true"), ("False", "false"), ("None", "null")):
        if rest.startswith(python):
            return f" JSON writes {json_word}, not Python's {python}."
    return ""
