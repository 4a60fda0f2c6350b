"""``dpboost schema``: draft a schema FROM THE DATA, for the user to replace with public facts.

The draft (:func:`dpboost.schema_draft.draft_schema`) holds the observed types, min/max, categories
and label classes, each marked ``"from_data"``, under a note saying it is not private.  It is a
starting point for writing the public schema by hand (from a data dictionary, units, laws);
``dpboost train`` warns with ``PrivacyLeakWarning`` while any mark is left.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from dpboost.cli._options import add_label, add_out

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "schema",
        help="draft a schema from a data file (NOT private: review and replace it)",
        description="Read a CSV or Parquet file and write a draft schema (types, observed "
                    "min/max, observed categories, suggested transforms). The draft is read "
                    "from the data and is not private: replace every value marked "
                    "'from_data' with a public fact before training with it.",
    )
    parser.add_argument("data", metavar="DATA", help="CSV (any separator, .gz too) or Parquet")
    add_label(parser, help="the label column (drafted as the label, never as a feature)",
              default_text="none")
    add_out(parser, required=True, metavar="SCHEMA.json", help="where to write the draft")
    parser.add_argument("--max-categories", type=int, default=50, metavar="K",
                        help="a text column with more distinct values is drafted as 'drop' "
                             "(default: 50)")
    parser.add_argument("--no-header", action="store_true",
                        help="the file has no header row: columns are named 0, 1, ... and "
                             "the draft lists them in 'names' (default: off)")
    parser.add_argument("--decimal", choices=(".", ","), default=".",
                        help="the decimal mark of the file's numbers: ',' reads 12,5 as 12.5 "
                             "and writes \"decimal\": \",\" in the draft (default: '.')")
    parser.add_argument("--thousands", choices=(",", ".", "'", " "), default=None,
                        help="the file's thousands separator: ',' reads 12,345 as 12345 where "
                             "every cell of a column is grouped so, and writes \"thousands\" "
                             "in the draft (default: none)")
    parser.add_argument("--separator", type=_separator_flag, default=None,
                        metavar="{',',';',tab,'|',whitespace}",
                        help="split every line of a CSV with this separator instead of the "
                             "one line 1 suggests, and write it as the draft's "
                             "\"separator\" (a tab may be given as 'tab'; default: taken "
                             "from line 1)")
    parser.set_defaults(func=run)
    return parser


def _separator_flag(value: str) -> str:
    """``--separator``: one of a schema's separators, ``tab`` for a tab."""
    from dpboost.separators import SEPARATORS

    value = "\t" if value in ("tab", "\\t") else value
    if value not in SEPARATORS:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a separator: give ',', ';', tab, '|' or whitespace")
    return value


def _without_thousands(frame, thousands: str, decimal: str):
    """``frame`` with the separators dropped from each text column whose cells are all
    numbers grouped by ``thousands`` (words meaning missing aside), as the encoder reads them
    under the schema's ``"thousands"``; other columns as they are."""
    import pandas as pd

    from dpboost.cell_text import NA_WORDS, is_decimal_number, is_nan_text
    from dpboost.thousands import drop_thousands

    def number(v) -> bool:
        return (isinstance(v, str) and is_decimal_number(
            v if decimal == "." else v.replace(decimal, ".")))

    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        text = column.map(lambda v: v.strip() if isinstance(v, str) else v)
        present = text[text.map(lambda v: isinstance(v, str) and v != "" and not is_nan_text(v)
                                and v.lower() not in NA_WORDS)]
        dropped = present.map(lambda v: drop_thousands(v, thousands, decimal))
        if len(present) and (dropped != present).any() and dropped.map(number).all():
            frame[name] = text.where(~text.index.isin(present.index), dropped)
    return frame


def _unread_numbers(frame, draft, decimal: str = ".",
                    thousands: str | None = None) -> dict[str, str]:
    """Columns drafted as 'drop' or 'categorical' whose cells are numbers written for people
    ('1,234', '12,5', '40%', '72 kg'), with the hint saying what to change; the draft would
    lose them, or list them as categories, unsaid.  Identifiers and dates are left out: the
    draft says why it dropped them."""
    from dpboost.cell_text import NA_WORDS, is_nan_text
    from dpboost.schema import NumericColumn
    from dpboost.schema_draft import IDENTIFIER_NOTE, date_formats

    found = {}
    for name, spec in draft.columns.items():
        if (isinstance(spec, NumericColumn) or name not in frame.columns
                or getattr(spec, "note", None) == IDENTIFIER_NOTE  # dropped by design
                or date_formats(frame[name])):  # dates: said apart
            continue
        text = frame[name].dropna().astype(str).str.strip()
        text = text[(text != "") & ~text.map(is_nan_text).astype(bool)]
        marked = text.str.lower().isin(NA_WORDS)  # 'NA', '?' among them mean missing
        markers, text = sorted(set(text[marked])), text[~marked]
        digits = text[text.str.contains(r"\d", regex=True)]
        if digits.str.contains(_BAND, regex=True).any():
            continue  # "1 to 3", "18-25": bands, categories of two numbers, not one number
        if len(text) and len(digits) >= 0.9 * len(text):
            hint = _column_hint(digits, decimal, thousands)
            if hint and markers:
                hint += (f"; and list {markers[:5]} (its cells among the numbers) in the "
                         "column's 'na_values'")
            if hint:
                found[name] = hint.lstrip("; ")
    return found


#: Two numbers joined by a dash or a word of two letters or more (``1 to 3``, ``18-25``,
#: ``4 bis 9``; not ``1,5E-3``): a cell of a band, which no unit, sign or separator turns into
#: one number (red team, session 37: a column of ``None``, ``1 to 3``, ``4 to 9``, ``10 or
#: more`` was told to declare a unit and to list its commonest category, ``None``, as
#: missing).
_BAND = r"\d\s*(?:[-\u2013]|[^\W\d_]{2,})\s*[-+]?\d"


#: Digits in a group of three after a separator (1,234  1'234  1 234  1.234).
_GROUPED = r"\d[,.'\s]\d{3}(?!\d)"


def _column_hint(digits, decimal: str, thousands: str | None) -> str:
    """The hint for a column's cells (``digits``: those holding a digit), from its first 50
    and its first with digits grouped by three: without --thousands, a hint naming the
    separator (which names the flag) before any other, so a currency column whose first cells
    are under 1,000 (``$52.40``) is not told only to declare ``"prefix"`` when a later cell,
    ``$5,879.60``, needs --thousands too (user trial 27u, finding 4); else the first hint, as
    before.  Never a cell itself: a hint says what kind of text it is."""
    cells = [*digits.head(50), *digits[digits.str.contains(_GROUPED, regex=True)].head(1)]
    hints = [h for h in (_cell_hint(v, decimal, thousands) for v in cells) if h]
    grouped = [h for h in hints if thousands is None and '"thousands"' in h]
    return (grouped or hints or [""])[0]


def _number_notes(draft, unread: dict, args) -> dict[str, str]:
    """The note for each column of ``unread`` drafted as 'drop' for its many distinct texts, in
    place of "list a public set of categories by hand", which is wrong advice for a column of
    numbers written for people (``$5,879.60``: user trial 27u, finding 4).  One fixed text
    pointing to the hint :func:`run` prints on stderr, never the hint itself: a note stays in
    the model file (:class:`~dpboost.schema.DropColumn`) once the draft's ``from_data`` mark on
    the column's type is dealt with, and the hint lists the missing-value words found among
    the column's cells, so one row (``?`` for ``$412.30``) changed the published file (red
    team, session 27).  Which columns get it is the draft's marked choice to drop them."""
    from dpboost.schema import DropColumn
    from dpboost.schema_draft import many_values_note

    many = many_values_note(args.max_categories)
    note = ("drafted as drop: its cells look like numbers but are not read as numbers (read "
            "from the data); 'dpboost schema' printed how to read them (--thousands, --decimal, "
            "a \"prefix\" or \"suffix\", \"na_values\")")
    return {name: note for name in unread
            if isinstance(draft.columns[name], DropColumn) and draft.columns[name].note == many}


def _cell_hint(value: str, decimal: str, thousands: str | None) -> str:
    """:func:`~dpboost.tabular_cells._number_hint` of a cell, or, where --thousands was given
    and the cell holds that separator out of place (``6,8`` under --thousands ','), a hint
    that says so rather than advise the flag again.  Never the cell itself."""
    from dpboost.tabular_cells import _number_hint
    from dpboost.thousands import drop_thousands

    if thousands is not None and drop_thousands(value, thousands, decimal) is None:
        mark = "a space" if thousands == " " else f"a {thousands!r}"
        return (f"; it holds {mark} that --thousands {_quoted(thousands)} (given) does not "
                "read: a thousands separator stands between every group of three digits "
                f"(1{thousands}234{thousands}567), after a first group of one to three digits "
                "that does not start "
                f"with 0, so this one is another mark (a decimal mark?); a file has one "
                f"decimal mark ({decimal!r} here) and one thousands separator: re-save the "
                "column's numbers with them")
    return _number_hint(value, decimal)


def _quoted(mark: str) -> str:
    """A separator as a shell reads it: ``','``, ``"'"``, ``' '``."""
    return f'"{mark}"' if mark == "'" else f"'{mark}'"


#: The decimal-comma hint of a cell, as the draft gives it: the flag first.
_DECLARE, _PASS_OR_DECLARE = 'declare "decimal"', 'pass --decimal , or declare "decimal"'


def _with_flags(hint: str, decimal: str = ".", thousands: str | None = None) -> str:
    """The hint with this command's flags first (--decimal, --thousands), never a flag already
    given: under --thousands X a hint to add "thousands": X says that X is given and this
    cell's separators do not group digits by three; one to add another separator Y says to
    pass --thousands Y instead."""
    import re

    if decimal == "." and thousands != ",":  # --decimal , beside --thousands , is refused
        hint = hint.replace(_DECLARE, _PASS_OR_DECLARE)

    def flag(found) -> str:
        mark = found.group(1)
        if thousands is None:
            return (f'pass --thousands {_quoted(mark)} or add "thousands": "{mark}"'
                    + (found.group(2) or ""))
        if mark != thousands:
            return (f"pass --thousands {_quoted(mark)} instead of {_quoted(thousands)} (or "
                    f'write "thousands": "{mark}" in the draft)')
        return (f"re-save it with every {mark!r} between groups of three digits (--thousands "
                f"{_quoted(mark)} is given, and reads only those)")

    return re.sub(r'add "thousands": "(.)"( to the schema)?', flag, hint, count=1)


def _say_case_variants(draft) -> None:
    """One stderr line naming the columns (and the label) whose drafted categories or classes
    differ only in case (``Yes``, ``yes``, ``YES``): the draft lists each as its own, which
    makes a label of three such spellings a multiclass task, unsaid."""
    from dpboost.schema import CategoricalColumn, OrdinalColumn

    def varies(values) -> bool:
        texts = [v for v in values if isinstance(v, str)]
        return len({v.casefold() for v in texts}) < len(texts)

    names = [f"{name!r}" for name, spec in draft.columns.items()
             if isinstance(spec, (CategoricalColumn, OrdinalColumn)) and varies(spec.categories)]
    if draft.label is not None and varies(draft.label.classes):
        names.append(f"the label {draft.label.column!r}")
    if names:
        print(f"drafted values that differ only in case, each as its own category or class: "
              f"{', '.join(names[:5])}{' and more' if len(names) > 5 else ''}; case is never "
              "folded: make the file write each value one way (a label written otherwise is "
              "an error, a category is encoded as other).", file=sys.stderr)


def _say_why_dropped(draft, explained: set, max_categories: int) -> None:
    """One stderr line per reason a column was drafted as 'drop', from the draft's notes: an
    identifier, no value, one value, dates, more distinct texts than --max-categories
    (numbers written for people, in ``explained``, are explained elsewhere)."""
    from dpboost.schema import DropColumn
    from dpboost.schema_draft import (CONSTANT_NOTE, DATE_ADVICE, DATE_NOTE_START,
                                      EMPTY_NOTE, IDENTIFIER_NOTE, many_values_note)

    kinds = {IDENTIFIER_NOTE: [], EMPTY_NOTE: [], CONSTANT_NOTE: [],
             many_values_note(max_categories): [], DATE_NOTE_START: []}
    for name, spec in draft.columns.items():
        note = spec.note if isinstance(spec, DropColumn) else None
        if note is not None and note.startswith(DATE_NOTE_START):
            note = DATE_NOTE_START
        if name not in explained and note in kinds:
            kinds[note].append(name)
    identifiers, empty, constant, many, dates = kinds.values()

    def shown(names: list) -> str:
        return f"{names[:10]}{' and more' if len(names) > 10 else ''}"

    if identifiers:
        print(f"drafted as 'drop', named like an identifier and holding a different value on "
              f"every row: {shown(identifiers)}; declare such a column by hand if it is a "
              "feature.", file=sys.stderr)
    if empty:
        print(f"drafted as 'drop', holding no value: {empty}.", file=sys.stderr)
    if constant:
        print(f"drafted as 'drop', holding one value on every row (a note in the draft says "
              f"so): {shown(constant)}; declare such a column by hand if it varies in the data "
              "you train on.", file=sys.stderr)
    if dates:
        print(f"drafted as 'drop', every cell a date (the column's note says in which "
              f"format): {shown(dates)}; {DATE_ADVICE}.", file=sys.stderr)
    if many:
        print(f"drafted as 'drop', holding more than {max_categories} distinct texts "
              f"(--max-categories): {shown(many)}; list a public set of categories by hand, "
              "or raise --max-categories.", file=sys.stderr)


def _say_date_categories(frame, draft) -> None:
    """One stderr line naming the columns of dates drafted as categories (no more dates than
    --max-categories): the dates the file holds, which a public list must replace."""
    from dpboost.schema import CategoricalColumn
    from dpboost.schema_draft import DATE_ADVICE, date_formats

    names = [name for name, spec in draft.columns.items()
             if isinstance(spec, CategoricalColumn) and name in frame.columns
             and date_formats(frame[name])]
    if names:
        print(f"drafted as 'categorical' over the dates the file holds, every cell a date: "
              f"{names[:10]}{' and more' if len(names) > 10 else ''}; list public dates "
              f"instead (a date the list lacks is encoded as other), or: {DATE_ADVICE}.",
              file=sys.stderr)


def _say_positive_class(draft) -> None:
    """One stderr line saying which label class the draft made positive (the second), and how
    to swap: a pair such as no/yes or Nein/Ja is ordered negative first, others sorted."""
    from dpboost.schema_draft import ordered_classes

    classes = list(draft.label.classes) if draft.label is not None else []
    if len(classes) != 2 or not all(isinstance(c, str) for c in classes) or (
            classes[1].startswith("<declare")):  # one class in the file: said in the draft
        return
    why = ("read as a no/yes pair" if ordered_classes(classes)[1] else
           "the later in sorted order; not read as a no/yes pair")
    print(f"the draft makes {classes[1]!r} the positive class of the label "
          f"{draft.label.column!r} (the second of its 'classes': {why}); to make {classes[0]!r} "
          "positive, swap the two in the draft's \"classes\".", file=sys.stderr)


def _integral(values) -> bool:
    """A column of numbers that are all whole (ints, or floats with missing cells)."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return False
    present = values.dropna().to_numpy(np.float64)
    return bool(len(present)) and bool(np.all(np.isfinite(present))) and bool(
        np.all(np.floor(present) == present))


def _named_columns(path, no_header: bool, separator: str | None = None) -> list[str] | None:
    """The header's names that a schema can name: non-empty and unrepeated (None: read every
    column).

    A spreadsheet's trailing separators (``a,b,y,,``) leave columns without a name, and a
    header may name two columns alike (``a,b,a``); a schema cannot name either, so the draft
    leaves them out and says so.  Before, the draft stopped at "the header row names the
    column(s) [...] more than once", and a schema could be drafted for no column.
    """
    from dpboost.readers import header_names

    names = None if no_header else header_names(path, separator=separator)
    counts = Counter(names or ())
    repeated = sorted({n for n in names or () if n and counts[n] > 1})
    if not names or ("" not in names and not repeated):
        return None
    empty = [j + 1 for j, name in enumerate(names) if not name]
    named = [name for name in names if name and name not in repeated]
    if not named:
        raise ValueError(f"{path}: the header row names no column once; name them, or pass "
                         "--no-header if the file has no header row.")
    if empty:
        why = ("; trailing separators?" if empty[0] > len(names) - len(empty) else
               "; a row index saved without a name?" if empty == [1] else "")
        print(f"{len(empty)} column{'s' if len(empty) > 1 else ''} without a name in the "
              f"header row (position{'s' if len(empty) > 1 else ''} "
              f"{', '.join(map(str, empty))}{why}) left out of the draft: a schema names the "
              "columns it uses.", file=sys.stderr)
    if repeated:  # a first line that looks like data was refused before (never shown)
        print(f"column name{'s' if len(repeated) > 1 else ''} {repeated} repeated in the header "
              "row: those columns are left out of the draft; rename them in the file to use "
              "them.", file=sys.stderr)
    return named


def _refuse_a_row_as_header(path, label: str | None, separator: str | None = None) -> None:
    """Refuse a CSV file whose first line looks like data (a number among its cells, and no
    name above a number: :func:`~dpboost.column_check.first_line_is_data`), unless ``--label``
    names one of its cells that is not a number (the user read it as a header).

    Read as a header, that row's cells became the draft's column names: a private row in a
    file meant to be reviewed and published, where names are never marked ``"from_data"``,
    and the row itself was missing from the draft.  Before session 23 the draft was written
    with a warning after it; ``dpboost train`` without a schema refuses such a line 1 too.
    """
    from dpboost.cell_text import is_decimal_number
    from dpboost.column_check import first_line_is_data
    from dpboost.readers import header_names, table_format

    if table_format(path) != "csv":
        return
    names = header_names(path, separator=separator)
    if not names or not first_line_is_data(path, names):
        return
    if label is not None and label in names and not is_decimal_number(label):
        return  # --label names a column of that line: the user reads it as a header
    missing = (f"--label {label!r} is not a column of {path}; its first line"
               if label is not None and label not in names else f"{path}: its first line")
    raise ValueError(f"{missing} looks like data, not a header (not shown: a row "
                     "is private), so no draft was written: its cells would have become the "
                     "draft's column names. If the file has no header row, pass --no-header "
                     "(the columns are then named 0, 1, ...); if line 1 is a header, give "
                     "its columns names that are not numbers, or name the label with --label.")


def _looks_like_a_header(path, separator: str | None) -> bool:
    """Whether line 1 reads as a header by the readers' rule (a cell that is not a number
    above a number; red team, session 36: ``--no-header`` on a file with a header drafted
    its label classes as ``['0', '1', 'y']`` without a word).  A draft reads the data."""
    from dpboost.readers import header_names

    try:
        return header_names(path, "infer", separator=separator) is not None
    except ValueError:
        return False


def _read_separator(path, decimal: str) -> str:
    """The separator the draft read a headerless file with, as a schema declares it."""
    from dpboost.readers import _first_lines
    from dpboost.separators import file_delimiter

    found = file_delimiter(path, _first_lines(Path(path), 1)[0][1], decimal)
    return "whitespace" if found is None else found


def run(args) -> int:
    import pandas as pd

    from dpboost._io import check_writable
    from dpboost.readers import read_table, table_format
    from dpboost.schema import Schema
    from dpboost.schema_draft import draft_schema

    if args.max_categories < 1:
        raise ValueError(f"--max-categories must be an int >= 1. Got {args.max_categories} "
                         "instead.")
    check_writable(args.out, what="--out", inputs=[("data", args.data)])  # before reading
    separator = args.separator if table_format(args.data) == "csv" else None
    if args.separator is not None and separator is None:
        raise ValueError(f"--separator splits the lines of a CSV file; {args.data} is "
                         f"{table_format(args.data)}: drop --separator.")
    if not args.no_header:
        _refuse_a_row_as_header(args.data, args.label, separator)
    frame = read_table(args.data, header=not args.no_header, decimal=args.decimal,
                       columns=_named_columns(args.data, args.no_header, separator),
                       text_columns=[args.label] if args.label is not None else [],
                       separator=separator)
    if args.thousands is not None:
        if args.thousands == args.decimal:
            raise ValueError(f"--thousands {args.thousands!r} is the decimal mark; give "
                             "another separator, or --decimal.")
        frame = _without_thousands(frame, args.thousands, args.decimal)
    integers = [c for c in frame.columns if _integral(frame[c])]
    if integers and args.decimal == "." and table_format(args.data) == "csv":
        # their text, for codes such as 02134 (a number drops the zero)
        text = read_table(args.data, header=not args.no_header, decimal=args.decimal,
                          columns=integers, text_columns=integers, separator=separator)
        chosen, attrs = set(integers), frame.attrs
        frame = pd.concat([text[c] if c in chosen else frame[c] for c in frame.columns],
                          axis=1)  # not frame[c] = text[c]: 20,000 columns, 7 s
        frame.attrs = attrs
    if args.no_header and args.label is not None and args.label not in frame.columns:
        raise ValueError(f"--label {args.label!r}: a file without a header has columns named "
                         f"0 to {frame.shape[1] - 1}.")
    if args.label is not None and args.label not in frame.columns:
        raise ValueError(f"--label {args.label!r} is not a column of {args.data}; its columns "
                         f"are {[str(c) for c in frame.columns][:30]}.")
    draft = draft_schema(frame, args.label, max_categories=args.max_categories,
                         decimal=args.decimal, thousands=args.thousands)
    unread = _unread_numbers(frame, draft, args.decimal, args.thousands)
    noted = _number_notes(draft, unread, args)
    if (args.no_header or args.decimal != "." or args.thousands is not None or noted
            or separator is not None):
        content = draft.to_dict()
        for name, note in noted.items():
            content["columns"][name]["note"] = note
        if args.no_header:
            content["names"] = [str(c) for c in frame.columns]
            if table_format(args.data) == "csv":  # train then reads as the draft did
                content["separator"] = separator or _read_separator(args.data, args.decimal)
        elif separator is not None:
            content["separator"] = separator
        if args.decimal != ".":
            content["decimal"] = args.decimal
        if args.thousands is not None:
            content["thousands"] = args.thousands
        draft = Schema.from_dict(content)
    draft.save(args.out)
    marked = draft.draft_marks()
    label_marked = draft.label is not None and bool(draft.label.from_data)
    columns_marked = len(marked) - label_marked
    print(f"wrote a DRAFT schema to {args.out}: {len(draft.columns)} columns, "
          f"{columns_marked} of them with values read from the data"
          f"{', and the label classes' if label_marked else ''}.", file=sys.stderr)
    print("It is NOT private: replace every value marked 'from_data' with a public fact "
          "(a data dictionary, a unit, a law) and delete the mark; 'dpboost train' warns "
          "while a mark is left.", file=sys.stderr)
    if args.label is None:  # from the flags alone: no column is guessed from the data
        print("no --label given: the draft has no \"label\", and a label column in the file "
              "is drafted as a feature, which 'dpboost train' refuses; re-run with --label COL "
              "(the column to predict) to draft its classes, or delete that column from "
              "\"columns\" and train with --label COL --classes NEG,POS.", file=sys.stderr)
    na_columns = {name: list(spec.na_values) for name, spec in draft.columns.items()
                  if getattr(spec, "na_values", ())}
    if na_columns:
        print(f"cells among numbers were read as missing and listed in the column's "
              f"'na_values' (marked 'from_data'): {_first_five(na_columns)}; delete any that "
              "is a value, and keep those a public codebook lists.", file=sys.stderr)
    _say_missing_words_as_categories(draft)
    if draft.separator is not None and separator is None:
        print(f"the draft declares \"separator\": {json.dumps(draft.separator)}, as line 1 "
              "was read: check it, so that no row of a headerless file chooses how the "
              "others are split.", file=sys.stderr)
    if args.no_header and table_format(args.data) == "csv" and _looks_like_a_header(
            args.data, separator):
        print("line 1 holds no number where line 2 does, as a header row would: if it is "
              "one, re-run without --no-header (read as a row, its names became categories "
              "and the columns 0, 1, ... were drafted from them).", file=sys.stderr)
    _say_case_variants(draft)
    _say_positive_class(draft)
    _say_date_categories(frame, draft)
    _say_why_dropped(draft, set(unread), args.max_categories)
    for name, hint in list(unread.items())[:3]:
        kind = draft.columns[name].to_dict()["type"]
        print(f"column {name!r} was drafted as {kind!r}: its cells look like numbers but are not "
              f"read as numbers; {_with_flags(hint, args.decimal, args.thousands)}.",
              file=sys.stderr)
    if len(unread) > 3:
        more = ", ".join(f"{name!r} ({draft.columns[name].to_dict()['type']})"
                         for name in list(unread)[3:])
        print(f"and {len(unread) - 3} more columns whose cells look like numbers but are not "
              f"read as numbers, drafted as: {more}.", file=sys.stderr)
    _say_dot_groups(frame, draft, unread, args)
    return 0


def _say_dot_groups(frame, draft, unread: dict, args) -> None:
    """One stderr line naming the columns drafted as numbers whose every cell with a ``.``
    groups digits by three (``16.310``), when another column writes decimal commas: in such a
    file the ``.`` is likely a thousands separator, and the draft read 16.310 as 16.31, a
    thousand times too small, unsaid (red team, session 37: a ``;`` file, family income)."""
    from dpboost.readers import read_table, table_format
    from dpboost.schema import NumericColumn

    if (args.decimal != "." or table_format(args.data) != "csv" or args.no_header
            or not any("decimal comma" in hint for hint in unread.values())):
        return
    numeric = [name for name, spec in draft.columns.items()
               if isinstance(spec, NumericColumn) and name in frame.columns]
    if not numeric:
        return
    cells = read_table(args.data, columns=numeric, text_columns=numeric,  # as written
                       separator=args.separator if args.separator else None)
    grouped = []
    for name in numeric:
        text = cells[name].dropna().astype(str).str.strip()
        dotted = text[text.str.contains(".", regex=False)]
        if len(dotted) and dotted.str.fullmatch(r"[+-]?\d{1,3}(?:\.\d{3})+").all():
            grouped.append(name)
    if grouped:
        print(f"column(s) {grouped} were drafted as numbers read with '.' as the decimal point, "
              "but every cell of theirs holding a '.' has three digits after each '.' "
              "(like 1.234), while other columns write decimal commas: if '.' separates "
              "thousands in this file, re-run with --decimal , --thousands '.'.",
              file=sys.stderr)


#: Drafted categories named as possible missing-value markers: the words of
#: :data:`~dpboost.cell_text.NA_WORDS` that are rarely a category of their own ("None",
#: "Unknown", "missing" and "-" often are: a band "None", a level "Unknown").
MISSING_CATEGORY_WORDS = ("na", "n/a", "n.a.", "null", "nan", "nil", "?", "#n/a", "#na",
                          "#null!")


def _say_missing_words_as_categories(draft) -> None:
    """Name the text columns whose drafted categories hold a word that usually marks a missing
    value (:data:`MISSING_CATEGORY_WORDS`: ``NA``, ``?``, ``null``...): R writes ``NA``
    unquoted for a missing string, and a draft cannot tell it from a category (red team s38:
    MplsStops' ``citationIssued`` drafted as ``["NA", "NO", "YES"]``, silently)."""
    found = {name: [c for c in spec.categories
                    if str(c).strip().lower() in MISSING_CATEGORY_WORDS]
             for name, spec in draft.columns.items() if getattr(spec, "categories", None)}
    found = {name: words for name, words in found.items() if words}
    if found:
        print("some drafted categories are words that usually mark a missing value: "
              f"{_first_five(found)}; where one does, move it from \"categories\" to the "
              "column's \"na_values\" (the draft cannot tell).", file=sys.stderr)


def _first_five(found: dict) -> str:
    """``'a' ['NA'], 'b' ['?']`` for the first five columns, then ``and N more``."""
    shown = ", ".join(f"{name!r} {words}" for name, words in list(found.items())[:5])
    return shown + (f" and {len(found) - 5} more" if len(found) > 5 else "")
