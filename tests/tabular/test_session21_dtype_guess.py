"""Session 21: pandas' type guessing made one row change a whole categorical column's encoding.

In D (codes all 1/2) ``pandas.read_csv`` reads the column as integers, which match a declared
``"1.0"`` by number; in D' (one cell ``x``) the column is text and ``"1"`` is "other".  The
trial told the two fits apart 198 times in 200.  The encoder now warns from the schema and
the frame's provenance only, so the warning is the same on D and D'.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost.cell_text import DeclaredValues
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder
from dpboost.tabular_warnings import numeric_looking, typed_by_reader

SCHEMA = {"columns": {"code": {"type": "categorical", "categories": ["1.0", "2.0"]},
                      "v": {"type": "numeric", "lower": 0, "upper": 1}},
          "label": {"column": "y", "classes": ["a", "b"]}}


def _lines(n: int = 40, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return ["code,v,y"] + [f"{rng.integers(1, 3)},{rng.uniform():.3f},{'ab'[i % 2]}"
                           for i in range(n)]


def _neighbours():
    lines = _lines()
    other = list(lines)
    other[1] = "x" + other[1][1:]
    return (pd.read_csv(io.StringIO("\n".join(lines))),
            pd.read_csv(io.StringIO("\n".join(other))))


def _caught(call) -> list[tuple[type, str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [(w.category, str(w.message)) for w in caught]


def test_the_neighbours_are_read_with_different_types_and_encode_differently():
    d, d2 = _neighbours()  # the attack's premise: if this stops holding, revisit the warning
    assert pd.api.types.is_integer_dtype(d["code"]) and not pd.api.types.is_numeric_dtype(
        d2["code"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z, z2 = (TabularEncoder(SCHEMA).fit_transform(f) for f in (d, d2))
    assert z[1:, :2].sum() > 0 and z2[:, :2].sum() == 0  # matched in D, "other" in D'


def test_the_warning_is_the_same_on_both_neighbours():
    d, d2 = _neighbours()
    first = _caught(lambda: TabularEncoder(SCHEMA).fit_transform(d))
    second = _caught(lambda: TabularEncoder(SCHEMA).fit_transform(d2))
    assert first == second
    assert [c for c, _ in first] == [PrivacyLeakWarning]
    assert "'code'" in first[0][1] and "read_table" in first[0][1]
    assert "dtype=str" in first[0][1]


@pytest.mark.parametrize("flip", [0, 1, 7, 39])
def test_the_warning_never_depends_on_a_row(flip):
    lines = _lines(seed=flip)
    base = _caught(lambda: TabularEncoder(SCHEMA).transform(
        pd.read_csv(io.StringIO("\n".join(lines)))))
    for cell in ("x", "1.0", "", "NA", "01"):
        other = list(lines)
        other[1 + flip] = cell + other[1 + flip][1:]
        frame = pd.read_csv(io.StringIO("\n".join(other)))
        assert _caught(lambda f=frame: TabularEncoder(SCHEMA).transform(f)) == base


def test_no_warning_for_read_table_with_the_schema_text_columns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("\n".join(_lines()) + "\n")
    schema = Schema.from_dict(SCHEMA)
    frame = read_table(path, text_columns=schema.text_columns)
    assert typed_by_reader(frame, "code") and typed_by_reader(frame["code"], "code")
    assert _caught(lambda: TabularEncoder(schema).fit_transform(frame)) == []
    assert _caught(lambda: TabularEncoder(schema).transform(frame.drop(columns="y"))) == []


def test_read_table_without_text_columns_guesses_so_it_warns(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("\n".join(_lines()) + "\n")
    frame = read_table(path)
    assert pd.api.types.is_integer_dtype(frame["code"])  # pyarrow guessed from the cells
    assert not typed_by_reader(frame, "code")
    assert [c for c, _ in _caught(lambda: TabularEncoder(SCHEMA).transform(frame))] == [
        PrivacyLeakWarning]


def test_a_parquet_file_keeps_its_stored_types_so_no_warning(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "d.parquet"
    pd.DataFrame({"code": [1, 2, 1], "v": [0.1, 0.2, 0.3]}).to_parquet(path)
    frame = read_table(path)
    assert frame.attrs["dpboost_typed"] == ("code", "v")
    assert _caught(lambda: TabularEncoder(SCHEMA).transform(frame)) == []


def test_declared_json_numbers_need_no_warning_text_and_number_always_agree():
    # the warning is only for declared *text* that reads as a number: a JSON number is
    # matched by its number from a text cell too, so the cell's type cannot change the code
    declared = DeclaredValues([7, 2.5, 10, -3])
    spellings = ["7", "7.0", "07", "+7", "7e0", " 7 ", "2.50", "2.5", "1e1", "10.000", "-3",
                 "-3.0", "8", "2.4", "100"]
    for text in spellings:
        assert declared.index(text) == declared.index(float(text)), text
    schema = {"columns": {"code": {"type": "categorical", "categories": [1, 2]}}}
    d, d2 = _neighbours()
    assert _caught(lambda: TabularEncoder(schema).transform(d)) == []
    assert _caught(lambda: TabularEncoder(schema).transform(d2)) == []


def test_declared_text_cannot_agree_with_numbers_which_is_why_the_encoder_warns():
    # a number has lost its spelling: matching it as text "1" refuses "1.0"'s own number,
    # matching by number would make "1" = "1.0", against "codes are text"
    declared = DeclaredValues(["1.0", "007"])
    assert declared.index(1) == 0 and declared.index("1") == -1
    assert declared.index(7) == 1 and declared.index("7") == -1


def test_numeric_looking():
    assert numeric_looking(["1.0", "007", 7, 2.5, "a", "NaN", "inf", "-inf", "TRUE", "1e3",
                            "1,5", "12345678901234567890123"]) == [
        "1.0", "007", "1e3", "12345678901234567890123"]


def test_label_warning_only_for_classes_mixing_numbers_and_words():
    mixed = {**SCHEMA, "label": {"column": "y", "classes": ["1", "x"]}}
    numbers = {**SCHEMA, "label": {"column": "y", "classes": ["0", "1"]}}
    y = pd.read_csv(io.StringIO("y\n1\n1\n"))["y"]
    found = _caught(lambda: TabularEncoder(mixed).encode_labels(y))
    assert [c for c, _ in found] == [PrivacyLeakWarning] and "'y'" in found[0][1]
    assert _caught(lambda: TabularEncoder(numbers).encode_labels(y)) == []
    assert _caught(lambda: TabularEncoder(mixed).encode_labels(np.array([1, 1]))) == []


def test_label_from_read_table_text_column_does_not_warn(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("y,code\n1,1\nx,2\n")
    mixed = Schema.from_dict({**SCHEMA, "label": {"column": "y", "classes": ["1", "x"]}})
    frame = read_table(path, text_columns=["y", *mixed.text_columns])
    assert _caught(lambda: TabularEncoder(mixed).encode_labels(frame["y"])) == []


def test_a_frame_read_with_dtype_str_is_declared_typed_by_its_reader():
    lines = _lines()
    frame = pd.read_csv(io.StringIO("\n".join(lines)), dtype=str)
    assert [c for c, _ in _caught(lambda: TabularEncoder(SCHEMA).transform(frame))] == [
        PrivacyLeakWarning]  # its type is never looked at: the caller says how it was read
    frame.attrs["dpboost_typed"] = tuple(frame.columns)
    assert _caught(lambda: TabularEncoder(SCHEMA).transform(frame)) == []
