"""Session 21: numeric columns declare the symbols their cells carry ("prefix"/"suffix"), and
``dpboost schema`` drafts them; drafts keep label classes as written, draft 0/1 columns as one
numeric feature, and drop a column of one value with a note.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.schema import Schema
from dpboost.schema_draft import CONSTANT_NOTE, draft_schema
from dpboost.tabular import BadValueError, TabularEncoder
from dpboost.tabular_checks import outside_declarations

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _encoder(**column):
    return TabularEncoder({"thousands": ",", "columns": {
        "x": {"type": "numeric", "lower": 0, "upper": 2000, **column}}})


def _decode(encoder, cells) -> np.ndarray:
    """The numbers the encoder read, from its scaled feature (block 0 of 2)."""
    z = encoder.fit_transform(pd.DataFrame({"x": cells}))[:, 0] * np.sqrt(2) / (1 - 1e-12)
    return (z + 1) / 2 * 2000


@pytest.mark.parametrize("column, cells, numbers", [
    ({"suffix": "%"}, ["12%", "0%", " 3.5 % ", "100", "-2%"], [12, 0, 3.5, 100, 0]),
    ({"prefix": "$"}, ["$1,200.50", "$0.00", "-$5", "$ 7", "$-3", "9"], [1200.5, 0, 0, 7, 0, 9]),
    ({"prefix": ["$", "US$"]}, ["US$12", "$13", "14"], [12, 13, 14]),
    ({"suffix": ["kg", "g"]}, ["1.5 kg", "2kg", "300 g"], [1.5, 2, 300]),
    ({"prefix": "€", "suffix": "%"}, ["€3.5", "4%", "€5%"], [3.5, 4, 5]),
])
def test_declared_symbols_are_stripped_and_the_number_read_as_written(column, cells, numbers):
    assert np.allclose(_decode(_encoder(**column), cells), numbers, atol=1e-9)


def test_text_and_plain_numbers_read_alike():
    # the same column as a number dtype (a Parquet file) and as symbols: same encoding
    enc = _encoder(prefix="$")
    assert np.allclose(_decode(enc, ["$12", "$7.5"]), _decode(enc, [12.0, 7.5]))


@pytest.mark.parametrize("cell", ["€3", "12 USD", "3$", "$$3"])
def test_another_symbol_is_an_error_naming_the_declaration_not_the_cell(cell):
    with pytest.raises(BadValueError) as info:
        _encoder(prefix="$").fit_transform(pd.DataFrame({"x": ["$1", cell]}))
    text = str(info.value)
    assert "at row 1" in text and "declared 'prefix' ['$']" in text
    assert cell.strip("$") not in text.replace("['$']", "")


def test_without_a_declaration_the_hint_names_the_keys():
    with pytest.raises(BadValueError, match='declare the sign in the column\'s "prefix" or '
                                            '"suffix"'):
        _encoder().fit_transform(pd.DataFrame({"x": ["12%"]}))


@pytest.mark.parametrize("value", ["1", "+", "-", "$1", "", [], ["%", "%"], ["%", 3], ".", 5])
def test_bad_declarations_are_refused(value):
    with pytest.raises(ValueError, match="'suffix' of numeric column 'x'"):
        Schema.from_dict({"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1,
                                            "suffix": value}}})


def test_declarations_round_trip_and_typos_are_named():
    spec = {"type": "numeric", "lower": 0, "upper": 1, "prefix": "$", "suffix": ["%", "pct"]}
    schema = Schema.from_dict({"columns": {"x": spec}})
    assert schema.to_dict()["columns"]["x"] == spec
    with pytest.raises(ValueError, match="suffix"):
        Schema.from_dict({"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1,
                                            "sufix": "%"}}})


def test_owner_checks_read_the_declared_cells():
    schema = Schema.from_dict({"thousands": ",", "columns": {"x": {
        "type": "numeric", "lower": 0, "upper": 100, "suffix": "%", "prefix": "$"}}})
    found = outside_declarations(pd.DataFrame({"x": ["12%", "150%", "$1,200", "50"]}), schema)
    assert found["x"] == {"below": 0.0, "above": 0.5}


def test_draft_proposes_symbols_and_keeps_codes_as_codes():
    frame = pd.DataFrame({
        "rate": ["12%", "0%", "3.5%", None, "100%", "7%"],
        "price": ["$1,200.50", "$3", "-$5", "$0.00", "$7", "$9"],
        "weight": ["1.5 kg", "2 kg", "3kg", "4 kg", "0.5 kg", "7 kg"],
        "icd": ["250.1", "V57.89", "428", "250.10", "428.0", "401.9"],
        "city": [f"city{k}" for k in range(6)],
        "size": ["12A", "13B", "14A", "12B", "13A", "15A"],
        "y": ["no", "yes"] * 3})
    columns = draft_schema(frame, "y", thousands=",").to_dict()["columns"]
    assert columns["rate"]["suffix"] == "%" and columns["rate"]["upper"] == 100
    assert columns["price"]["prefix"] == "$" and columns["price"]["lower"] == -5
    assert columns["price"]["upper"] == 1200.5 and "prefix" in columns["price"]["from_data"]
    assert columns["weight"]["suffix"] == "kg"
    assert all(columns[c]["type"] != "numeric" for c in ("icd", "city", "size"))


def test_draft_two_values_numeric_one_value_dropped_labels_as_written():
    frame = pd.DataFrame({"flag": [0, 1, 1, 0], "pair": [3, 7, 7, 3], "const": ["a"] * 4,
                          "constnum": [5] * 4, "gap": [1, None, 1, 1],
                          "y": ["True", "False", "True", "True"]})
    draft = draft_schema(frame, "y").to_dict()
    columns = draft["columns"]
    assert {k: columns["flag"][k] for k in ("type", "lower", "upper")} == {
        "type": "numeric", "lower": 0.0, "upper": 1.0}
    assert (columns["pair"]["lower"], columns["pair"]["upper"]) == (3.0, 7.0)
    assert columns["const"] == columns["constnum"] == {"type": "drop", "note": CONSTANT_NOTE,
                                                   "from_data": ["type"]}
    assert columns["gap"]["type"] != "drop"  # its missing cells may carry a signal
    assert draft["label"]["classes"] == ["False", "True"]
    assert Schema.from_dict(draft).to_dict()["columns"]["const"]["note"] == CONSTANT_NOTE


def test_cli_draft_of_a_bool_label_and_binary_columns(tmp_path, capsys):
    rows = ["a,b,c,k,y"] + [f"{k % 2},{(k // 2) % 2},{k},7,{'True' if k % 3 else 'False'}"
                            for k in range(12)]
    data, out = tmp_path / "d.csv", tmp_path / "draft.json"
    data.write_text("\n".join(rows) + "\n")
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    draft = json.loads(out.read_text())
    assert draft["label"]["classes"] == ["False", "True"]  # before: ['false', 'true']
    assert draft["columns"]["a"]["type"] == draft["columns"]["b"]["type"] == "numeric"
    assert draft["columns"]["k"]["type"] == "drop" and "note" in draft["columns"]["k"]
    assert "holding one value on every row" in err and "['k']" in err
    width = TabularEncoder(draft).fit().n_features_out_  # a, b, c: one feature each
    assert width == 4


def test_cli_symbols_end_to_end(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 400
    rate = rng.uniform(0, 100, n)
    price = rng.uniform(0, 5000, n)
    y = np.where(rate + rng.normal(0, 10, n) > 50, "yes", "no")
    rows = ["rate,price,y"] + [f'{r:.1f}%,"${p:,.2f}",{v}' for r, p, v in zip(rate, price, y)]
    data, draft = tmp_path / "d.csv", tmp_path / "draft.json"
    data.write_text("\n".join(rows) + "\n")
    assert main(["schema", str(data), "--label", "y", "--thousands", ",",
                 "--out", str(draft)]) == 0
    spec = json.loads(draft.read_text())
    assert spec["columns"]["rate"]["suffix"] == "%" and spec["columns"]["price"]["prefix"] == "$"
    spec["columns"]["rate"] = {"type": "numeric", "lower": 0, "upper": 100, "suffix": "%"}
    spec["columns"]["price"] = {"type": "numeric", "lower": 0, "upper": 10000, "prefix": "$"}
    spec["label"] = {"column": "y", "classes": ["no", "yes"]}
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(spec))
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model),
                 "--non-private-figures"]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(data), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    accuracy = float(capsys.readouterr().out.split("accuracy ")[1].split(",")[0])
    assert accuracy > 0.75  # the rate carries the label; majority is about 0.5
