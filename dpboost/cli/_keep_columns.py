"""The columns ``dpboost predict --keep`` copies beside the predictions, and the CSV cell
quoting of its output.

The kept cells come from the user's own test file (``predict`` is not covered by the
training guarantee, and copies them as written): read by the same reader and rules as the
features, so row k of the output is the k-th prediction.
"""

from __future__ import annotations

from dpboost.cli._options import UserError

__all__ = ["csv_cell", "keep_names", "kept_columns"]


def csv_cell(text: str) -> str:
    """``text`` as one CSV cell: quoted, its quotes doubled, where it holds a comma, a quote or
    a line break.

    >>> print(csv_cell("a"), csv_cell("x,y"), len(csv_cell('a "b"')))
    a "x,y" 9
    """
    return f'"{text.replace(chr(34), 2 * chr(34))}"' if any(c in text for c in ',"\n') else text


def keep_names(text: str | None) -> list[str]:
    """The column names of ``--keep``: split at commas, ``\\,`` a comma inside a name.

    Examples
    --------
    >>> keep_names("id, name"), keep_names(r"a\\,b,c"), keep_names(None)
    (['id', 'name'], ['a,b', 'c'], [])
    """
    import re

    if text is None:
        return []
    names = [p.replace("\\,", ",").strip() for p in re.split(r"(?<!\\),", text)]
    if not all(names) or len(set(names)) != len(names):
        raise UserError(f"--keep {text!r}: give distinct column names separated by commas.")
    return names


def kept_columns(model, args, n_rows: int) -> list[tuple[str, list[str]]]:
    """The ``--keep`` columns as ``(header cell, cells)``, read as text from ``args.data``.

    Read by :func:`~dpboost.readers.read_table` with the same names, blank-line and NA rules
    as the features (so row k is the k-th prediction); every cell is copied as written (an
    empty cell stays empty), quoted where it holds a comma, a quote or a newline."""
    from dpboost.readers import field_count, header_names, read_table, table_format

    keep = keep_names(args.keep)
    if not keep:
        return []
    schema = model.schema_
    names = schema.names if schema is not None else None
    if names is None and (table_format(args.data) == "libsvm"
                          or header_names(args.data, "infer") is None):
        raise UserError(f"--keep needs column names, and {args.data} has no header row (nor "
                        "does the model's schema declare 'names'): add a header row.")
    if (names is not None and table_format(args.data, declared="table") == "csv"
            and schema.label is not None
            and field_count(args.data, schema.decimal, schema.separator)
            == len(names) - 1):  # without the label
        names = tuple(n for n in names if n != schema.label.column)
    present = list(names) if names is not None else header_names(args.data, "infer")
    absent = [k for k in keep if k not in present]
    if absent:
        import difflib

        close = ([p for p in present if p.lower() == absent[0].lower()]
                 or difflib.get_close_matches(absent[0], present, n=1, cutoff=0.75))
        raise UserError(f"--keep: {args.data} has no column {absent[0]!r}"
                        + (f"; did you mean {close[0]!r}?" if close else
                           f"; its columns are {present[:30]}."))
    frame = read_table(args.data, names=names, columns=keep, na_values=None, text_columns=keep,
                       separator=None if schema is None else schema.separator)
    if len(frame) != n_rows:  # the readers skip the same blank lines; guard the alignment
        raise UserError(f"--keep: {args.data} read {len(frame)} rows for the kept columns "
                        f"and {n_rows} for the features; predict without --keep.")
    return [(csv_cell(name), [csv_cell(str(v)) for v in frame[name].tolist()])
            for name in keep]
