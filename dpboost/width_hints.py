"""Why line 2 of a text table holds another number of fields than line 1: the hint.

:func:`dpboost.readers.field_count` and the readers refuse a first record whose width differs
from the second's (line 1 sets the separator and the width of every row); the refusal names
the two lines and their widths, never a cell, and adds the hint :func:`width_hint` picks from
what the two lines show: an unclosed quote, a comment, a trailing separator on one of them, a
header one name short (R's ``write.table``), a value holding a space in a whitespace-separated
file, lines aligned with spaces but split by a tab, else a title or a note above the table.
"""

from __future__ import annotations

from dpboost.separators import split_fields

__all__ = ["width_hint"]


def width_hint(lines, records, delimiter: str | None, other: bool) -> str:
    """The hint for lines ``lines[0]``, ``lines[1]`` (``(number, text)``) whose records
    ``records`` (``(number, fields)``) differ in width; ``delimiter``: line 1's (None: runs of
    whitespace); ``other``: line 2 is split by another separator than line 1 holds.

    Examples
    --------
    >>> lines = [(1, "mpg\\tcyl\\tname\\n"), (2, "15.0   8\\t\\"buick\\"\\n")]
    >>> width_hint(lines, [(1, 3), (2, 2)], "\\t", False)[:66]
    'Lines 1 and 2 split alike on runs of spaces and tabs (3 fields eac'
    >>> lines = [(1, "a b c\\n"), (2, "1 12-15 years 3 4\\n")]
    >>> width_hint(lines, [(1, 3), (2, 4)], None, False)[:49]
    'If a value on line 2 holds a space, quote it ("12'
    """
    (n1, first), (n2, second) = lines[0], lines[1]
    (_, k1), (_, k2) = records
    trailing = (delimiter is not None and k2 == k1 + 1
                and second.rstrip().endswith(delimiter))
    header_trailing = (delimiter is not None and k1 == k2 + 1 and not other  # (red team
                       and first.rstrip("\r\n ").endswith(delimiter)  # s35: was
                       and not second.rstrip("\r\n ").endswith(delimiter))  # "delete it")
    spaced = len(split_fields(first, None))
    if delimiter is not None and second.count('"') % 2:  # (user trial, session 26)
        return (f"Line {n2} opens a quote (\") that does not close on it, so the lines after "
                "it were read into one cell: close the quote, or remove it.")
    if first.startswith("#"):
        return f"Line {n1} starts with '#', a comment: delete it."
    if trailing:
        return (f"Line {n2} ends in a separator: if every row does, end line {n1} with one "
                "too (the extra column then has no name and is not used).")
    if header_trailing:
        return (f"Line {n1} ends in a separator and line {n2} does not: remove the separator "
                f"at the end of line {n1} (it adds a column without a name).")
    if (delimiter is not None and not other and spaced > 1
            and spaced == len(split_fields(second, None))):
        # ISLP's Auto.data: a tab-separated header above rows aligned with spaces (red team,
        # session 36): the title advice sent the user to delete the header
        return (f"Lines {n1} and {n2} split alike on runs of spaces and tabs ({spaced} fields "
                "each): if the file's columns are aligned with spaces, declare \"separator\": "
                "\"whitespace\" in the schema ('dpboost schema --separator whitespace').")
    short = (f"If line {n1} is a header one name short, as R's write.table saves a row "
             f"index without a name, add a name at its start (and declare that column "
             f"\"drop\"); if it is a title or a note rather than the header or a row, "
             f"delete it.")
    if delimiter is None and k2 > k1:
        # lifelines' divorce.dat: '12-15 years' unquoted; adding a name, as the short-header
        # advice said, shifted every column by one (red team, session 36)
        return (f"If a value on line {n2} holds a space, quote it (\"12-15 years\"), or use a "
                "comma or tab separator." + (" " + short if k2 == k1 + 1 else ""))
    if k2 == k1 + 1 and not other:
        return short
    return f"If line {n1} is a title or a note rather than the header or a row, delete it."
