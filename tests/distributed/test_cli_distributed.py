"""Reading a Parquet folder / CSV with dask and encoding it partition by partition."""

import json
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


# -- a bad value: the file's line, and one line on stderr ------------------------------------
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "2", "--seed", "0"]


def _bad_csv(tmp_path, kind: str, header: bool = True, n: int = 3000, at: int = 2400):
    """A CSV whose data row ``at`` holds a non-number (``age``) or an undeclared label."""
    frame = _frame(n, seed=3)
    frame["age"] = frame["age"].astype(object)
    frame.loc[at, "age" if kind == "age" else "y"] = "forty" if kind == "age" else "maybe"
    path = tmp_path / f"bad_{kind}_{header}.csv"
    text = frame.to_csv(index=False, header=header, lineterminator="\n")
    path.write_text(text.replace("\n", "\n\n", 3))  # blank lines count in the file's lines
    return path


@pytest.mark.parametrize("spool", [True, False])
@pytest.mark.parametrize("kind, header", [("age", True), ("label", True), ("age", False)])
def test_a_bad_value_is_reported_at_its_line_of_the_file(tmp_path, monkeypatch, capsys,
                                                         kind, header, spool):
    """The dask reader gave the row within its partition; now the in-memory reader's line."""
    import dask

    from dpboost.cli import main
    from dpboost.cli._bad_values import file_error
    from dpboost.schema import Schema
    from dpboost.tabular import BadValueError

    schema = Schema.from_dict({**SCHEMA, **({} if header else {"names": ["age", "job", "y"]})})
    path = _bad_csv(tmp_path, kind, header)
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(schema.to_dict()))
    code = main(["train", str(path), "--schema", str(schema_path), *TRAIN, "--out",
                 str(tmp_path / "m.json")])
    assert code == 2
    in_memory = capsys.readouterr().err.strip().splitlines()[-1]
    assert in_memory.startswith(f"dpboost train: error: {path}: ") and " at line " in in_memory
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(tmp_path / "spool"))
    with dask.config.set(scheduler="synchronous"), pytest.raises(BadValueError) as info:
        X, y, _ = read_encoded(str(path), schema, blocksize=8_000, spool=spool)
        assert X.numblocks[0] > 2  # the bad row is in a later partition
        dask.compute(X, y)
    assert f"dpboost train: error: {file_error(info.value, str(path), schema)}" == in_memory


def test_a_bad_value_in_a_parquet_folder_names_its_file_and_row(tmp_path, capsys):
    import dask

    from dpboost.cli import main
    from dpboost.cli._bad_values import file_error
    from dpboost.tabular import BadValueError

    folder = tmp_path / "data"
    folder.mkdir()
    good, bad = _frame(50, seed=4), _frame(50, seed=5)
    bad.loc[33, "y"] = "maybe"
    good.to_parquet(folder / "part-0.parquet")
    bad.to_parquet(folder / "part-1.parquet", row_group_size=10)
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    code = main(["train", str(folder / "part-1.parquet"), "--schema",
                 str(tmp_path / "schema.json"), *TRAIN, "--out", str(tmp_path / "m.json")])
    assert code == 2
    in_memory = capsys.readouterr().err.strip().splitlines()[-1]
    assert "part-1.parquet: The label at row 34 (pandas index 33) " in in_memory
    assert "maybe" not in in_memory
    for chunk_bytes in (1, 128 << 20):  # a chunk per row group, or the whole folder in one
        with dask.config.set(scheduler="synchronous"), pytest.raises(BadValueError) as info:
            dask.compute(*read_encoded(str(folder), SCHEMA, chunk_bytes=chunk_bytes)[:2])
        assert f"dpboost train: error: {file_error(info.value, str(folder), SCHEMA)}" \
            == in_memory


#: ``python -c``: the CLI with CSV partitions of 8 kB, so the bad row is in a later one.
_SMALL_BLOCKS = ("import sys; import dpboost.cli._distributed as d; d.CSV_BLOCKSIZE = 8_000; "
                 "from dpboost.cli import main; sys.exit(main(sys.argv[1:]))")


@pytest.mark.slow
@pytest.mark.parametrize("command, kind", [("train", "age"), ("train", "label"),
                                           ("predict", "age"), ("predict-unlabelled", "age")])
def test_workers_print_one_line_on_a_bad_file_the_in_memory_one(tmp_path, capsys, command,
                                                                kind):
    """Before, distributed's worker log ("Compute Failed" and a traceback) came first."""
    import subprocess
    import sys

    from dpboost.cli import main

    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    model = tmp_path / "m.json"
    path = _bad_csv(tmp_path, kind)
    if command.startswith("predict"):
        good = tmp_path / "good.csv"
        _frame(200).to_csv(good, index=False)
        assert main(["train", str(good), "--schema", str(schema), *TRAIN, "--out",
                     str(model)]) == 0
        (tmp_path / "p.csv").write_text("earlier predictions\n")
        label = [] if command == "predict-unlabelled" else ["--label", "y"]
        argv = ["predict", str(path), "--model", str(model), *label, "--out",
                str(tmp_path / "p.csv")]
    else:
        argv = ["train", str(path), "--schema", str(schema), *TRAIN, "--out", str(model)]
    capsys.readouterr()
    assert main(argv) == 2
    in_memory = capsys.readouterr().err.strip().splitlines()[-1]
    proc = subprocess.run([sys.executable, "-c", _SMALL_BLOCKS, *argv, "--workers", "1"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [in_memory], proc.stderr
    assert " at line 2405" in in_memory  # data row 2400 + header + 3 blank lines + 1
    if command.startswith("predict"):  # a failed write leaves the earlier file, no temporary
        assert (tmp_path / "p.csv").read_text() == "earlier predictions\n"
        assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


@pytest.mark.slow
def test_workers_print_nothing_but_the_result_on_a_good_file(tmp_path, capsys):
    """No worker log, no dask warning (small partitions used to warn about skiprows), and no
    three-line warning when the scheduler's default HTTP port 8787 is taken."""
    import contextlib
    import socket
    import subprocess
    import sys

    from dpboost.cli import main

    schema, model, data = tmp_path / "schema.json", tmp_path / "m.json", tmp_path / "d.csv"
    schema.write_text(json.dumps(SCHEMA))
    _frame(3000, seed=6).to_csv(data, index=False)
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", str(data), "--model", str(model), "--label", "y", "--out",
                 str(tmp_path / "in_memory.csv")]) == 0
    captured = capsys.readouterr()
    in_memory = captured.out.strip().splitlines()[-1]
    assert in_memory.startswith("test: accuracy ") and "ROC AUC 0." in in_memory
    # the data owner's warnings of in-memory predict (ages outside [0, 100]) and its notes
    # (the labels are random: a model may predict one class), printed alike
    warned = [line for line in captured.err.splitlines() if "warning:" in line]
    notes = [line for line in captured.err.splitlines() if "note:" in line]
    assert warned
    out = tmp_path / "p.csv"
    with socket.socket() as taken:
        with contextlib.suppress(OSError):  # if it is free; if not, it is taken already
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        proc = subprocess.run([sys.executable, "-c", _SMALL_BLOCKS, "predict", str(data),
                               "--model", str(model), "--label", "y", "--out", str(out),
                               "--workers", "1"],
                              capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [*warned, f"wrote 3000 predictions to {out}", *notes], \
        proc.stderr
    # the accuracy and the ROC AUC, as in memory (before: the accuracy only)
    assert proc.stdout.strip().splitlines()[-1] == in_memory
