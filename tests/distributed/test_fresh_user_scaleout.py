"""``train --workers`` as a user who read only the README tries it (dask section).

The CLI runs on the shared test cluster through ``--scheduler`` (no cluster of its own).
"""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

from _refusal_cases import refusal_lines

pytest.importorskip("dask.dataframe")

CLASSES = ["a b", "c,d", "e", "f"]  # a space and a comma in the labels
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _table(n=2000, classes=CLASSES, seed=0):
    """Imbalanced classes (60/25/10/5%) and full-precision floats (not float32-exact)."""
    rng = np.random.default_rng(seed)
    p = np.array([0.6, 0.25, 0.1, 0.05][:len(classes)])
    y = rng.choice(len(classes), size=n, p=p / p.sum())
    X = np.clip(rng.normal(size=(len(classes), 4))[y] + rng.normal(size=(n, 4)), -5, 5)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(4)])
    frame["cls"] = np.array(classes, dtype=object)[y]
    return frame


def _schema(tmp_path, classes=CLASSES):
    path = tmp_path / "schema.json"
    columns = {f"x{i}": {"type": "numeric", "lower": -5, "upper": 5} for i in range(4)}
    path.write_text(json.dumps({"columns": columns,
                                "label": {"column": "cls", "classes": classes}}))
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize("classes", [CLASSES, ["no", "yes"]])
def test_workers_write_the_in_memory_model_of_full_precision_floats(tmp_path, client, classes):
    """The README: a CSV through ``train --workers`` writes the in-memory model file.  The
    dask branch encoded float32 rows, so a coefficient moved by about 1e-6 from the in-memory
    fit of the same file and seed (binary and multiclass); it encodes float64 now."""
    data = tmp_path / "train.csv"
    _table(classes=classes).to_csv(data, index=False)
    schema = _schema(tmp_path, classes)
    files = []
    for i, cluster in enumerate(([], ["--scheduler", client.scheduler.address])):
        model = tmp_path / f"m{i}.json"
        assert main(["train", str(data), "--schema", schema, *TRAIN, *cluster,
                     "--out", str(model)]) == 0
        files.append(json.loads(model.read_text()))
    assert files[0]["coef"] == files[1]["coef"]
    assert files[0]["intercept"] == files[1]["intercept"]
    assert files[0]["privacy_report"] == files[1]["privacy_report"]


def _many_classes(tmp_path, k, n=1200):
    rng = np.random.default_rng(1)
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    frame = pd.DataFrame(rng.uniform(-1, 1, (n, 3)), columns=["a", "b", "c"])
    frame["lab"] = [f"c{j}" for j in y]
    schema = tmp_path / "many.json"
    schema.write_text(json.dumps({
        "columns": {c: {"type": "numeric", "lower": -1, "upper": 1} for c in "abc"},
        "label": {"column": "lab", "classes": [f"c{j}" for j in range(k)]}}))
    return frame, y, str(schema)


@pytest.mark.parametrize("spool", [True, False])
def test_labels_past_the_127th_class_keep_their_class(tmp_path, client, spool):
    """The label positions were int8: with 300 classes, class 256 was read as class 0 (and
    128-255 as negative positions, refused as outside the classes)."""
    from dpboost.cli._distributed import read_encoded
    from dpboost.schema import Schema

    frame, y, schema = _many_classes(tmp_path, 300)
    frame.to_csv(tmp_path / "many.csv", index=False)
    (tmp_path / "pq").mkdir()
    frame.iloc[:700].to_parquet(tmp_path / "pq" / "a.parquet", index=False)
    frame.iloc[700:].to_parquet(tmp_path / "pq" / "b.parquet", index=False)
    for data in (tmp_path / "many.csv", tmp_path / "pq"):
        _, got, _ = read_encoded(str(data), Schema.load(schema), blocksize=8_000,
                                 chunk_bytes=4_000, spool=spool)
        np.testing.assert_array_equal(got.compute(), y)


def test_150_classes_train_on_workers_as_in_memory(tmp_path, client):
    """150 declared classes: ``train --workers`` refused every label past the 127th."""
    frame, _, schema = _many_classes(tmp_path, 150)
    data = tmp_path / "many.csv"
    frame.to_csv(data, index=False)
    files = []
    for i, cluster in enumerate(([], ["--scheduler", client.scheduler.address])):
        model = tmp_path / f"m{i}.json"
        assert main(["train", str(data), "--schema", schema, *TRAIN, "--n-rounds", "3",
                     *cluster, "--out", str(model)]) == 0
        files.append(json.loads(model.read_text()))
    assert files[0]["coef"] == files[1]["coef"]


@pytest.mark.parametrize("command", ["train", "predict"])
def test_a_row_of_too_many_fields_is_one_line_as_in_memory(tmp_path, capsys, client, command):
    """A CSV row with an extra field, near the end of a file of several blocks: ``--workers``
    printed a pandas traceback and "internal error (ParserError)"; now the in-memory line."""
    good = tmp_path / "good.csv"
    _table(n=600).to_csv(good, index=False)
    lines = good.read_text().splitlines()
    lines[590] += ",9"
    data = tmp_path / "long.csv"
    data.write_text("\n".join(lines) + "\n")
    schema = _schema(tmp_path)
    ledger = tmp_path / "ledger.json"
    assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                 str(ledger)]) == 0
    model = tmp_path / "m.json"
    if command == "predict":
        assert main(["train", str(good), "--schema", schema, *TRAIN, "--out", str(model)]) == 0
    argv = (["train", str(data), "--schema", schema, *TRAIN, "--ledger", str(ledger),
             "--out", str(tmp_path / "new.json")] if command == "train" else
            ["predict", "--model", str(model), str(data), "--label", "cls",
             "--out", str(tmp_path / "p.csv")])
    errors = refusal_lines(argv, client, capsys, ledger)
    assert "line 591: expected 5 fields (as in the first row), found 6." in errors[1][0]
    assert not (tmp_path / "new.json").exists()


def test_spooled_takes_an_array_chunked_along_its_columns(client):
    """``spooled(X)`` (README) failed inside dask on an X chunked along its columns, which
    the fit takes unspooled; the spool now joins the columns of each row chunk."""
    import dask.array as da

    from dpboost import PrivateHalfspaceClassifier
    from dpboost.distributed_spool import spooled

    frame = _table(n=500)
    X = frame[[f"x{i}" for i in range(4)]].to_numpy() / 20
    y = frame["cls"].to_numpy()
    fits = [PrivateHalfspaceClassifier(1.0, 1e-6, classes=CLASSES, n_rounds=4,
                                       random_state=0).fit(X, y)]
    with spooled(da.from_array(X, chunks=(120, 3))) as Xs:
        assert Xs.chunks[1] == (4,)
        fits.append(PrivateHalfspaceClassifier(1.0, 1e-6, classes=CLASSES, n_rounds=4,
                                               random_state=0).fit(Xs, da.from_array(y, 120)))
        np.testing.assert_array_equal(Xs.compute(), X)
    np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)


def test_a_short_row_is_named_as_short_not_as_a_missing_label(tmp_path, capsys, client):
    """A CSV row two fields short: ``--workers`` read the missing cells as empty and said
    "The label is missing at line N: remove the rows without one"; memory says the row is
    short, and so does ``--workers`` now."""
    frame = _table(n=600)
    data = tmp_path / "short.csv"
    lines = frame.to_csv(index=False).splitlines()
    lines[400] = ",".join(lines[400].split(",")[:3])
    data.write_text("\n".join(lines) + "\n")
    errors = []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        capsys.readouterr()
        assert main(["train", str(data), "--schema", _schema(tmp_path), *TRAIN, *cluster,
                     "--out", str(tmp_path / "m.json")]) == 2
        errors.append(capsys.readouterr().err.strip().splitlines()[-1])
    assert errors[0] == errors[1], errors
    assert "line 401: expected 5 fields (as in the first row), found 3." in errors[1]


def test_folders_of_pq_files_and_of_subfolders(tmp_path, capsys, client):
    """A folder of ``.pq`` files (Parquet to the in-memory reader) trained nowhere, and a
    folder whose Parquet files sit in subfolders (``year=2020/``) or hold none failed with
    "[Errno 21] Is a directory"; now ``.pq`` files are read and the others are one line."""
    frame = _table(n=400)
    for name in ("pq", "hive/year=2020", "hive/year=2021", "empty"):
        (tmp_path / name).mkdir(parents=True)
    frame.iloc[:200].to_parquet(tmp_path / "pq" / "a.pq", index=False)
    frame.iloc[200:].to_parquet(tmp_path / "pq" / "b.pq", index=False)
    frame.iloc[:200].to_parquet(tmp_path / "hive" / "year=2020" / "part.parquet", index=False)
    frame.iloc[200:].to_parquet(tmp_path / "hive" / "year=2021" / "part.parquet", index=False)
    schema = _schema(tmp_path)
    cluster = ["--scheduler", client.scheduler.address]
    assert main(["train", str(tmp_path / "pq"), "--schema", schema, *TRAIN, "--n-rounds", "3",
                 *cluster, "--out", str(tmp_path / "m.json")]) == 0
    for name, needle in (("hive", "give a glob such as"), ("empty", "without Parquet files")):
        capsys.readouterr()
        assert main(["train", str(tmp_path / name), "--schema", schema, *TRAIN, *cluster,
                     "--out", str(tmp_path / f"{name}.json")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and needle in err[0] and "Errno" not in err[0], err
    glob = str(tmp_path / "hive" / "*" / "*.parquet")  # the glob the message proposes
    assert main(["train", glob, "--schema", schema, *TRAIN, "--n-rounds", "3", *cluster,
                 "--out", str(tmp_path / "hive.json")]) == 0
    # the same command again, over the model it wrote: a glob is no file, so it cannot be the
    # output (before: "[Errno 2] No such file or directory" from os.path.samefile)
    assert main(["train", glob, "--schema", schema, *TRAIN, "--n-rounds", "3", *cluster,
                 "--out", str(tmp_path / "hive.json")]) == 0
    assert main(["predict", "--model", str(tmp_path / "hive.json"), glob, *cluster,
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert main(["predict", "--model", str(tmp_path / "hive.json"), glob, *cluster,
                 "--out", str(tmp_path / "p.csv")]) == 0
