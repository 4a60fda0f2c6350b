"""Ordinal columns read with dask (``--workers``) encode as in memory: CSV and Parquet."""

import numpy as np
import pandas as pd
import pytest

from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

pytest.importorskip("dask.dataframe")

SCHEMA = Schema.from_dict({
    "columns": {"size": {"type": "ordinal", "categories": [1, 2, 3, 4], "missing": "indicator",
                         "na_values": [9]},
                "grade": {"type": "ordinal", "categories": ["low", "mid", "high"]}},
    "label": {"column": "y", "classes": ["no", "yes"]}})


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"size": rng.choice(["1", "2.0", " 3 ", "4", "5", "9", ""], n),
                         "grade": rng.choice(["low", "mid", "high", "High", "?", ""], n),
                         "y": rng.choice(["no", "yes"], n)})


def _in_memory(path):
    frame = read_table(path, na_values=SCHEMA.na_values, text_columns=SCHEMA.text_columns,
                       column_na_values=SCHEMA.column_na_values)
    return TabularEncoder(SCHEMA).transform(frame)


def test_csv_in_blocks_encodes_ordinal_columns_as_in_memory(tmp_path, client):
    path = tmp_path / "d.csv"
    _frame(5000).to_csv(path, index=False)
    X, _, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=10_000)
    assert X.numblocks[0] > 1
    np.testing.assert_array_equal(X.compute(), _in_memory(path))


def test_parquet_of_numbers_encodes_ordinal_columns_as_in_memory(tmp_path, client):
    frame = _frame(600, seed=1)
    frame["size"] = pd.to_numeric(frame["size"].str.strip().replace("", None)).astype("Int64")
    folder = tmp_path / "data"
    folder.mkdir()
    frame.iloc[:250].to_parquet(folder / "part-0.parquet")
    frame.iloc[250:].to_parquet(folder / "part-1.parquet")
    X, _, _ = read_encoded(str(folder), SCHEMA, dtype=np.float64, chunk_bytes=1)
    ref = np.vstack([_in_memory(folder / f"part-{i}.parquet") for i in (0, 1)])
    np.testing.assert_array_equal(X.compute(), ref)
    assert np.isclose(np.abs(ref[:, 0]).max() * np.sqrt(3), 1.0)  # 3 blocks; levels reach 1
