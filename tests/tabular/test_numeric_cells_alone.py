"""A numeric cell's value is a function of that cell alone (red team, session 26).

pyarrow typed a numeric column from all its cells, and one cell it could not type (``true``,
``(45)``, a column's own missing-value marker) sent the whole column to pandas'
``to_numeric``, which reads some numbers differently.  Neighbouring files then encoded up to
every row differently, or one trained while the other was refused.  Every schema column is
now read as text and parsed cell by cell by one correctly rounded parser.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder
from dpboost.tabular_cells import PLAIN_NUMBER, parse_numbers

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _plain_numbers(rng, n):
    """Random texts of the plain-number grammar: signs, leading zeros, long digit runs,
    points in every place, exponents near the float range's ends."""
    out = []
    for _ in range(n):
        sign = rng.choice(["", "+", "-"])
        whole = "".join(rng.choice(list("0123456789"), size=int(rng.integers(0, 25))))
        frac = "".join(rng.choice(list("0123456789"), size=int(rng.integers(0, 25))))
        if not whole and not frac:
            whole = "7"
        body = whole + ("." + frac if frac or rng.random() < 0.3 else "")
        if not whole:
            body = "." + frac
        if rng.random() < 0.4:
            body += rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + str(
                int(rng.integers(0, 330)))
        out.append(sign + body)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_parse_numbers_is_correctly_rounded_on_the_whole_grammar(seed):
    rng = np.random.default_rng(seed)
    cells = _plain_numbers(rng, 3000)
    assert all(re.fullmatch(PLAIN_NUMBER, c) for c in cells)
    values, plain = parse_numbers(pd.Series(cells, dtype=object))
    assert plain.all()
    np.testing.assert_array_equal(values, [float(c) for c in cells])  # Python's: exact


def test_parse_numbers_takes_each_cell_alone():
    rng = np.random.default_rng(7)
    cells = _plain_numbers(rng, 400) + ["true", "(45)", "?", "0x10", "1_000", "", None,
                                         "1,5", "nan", " 5", "\u0661\u0662", "--1", "1e"]
    values, plain = parse_numbers(pd.Series(cells, dtype=object))
    for i, cell in enumerate(cells):  # each cell parsed on its own gives the same
        v, p = parse_numbers(pd.Series([cell], dtype=object))
        assert p[0] == plain[i]
        assert (np.isnan(v[0]) and np.isnan(values[i])) or v[0] == values[i]
    assert not plain[-13:].any()
    assert parse_numbers(pd.Series(["INF", "-Infinity", "1e400", "0" * 5000 + "45"]))[
        0].tolist() == [np.inf, -np.inf, np.inf, 45.0]


def _encode(path, schema_path):
    schema = Schema.load(schema_path)
    frame = read_table(path, names=schema.names, text_columns=schema.text_columns,
                       decimal=schema.decimal, separator=schema.separator,
                       column_na_values=schema.column_na_values, na_values=schema.na_values)
    return TabularEncoder(schema).fit().transform(frame)


@pytest.mark.parametrize("other", ["true", "(0.5)", "?"])
def test_one_row_never_moves_other_rows_across_a_bin_edge(tmp_path, other):
    # the red team's pair: 100 rows on a public edge that to_numeric read one ulp low
    edge_text = "+0.24391087688713198"
    rng = np.random.default_rng(0)
    rows = [f"{rng.uniform(0, 1):.3f},{rng.choice(['no', 'yes'])}" for _ in range(200)]
    rows[100:] = [f"{edge_text},yes"] * 100
    schema = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1, "na_values": ["?"],
                                "edges": [0, float(edge_text), 1]}},
              "label": {"column": "y", "classes": ["no", "yes"]}, "separator": ","}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    encoded = []
    for name, cell in (("a", "0.9"), ("b", other)):
        changed = list(rows)
        changed[7] = f"{cell},no"
        (tmp_path / f"{name}.csv").write_text("x,y\n" + "\n".join(changed) + "\n")
        encoded.append(_encode(tmp_path / f"{name}.csv", tmp_path / "s.json"))
    differ = np.flatnonzero(np.any(encoded[0] != encoded[1], axis=1))
    assert set(differ) <= {7}  # (101 rows differed before)
    # every row on the edge is in the bin the correctly rounded value belongs to
    assert np.array_equal(encoded[0][100:], np.repeat(encoded[0][100:101], 100, axis=0))


@pytest.mark.parametrize("decimal", [".", ","])
def test_neighbours_train_alike_whatever_another_row_holds(tmp_path, capsys, decimal):
    # row 102 is the same in both files; line 7 differs.  Before: a 4,300-digit number (or
    # '45,' under a decimal comma) trained beside '45' and was refused beside 'true'
    sep = ";" if decimal == "," else ","
    rng = np.random.default_rng(1)
    rows = [f"{int(rng.integers(20, 70))}{sep}{rng.choice(['no', 'yes'])}" for _ in range(300)]
    rows[100] = ("0" * 4300 + "45" if decimal == "." else "45,") + f"{sep}yes"
    schema = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120}},
              "label": {"column": "y", "classes": ["no", "yes"]}, "separator": sep,
              "decimal": decimal}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    outcomes = []
    for name, cell in (("a", "45"), ("b", "true"), ("c", "(45)")):
        changed = list(rows)
        changed[5] = f"{cell}{sep}no"
        (tmp_path / f"{name}.csv").write_text(f"age{sep}y\n" + "\n".join(changed) + "\n")
        code = main(["train", str(tmp_path / f"{name}.csv"), "--schema", str(tmp_path / "s.json"),
                     *TRAIN, "--out", str(tmp_path / f"{name}.json")])
        outcomes.append((code, capsys.readouterr().err.replace(f"{name}.csv", "F.csv")))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0][0] == 0  # both a long integer and '45,' ("45.") are numbers


def test_a_decimal_comma_number_with_an_exponent_reads(tmp_path, capsys):
    # a decimal-comma spreadsheet writes small rates so (user trial, session 26)
    rows = ["rate;y"] + [f"{v};{c}" for v, c in
                         [("9,83E-05", "no"), ("0,5", "yes"), ("1,5e-1", "no"), ("5,", "yes")]
                         * 20]
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    schema = {"decimal": ",", "separator": ";", "columns": {"rate": {
        "type": "numeric", "lower": 0, "upper": 10}}, "label": {"column": "y",
                                                                  "classes": ["no", "yes"]}}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    frame = read_table(tmp_path / "d.csv", decimal=",", separator=";",
                       text_columns=["rate", "y"])
    values, plain = parse_numbers(frame["rate"].str.replace(",", "."))
    assert plain.all() and values[:4].tolist() == [9.83e-05, 0.5, 0.15, 5.0]
    assert main(["train", str(tmp_path / "d.csv"), "--schema", str(tmp_path / "s.json"),
                 *TRAIN, "--out", str(tmp_path / "m.json")]) == 0


def test_the_draft_reads_german_missing_markers_and_exponents(tmp_path, capsys):
    # user trial, session 26: one 'k.A.' (keine Angabe) or '9,83E-05' made the column 'drop'
    rng = np.random.default_rng(2)
    rows = ["rate;y"] + [f"{rng.uniform(0, 0.2):.4f}".replace(".", ",") + f";{c}"
                         for c in rng.choice(["no", "yes"], 300)]
    rows[5] = "9,83E-05;no"
    rows[9] = "k.A.;yes"
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    assert main(["schema", str(tmp_path / "d.csv"), "--label", "y", "--decimal", ",",
                 "--out", str(tmp_path / "s.json")]) == 0
    capsys.readouterr()
    column = json.loads((tmp_path / "s.json").read_text())["columns"]["rate"]
    assert column["type"] == "numeric" and column["na_values"] == ["k.A."]
    assert column["lower"] == 9.83e-05
