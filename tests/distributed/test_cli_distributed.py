"""Reading a Parquet folder / CSV with dask and encoding it partition by partition."""

import os

import numpy as np
import pandas as pd
import pytest

from dpboost.cli._distributed import cluster_client, is_large_table, read_encoded
from dpboost.tabular import TabularEncoder

pytest.importorskip("dask.dataframe")

SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                      "job": {"type": "categorical", "categories": ["a", "b"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.uniform(-10, 120, n).round(2),
                         "job": rng.choice(["a", "b", "c"], n),
                         "y": rng.choice(["no", "yes"], n)})


def test_parquet_folder_encodes_like_the_in_memory_encoder(tmp_path, client):
    df = _frame(1000)
    folder = tmp_path / "data"
    folder.mkdir()
    for i, start in enumerate([0, 1, 400, 999]):  # a one-row file
        stop = {0: 1, 1: 400, 400: 999, 999: 1000}[start]
        df.iloc[start:stop].to_parquet(folder / f"part-{i}.parquet")
    assert is_large_table(str(folder))
    X, y, _ = read_encoded(str(folder), SCHEMA, chunk_bytes=1)  # a chunk per row group
    ref = TabularEncoder(SCHEMA).fit_transform(df)
    np.testing.assert_array_equal(X.compute(), ref.astype(np.float32))
    np.testing.assert_array_equal(y.compute(), (df["y"] == "yes").to_numpy().astype(np.int8))
    assert X.chunks[0] == (1, 399, 599, 1)


def test_csv_in_blocks_encodes_like_the_in_memory_encoder(tmp_path, client):
    df = _frame(20_000, seed=1)
    path = tmp_path / "big.csv"
    df.to_csv(path, index=False)
    X, _, _ = read_encoded(str(path), SCHEMA, blocksize=100_000)
    assert X.numblocks[0] > 1
    ref = TabularEncoder(SCHEMA).fit_transform(pd.read_csv(path))
    np.testing.assert_allclose(X.compute(), ref.astype(np.float32), rtol=1e-6)
    assert not is_large_table(str(path))


def test_cluster_options():
    with cluster_client() as c:
        assert c is None
    with (pytest.raises(ValueError, match="'--workers' option must be an int >= 1"),
          cluster_client(workers=0)):
        pass


@pytest.mark.slow
def test_train_on_a_parquet_folder_spools_and_deletes_the_spool(tmp_path, monkeypatch, capsys):
    import json

    from dpboost.cli import main

    df = _frame(6000, seed=2)
    folder = tmp_path / "data"
    folder.mkdir()
    for i in range(3):
        df.iloc[2000 * i:2000 * (i + 1)].to_parquet(folder / f"part-{i}.parquet")
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    spools = tmp_path / "spools"
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(spools))
    code = main(["train", str(folder), "--schema", str(tmp_path / "schema.json"),
                 "--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "4",
                 "--workers", "2", "--memory-limit", "1GiB", "--out", str(tmp_path / "model.json")])
    assert code == 0, capsys.readouterr().err
    assert json.loads((tmp_path / "model.json").read_text())
    assert spools.exists() and os.listdir(spools) == []  # written during the fit, then deleted
