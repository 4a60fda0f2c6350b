"""Rough edges of the dask CLI found in user trials (``--workers``/``--scheduler``).

The CLI runs on the shared test cluster through ``--scheduler`` (no cluster of its own).
"""

import gzip
import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main

from _refusal_cases import refusal_lines

pytest.importorskip("dask.dataframe")

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _frame(n=600, label_at=4, classes=("no", "yes"), seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.uniform(-1, 1, (n, 4)), columns=[f"x{i}" for i in range(4)])
    frame.insert(label_at, "cls", rng.choice(list(classes), n))
    return frame


def _schema(tmp_path, classes=("no", "yes"), names=None):
    path = tmp_path / "schema.json"
    schema = {"columns": {f"x{i}": {"type": "numeric", "lower": -1, "upper": 1}
                          for i in range(4)},
              "label": {"column": "cls", "classes": list(classes)}}
    if names is not None:
        schema["names"] = names
    path.write_text(json.dumps(schema))
    return str(path)


def _short_row_file(tmp_path, *, sep=",", label_at=4, keep=3, classes=("no", "yes"),
                    compress=False):
    lines = _frame(label_at=label_at, classes=classes).to_csv(index=False, sep=sep)
    lines = lines.splitlines()
    lines[400] = sep.join(lines[400].split(sep)[:keep])  # line 401: `keep` of 5 fields
    text = "\n".join(lines) + "\n"
    if compress:
        path = tmp_path / "short.csv.gz"
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path = tmp_path / "short.csv"
        path.write_text(text)
    return path


def _ledger(tmp_path):
    ledger = tmp_path / "ledger.json"
    assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                 str(ledger)]) == 0
    return ledger


@pytest.mark.parametrize("case", [
    {"label_at": 1, "keep": 3},  # reaches the label: trained with two missing cells
    {"sep": " "},  # whitespace-separated: "The label is missing at line 401"
    {"label_at": 1, "keep": 1},  # misses the label
    {"classes": ("a,b", "c")},  # quoted labels: records, not lines
    {"compress": True},  # one gzip block
    {"spool": False},  # no room for the spool: counted, not spooled
])
def test_a_short_row_is_refused_on_workers_as_in_memory(tmp_path, capsys, client, case):
    """A CSV row short of fields: the block reader of ``--workers`` fills the missing cells
    with "" (as it reads an empty cell), so a short row that reached the label trained as a
    row of missing values, and a whitespace file's said "The label is missing".  Now the
    in-memory line, before the ledger is touched."""
    case = dict(case)
    spool = case.pop("spool", True)
    classes = case.get("classes", ("no", "yes"))
    data = _short_row_file(tmp_path, **case)
    schema = _schema(tmp_path, classes)
    ledger = _ledger(tmp_path)
    errors = refusal_lines(["train", str(data), "--schema", schema, *TRAIN, "--ledger",
                            str(ledger), "--out", str(tmp_path / "m.json")],
                           client, capsys, ledger, spool=spool)
    found = case.get("keep", 3)
    assert f"line 401: expected 5 fields (as in the first row), found {found}." in errors[1][0]
    assert not (tmp_path / "m.json").exists()


def test_the_field_count_of_a_block(tmp_path):
    """The block check: blank lines and a header are skipped, quoted delimiters kept."""
    from dpboost.cli._csv_rows import ShortRowError, block_ok

    assert block_ok(b"a,b,c\n1,2,3\n\n  \n4,,6\r\n7,8,9", ",", 3, 1)
    assert block_ok(b'1,"x,y",3\n4,"p\nq",6\n', ",", 3, 0)
    assert block_ok(b"1 2  3\n\n4\t5 6\n", None, 3, 0)
    for block, sep in ((b"1,2,3\n4,5\n", ","), (b'1,"x,y"\n', ","), (b"1 2\n", None),
                       (b"1,2,3\n4,5,6,7", ",")):
        with pytest.raises(ShortRowError):
            block_ok(block, sep, 3, 0)


def test_a_parquet_folder_trains_in_memory_as_on_workers(tmp_path, capsys, client):
    """``dpboost train data/`` without ``--workers`` said "No such file: data"; a folder is
    read in memory as the rows of its Parquet files in the order of their sorted paths, as
    ``--workers`` reads it, so both write the model of the one file holding those rows.  A
    partitioned folder (files in subfolders only) is read from every file below it."""
    frame = _frame(n=400)
    for name in ("pq", "hive/year=2020", "hive/year=2021", "empty"):
        (tmp_path / name).mkdir(parents=True)
    frame.to_parquet(tmp_path / "all.parquet", index=False)
    frame.iloc[:150].to_parquet(tmp_path / "pq" / "a.parquet", index=False)
    frame.iloc[150:].to_parquet(tmp_path / "pq" / "b.pq", index=False)
    (tmp_path / "pq" / "_SUCCESS").write_text("")
    frame.iloc[:150].to_parquet(tmp_path / "hive" / "year=2020" / "p.parquet", index=False)
    frame.iloc[150:].to_parquet(tmp_path / "hive" / "year=2021" / "p.parquet", index=False)
    schema = _schema(tmp_path)
    coefs = []
    for data, cluster in (("all.parquet", []), ("pq", []), ("hive", []),
                          ("pq", ["--scheduler", client.scheduler.address])):
        model = tmp_path / "m.json"
        assert main(["train", str(tmp_path / data), "--schema", schema, *TRAIN,
                     "--n-rounds", "5", *cluster, "--out", str(model)]) == 0
        coefs.append(json.loads(model.read_text())["coef"])
    assert coefs[1] == coefs[0] and coefs[2] == coefs[0] and coefs[3] == coefs[0]
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(tmp_path / "pq"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert len(pd.read_csv(tmp_path / "p.csv")) == 400
    capsys.readouterr()
    assert main(["train", str(tmp_path / "empty"), "--schema", schema, *TRAIN,
                 "--out", str(tmp_path / "e.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is a folder without Parquet files" in err[0], err


def test_a_numeric_parquet_folder_trains_without_a_schema(tmp_path, capsys):
    """Without ``--schema`` (every column a number) a folder said "No such file: pq"; it is
    read as the table of its files, the model of the one file holding those rows."""
    frame = _frame(n=300).assign(cls=lambda f: (f["cls"] == "yes").astype(int))
    (tmp_path / "pq").mkdir()
    frame.to_parquet(tmp_path / "all.parquet", index=False)
    frame.iloc[:100].to_parquet(tmp_path / "pq" / "a.parquet", index=False)
    frame.iloc[100:].to_parquet(tmp_path / "pq" / "b.parquet", index=False)
    coefs = []
    for data in ("all.parquet", "pq"):
        model = tmp_path / "m.json"
        assert main(["train", str(tmp_path / data), "--label", "cls", "--classes", "0,1",
                     *TRAIN, "--out", str(model)]) == 0, capsys.readouterr().err
        coefs.append(json.loads(model.read_text())["coef"])
    assert coefs[1] == coefs[0]


def test_a_folder_file_without_a_column_is_named(tmp_path, capsys):
    """Every file's footer is checked for the columns read before any row is read."""
    frame = _frame(n=300)
    (tmp_path / "pq").mkdir()
    frame.iloc[:150].to_parquet(tmp_path / "pq" / "a.parquet", index=False)
    frame.iloc[150:].drop(columns="x2").to_parquet(tmp_path / "pq" / "b.parquet", index=False)
    assert main(["train", str(tmp_path / "pq"), "--schema", _schema(tmp_path), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "b.parquet has no column 'x2'" in err[0], err


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("label", ["cls", "clss"])
def test_predict_workers_gives_the_in_memory_label_hint(tmp_path, capsys, client, fmt, label):
    """A test file without the label column: ``predict --label cls --workers`` said "has no
    column 'cls' (named in the schema); its columns are [...]", without the in-memory hint,
    and read the model's label column whatever ``--label`` named.  Both paths now say the
    same line, which ends by saying to drop --label to only predict."""
    frame = _frame(n=300)
    frame.to_csv(tmp_path / "train.csv", index=False)
    test = tmp_path / f"test.{fmt}"
    if fmt == "csv":
        frame.drop(columns="cls").to_csv(test, index=False)
    else:
        frame.drop(columns="cls").to_parquet(test, index=False)
    model = tmp_path / "m.json"
    assert main(["train", str(tmp_path / "train.csv"), "--schema", _schema(tmp_path), *TRAIN,
                 "--n-rounds", "3", "--out", str(model)]) == 0
    errors = []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        capsys.readouterr()
        assert main(["predict", "--model", str(model), str(test), "--label", label,
                     "--out", str(tmp_path / "p.csv"), *cluster]) == 2
        errors.append(capsys.readouterr().err.strip().splitlines())
    assert errors[0] == errors[1] and len(errors[1]) == 1, errors
    assert f"has no label column {label!r}." in errors[1][0]
    assert errors[1][0].endswith("Drop --label to only predict (--label reads the true labels "
                                 "for the accuracy).")


def test_predict_workers_refuses_a_label_other_than_the_models(tmp_path, capsys, client):
    """``--label x1`` (a feature) is refused as in memory; a column present in the file but
    not the model's label cannot be the truth on dask: one line, not a silent swap."""
    frame = _frame(n=300)
    frame.to_csv(tmp_path / "train.csv", index=False)
    frame.assign(other=frame["cls"]).to_csv(tmp_path / "test.csv", index=False)
    model = tmp_path / "m.json"
    assert main(["train", str(tmp_path / "train.csv"), "--schema", _schema(tmp_path), *TRAIN,
                 "--n-rounds", "3", "--out", str(model)]) == 0
    cluster = ["--scheduler", client.scheduler.address]
    for label, needle in (("x1", "is one of the model schema's 'columns'"),
                          ("other", "read the true labels from the model's label column")):
        capsys.readouterr()
        assert main(["predict", "--model", str(model), str(tmp_path / "test.csv"), "--label",
                     label, "--out", str(tmp_path / "p.csv"), *cluster]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and needle in err[0], err
    assert main(["predict", "--model", str(model), str(tmp_path / "test.csv"), "--label",
                 "cls", "--out", str(tmp_path / "p.csv"), *cluster]) == 0


@pytest.mark.parametrize("text, classes", [
    ("no,yes", ["no", "yes"]),
    (" no , yes ", ["no", "yes"]),
    (r"a\,b,c", ["a,b", "c"]),
    (r"a\\,b", ["a\\", "b"]),
    (r"x\y,z", ["x\\y", "z"]),
    ('["a,b", "c"]', ["a,b", "c"]),
    ("[-1, 1]", ["-1", "1"]),
])
def test_classes_text_can_hold_a_comma(text, classes):
    """``--classes`` could not declare a label holding a comma ("c,d"): a backslash before
    the comma, or a JSON list, now keeps it (:func:`dpboost.cli._labels.split_classes`)."""
    from dpboost.cli._labels import CLASSES_HELP, split_classes

    assert split_classes(text) == classes
    assert "JSON list" in CLASSES_HELP and "backslash" in CLASSES_HELP


@pytest.mark.parametrize("text", ['["a", "b"', '["a", {"b": 1}]', "[true, false]"])
def test_classes_as_bad_json_is_one_message(text):
    from dpboost.cli._labels import split_classes

    with pytest.raises(ValueError, match="--classes"):
        split_classes(text)
