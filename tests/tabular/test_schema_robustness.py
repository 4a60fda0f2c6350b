"""Schemas and tables from a robustness sweep: each test failed before its fix.

A declared category that silently never matched, a range that encoded every value as NaN, a
schema file that gave a traceback, a raw ``TypeError`` from the encoder.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.cli import main
from dpboost.schema import Schema, category_key
from dpboost.schema_draft import draft_schema
from dpboost.tabular import BadValueError, TabularEncoder, outside_declarations

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]


def _schema(column: dict, **top) -> dict:
    return {"columns": {"c": column}, **top}


def _numeric(**spec) -> dict:
    return _schema({"type": "numeric", **spec})


# -- 1. a decimal comma keys declared categories and labels as the reader keys the cells ----
DEC = {"decimal": ",", "columns": {
    "size": {"type": "categorical", "categories": ["1,5", "2,5", "3"]}},
    "label": {"column": "y", "classes": ["0,5", "1,5"]}}


def test_decimal_comma_categories_match_the_cells_the_reader_rewrote():
    # before: declared "1,5" never met the reader's "1.5": the column encoded as all zeros
    enc = TabularEncoder(DEC).fit()
    frame = pd.DataFrame({"size": ["1.5", "2.5", "3", " 1,5 ", "4"]})
    Z = enc.transform(frame)[:, :3]
    assert (Z > 0).sum(axis=1).tolist() == [1, 1, 1, 1, 0]
    assert np.argmax(Z[:4], axis=1).tolist() == [0, 1, 2, 0]
    assert outside_declarations(frame.iloc[:4], Schema.from_dict(DEC)) == {
        "size": {"undeclared": 0.0}}
    assert enc.encode_labels(pd.Series(["1.5", "0.5", "1,5"])).tolist() == [1, 0, 1]


def test_decimal_comma_is_off_by_default_and_catches_duplicates():
    assert category_key("1,5") == "1,5" and category_key("1,5", decimal=",") == "1.5"
    Schema.from_dict(_schema({"type": "categorical", "categories": ["1,5", 1.5]}))
    with pytest.raises(ValueError, match="without duplicates"):
        Schema.from_dict(_schema({"type": "categorical", "categories": ["1,5", 1.5]},
                                 decimal=","))
    with pytest.raises(ValueError, match="distinct"):  # the same text "1.0" twice
        Schema.from_dict({"decimal": ",", "label": {"column": "y", "classes": ["1,0", "1.0"]}})


def test_decimal_comma_file_trains_without_an_undeclared_warning(tmp_path, capsys):
    rng = np.random.default_rng(0)
    rows = ["weight;size;y"] + [
        f"{rng.uniform(40, 120):.1f}".replace(".", ",")
        + f";{rng.choice(['1,5', '2,5', '3'])};{rng.choice(['no', 'yes'])}"
        for _ in range(40)]
    data = tmp_path / "dec.csv"
    data.write_text("\n".join(rows) + "\n")
    schema = {"decimal": ",", "columns": {
        "weight": {"type": "numeric", "lower": 0, "upper": 200},
        "size": {"type": "categorical", "categories": ["1,5", "2,5", "3"]}},
        "label": {"column": "y", "classes": ["no", "yes"]}}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    assert "warning" not in capsys.readouterr().err


def test_decimal_comma_labels_train_and_score(tmp_path, capsys):
    # labels "0,5" / "1,5" under a decimal comma: predict --label read the cells as 0.5 / 1.5
    # and refused them as outside the model's classes ['0,5', '1,5'] (before its fix)
    rng = np.random.default_rng(1)
    rows = ["weight;y"] + [f"{w:.1f}".replace(".", ",") + (";1,5" if w > 80 else ";0,5")
                           for w in rng.uniform(40, 120, 60)]
    data = tmp_path / "dec.csv"
    data.write_text("\n".join(rows) + "\n")
    schema = {"decimal": ",", "columns": {"weight": {"type": "numeric", "lower": 0,
                                                     "upper": 200}},
              "label": {"column": "y", "classes": ["0,5", "1,5"]}}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(data), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert "accuracy" in capsys.readouterr().out.lower()


# -- 2. category_key reads integer text exactly -------------------------------------------
def test_integer_codes_beyond_2_to_53_key_exactly():
    # before: "1152921504606846976" keyed as '1.152921504606847e+18', 2**60 as its digits
    assert category_key(2**60) == category_key("1152921504606846976") == "1152921504606846976"
    assert category_key(float(2**60)) == category_key(2**60)
    codes = ["12345678901234567", "12345678901234568"]
    column = Schema.from_dict(_schema({"type": "categorical", "categories": codes}))
    assert column.columns["c"].categories == tuple(codes)
    enc = TabularEncoder(_schema({"type": "categorical", "categories": [2**60, codes[0]]}))
    Z = enc.fit().transform(pd.DataFrame({"c": ["1152921504606846976", codes[0], codes[1]]}))
    assert np.argmax(Z[:2, :2], axis=1).tolist() == [0, 1] and not Z[2, :2].any()


@settings(max_examples=300, deadline=None)
@given(n=st.integers(-(10**40), 10**40))
def test_an_int_and_its_text_key_alike(n):
    assert category_key(n) == category_key(str(n)) == category_key(f" {n} ") == str(n)
    assert category_key(f"{n}.0") == category_key(np.int64(n) if abs(n) < 2**63 else n)
    if float(n) == n:  # 2 == 2.0 wherever the float holds the int exactly
        assert category_key(float(n)) == str(n)


@settings(max_examples=300, deadline=None)
@given(a=st.integers(-(10**30), 10**30), step=st.integers(0, 3))
def test_distinct_ints_have_distinct_keys(a, step):
    # neighbouring codes: above 2**53 a float could not tell them apart
    b = a + step
    assert (category_key(str(a)) == category_key(str(b))) == (a == b)
    assert (category_key(a) == category_key(str(b))) == (a == b)


@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_and_its_text_key_alike(x):
    assert category_key(x) == category_key(repr(x)) == category_key(str(x))
    if x.is_integer():
        assert category_key(x) == category_key(int(x))


# -- 3. numeric ranges the encoder cannot scale ------------------------------------------
def test_a_range_that_overflows_is_refused_at_load(tmp_path):
    # before: accepted; hi - lo = inf encoded every value as NaN and train blamed the data
    with pytest.raises(ValueError, match="too wide.*signed-log"):
        Schema.from_dict(_numeric(lower=-1e308, upper=1e308))
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(_numeric(lower=-1e308, upper=1e308, transform="log")))
    with pytest.raises(ValueError, match=r"wide\.json: .*too wide"):
        Schema.load(path)
    enc = TabularEncoder(_numeric(lower=-1e308, upper=1e308, transform="signed-log"))
    assert np.isfinite(enc.fit().transform(pd.DataFrame({"c": [-1e308, 0.0, 1e308]}))).all()


def test_a_range_that_a_transform_collapses_is_refused():
    with pytest.raises(ValueError, match="too narrow for its 'signed-log'"):
        Schema.from_dict(_numeric(lower=1e17, upper=1e17 + 16, transform="signed-log"))


@pytest.mark.parametrize("edges, transform", [
    ([-100, 50, 500], None),     # the sweep's edges_outside.json
    ([-5, 1, 10, 100], "log"),   # before: log1p of -5 - 0 is NaN, silently
    ([0, 50, 120.5], None),
])
def test_edges_outside_the_range_are_refused(edges, transform):
    spec = _numeric(lower=0, upper=120, edges=edges)
    if transform:
        spec["columns"]["c"]["transform"] = transform
    with pytest.raises(ValueError, match=r"'edges' .* within \[lower, upper\] = \[0, 120\]"):
        Schema.from_dict(spec)
    Schema.from_dict(_numeric(lower=0, upper=120, edges=[0, 50, 120]))


def test_draft_of_a_very_wide_or_constant_column_loads():
    wide = draft_schema(pd.DataFrame({"a": [-1e308, 0.0, 1e308, 5.0]})).columns["a"]
    assert wide.transform == "signed-log"
    big = draft_schema(pd.DataFrame({"a": ["1e17", "100000000000000000", "1.0e17"]}))
    assert big.columns["a"].lower < big.columns["a"].upper  # 1e17 + 1 == 1e17 before


# -- 4. schema files that gave a traceback or a message without the file -----------------
@pytest.mark.parametrize("name, content, needle", [
    ("huge.json", '{"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1'
     + "0" * 400 + "}}}", "integer of 401 digits"),
    ("huger.json", '{"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1'
     + "0" * 5000 + "}}}", "integer of 5001 digits"),
    ("deep.json", "[" * 100_000 + "]" * 100_000, "too deeply"),
    ("latin1.json", '{"columns": {"caf\xe9": {"type": "drop"}}}'.encode("latin-1"),
     "re-save it as UTF-8"),
    ("utf16.json", '{"columns": {}}'.encode("utf-16"), "UTF-16"),
], ids=["int-400-digits", "int-5000-digits", "deep", "latin1", "utf16"])
def test_bad_schema_files_are_one_line_errors_naming_the_file(tmp_path, one_line_error,
                                                              name, content, needle):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(ValueError, match=needle) as caught:
        Schema.load(path)
    assert str(path) in str(caught.value)
    data = tmp_path / "d.csv"
    data.write_text("c,y\n1,a\n2,b\n")
    code = main(["train", str(data), "--schema", str(path), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, name, needle)


# -- 5. the Python API ------------------------------------------------------------------
def test_duplicate_column_names_are_a_clear_error():
    enc = TabularEncoder(_numeric(lower=0, upper=1)).fit()
    frame = pd.DataFrame([[0.5, 0.2]], columns=["c", "c"])
    with pytest.raises(ValueError, match="2 columns named 'c'"):
        enc.transform(frame)
    other = pd.DataFrame([[0.5, 0.2, 0.1]], columns=["c", "x", "x"])
    assert enc.transform(other).shape == (1, 2)  # an unused repeated column is ignored


@pytest.mark.parametrize("cell, kind", [(["a"], "list"), ({"a": 1}, "dict")])
def test_an_unhashable_cell_is_a_clear_error(cell, kind):
    enc = TabularEncoder({**_schema({"type": "categorical", "categories": ["a", "b"]}),
                          "label": {"column": "y", "classes": ["no", "yes"]}}).fit()
    with pytest.raises(TypeError, match=f"Column 'c' holds a {kind} at row 1"):
        enc.transform(pd.DataFrame({"c": pd.Series(["a", cell], dtype=object)}))
    with pytest.raises(TypeError, match=f"label column 'y' holds a {kind} at row 0"):
        enc.encode_labels(pd.Series([cell, "no"], dtype=object))


def test_every_accepted_numeric_schema_encodes_finite_values():
    # the bounds of the sweep, once accepted, never give NaN
    for lower, upper, transform in [(-1e308, 1e308, "signed-log"), (0, 1e308, "log"),
                                    (-1e154, 1e154, None), (5e-324, 1e-323, None)]:
        spec = _numeric(lower=lower, upper=upper)
        if transform:
            spec["columns"]["c"]["transform"] = transform
        enc = TabularEncoder(spec).fit()
        Z = enc.transform(pd.DataFrame({"c": [lower, upper, 0.0]}))
        assert np.isfinite(Z).all(), (lower, upper, transform)
        for infinity in (-math.inf, math.inf):  # refused, not clipped (session 23)
            with pytest.raises(BadValueError, match="at row 1 is infinite"):
                enc.transform(pd.DataFrame({"c": [0.0, infinity]}))



@pytest.mark.parametrize("bins", [10_001, 10**7, 10**400])
def test_bins_beyond_the_limit_are_refused_at_load(bins):
    # "bins": 10000000 was accepted and the encoder would allocate n x 10^7 floats (before)
    with pytest.raises(ValueError, match="from 2 to 10,000"):
        Schema.from_dict(_numeric(lower=0, upper=1, bins=bins))
    assert Schema.from_dict(_numeric(lower=0, upper=1, bins=10_000)).columns["c"].bins == 10_000
