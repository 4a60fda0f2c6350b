"""A declared thousands separator after a first group that starts with 0 is not a grouping:
``0,125`` is refused (a decimal comma or a typo), never read as 125.  Before (a raw-CSV trial,
session 22) ``0,125`` trained as 125 and ``000.123`` (decimal ``,``, thousands ``.``) as 123,
silently, outside the declared bounds."""

import json

import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder
from dpboost.thousands import drop_thousands


@pytest.mark.parametrize("text,thousands,decimal", [
    ("0,125", ",", "."), ("00,125", ",", "."), ("-0,500", ",", "."), ("0,000", ",", "."),
    ("0.123", ".", ","), ("000.123", ".", ","), ("0 125", " ", "."), ("0'125", "'", "."),
])
def test_a_first_group_starting_with_zero_is_refused(text, thousands, decimal):
    assert drop_thousands(text, thousands, decimal) is None


@pytest.mark.parametrize("text,thousands,decimal,read", [
    ("1,250", ",", ".", "1250"), ("-12,345.5", ",", ".", "-12345.5"),
    ("1.234.567,8", ".", ",", "1234567,8"), ("10 000", " ", ".", "10000"),
    ("0.125", ",", ".", "0.125"),  # no separator in it: as written
])
def test_grouped_numbers_still_lose_their_separators(text, thousands, decimal, read):
    assert drop_thousands(text, thousands, decimal) == read


def test_the_encoder_refuses_the_cell_with_a_hint():
    schema = Schema.from_dict({"thousands": ",", "columns": {
        "rate": {"type": "numeric", "lower": 0, "upper": 1}}})
    enc = TabularEncoder(schema).fit()
    with pytest.raises(BadValueError, match="first group not starting with 0") as info:
        enc.transform(pd.DataFrame({"rate": ["1,250", "0,125"]}))
    assert "0,125" not in str(info.value) and info.value.row == 1


def test_train_exits_with_one_line(tmp_path, capsys):
    (tmp_path / "d.csv").write_text("rate,y\n" + '"0,125",a\n"1,250",b\n' * 20)
    (tmp_path / "s.json").write_text(json.dumps({
        "thousands": ",", "columns": {"rate": {"type": "numeric", "lower": 0, "upper": 2000}},
        "label": {"column": "y", "classes": ["a", "b"]}}))
    code = main(["train", str(tmp_path / "d.csv"), "--schema", str(tmp_path / "s.json"),
                 "--target-epsilon", "1", "--target-delta", "1e-6",
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "line 2" in err[0]
    assert not (tmp_path / "m.json").exists()
