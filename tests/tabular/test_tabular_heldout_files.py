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
