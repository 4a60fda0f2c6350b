"""Held-out raw files with hand-written schemas: what a new user meets (a robustness sweep).

Files modelled on well-known public tables and their quirks (UCI adult's ``" ?"`` and
``" >50K."``, bank marketing's ``999`` sentinel, Kaggle's ``PassengerId`` and ``customerID``,
trailing separators, Parquet copies of CSV files), each schema written from the README alone.
Each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]


def _write(path: Path, content) -> Path:
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def _coef(path: Path) -> list:
    model = json.loads(path.read_text())
    return [model["coef"], model["intercept"]]


@pytest.fixture(scope="module")
def scheduler():
    """The address of a 1-worker local dask cluster for this module's ``--scheduler`` runs."""
    pytest.importorskip("distributed")
    from distributed import Client

    from dpboost.distributed import local_cluster

    cluster = local_cluster(1, "1GiB")
    client = Client(cluster)
    yield client.scheduler.address
    client.close()
    cluster.close()


# -- privacy: nothing printed by default depends on the data -------------------------------
def test_train_on_dask_prints_no_partition_count(tmp_path, capsys, monkeypatch, scheduler):
    """`train --workers` printed "(dask, 3 partitions)": a CSV's partitions are its size in
    bytes over the block size, so one value written longer in one row changed the count."""
    import dpboost.cli._distributed as distributed_cli

    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 100000}},
        "label": {"column": "y", "classes": [0, 1]}})
    files = []
    for k, wide in enumerate(["1", "0" * 300 + "1"]):  # the same value, written longer
        (tmp_path / f"run{k}").mkdir()
        rows = [f"{wide if i == 0 else i % 7},{i % 2}" for i in range(60)]
        files.append(_write(tmp_path / f"run{k}" / "d.csv", "x,y\n" + "\n".join(rows) + "\n"))
    # one block for the first file, two for its longer neighbour
    monkeypatch.setattr(distributed_cli, "CSV_BLOCKSIZE", files[0].stat().st_size)
    outputs = []
    for data in files:
        assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                     "--scheduler", scheduler, "--out", str(data.parent / "m.json")]) == 0
        outputs.append(capsys.readouterr().out.replace(str(data.parent), "RUN"))
    assert outputs[0] == outputs[1]


# -- na_values: one rule whichever reader produced the table --------------------------------
def _sentinel_frame(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({"age": rng.integers(18, 90, n),
                         "pdays": np.where(rng.random(n) < 0.5, 999, rng.integers(0, 30, n)),
                         "y": rng.choice(["no", "yes"], n)})


SENTINEL_SCHEMA = {"na_values": ["999"],
                   "columns": {"age": {"type": "numeric", "lower": 18, "upper": 100},
                               "pdays": {"type": "numeric", "lower": 0, "upper": 40,
                                         "missing": "indicator"}},
                   "label": {"column": "y", "classes": ["no", "yes"]}}


def test_a_numeric_sentinel_in_na_values_is_missing_in_parquet_as_in_csv(tmp_path, capsys):
    """Bank marketing writes pdays = 999 for "never contacted". Listed in 'na_values', it was
    missing in a CSV (pyarrow nulls the text) but a Parquet column of numbers kept 999 and
    clipped it to the upper bound: the same table trained two different models."""
    frame = _sentinel_frame()
    frame.to_csv(tmp_path / "bank.csv", index=False)
    frame.to_parquet(tmp_path / "bank.parquet")
    schema = _write(tmp_path / "s.json", SENTINEL_SCHEMA)
    coefs = []
    for name in ("bank.csv", "bank.parquet"):
        out = tmp_path / f"{name}.json"
        assert main(["train", str(tmp_path / name), "--schema", str(schema), *TRAIN,
                     "--out", str(out)]) == 0, capsys.readouterr().err
        coefs.append(_coef(out))
    assert coefs[0] == coefs[1]
    encoded = TabularEncoder(SENTINEL_SCHEMA).fit_transform(frame)
    assert (encoded[:, 2] > 0).sum() == (frame["pdays"] == 999).sum()  # the indicator


def test_a_numeric_sentinel_is_missing_however_it_is_written(tmp_path):
    """``999.0`` in a CSV is the number of the declared ``"999"``: missing, as the text
    ``999`` is (a reader keeping every cell as text, as dask's does, agrees)."""
    path = _write(tmp_path / "d.csv", "pdays,y\n999,no\n999.0,yes\n12,no\n")
    schema = Schema.from_dict({"na_values": ["999"], "columns": {
        "pdays": {"type": "numeric", "lower": 0, "upper": 40, "missing": "indicator"}}})
    encoder = TabularEncoder(schema).fit()
    as_read = encoder.transform(read_table(path, na_values=schema.na_values))
    as_text = encoder.transform(pd.read_csv(path, dtype=str, keep_default_na=False))
    np.testing.assert_array_equal(as_read, as_text)
    assert (as_read[:, 1] > 0).tolist() == [True, True, False]


def test_na_values_written_with_spaces_match_the_stripped_cells(tmp_path):
    """UCI adult writes ``", ?"``; a schema copying the cell as ``" ?"`` matched in memory
    (pyarrow compares the raw text) but not on dask, whose cells reach the encoder unstripped
    and are compared stripped: the missing indicator was 0 there, and a numeric ``" ?"`` was a
    'non-numeric value' error on dask only."""
    path = _write(tmp_path / "adult.csv", "age, work, y\n39, ?, no\n50, Private, yes\n"
                                          " ?, Gov, no\n")
    schema = Schema.from_dict({"na_values": [" ?"], "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 100, "missing": "indicator"},
        "work": {"type": "categorical", "categories": ["Private", "Gov"],
                 "missing": "indicator"}}})
    assert schema.na_values == ("?",)
    encoder = TabularEncoder(schema).fit()
    in_memory = encoder.transform(read_table(path, na_values=schema.na_values))
    as_text = encoder.transform(pd.read_csv(path, dtype=str, keep_default_na=False)
                                .rename(columns=str.strip))
    np.testing.assert_array_equal(in_memory, as_text)
    assert (in_memory[:, 1] > 0).tolist() == [False, False, True]  # age missing
    assert (in_memory[:, 4] > 0).tolist() == [True, False, False]  # work missing


def test_na_values_written_as_numbers_say_to_quote_them():
    with pytest.raises(TypeError, match=r'Write each in quotes: \["999", "\?"\]'):
        Schema.from_dict({"na_values": [999, "?"], "columns": {}})
