"""ZIP and ICD-9 codes read with dask (``--workers``) encode as in memory: CSV and Parquet."""

import numpy as np
import pandas as pd
import pytest

from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

pytest.importorskip("dask.dataframe")

SCHEMA = Schema.from_dict({
    "columns": {"zip": {"type": "categorical", "categories": ["02134", "2134", "007"]},
                "icd": {"type": "categorical", "categories": ["250.1", "250.10", "250.01"]}},
    "label": {"column": "y", "classes": ["01", "1"]}})


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"zip": rng.choice(["02134", "2134", "007", "7", "99"], n),
                         "icd": rng.choice(["250.1", "250.10", "250.01", "250.100"], n),
                         "y": rng.choice(["01", "1"], n)})


def _in_memory(path):
    frame = read_table(path, na_values=SCHEMA.na_values, text_columns=SCHEMA.text_columns)
    enc = TabularEncoder(SCHEMA)
    return enc.transform(frame), enc.encode_labels(frame["y"])


def test_csv_and_parquet_text_codes_encode_as_in_memory(tmp_path, client):
    path = tmp_path / "d.csv"
    frame = _frame(3000)
    frame.to_csv(path, index=False)
    X, y, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=10_000)
    assert X.numblocks[0] > 1
    ref_X, ref_y = _in_memory(path)
    np.testing.assert_array_equal(X.compute(), ref_X)
    np.testing.assert_array_equal(y.compute(), ref_y)
    assert len(np.unique(ref_y)) == 2 and (ref_X[:, :6] > 0).sum(axis=0).all()  # all used
    folder = tmp_path / "data"
    folder.mkdir()
    frame.iloc[:1000].to_parquet(folder / "part-0.parquet")
    frame.iloc[1000:].to_parquet(folder / "part-1.parquet")
    X, y, _ = read_encoded(str(folder), SCHEMA, dtype=np.float64, chunk_bytes=1)
    np.testing.assert_array_equal(X.compute(), ref_X)
    np.testing.assert_array_equal(y.compute(), ref_y)


def test_parquet_of_numbers_sharing_a_declared_key_fails_at_its_row(tmp_path, client):
    frame = _frame(400, seed=1)
    frame["zip"] = 99
    frame.loc[300, "zip"] = 2134  # '02134' or '2134': the column must be stored as text
    folder = tmp_path / "data"
    folder.mkdir()
    frame.iloc[:200].to_parquet(folder / "part-0.parquet")
    frame.iloc[200:].to_parquet(folder / "part-1.parquet")
    X, _, _ = read_encoded(str(folder), SCHEMA, dtype=np.float64, chunk_bytes=1, spool=False)
    with pytest.raises(BadValueError, match=r"part-1.parquet: Column 'zip' holds a number at "
                                            r"row 100 .*\['02134', '2134'\]"):
        X.compute()
