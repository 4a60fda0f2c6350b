"""Parquet as pandas writes it (red team, session 34): zoned dates and a named index.

* A date column stored as ``datetime64[us, UTC]`` was read as ``1970-01-01 00:00:00+00:00``,
  none of the dates a schema declares: every row was "other", and ``train`` said nothing.
* ``frame.set_index("age").to_parquet(...)`` stores ``age`` as a column, but pandas made it
  the index: a schema naming ``age`` was told "The data has no column 'age'".
"""

import datetime
import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cell_text import category_key
from dpboost.cli import main
from dpboost.parquet_columns import read_columns

SCHEMA = {"columns": {"day": {"type": "categorical",
                              "categories": ["2020-01-01", "2020-01-02", "2020-01-03"]},
                      "age": {"type": "numeric", "lower": 0, "upper": 100}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _frame(n=300):
    rng = np.random.default_rng(0)
    day = rng.integers(0, 3, n)
    age = rng.integers(18, 90, n)
    y = np.where(day + age / 50 + rng.normal(0, 0.5, n) > 2, "yes", "no")
    return pd.DataFrame({"day": pd.to_datetime("2020-01-01") + pd.to_timedelta(day, "D"),
                         "age": age, "y": y})


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/New_York"])
def test_a_zoned_stamp_at_midnight_is_its_date(zone):
    stamp = pd.Timestamp("2020-01-02").tz_localize(zone)
    assert category_key(stamp) == "2020-01-02"
    assert category_key(stamp.to_pydatetime()) == "2020-01-02"
    later = pd.Timestamp("2020-01-02 10:30").tz_localize(zone)
    assert category_key(later).startswith("2020-01-02 10:30:00")  # a time keeps its offset
    assert category_key(datetime.date(2020, 1, 2)) == "2020-01-02"


def _train(tmp_path, data, name, capsys):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    out = tmp_path / f"{name}.json"
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "3", "--out", str(out)]) == 0, \
        capsys.readouterr().err
    capsys.readouterr()
    return json.loads(out.read_text())["coef"]


def test_zoned_dates_and_a_named_index_train_the_plain_file_s_model(tmp_path, capsys):
    frame = _frame()
    frame.to_parquet(tmp_path / "plain.parquet", index=False)
    zoned = frame.assign(day=frame["day"].dt.tz_localize("UTC"))
    zoned.to_parquet(tmp_path / "zoned.parquet", index=False)
    frame.set_index("age").to_parquet(tmp_path / "indexed.parquet")
    ref = _train(tmp_path, tmp_path / "plain.parquet", "plain", capsys)
    assert _train(tmp_path, tmp_path / "zoned.parquet", "zoned", capsys) == ref
    assert _train(tmp_path, tmp_path / "indexed.parquet", "indexed", capsys) == ref


def test_a_named_index_reads_as_the_column_it_is_stored_as(tmp_path):
    frame = _frame(40)
    path = tmp_path / "indexed.parquet"
    frame.set_index(["age", "day"]).to_parquet(path, row_group_size=10)
    whole = read_columns(path, None, pandas_metadata=True)
    assert list(whole.columns) == ["y", "age", "day"]  # the file's column order
    pd.testing.assert_frame_equal(whole[["day", "age", "y"]], frame)
    some = read_columns(path, ["age", "y"], row_groups=[1, 2])  # as --workers reads it
    assert list(some.columns) == ["age", "y"]
    np.testing.assert_array_equal(some["age"], frame["age"][10:30])
    assert list(read_columns(path, ["y"], pandas_metadata=True).columns) == ["y"]
