"""A 2-worker ``distributed.LocalCluster`` shared by the dask tests (skipped without dask)."""

import pytest

pytest.importorskip("dask", reason="dask is an optional extra: pip install 'dpboost[dask]'")
pytest.importorskip("distributed", reason="distributed is an optional extra: 'dpboost[dask]'")


@pytest.fixture(scope="session")
def client():
    from distributed import Client

    from dpboost.distributed import local_cluster

    cluster = local_cluster(2, "1GiB")  # the package's own recipe (free scheduler port)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(autouse=True)
def _spools_in_tmp_path(tmp_path, monkeypatch):
    """Spools of a test go to its own folder, not the machine's temporary folder."""
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(tmp_path / "dpboost-spools"))
