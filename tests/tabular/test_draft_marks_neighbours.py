"""Every choice a draft reads from the data is marked ``"from_data"``: for a frame and its
neighbour (one cell changed), every key of a column's draft that differs is marked in one of
the two drafts, so a schema that keeps such a choice warns when it trains.

Before, three choices went unmarked (a raw-CSV trial, session 22): ``"missing": "indicator"``
(drafted only where a cell was empty), ``"transform": "log"`` (one large value) and
``"type": "drop"`` (an identifier, a constant column, too many texts).
"""

import numpy as np
import pandas as pd
import pytest

from dpboost.exceptions import PrivacyLeakWarning
from dpboost.schema import Schema
from dpboost.schema_draft import draft_schema
from dpboost.tabular import TabularEncoder

CELLS = [None, "", "x", "NA", "?", 0, 1, 7, 1e6, -3.5, "007", "a", "b", "$12"]


def _column(rng, n):
    kind = rng.integers(5)
    if kind == 0:
        return list(np.round(rng.normal(size=n), 2))
    if kind == 1:
        return list(rng.choice(["a", "b", "c"], size=n))
    if kind == 2:
        return list(rng.integers(0, 3, size=n))
    if kind == 3:
        return [f"${v}" for v in rng.integers(1, 99, size=n)]
    return list(rng.choice(["7", "7"], size=n))  # constant


def _differing_unmarked(a: dict, b: dict) -> set:
    keys = (set(a) | set(b)) - {"from_data", "note"}
    marked = set(a.get("from_data", ())) | set(b.get("from_data", ()))
    return {k for k in keys if a.get(k) != b.get(k)} - marked


@pytest.mark.parametrize("seed", range(60))
def test_a_changed_cell_only_moves_marked_keys(seed):
    rng = np.random.default_rng(seed)
    n = 12
    frame = pd.DataFrame({f"c{j}": pd.Series(_column(rng, n), dtype=object) for j in range(4)})
    frame["id"] = range(n)
    frame["y"] = rng.choice(["p", "q"], size=n)
    other = frame.copy()
    col = f"c{rng.integers(4)}"
    other.loc[int(rng.integers(n)), col] = CELLS[int(rng.integers(len(CELLS)))]
    other.loc[int(rng.integers(n)), "id"] = 0  # the identifier is no longer unique
    a, b = draft_schema(frame, "y"), draft_schema(other, "y")
    for name in frame.columns.drop("y"):
        da, db = a.columns[name].to_dict(), b.columns[name].to_dict()
        assert "type" in da.get("from_data", ()) and "type" in db.get("from_data", ()), name
        assert not _differing_unmarked(da, db), (name, da, db)


@pytest.mark.parametrize("column,neighbour", [
    ([1.0, 2.0, 3.0, None, 5.0, 6.0] * 3, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] * 3),  # indicator
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0] * 3, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] * 2 + [1, 2, 3, 4,
                                                                                5, 1e6]),
])
def test_trial_pairs_warn_after_the_values_are_replaced(column, neighbour):
    """The trial's repro: replacing the marked bounds alone still warns, since the type (and
    here the indicator or the log) the draft chose is marked too."""
    for values in (column, neighbour):
        frame = pd.DataFrame({"a": values, "y": ["p", "q"] * 9})
        spec = draft_schema(frame, "y").to_dict()
        marks = spec["columns"]["a"]["from_data"]
        spec["columns"]["a"].update(lower=0.0, upper=1e7)
        spec["columns"]["a"]["from_data"] = [m for m in marks if m not in ("lower", "upper")]
        spec["label"].pop("from_data")
        spec.pop("note")
        with pytest.warns(PrivacyLeakWarning, match="from_data"):
            TabularEncoder(Schema.from_dict(spec)).fit()
