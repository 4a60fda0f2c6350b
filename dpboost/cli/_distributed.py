"""CLI helpers for data bigger than memory: a dask cluster, and tables read partition by partition.

``dpboost train 'data/*.parquet' --schema schema.json --workers K`` starts a
``distributed.LocalCluster`` of ``K`` worker processes; ``--scheduler ADDRESS`` connects to a
running cluster; with neither the in-memory path is used.  A Parquet folder (or glob), or a
CSV larger than memory, is read with ``dask.dataframe`` and encoded partition by partition by
the schema's :class:`~dpboost.tabular.TabularEncoder`, which reads nothing from the data (its
encoding is a function of the schema and of each row alone), so no pass of its own is needed.
Only the partition lengths are counted (``n`` is public).
"""

from __future__ import annotations

import contextlib
import glob
import os
from collections.abc import Iterator

import numpy as np

__all__ = ["add_cluster_options", "cluster_client", "is_large_table", "read_encoded"]


def add_cluster_options(parser) -> None:
    """``--workers K`` and ``--scheduler ADDRESS`` (mutually exclusive)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, default=None, metavar="K",
                       help="run on a local dask cluster of K worker processes, out of core "
                            "(default: none, in memory)")
    group.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on a running dask cluster, e.g. tcp://host:8786 (default: "
                            "none, in memory)")
    parser.add_argument("--memory-limit", default="auto", metavar="BYTES",
                        help="memory limit per local worker with --workers (default: auto)")


@contextlib.contextmanager
def cluster_client(workers: int | None = None, scheduler: str | None = None,
                   memory_limit: str | int = "auto") -> Iterator[object | None]:
    """Yield a ``distributed.Client`` (``None`` when neither option is given); close on exit."""
    if workers is None and scheduler is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError as exc:
        raise ValueError("--workers and --scheduler need dask: pip install 'dpboost[dask]'. "
                         f"({exc})") from exc
    if workers is not None:
        if workers < 1:
            raise ValueError(f"The '--workers' option must be an int >= 1. Got {workers} "
                             "instead.")
        from dpboost.distributed import local_cluster

        cluster = local_cluster(workers, memory_limit)
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise ValueError(f"Could not connect to the dask scheduler at {scheduler!r}: "
                             f"{exc}") from exc
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _parquet_paths(path: str) -> list[str]:
    if os.path.isdir(path):
        return sorted(glob.glob(os.path.join(path, "*.parquet")))
    return sorted(glob.glob(path))


def is_large_table(path: str) -> bool:
    """Whether ``path`` is a Parquet folder or glob (read with dask rather than in memory)."""
    paths = _parquet_paths(str(path))
    return bool(paths) and all(p.endswith(".parquet") for p in paths)


def _encode(frame, encoder, dtype) -> np.ndarray:
    return np.asarray(encoder.transform(frame), dtype=dtype)


def _labels(frame, encoder, column: str) -> np.ndarray:
    return np.asarray(encoder.encode_labels(frame[column]), dtype=np.int8)


def read_encoded(path: str, schema, *, dtype=np.float32, blocksize: str | int = "64MB",
                 with_labels: bool = True):
    """Read a Parquet folder/glob or a CSV with dask and encode it partition by partition.

    Returns ``(X, y, encoder)``: ``X`` a row-chunked dask array of the encoded rows (one chunk
    per partition, known lengths), ``y`` the label positions in the schema's ``classes`` as an
    int8 dask array (``None`` without labels).
    """
    import dask
    import dask.array as da
    import dask.dataframe as dd

    from dpboost.tabular import TabularEncoder

    encoder = TabularEncoder(schema).fit()
    paths = _parquet_paths(str(path))
    if paths and all(p.endswith(".parquet") for p in paths):
        frame = dd.read_parquet(paths)
    else:
        frame = dd.read_csv(str(path), blocksize=blocksize, dtype=str, keep_default_na=False)
    lengths = frame.map_partitions(len).compute().tolist()
    parts = frame.to_delayed()
    width = encoder.n_features_out_
    X = da.concatenate([
        da.from_delayed(dask.delayed(_encode)(p, encoder, dtype), shape=(m, width), dtype=dtype)
        for p, m in zip(parts, lengths) if m > 0], axis=0)
    y = None
    label = encoder.schema_.label
    if with_labels and label is not None:
        y = da.concatenate([
            da.from_delayed(dask.delayed(_labels)(p, encoder, label.column), shape=(m,),
                            dtype=np.int8)
            for p, m in zip(parts, lengths) if m > 0])
    return X, y, encoder
