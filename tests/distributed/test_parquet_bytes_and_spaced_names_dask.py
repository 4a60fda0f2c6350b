"""Parquet byte columns and spaced names with dask (``--workers``) as in memory (red team,
session 33): the row groups are read as the in-memory reader reads the file."""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dpboost.cli._distributed import read_encoded
from dpboost.schema import Schema
from parquet_bytes_cases import SCHEMA, columns, write

pytest.importorskip("dask.dataframe")

MONTHS, HOURS, LABELS = (columns(25)[name] for name in ("month", "hours", "y"))


def _write(path, *, raw=(), names=None, cells=None, fixed=False):
    table = {**columns(25), **({"month": cells} if cells else {})}
    return write(path, table, raw=raw, names=names, fixed=fixed, row_group_size=50)


def _folder(tmp_path, name, **kwargs):
    folder = tmp_path / name
    folder.mkdir()
    for part in ("part-0", "part-1"):
        _write(folder / f"{part}.parquet", **kwargs)
    return folder


def _read(path):
    X, y, _ = read_encoded(str(path), Schema.from_dict(SCHEMA), dtype=np.float64,
                           chunk_bytes=1, spool=False)
    return X.compute(), y.compute()


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("raw", [("month",), ("y",), ("hours",)])
def test_byte_columns_read_as_the_text_file_with_dask(tmp_path, client, raw, fixed):
    X, y = _read(_folder(tmp_path, "raw", raw=raw, fixed=fixed))
    ref_X, ref_y = _read(_folder(tmp_path, "text"))
    np.testing.assert_array_equal(X, ref_X)
    np.testing.assert_array_equal(y, ref_y)
    assert X[:, 1:].any()  # the months are read, not zeros


def test_spaced_names_read_with_dask_as_stripped(tmp_path, client):
    X, y = _read(_folder(tmp_path, "spaced", names=[" hours", " month ", "y "]))
    ref_X, ref_y = _read(_folder(tmp_path, "text"))
    np.testing.assert_array_equal(X, ref_X)
    np.testing.assert_array_equal(y, ref_y)


def test_names_that_strip_to_one_are_refused_with_dask(tmp_path, client):
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table([HOURS, MONTHS, MONTHS, LABELS],
                            names=["hours", "month", "month ", "y"]), path)
    with pytest.raises(ValueError, match=r"names the column\(s\) \['month'\] more than once"):
        read_encoded(str(path), Schema.from_dict(SCHEMA))


def test_bytes_not_utf8_are_refused_at_their_row_with_dask(tmp_path, client):
    cells = [*MONTHS[:120], b"M\xe4r", *MONTHS[121:]]
    path = _write(tmp_path / "latin.parquet", raw=("month",), cells=cells)
    with pytest.raises(ValueError, match=r"latin\.parquet is not UTF-8 text \(column 'month' "
                                         r"holds other bytes at row 121 \(pandas index 120\)\)"):
        _read(path)


@pytest.mark.slow
@pytest.mark.parametrize("layout", [{"raw": ("month", "y")}, {"names": ["hours", " month ",
                                                                       "y"]}])
def test_workers_train_the_in_memory_model(tmp_path, layout, capsys):
    from dpboost.cli import main

    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    data = _write(tmp_path / "d.parquet", **layout)
    models = []
    for extra in ([], ["--workers", "2"]):
        out = tmp_path / f"m{len(models)}.json"
        code = main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                     "--target-delta", "1e-5", "--seed", "3", "--out", str(out), *extra])
        assert code == 0, capsys.readouterr().err
        models.append(json.loads(out.read_text()))
    assert models[0] == models[1]
