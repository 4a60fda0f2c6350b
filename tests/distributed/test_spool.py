"""The spool: chunks encoded once, mapped afterwards, recomputed (or one clear error) when lost."""

import os
from functools import partial
from itertools import pairwise

import numpy as np
import pandas as pd
import pytest

import dpboost.distributed as dist
from dpboost.boost import boost
from dpboost.cli._distributed import cluster_client, read_encoded
from dpboost.distributed_spool import (
    SpoolLostError,
    new_spool_directory,
    remove_spool,
    spool_dask_array,
    spooled,
    spooled_array,
)
from dpboost.lazy_breg import LazyBregBoost
from dpboost.tabular import TabularEncoder
from dpboost.weak_learners import GaussianCenteringHalfspace

da = pytest.importorskip("dask.array")

SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                      "job": {"type": "categorical", "categories": ["a", "b"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


class Counting:
    """A chunk source that records each call in a file (it runs in another process)."""

    def __init__(self, log: str, rows: int, d: int, seed: int) -> None:
        self.log, self.rows, self.d, self.seed = log, rows, d, seed

    def __call__(self) -> np.ndarray:
        with open(self.log, "a") as f:
            f.write(f"{self.seed}\n")
        return np.random.default_rng(self.seed).standard_normal((self.rows, self.d)) / 4


def _calls(log) -> list[int]:
    return [int(s) for s in open(log).read().split()] if os.path.exists(log) else []


def test_each_chunk_is_encoded_once_and_recomputed_when_its_file_is_lost(tmp_path):
    log, folder = str(tmp_path / "calls"), str(tmp_path / "spool")
    lengths = [5, 1, 7]
    X = spooled_array([Counting(log, m, 3, i) for i, m in enumerate(lengths)], lengths, (3,),
                      np.float64, folder)
    ref = np.concatenate([Counting(str(tmp_path / "x"), m, 3, i)() for i, m in
                          enumerate(lengths)])
    for _ in range(3):
        np.testing.assert_array_equal(X.compute(scheduler="sync"), ref)
    assert sorted(_calls(log)) == [0, 1, 2]  # encoded once, then mapped
    os.unlink(os.path.join(folder, "chunk-000001.bin"))  # a lost chunk file
    with open(os.path.join(folder, "chunk-000002.bin"), "r+b") as f:
        f.truncate(8)  # a damaged one (wrong size)
    np.testing.assert_array_equal(X.compute(scheduler="sync"), ref)
    assert sorted(_calls(log)) == [0, 1, 1, 2, 2]  # recomputed from the source, same values
    remove_spool(folder)
    assert not os.path.exists(folder)


def test_a_lost_file_without_a_source_is_one_clear_error(tmp_path):
    folder = str(tmp_path / "spool")
    X = spool_dask_array(da.arange(12.0, chunks=5).reshape(6, 2).rechunk((4, 2)), folder)
    np.testing.assert_array_equal(X.compute(scheduler="sync"), np.arange(12.0).reshape(6, 2))
    os.unlink(os.path.join(folder, "chunk-000001.bin"))
    with pytest.raises(dist.DistributedFitError, match="spooled chunk .* is missing"):
        dist.gather(X.sum())
    assert issubclass(SpoolLostError, dist.DistributedFitError)


def test_spooled_context_deletes_the_spool(tmp_path):
    folder = str(tmp_path / "s")
    with spooled(da.ones((7, 2), chunks=(3, 2)), folder) as Xs:
        assert float(Xs.sum().compute(scheduler="sync")) == 14.0
        assert len(os.listdir(folder)) == 3
    assert not os.path.exists(folder)
    assert os.path.basename(new_spool_directory(str(tmp_path))).startswith("dpboost-spool-")


def _rounds(X, y, T=4):
    learner = GaussianCenteringHalfspace(noise_multiplier=5.0, kappa=0.25)
    H = boost(X, y, measure_producer=LazyBregBoost(0.25, 5.0), weak_learner=learner,
              n_rounds=T, rng=np.random.default_rng(1))
    return np.array([h.coef for h in H])


def test_rounds_on_a_spool_equal_numpy(tmp_path, client):
    n, d, B = 3 * 16384 + 5, 4, 16384
    rng = np.random.default_rng(0)
    Xn = (rng.standard_normal((n, d)) / 3).astype(np.float32)
    yn = np.where(Xn[:, 0] > 0, 1, -1).astype(np.int8)
    starts = [0, 2 * B, n]
    src = [partial(np.array, Xn[a:b]) for a, b in pairwise(starts)]
    lengths = [b - a for a, b in pairwise(starts)]
    X = spooled_array(src, lengths, (d,), np.float32, str(tmp_path / "X"))
    y = da.from_array(yn, chunks=(tuple(lengths),))
    np.testing.assert_array_equal(_rounds(X, y), _rounds(Xn, yn))


def test_read_encoded_spools_parquet_and_the_cluster_deletes_it(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"age": rng.uniform(-10, 120, 900).round(2),
                       "job": rng.choice(["a", "b", "c"], 900),
                       "y": rng.choice(["no", "yes"], 900)})
    folder = tmp_path / "data"
    folder.mkdir()
    for i, (a, b) in enumerate([(0, 1), (1, 400), (400, 900)]):
        df.iloc[a:b].to_parquet(folder / f"part-{i}.parquet")
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(tmp_path / "spools"))
    ref = TabularEncoder(SCHEMA).fit_transform(df).astype(np.float32)
    with cluster_client(workers=1, memory_limit="1GiB"):
        X, y, _ = read_encoded(str(folder), SCHEMA)
        assert X.chunks[0] == (900,)  # small files grouped into one chunk
        np.testing.assert_array_equal(X.compute(), ref)
        np.testing.assert_array_equal(X.compute(), ref)  # now mapped from the spool
        np.testing.assert_array_equal(y.compute(), (df["y"] == "yes").to_numpy())
        (spool,) = os.listdir(tmp_path / "spools")
        assert sorted(os.listdir(tmp_path / "spools" / spool)) == ["X", "y"]
        X1, _, _ = read_encoded(str(folder), SCHEMA, chunk_bytes=1, spool=False)
        assert X1.chunks[0] == (1, 399, 500)  # one chunk per row group
        np.testing.assert_array_equal(X1.compute(), ref)
    assert os.listdir(tmp_path / "spools") == []  # deleted with the cluster


def test_a_spool_read_outside_a_cluster_is_deleted_when_the_process_exits(tmp_path):
    """``read_encoded`` outside ``cluster_client`` (as the dask tests call it) left its spool in
    the temporary folder for good; an exit handler now deletes it."""
    import subprocess
    import sys
    import textwrap

    folder = tmp_path / "data"
    folder.mkdir()
    pd.DataFrame({"age": [1.0, 50.0, 99.0], "job": ["a", "b", "a"],
                  "y": ["no", "yes", "no"]}).to_parquet(folder / "part-0.parquet")
    spools = tmp_path / "spools"
    code = textwrap.dedent(f"""
        import os
        from dpboost.cli._distributed import read_encoded
        X, y, _ = read_encoded({str(folder)!r}, {SCHEMA!r})
        X.compute(scheduler="sync")
        print(len(os.listdir({str(spools)!r})))
    """)
    env = {**os.environ, "DPBOOST_SPOOL_DIR": str(spools),
           "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(),
                                                        os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1"]  # the spool was written while the process ran
    assert os.listdir(spools) == []  # and is gone after it exited
