"""Refusing a column a schema or a caller wants but the file does not hold, with the hint
that finds it (a case or spacing variant, a '#' before the header, two header rows, a typo)
or, failing these, how many of the wanted columns the header holds (a file and a schema that
do not belong together).  Two header rows are named only where line 1 looks like a
spreadsheet's upper header row (:func:`_header_hint`).

A file's header names are public in a file that has a header; a headerless file's first line
is a private row, so when the names hold a number the message shows none of them.
:func:`first_line_is_data` is the draft's stricter test (it reads line 2: a draft is not
private).
"""

from __future__ import annotations

import difflib
import json
import os
import unicodedata
from pathlib import Path

from dpboost.cell_text import is_decimal_number

__all__ = ["check_columns", "first_line_is_data", "single_column_hint"]


def check_columns(path: Path, wanted, available, *, header: bool = False,
                  separator: str | None = None) -> None:
    """Refuse, in one line, a ``wanted`` column missing from the ``available`` names.

    ``separator``: the schema's declared separator, if any; a file it reads as one column is
    then said not to be split by it (the sniffing rule does not apply to such a file).

    ``header``: the names came from the file's first row; when that row holds a number the
    message shows none of them and says to declare ``"names"`` instead.  Every hint is a
    function of the first row and the schema alone: a hint read from line 2 (a number below
    the names, a second header row) told two refused neighbours apart (red team, session 25).
    """
    if wanted is None:
        return
    names = set(available)  # 20,000 wanted columns in a list of 20,000: 2 s
    absent = [c for c in wanted if c not in names]
    if absent:
        shown = [str(a).split("\x00")[0] for a in available][:30]  # repeats unsuffixed
        if header and any(is_decimal_number(name) for name in shown):  # a row: never shown
            from dpboost.data import _looks_like_libsvm

            raise ValueError(f"{path} has no column {absent[0]!r} (named in the schema): its "
                             "first line looks like data, not a header (its fields are not "
                             "shown: a row is private); if the file has no header row, list "
                             "its column names in the schema's 'names'" + (
                                 "; if it is a LIBSVM file ('label idx:value ...'), declare "
                                 "'n_features' and 'index_base' in the schema instead of "
                                 "'columns'" if _looks_like_libsvm(Path(path)) else "") + ".")
        hint = ""
        folded = [a for a in shown if a.casefold() == absent[0].casefold()]
        spaced = [a for a in shown
                  if " ".join(a.split()).casefold() == " ".join(absent[0].split()).casefold()]
        composed = [a for a in shown if unicodedata.normalize("NFC", a)
                    == unicodedata.normalize("NFC", absent[0])]
        if folded:
            hint = f" Column names are case-sensitive: the file has {folded[0]!r}."
        elif spaced:  # a spreadsheet's non-breaking space, a double space, a tab
            hint = (f" The file's {spaced[0]!r} differs from it only in its spaces; write "
                    f"the name as the file does (in JSON: {json.dumps(spaced[0])}).")
        elif composed:  # 'São' composed on one side, 'Sa\u0303o' decomposed on the other
            hint = _accents_hint(composed[0], absent[0])
        elif header and shown and shown[0].lstrip("# ") == absent[0]:  # '#age,...'
            hint = (f" The file writes it {shown[0]!r}, with a '#' before the first name: "
                    "delete the '#' from the file's header, or name the column so.")
        elif header and shown and shown[0].startswith("#"):  # '# exported 2024-01-01'
            hint = (" Its first line starts with '#', a comment: delete the comment lines "
                    "above the header row.")
        elif header and _is_title(shown):  # 'Customer report Q3,,,,,' above the header
            hint = (f" Its {_first_line_name(path)} looks like a title above the header row "
                    "(one name, then empty fields): delete it, and any other line above the "
                    "header row.")
        elif len(available) == 1 and len(wanted) > 1 and separator is not None:
            hint = single_column_hint(separator)
        elif len(available) == 1 and len(wanted) > 1:
            hint = (" The file reads as a single column: the separator is taken from the "
                    "first line and must be a comma, semicolon, tab, pipe or whitespace.")
        elif close := difflib.get_close_matches(absent[0], shown, n=1, cutoff=0.75):
            hint = f" Did you mean {close[0]!r}?"  # a typo: 'colour' for 'color'
        elif header:  # said from line 1 and the schema alone, never from line 2 (a row)
            hint = _header_hint(wanted, available)
        raise ValueError(f"{path} has no column {absent[0]!r} (named in the schema); its "
                         f"columns are {shown}.{hint}")


def single_column_hint(separator: str) -> str:
    """The hint for a file the schema's declared ``separator`` reads as one column."""
    return (f" The file reads as a single column with the schema's \"separator\" "
            f"{separator!r}, which splits every line: if the file uses another separator, "
            f"write it with {separator!r} between the fields (a model keeps the separator it "
            "was trained with) or, before training, correct the schema's (or delete it, and "
            "the separator is taken from the first line).")


def _header_hint(wanted, available) -> str:
    """The hint for a header row that holds no close match of a wanted column: how many of the
    wanted columns it holds, and, when line 1 could be a spreadsheet's upper header row (none
    of the wanted columns, and no name at all, an empty name before a named one, or a name
    repeated: merged cells, ``,X1,X2,...,Y`` above UCI credit-default's names), the two-rows
    remedy beside it.  Until session 27 every such header got the two-rows hint alone, so a
    file and a schema that do not belong together were told to delete a header (user trial
    27u, finding 5); a file pandas wrote with its index (``,p,q,r``) looks like an upper row
    too, so that hint never comes alone (red team, session 27).

    Examples
    --------
    >>> print(_header_hint(["LIMIT_BAL", "y"], ["", "X1", "X2", "Y"]))
    ... # doctest: +NORMALIZE_WHITESPACE
     The file's header holds none of the 2 columns the schema names: check that the file and
     the schema (or the model) belong together, or, if the file has two header rows (as a
     spreadsheet export may), delete the first.
    >>> print(_header_hint(["age", "bmi", "y"], ["income", "age", "fraud"]))
    ... # doctest: +NORMALIZE_WHITESPACE
     The file's header holds 1 of the 3 columns the schema names: check that the file and
     the schema (or the model) belong together.
    """
    names = [str(a).split("\x00")[0].strip() for a in available]
    named = [n for n in names if n]
    upper = (not named or len(set(named)) < len(named)
             or any(not n and any(names[k + 1:]) for k, n in enumerate(names)))
    held = sum(c in available for c in wanted)
    text = (f" The file's header holds {held or 'none'} of the {len(wanted)} columns the "
            "schema names: check that the file and the schema (or the model) belong together")
    if held == 0 and upper:
        return (text + ", or, if the file has two header rows (as a spreadsheet export may), "
                "delete the first.")
    return text + "."


def _accents_hint(found: str, wanted: str) -> str:
    r"""The hint for a name the file writes as ``found`` and the schema as ``wanted``, equal in
    Unicode's composed form (NFC) but not as written: it says which side is decomposed (NFD).

    Examples
    --------
    >>> print(_accents_hint("A\u0302ge", "\u00c2ge"))  # doctest: +NORMALIZE_WHITESPACE
     The file writes it with its accents decomposed (Unicode NFD, in JSON: "A\u0302ge");
     write it so, or re-save the file as NFC.
    >>> print(_accents_hint("\u00c2ge", "A\u0302ge"))  # doctest: +NORMALIZE_WHITESPACE
     The schema writes it with its accents decomposed (Unicode NFD); the file writes it
     composed (NFC, in JSON: "\u00c2ge"): write it so in the schema.
    """
    if not unicodedata.is_normalized("NFC", found):  # the file's name is (partly) decomposed
        return (f" The file writes it with its accents decomposed (Unicode NFD, in JSON: "
                f"{json.dumps(found)}); write it so, or re-save the file as NFC.")
    return (" The schema writes it with its accents decomposed (Unicode NFD); the file writes "
            f"it composed (NFC, in JSON: {json.dumps(found)}): write it so in the schema.")


def first_line_is_data(path: str | os.PathLike, names) -> bool:
    """Whether a file read as having a header holds data in its first line: a number among the
    header ``names`` and no header by :func:`header_names`' rule (a headerless file, such as
    UCI's adult.data, whose first row became the column names)."""
    from dpboost.readers import header_names

    return (any(is_decimal_number(str(name)) for name in names)
            and header_names(path, "infer") is None)


def _is_title(names) -> bool:
    """Whether header ``names`` are one name followed only by empty ones: a spreadsheet's
    title line padded with separators to the table's width (``Customer report Q3,,,,,``).

    Examples
    --------
    >>> _is_title(["Report Q3", "", " "]), _is_title(["a", "", "b"]), _is_title(["a"])
    (True, False, False)
    """
    names = [str(n).strip() for n in names]
    return len(names) > 1 and bool(names[0]) and not any(names[1:])


def _first_line_name(path: Path) -> str:
    """``line N``: the file's first non-blank line, or ``first line`` when it has none."""
    from dpboost.readers import _first_lines, table_format

    try:
        lines = _first_lines(Path(path), 1) if table_format(path) == "csv" else []
    except (OSError, ValueError):
        lines = []
    return f"line {lines[0][0]}" if lines else "first line"
