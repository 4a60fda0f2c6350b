"""What ``dpboost train`` says beside the model, in memory and with ``--workers`` alike:
facts of the file's header (the same for every pair of neighbouring data sets: no row is
read), never of its rows; the privacy line of the report; the refusal of a schema without a
label.
"""

from __future__ import annotations

import sys

__all__ = ["no_label_message", "privacy_line", "say_unused_columns", "unused_columns"]

#: How many unused column names the note lists before "and N more".
LISTED = 10


def unused_columns(path, schema, label: str | None) -> list[str]:
    """The header's columns that the schema neither declares (``drop`` included) nor names as
    the label: they were not read.  A file without a header row (the schema's ``"names"``)
    gives none: its undeclared names are the schema's own (README, "names").

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from dpboost.schema import Schema
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "f.csv").write_text("id,age,note,y\\n1,30,x,no\\n")
    >>> s = Schema.from_dict({"columns": {"age": {"type": "numeric", "lower": 0,
    ...                       "upper": 120}, "note": {"type": "drop"}},
    ...                       "label": {"column": "y", "classes": ["no", "yes"]}})
    >>> unused_columns(d / "f.csv", s, "y")
    ['id']
    """
    from dpboost.readers import header_names

    if schema is None or not schema.columns or schema.names is not None:
        return []
    try:
        names = header_names(path, True, separator=schema.separator)
    except (OSError, ValueError):
        return []
    declared = set(schema.columns) | {label}
    return [n for n in names or [] if n and n not in declared]


def say_unused_columns(path, schema, label: str | None) -> None:
    """One stderr line naming the header's columns the schema does not declare, which were
    not used (a column left out of a hand-written schema trained without a word; red team,
    session 30).  Declaring such a column ``{"type": "drop"}`` silences it."""
    unused = unused_columns(path, schema, label)
    if not unused:
        return
    shown = ", ".join(repr(n) for n in unused[:LISTED])
    more = f" and {len(unused) - LISTED} more" if len(unused) > LISTED else ""
    what = "column" if len(unused) == 1 else "columns"
    print(f"dpboost train: note: the file's {what} {shown}{more} "
          f"{'is' if len(unused) == 1 else 'are'} not in the schema and "
          f"{'was' if len(unused) == 1 else 'were'} not used; declare "
          '{"type": "drop"} for a column left out on purpose.', file=sys.stderr)


def privacy_line(report: dict) -> str:
    """The ``privacy:`` line of a fitted model's report: its (epsilon, delta), the settings
    that priced it, and, for a seeded run, that it is private only while the seed is secret."""
    eps = report.get("epsilon")
    best = eps.get("best") if isinstance(eps, dict) else eps
    parts = [f"({best:.4g}, {report.get('delta'):.3g})-DP" if isinstance(best, float)
             else f"epsilon={best}"]
    for key in ("rho", "n_rounds", "kappa", "learning_rate", "noise_multiplier", "sigma"):
        if key in report:
            value = report[key]
            parts.append(f"{key}={value:.4g}" if isinstance(value, float) else f"{key}={value}")
    if str(report.get("noise_source", "")).startswith("seeded"):  # --seed: say it where seen
        parts.append("noise seeded by --seed: private only while the seed is secret")
    return ", ".join(parts)


def no_label_message(path) -> str:
    """The refusal of a schema ``path`` that declares no label, in memory and with
    ``--workers`` alike (:func:`dpboost.cli.train_dask.check_dask_args`)."""
    return (f"{path or 'The schema'} declares no label: add "
            '"label": {"column": ..., "classes": [negative, positive]}, or give both '
            "--label COL and --classes NEG,POS.")
