"""What separates the fields of a text table: declared by a schema, named by a ``.tsv``
suffix, or sniffed from the first line.

A schema's ``"separator"`` (:data:`SEPARATORS`) decides for every reader (train, predict,
``--workers``); without one, the first non-blank line decides, outside double quotes
(:func:`sniff_delimiter`).  A headerless file's first line is a private row, so the readers
check it against the second (:func:`dpboost.readers.field_count`): three red-team rounds
found first rows that set another separator for the whole file.  A declaration closes that
class of inputs: no row chooses how the others are split.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from dpboost.cell_text import is_decimal_number
from dpboost.pandas_csv import whitespace_fields

__all__ = ["SEPARATORS", "SEPARATOR_NAMES", "file_delimiter", "outside_quotes",
           "sniff_delimiter", "split_fields"]

SEPARATORS = (",", ";", "\t", "|", "whitespace")
"""The values of a schema's ``"separator"``: ``"whitespace"`` is any run of spaces and tabs."""

SEPARATOR_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "pipes"}


def sniff_delimiter(line: str, decimal: str = ".") -> str | None:
    r"""The most frequent of ``,``, ``;``, tab and ``|`` outside double quotes; None = whitespace.

    A tab is whitespace too when the line aligns numbers with spaces and uses a tab only
    here and there (UCI's auto-mpg: ``18.0   8   307.0 ...   1<TAB>"chevrolet malibu"``):
    a tab-separated field that is itself several numbers apart is not one field.

    Examples
    --------
    >>> sniff_delimiter('a;"b,c";d'), sniff_delimiter("A11 6 A34"), sniff_delimiter("x|y|z")
    (';', None, '|')
    >>> sniff_delimiter('18.0   8   307.0\t"chevrolet malibu"'), sniff_delimiter("New York\t12")
    (None, '\t')
    >>> sniff_delimiter("1 12,5 3"), sniff_delimiter("1 12,5 3", decimal=",")
    (',', None)
    >>> sniff_delimiter("1,0,1", decimal=","), sniff_delimiter('"0,91","0,9",1', decimal=",")
    (',', ',')
    """
    outside = outside_quotes(line)
    if decimal == "," and (re.search(r"[;\t|]", outside) or re.search(r"\S\s+\S", outside)):
        # a declared decimal comma (12,5) is not a separator beside ';', a tab, '|' or spaces;
        # without them '1,0,1' is comma-separated (its commas are not decimal marks)
        outside = re.sub(r"(?<=\d),(?=\d)", "", outside)
    counts = {d: outside.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=counts.get)
    if best == "\t" and counts[best] > 0 and any(
            sum(map(is_decimal_number, tokens)) >= max(2, len(tokens) / 2)
            for tokens in (field.split() for field in outside.split("\t"))):
        return None  # several numbers (and maybe a '?') in one field: space-aligned
    return best if counts[best] > 0 else None


def outside_quotes(line: str) -> str:
    """``line`` without its double-quoted values (a quoted separator separates nothing)."""
    return re.sub(r'"[^"]*"', "", line)


def file_delimiter(path, line: str, decimal: str = ".", separator: str | None = None
                   ) -> str | None:
    """The separator of ``path`` (None = whitespace), by declaration first.

    ``separator``: a schema's ``"separator"`` (one of :data:`SEPARATORS`), which decides
    whatever the file holds.  Else a tab for a ``.tsv`` file (its name declares it; in a
    headerless ``.tsv`` file, two numbers in a free-text cell of line 1 (``flat 3 12``) made
    the whole file whitespace-separated), else :func:`sniff_delimiter` of its first line.
    """
    if separator is not None:
        return None if separator == "whitespace" else separator
    if Path(path).name.lower().endswith((".tsv", ".tsv.gz")):
        return "\t"
    return sniff_delimiter(line, decimal)


def split_fields(line: str, delimiter: str | None) -> list[str]:
    """The stripped fields of one line (a quoted value after spaces unquoted, as read)."""
    if delimiter is None:
        return [field.strip('"') for field in whitespace_fields(line)]
    return [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter,
                                                     skipinitialspace=True))]
