"""One small table written to Parquet with chosen columns stored as raw bytes (``binary``, as
Spark, Hive and Impala write text) or under chosen names: the cases of the Parquet byte-column
tests in memory (tests/tabular) and with dask (tests/distributed)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

_MONTHS = ["Jan", "Feb", "Jan", "Mar", "Feb", "Jan", None, "Mar"]
_HOURS = ["1.5", "2", "3.25", "4", "0.5", "6", "7", None]
_LABELS = ["no", "yes", "no", "yes", "yes", "no", "no", "yes"]
SCHEMA = {"columns": {"hours": {"type": "numeric", "lower": 0, "upper": 8},
                      "month": {"type": "categorical", "categories": ["Jan", "Feb", "Mar"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def columns(repeat: int) -> dict[str, list]:
    """The table's three text columns, its 8 rows repeated ``repeat`` times."""
    return {"hours": _HOURS * repeat, "month": _MONTHS * repeat, "y": _LABELS * repeat}


def write(path, table: dict[str, list], *, raw=(), names=None, large=False, fixed=False,
          row_group_size=None):
    """Write ``table`` to ``path``: the columns in ``raw`` as bytes (``large``: large_binary;
    ``fixed``: fixed_size_binary, cells padded with NUL bytes as a C CHAR(n) column; a cell
    already ``bytes`` is kept as it is), ``names`` replacing the column names."""
    arrays = []
    for name, values in table.items():
        if name not in raw:
            arrays.append(pa.array(values, pa.string()))
            continue
        cells = [None if v is None else v if isinstance(v, bytes) else v.encode()
                 for v in values]
        if fixed:
            width = max(len(c) for c in cells if c is not None)
            cells = [None if c is None else c.ljust(width, b"\x00") for c in cells]
            arrays.append(pa.array(cells, pa.binary(width)))
        else:
            arrays.append(pa.array(cells, pa.large_binary() if large else pa.binary()))
    pq.write_table(pa.table(arrays, names=names or list(table)), path,
                   row_group_size=row_group_size)
    return path
