"""Labels of a file against declared classes, for ``train`` and ``predict`` messages.

A label outside the classes is named by its line (or row), how many rows hold one and the
declared classes, all public or positional: never the label itself, which the data's rows
can change (a rare label would be printed for anyone who reads the output).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

import numpy as np

from dpboost.cell_text import AMBIGUOUS, NA_WORDS, DeclaredValues, control_hint

__all__ = [
    "CASE_HINT",
    "CLASSES_HELP",
    "MARKER_HINT",
    "SPELLING_HELP",
    "LabelTally",
    "declared_positions",
    "label_column",
    "label_text",
    "labels_not_classes",
    "missing_refusal",
    "missing_rows",
    "predict_label_refusal",
    "reads_as_marker",
    "row_where",
    "spelt_as_text",
    "split_classes",
    "tally_message",
    "unknown_labels",
    "unknown_refusal",
]

#: What a label message adds when the first label outside the classes is a missing-value
#: marker (``?``, ``NA``, ``n/a``, ``NULL``...), worded as ``train`` words it
#: (:func:`dpboost.tabular._label_error`): the kind of text, never the text.
MARKER_HINT = ("it reads as a missing-value marker: remove the rows without a label; to "
               "only predict them, run predict without --label")

#: What a label message adds when the first label outside the classes is a case variant of
#: one (``YES`` against ``yes``), as ``train`` says it through a schema: the kind of text,
#: never the label nor the class it resembles (README, "Reading files").
CASE_HINT = "labels are case-sensitive and must be written as the classes are written"


#: What ``--classes`` help adds on labels holding a comma (:func:`split_classes`).
CLASSES_HELP = ("a label holding a comma is written with a backslash before it "
                "(--classes 'a\\,b,c': the classes 'a,b' and 'c'; '\\\\' is a backslash) "
                "or the classes are given as a JSON list (--classes '[\"a,b\", \"c\"]')")


#: What ``--classes`` help says on labels such as ``01`` (:func:`spelt_as_text`).
SPELLING_HELP = ("labels written with a leading zero (01, 007) are codes, kept as text as "
                 "written, in the file and in --classes alike; other numbers are numbers")

_LEADING_ZERO = re.compile(r"^\s*[+-]?0\d")


def spelt_as_text(labels) -> bool:
    """Whether a label is written with a leading zero (``01``, ``-007``): a code, not a
    number, so all the labels are kept as written (``1`` would lose the spelling ``01``).

    Examples
    --------
    >>> spelt_as_text(["01", "02"]), spelt_as_text(["-1", "+1", "0", "0.5", "1.0"])
    (True, False)
    """
    return any(isinstance(v, str) and _LEADING_ZERO.match(v) for v in labels)


def label_text(path, label) -> list[str] | None:
    """The label column of a CSV file as written (each cell stripped), else None.

    ``label`` is ``--label`` (None: the last column), found as the numeric reader finds it.
    """
    from dpboost.data import _label_index
    from dpboost.readers import field_count, header_names, read_table, table_format

    if table_format(path) != "csv":
        return None  # a Parquet column's type is its own; LIBSVM labels are numbers
    names = header_names(path, "infer")
    width = len(names) if names is not None else field_count(path)
    j = _label_index(label, names, width, path)
    name = names[j] if names is not None else str(j)
    frame = read_table(path, header=names is not None, text_columns=[name], na_values=None,
                       **({"columns": [name]} if names is not None else {}))
    return [str(v).strip() for v in frame[name].tolist()]


def split_classes(text: str) -> list[str]:
    r"""The labels of ``--classes``: comma-separated, ``\,`` a comma inside a label, or a JSON
    list (text that starts with ``[``).  Each label is stripped of spaces around it.

    Examples
    --------
    >>> split_classes("no, yes")
    ['no', 'yes']
    >>> split_classes(r"a\,b,c")
    ['a,b', 'c']
    >>> split_classes('["a,b", "c", 3]')
    ['a,b', 'c', '3']
    """
    import json

    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"--classes starts with '[' but is not a JSON list ({exc}): "
                             f"write it as [\"a,b\", \"c\"]. Got {text!r} instead.") from None
        if not isinstance(items, list) or not all(
                isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in items):
            raise ValueError("--classes as JSON must be a list of strings or numbers. Got "
                             f"{text!r} instead.")
        return [v.strip() if isinstance(v, str) else json.dumps(v) for v in items]
    parts, current, chars = [], [], iter(text)
    for char in chars:
        if char == "\\":
            nxt = next(chars, "")
            current.append(nxt if nxt in ",\\" else char + nxt)
        elif char == ",":
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    return parts


def declared_positions(labels, classes, decimal: str = ".") -> np.ndarray:
    """Each label's position in ``classes`` by :class:`~dpboost.cell_text.DeclaredValues`
    (as a schema's classes match): -1 outside them or missing, :data:`AMBIGUOUS` for a
    number two classes share (``1`` against ``"01"`` and ``"1"``)."""
    from dpboost.tabular_cells import _factorize

    declared = DeclaredValues(classes, decimal)
    codes, uniques = _factorize(labels, "The label column")
    return np.array([declared.index(u) for u in uniques] + [-1], dtype=int)[codes]


def reads_as_marker(value) -> bool:
    """Whether a label cell is a missing-value marker of :data:`~dpboost.cell_text.NA_WORDS`
    (``?``, ``NA``, ``n/a``, ``NULL``, in any case, spaces around it ignored).

    Examples
    --------
    >>> [reads_as_marker(v) for v in ("?", " NA ", "n/a", "NULL", "no", 1, None)]
    [True, True, True, True, False, False, False]
    """
    return isinstance(value, str) and value.strip().lower() in NA_WORDS


def row_where(path, row: int, header: bool | None = None,
              separator: str | None = None) -> str:
    """``line N`` of a CSV file for data row ``row`` (0-based), a Parquet file's row as
    :func:`~dpboost.parquet_columns.row_words` names it, else (no file, LIBSVM) ``row N``.

    ``header``: whether the file has a header row (default: as the reader infers it);
    ``separator``: the schema's declared separator (:func:`~dpboost.readers.line_of`).
    """
    from dpboost.parquet_columns import row_words
    from dpboost.readers import header_names, line_of, table_format

    kind = None if path is None else table_format(path)
    if kind == "parquet":
        return row_words(row)
    if kind != "csv":
        return f"row {row}"
    if header is None:
        header = header_names(path, "infer") is not None
    line = line_of(path, row, header=header, separator=separator)
    return f"line {line}" if line is not None else f"row {row}"


@dataclass(frozen=True)
class LabelTally:
    """What a refusal of a file's labels says of them, gathered part by part: ``rows`` read,
    the ``missing`` labels (empty or NaN text) and the first one's row, the labels ``bad``
    outside the classes (missing ones included) with the first one's row and text, whether
    every bad label is a class with a trailing ``.`` (``dotted``), and the first number two
    classes share (:data:`~dpboost.cell_text.AMBIGUOUS`).  Rows count from the part's start;
    :meth:`after` moves them behind the rows of the parts before it.

    One tally serves memory, which reads the whole file as one part, and ``predict
    --workers``, which tallies each partition and adds them up in file order
    (:func:`dpboost.cli._bad_values.file_error`): both refuse in the same words (red team,
    session 29, finding 3: the two wordings differed).
    """

    rows: int
    missing: int = 0
    first_missing: int | None = None
    bad: int = 0
    first_bad: int | None = None
    first_label: object = None
    dotted: bool = True
    first_shared: int | None = None
    shared_label: object = None

    @classmethod
    def of(cls, labels, classes, decimal: str = ".", positions=None, *,
           missing: bool = True) -> LabelTally:
        """The tally of ``labels`` (one part of a file) against ``classes``; ``positions``:
        their :func:`declared_positions`, when known; ``missing``: count the missing labels
        too (:func:`missing_rows`)."""
        labels = np.asarray(labels, dtype=object)
        if positions is None:
            positions = declared_positions(labels, classes, decimal)
        lost = missing_rows(labels) if missing else np.array([], dtype=int)
        bad, shared = np.flatnonzero(positions < 0), np.flatnonzero(positions == AMBIGUOUS)
        declared = DeclaredValues(classes, decimal)
        return cls(len(labels), lost.size, _first(lost), bad.size, _first(bad),
                   labels[bad[0]] if bad.size else None,
                   all(_dotted(v, declared) for v in set(labels[bad].tolist())),
                   _first(shared), labels[shared[0]] if shared.size else None)

    def after(self, rows: int) -> LabelTally:
        """This tally with its rows moved ``rows`` further into the file."""
        def move(row):
            return None if row is None else row + rows

        return replace(self, first_missing=move(self.first_missing),
                       first_bad=move(self.first_bad), first_shared=move(self.first_shared))

    @staticmethod
    def total(parts: list[LabelTally]) -> LabelTally:
        """The tally of a file from those of its parts, in file order."""
        out, start = LabelTally(0), 0
        for part in parts:
            part, start = part.after(start), start + part.rows
            out = LabelTally(
                out.rows + part.rows, out.missing + part.missing,
                _earlier(out.first_missing, part.first_missing), out.bad + part.bad,
                _earlier(out.first_bad, part.first_bad),
                out.first_label if out.first_bad is not None else part.first_label,
                out.dotted and part.dotted, _earlier(out.first_shared, part.first_shared),
                out.shared_label if out.first_shared is not None else part.shared_label)
        return out


def missing_rows(labels) -> np.ndarray:
    """The rows of ``labels`` without a label: an empty cell, None or NaN, or the text of a
    NaN (one look at each distinct label: a test file of 300,000 rows spent 2.2 s of its
    6.5 s ``predict`` looking at each row's).

    >>> missing_rows(np.array(["yes", "", None, "no", float("nan"), "yes", " nan "], object))
    array([1, 2, 4, 6])
    """
    from dpboost.cell_text import category_key, is_nan_text

    seen: dict = {}

    def missing(value) -> bool:
        try:
            return seen[value]
        except KeyError:  # equal values (1, 1.0, True) are all present or all missing
            seen[value] = found = category_key(value) is None or is_nan_text(value)
            return found
        except TypeError:  # unhashable
            return category_key(value) is None or is_nan_text(value)

    return np.flatnonzero([missing(v) for v in labels])


def _first(rows: np.ndarray) -> int | None:
    return int(rows[0]) if rows.size else None


def _earlier(a: int | None, b: int | None) -> int | None:
    return a if a is not None else b


def _dotted(label, declared: DeclaredValues) -> bool:
    """Whether ``label`` is a class followed by ``.`` (UCI adult.test's labels)."""
    return (isinstance(label, str) and label.strip().endswith(".")
            and declared.index(label.strip()[:-1]) >= 0)


def unknown_labels(labels, positions: np.ndarray, classes, what: str, path=None, *,
                   header: bool | None = None, decimal: str = ".",
                   training: bool = False, separator: str | None = None) -> str | None:
    """The message for labels whose ``positions`` are negative, or None when there are none.

    It names the first such row (its line in a CSV ``path``), how many rows there are and the
    declared ``classes`` (``what``: ``"--classes"``, ``"the model's classes"``); when every
    such label is a class with a trailing ``.`` (UCI adult.test), it says to remove the dots;
    when the first is a missing-value marker (:func:`reads_as_marker`) or a case variant of a
    class, it says so as ``train`` does (:data:`MARKER_HINT`, :data:`CASE_HINT`: the kind,
    never the label or the class); a number two classes share asks for a text column.
    ``training``: the rows are private training data, so the message is a function of the
    first such row alone (no count, the dots read from that label): the count told two
    refused neighbours apart (red team, session 24).

    Examples
    --------
    >>> labels = np.array(["no", "yes.", "no.", "yes"], dtype=object)
    >>> pos = declared_positions(labels, ["no", "yes"])
    >>> print(unknown_labels(labels, pos, ["no", "yes"], "the declared classes"))
    ... # doctest: +NORMALIZE_WHITESPACE
    2 rows hold a label outside the declared classes ['no', 'yes'] (the first at row 1); the
    labels end in '.', as in UCI adult.test: remove the dots.
    >>> labels = np.array(["no", " YES", "x"], dtype=object)
    >>> pos = declared_positions(labels, ["no", "yes"])
    >>> print(unknown_labels(labels, pos, ["no", "yes"], "--classes"))
    ... # doctest: +NORMALIZE_WHITESPACE
    2 rows hold a label outside --classes ['no', 'yes'] (the first at row 1; labels are
    case-sensitive and must be written as the classes are written).
    """
    tally = LabelTally.of(labels, classes, decimal, positions, missing=False)
    return tally_message(tally, classes, what, path, header=header, decimal=decimal,
                         training=training, separator=separator)


def tally_message(tally: LabelTally, classes, what: str, path=None, *,
                  header: bool | None = None, decimal: str = ".", training: bool = False,
                  separator: str | None = None) -> str | None:
    """:func:`unknown_labels`'s message from a :class:`LabelTally` (its missing labels aside,
    which are counted among the bad ones), or None when no label is outside ``classes``."""
    if tally.first_bad is None:
        return None
    where = row_where(path, tally.first_bad, header, separator)
    prefix = f"{path}: " if path is not None else ""
    if tally.first_shared is not None:
        first = row_where(path, tally.first_shared, header, separator)
        both = DeclaredValues(classes, decimal).sharing(tally.shared_label)
        return (f"{prefix}the label at {first} is a number that matches {what} {both} alike "
                "(they differ only as text): store the label column as text so that each "
                "label names one class.")
    rows = ("a row holds" if training else
            "1 row holds" if tally.bad == 1 else f"{tally.bad} rows hold")
    dotted = (_dotted(tally.first_label, DeclaredValues(classes, decimal)) if training
              else tally.dotted)
    hint = "; the labels end in '.', as in UCI adult.test: remove the dots" if dotted else ""
    control = control_hint(tally.first_label)
    marker = (f"; {MARKER_HINT}" if reads_as_marker(tally.first_label) else
              f"; {CASE_HINT}" if _case_variant(tally.first_label, classes) else
              f"; {control}" if control else "")
    return (f"{prefix}{rows} a label outside {what} {list(classes)} (the first at "
            f"{where}{marker}){hint}.")


def missing_refusal(path, tally, line: int | None) -> str:
    """The refusal of a test file with ``tally.missing`` labels missing, the first at file
    line ``line`` (None: a Parquet file, named by its row)."""
    from dpboost.csv_errors import totals_row_hint
    from dpboost.parquet_columns import row_words

    where = f"line {line}" if line is not None else row_words(tally.first_missing)
    return (f"{path}: the label is missing at {where} ({tally.missing} row"
            f"{'' if tally.missing == 1 else 's'} without a label); accuracy needs a label on "
            "every row: fill them in, or drop --label." + totals_row_hint(path, line))


def unknown_refusal(message: str) -> str:
    """The refusal of a test file whose labels are outside the model's classes, from
    :func:`~dpboost.cli._labels.unknown_labels`' ``message``."""
    if MARKER_HINT in message:  # the marker hint already says to drop --label
        return message
    fix = "write them so, or " if CASE_HINT in message else "spell the labels as the classes, or "
    return f"{message[:-1]}; {fix}drop --label to predict without scoring."


def predict_label_refusal(model, path):
    """What ``predict --workers`` says of a file's labels, as a function of their
    :class:`LabelTally` (for :func:`~dpboost.cli._bad_values.file_error`): the words of
    in-memory ``predict`` (``_check_truth``, then ``_metrics``)."""
    from dpboost.readers import line_of, table_format

    schema = model.schema_
    header = schema.names is None

    def refusal(tally) -> str | None:
        if tally.missing:
            line = (line_of(path, tally.first_missing, header=header,
                            separator=schema.separator)
                    if table_format(path) == "csv" else None)
            return missing_refusal(path, tally, line)
        message = tally_message(tally, model.classes_.tolist(), "the model's classes", path,
                                header=header, decimal=schema.decimal,
                                separator=schema.separator)
        return None if message is None else unknown_refusal(message)
    return refusal


def _case_variant(label, classes) -> bool:
    """Whether ``label`` (spaces around it ignored) is a class in another case.

    Examples
    --------
    >>> _case_variant(" YES ", ["no", "yes"]), _case_variant("Yes.", ["no", "yes"])
    (True, False)
    """
    if not isinstance(label, str):
        return False
    key = unicodedata.normalize("NFC", label.strip()).casefold()
    return any(unicodedata.normalize("NFC", str(c).strip()).casefold() == key for c in classes)


def label_column(path, label: str | None) -> str:
    """How a message names the label column: ``--label``'s, or the last column's (and its
    header name when ``path`` has one)."""
    if label is not None:
        return f"the label column {label!r}"
    from dpboost.readers import header_names

    try:
        names = header_names(path, "infer")
    except (OSError, ValueError):
        names = None
    return "the last column" + (f" {names[-1]!r}" if names else "") + " (no --label given)"


def labels_not_classes(path, label: str | None, y) -> str | None:
    """The one-line refusal of labels that are not classes when none were declared, or None.

    Without ``--classes`` (or a schema's) the classes are read from the labels, and a column
    of decimals (the user trial of session 26: the last column taken as the label by default
    was a feature) failed inside scikit-learn as an internal error with a traceback.  The
    message names the column taken as the label, never a value.
    """
    from sklearn.utils.multiclass import type_of_target

    try:
        kind = type_of_target(y)
    except ValueError:
        kind = "unknown"
    if kind in ("binary", "multiclass"):
        return None
    return (f"{path}: {label_column(path, label)} holds values that are not class labels "
            "(numbers with decimals, or a mix of kinds); name the label column with --label "
            "COL and declare its classes with --classes NEG,POS.")
