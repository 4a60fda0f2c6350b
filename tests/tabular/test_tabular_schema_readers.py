"""Schema validation and JSON round trip; raw-file readers (separators, quotes, CRLF, Parquet)."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pandas as pd
import pytest

from dpboost.readers import line_of, read_table, sniff_delimiter
from dpboost.schema import Schema, category_key
from dpboost.schema_draft import DRAFT_NOTE, IDENTIFIER_NOTE, draft_schema

GOOD = {
    "names": ["id", "age", "job", "y"],
    "na_values": ["?"],
    "columns": {"age": {"type": "numeric", "lower": 0, "upper": 120, "transform": "log",
                        "bins": 3, "missing": "indicator"},
                "job": {"type": "categorical", "categories": ["a", 2]},
                "id": {"type": "drop"}},
    "label": {"column": "y", "classes": ["no", "yes", "maybe"]},
}


def test_schema_round_trip_and_derived_facts(tmp_path):
    schema = Schema.from_dict(GOOD)
    assert Schema.from_dict(schema.to_dict()) == schema
    path = tmp_path / "s.json"
    schema.save(path)
    assert Schema.load(path) == schema
    assert schema.used_columns == ("age", "job")
    assert schema.read_columns == ("age", "job", "id", "y")
    assert schema.label.classes == ("no", "yes", "maybe")  # K >= 2 allowed in the schema
    assert schema.draft_marks() == []


@pytest.mark.parametrize("edit, error, match", [
    (lambda c: c["columns"]["age"].pop("upper"), ValueError, "needs a public 'upper'"),
    (lambda c: c["columns"]["age"].update(upper=-1), ValueError, "above lower = 0"),
    (lambda c: c["columns"]["age"].update(lower="0"), TypeError, "must be a number"),
    (lambda c: c["columns"]["age"].update(upper=float("inf")), ValueError, "finite"),
    (lambda c: c["columns"]["age"].update(transform="sqrt"), ValueError, "'log' or"),
    (lambda c: c["columns"]["age"].update(edges=[0, 1, 2]), ValueError, "both 'bins'"),
    (lambda c: c["columns"]["age"].update(bins=1), ValueError, "int from 2 to 10,000"),
    (lambda c: c["columns"]["age"].update(missing="mean"), ValueError, "'zero' or"),
    (lambda c: c["columns"]["age"].update(lowr=1), ValueError, "keys of numeric column"),
    (lambda c: c["columns"]["job"].update(categories=[]), ValueError, "non-empty list"),
    (lambda c: c["columns"]["job"].update(categories=["2", 2.0]), ValueError, "duplicates"),
    (lambda c: c["columns"].update(x={"type": "text"}), ValueError, "'numeric', 'categ"),
    (lambda c: c["label"].update(classes=["no"]), ValueError, "at least 2"),
    (lambda c: c["columns"].update(y={"type": "drop"}), ValueError, "never a feature"),
    (lambda c: c.update(names=["age", "job"]), ValueError, "do not include"),
    (lambda c: c.update(index_base=2), ValueError, "0 or 1"),
    (lambda c: c.update(n_features=3), ValueError, "not both"),
    (lambda c: c.update(colums={}), ValueError, "top-level keys"),
])
def test_schema_errors_are_one_sentence(edit, error, match):
    content = json.loads(json.dumps(GOOD))
    edit(content)
    with pytest.raises(error, match=match) as info:
        Schema.from_dict(content)
    assert "\n" not in str(info.value) and "schema" in str(info.value)


def test_schema_load_names_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json is not valid JSON"):
        Schema.load(path)
    path.write_text(json.dumps({"columns": {"a": {"type": "numeric"}}}))
    with pytest.raises(ValueError, match="bad.json: The numeric column 'a'"):
        Schema.load(path)


def test_category_key_matches_text_ints_floats_bools():
    assert {category_key(v) for v in (2, 2.0, "2", " 2 ", np.int64(2))} == {"2"}
    assert {category_key(v) for v in (True, "TRUE", "true", np.bool_(True))} == {"true"}
    assert category_key(0.5) == category_key("0.5") == "0.5"
    assert [category_key(v) for v in (None, np.nan, "", "  ")] == [None] * 4
    assert category_key("A11") == "A11" and category_key("nan") == "nan"


def test_draft_marks_every_value_it_read():
    frame = pd.DataFrame({"user_id": range(12), "amount": [*range(11), 1000],
                          "city": ["x", "y", None, "x", "y", "x"] * 2,
                          "y": [0, 1, 0, 1, 1, 0] * 2})
    draft = draft_schema(frame, "y")
    assert draft.note == DRAFT_NOTE
    assert draft.columns["user_id"].to_dict() == {"type": "drop", "from_data": ["type"],
                                                  "note": IDENTIFIER_NOTE}
    amount = draft.columns["amount"]
    assert (amount.lower, amount.upper, amount.transform) == (0, 1000, "log")
    assert amount.from_data == ("type", "lower", "upper", "transform")  # the log: one row
    city = draft.columns["city"]
    assert city.categories == ("x", "y") and city.missing == "indicator"
    assert city.from_data == ("type", "categories", "missing")  # the indicator: one empty cell
    assert draft.label.classes == ("0", "1") and draft.label.from_data == ("classes",)
    assert draft.draft_marks() == ["user_id", "amount", "city", "label 'y'"]


# ------------------------------------------------------------------------------ readers
RAW = ('id;age;job;note;y\r\n'
       '1; 30 ;a;"semi; colon";yes\r\n'
       '\r\n'
       '2;;b;"";no\r\n'
       '3;1.5E+01;a;x;no\r\n')


def test_sniff_delimiter():
    assert sniff_delimiter("a,b;c,d") == ","
    assert sniff_delimiter('"a;b;c",d,e') == ","
    assert sniff_delimiter("a\tb\tc") == "\t"
    assert sniff_delimiter("A11 6  A34") is None


@pytest.mark.parametrize("compress", [False, True])
def test_semicolon_crlf_quotes_empty_cells_stray_spaces(tmp_path, compress):
    path = tmp_path / ("raw.csv.gz" if compress else "raw.csv")
    data = RAW.encode()
    path.write_bytes(gzip.compress(data) if compress else data)
    frame = read_table(path, na_values=["?"])
    assert list(frame.columns) == ["id", "age", "job", "note", "y"]
    np.testing.assert_array_equal(frame["age"].to_numpy(), [30.0, np.nan, 15.0])
    assert frame["note"].tolist()[0] == "semi; colon" and frame["note"].isna()[1]
    assert frame["y"].tolist() == ["yes", "no", "no"]
    assert line_of(path, 1, header=True) == 4  # blank line 3 skipped
    only = read_table(path, columns=["y", "age"])
    assert list(only.columns) == ["y", "age"]


def test_whitespace_headerless_with_names(tmp_path):
    path = tmp_path / "german.data"
    path.write_text("A11 6 A34 1\nA12  48 A32 2\n")
    frame = read_table(path, names=["status", "months", "history", "class"])
    assert frame["months"].tolist() == [6, 48] and frame["status"].tolist() == ["A11", "A12"]
    with pytest.raises(ValueError, match="4 fields per row .* 'names' lists 3"):
        read_table(path, names=["a", "b", "c"])


@pytest.mark.parametrize("text, match", [
    ("a,b,c\n1,2,3\n4,5\n", r"line 3: expected 3 fields .* found 2"),
    ("a,b,c\n1,2,3\n\n4,5,6,7\n", r"line 4: expected 3 fields .* found 4"),
    ("a b c\n1 2 3\n4 5 6 7\n", r"line 3: expected 3 fields"),
    ("a b c\n1 2 3\n\n4 5\n", r"line 4: expected 3 fields .* found 2"),
    ("1 2 3\n4,5,6\n7,8,9\n", r"line 2: expected 3 fields .* found 1"),  # first row sets sep
    ("", "empty"),
    ("a,b\n", "no data rows"),
    ("a,a\n1,2\n", r"names the column\(s\) \[.a.\] more than once"),
])
def test_reader_errors_name_the_line(tmp_path, text, match):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        read_table(path)


def test_missing_column_is_named(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="has no column 'c' \\(named in the schema\\)"):
        read_table(path, columns=["a", "c"])


def test_parquet_by_suffix_and_by_magic(tmp_path):
    frame = pd.DataFrame({"a": [1.5, None], "b": ["x", "y"], "c": [True, False]})
    for name in ("t.parquet", "t.bin"):
        frame.to_parquet(tmp_path / name)
        back = read_table(tmp_path / name, columns=["c", "a"])
        assert list(back.columns) == ["c", "a"]
        assert back["a"].isna().tolist() == [False, True]
    with pytest.raises(ValueError, match="no column 'zz'"):
        read_table(tmp_path / "t.parquet", columns=["zz"])


def test_libsvm_schema_declares_dimension_index_base_and_norm_bound():
    schema = Schema.from_dict({"n_features": 123, "index_base": 1, "norm_bound": 14 ** 0.5,
                               "label": {"column": None, "classes": [-1, 1]}})
    assert Schema.from_dict(schema.to_dict()) == schema
    assert (schema.n_features, schema.index_base, schema.norm_bound) == (123, 1, 14 ** 0.5)
    with pytest.raises(ValueError, match="'norm_bound' in the schema must be a number > 0"):
        Schema.from_dict({"n_features": 3, "norm_bound": 0})
    with pytest.raises(ValueError, match="needs no 'norm_bound'"):
        Schema.from_dict({**GOOD, "norm_bound": 2.0})
