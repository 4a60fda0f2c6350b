"""A 2-worker ``distributed.LocalCluster`` shared by the dask tests (skipped without dask)."""

import pytest

pytest.importorskip("dask", reason="dask is an optional extra: pip install 'dpboost[dask]'")
pytest.importorskip("distributed", reason="distributed is an optional extra: 'dpboost[dask]'")


@pytest.fixture(scope="session")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, memory_limit="1GiB")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()
