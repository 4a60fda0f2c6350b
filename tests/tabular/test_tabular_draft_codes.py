"""Drafts keep zero-padded codes (ZIP, FIPS) as text categories instead of numbers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.schema import Schema
from dpboost.schema_draft import draft_schema
from dpboost.tabular import TabularEncoder


def _draft(tmp_path, text: str) -> dict:
    data = tmp_path / "d.csv"
    data.write_text(text)
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    return json.loads(out.read_text())["columns"]


def test_a_csv_column_of_zero_padded_codes_is_drafted_as_text_categories(tmp_path):
    cols = _draft(tmp_path, "zip,age,y\n02134,30,a\n02139,41,b\n10001,52,a\n02134,33,b\n")
    assert cols["zip"]["type"] == "categorical"
    assert cols["zip"]["categories"] == ["02134", "02139", "10001"]
    assert cols["zip"]["from_data"] == ["type", "categories"]
    assert cols["age"]["type"] == "numeric" and (cols["age"]["lower"], cols["age"]["upper"]) == (
        30.0, 52.0)  # integers without a leading zero stay numbers


def test_a_missing_cell_does_not_lose_the_zeros(tmp_path):
    cols = _draft(tmp_path, "zip,y\n02134,a\n,b\n007,a\n7,b\n")
    assert cols["zip"]["categories"] == ["007", "02134", "7"]
    assert cols["zip"]["missing"] == "indicator"


def test_a_dataframe_of_code_strings_and_the_drafted_schema_encode_distinct_codes():
    frame = pd.DataFrame({"zip": ["02134", "2134", "007", "7", "02134"], "y": list("ababa")})
    draft = draft_schema(frame, "y")
    assert draft.columns["zip"].categories == ("007", "02134", "2134", "7")
    content = draft.to_dict()
    for spec in [*content["columns"].values(), content["label"]]:
        spec.pop("from_data", None)
    enc = TabularEncoder(Schema.from_dict(content)).fit()
    Z = enc.transform(frame)
    assert enc.get_feature_names_out()[:4].tolist() == ["zip=007", "zip=02134", "zip=2134",
                                                        "zip=7"]
    np.testing.assert_array_equal(np.argmax(Z[:, :4], axis=1), [1, 2, 0, 3, 1])


@pytest.mark.parametrize("values", [["1", "2", "30"], ["0", "1", "0"], ["0.5", "012.5"],
                                    ["01", "x"], ["-01", "2"]])
def test_other_columns_are_not_codes(values):
    from dpboost.schema_draft import _zero_padded_codes

    assert _zero_padded_codes(pd.Series(values, dtype=object)) is None


def test_integers_without_a_leading_zero_are_still_drafted_as_numbers():
    frame = pd.DataFrame({"x": ["1", "2", "30", "4"], "y": list("abab")})
    assert type(draft_schema(frame, "y").columns["x"]).__name__ == "NumericColumn"
