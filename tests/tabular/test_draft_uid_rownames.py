"""``uid`` and R's ``rownames`` read as identifiers in a draft (red team, session 39: a unique
integer ``uid`` was drafted as a numeric feature, and Rdatasets files carry ``rownames``)."""

import numpy as np
import pandas as pd
import pytest

from dpboost.schema_draft import IDENTIFIER_NOTE, draft_schema


@pytest.mark.parametrize("name", ["uid", "UID", "user_uid", "rownames", "row.names",
                                  "row_names", "rowNames"])
def test_a_unique_uid_or_rownames_column_is_drafted_as_drop(name):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({name: rng.permutation(200) + 1, "x": rng.normal(size=200),
                          "y": rng.integers(0, 2, 200)})
    spec = draft_schema(frame, "y").columns[name].to_dict()
    assert spec == {"type": "drop", "note": IDENTIFIER_NOTE, "from_data": ["type"]}
    assert draft_schema(frame, "y").columns["x"].to_dict()["type"] == "numeric"


def test_a_repeated_uid_stays_a_feature():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"uid": rng.integers(0, 20, 200), "y": rng.integers(0, 2, 200)})
    assert draft_schema(frame, "y").columns["uid"].to_dict()["type"] == "numeric"
