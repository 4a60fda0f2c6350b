"""`predict --workers` prints the data owner's warnings that in-memory `predict` prints.

In memory, `predict` warns when over 1% of a column lies outside its declared bound (clipped),
over 10% is undeclared categories (or ordinal levels), or a value matches a declared category
only if case is ignored.  `--workers` printed none of these; now the counts are computed
partition by partition and gathered once, so both print the same lines.
"""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli._distributed import read_encoded
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import spelling_mismatches, outside_declarations

pytest.importorskip("dask.dataframe")

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0", "--n-rounds", "10"]
SCHEMA = {"na_values": ["?"],
          "columns": {"age": {"type": "numeric", "lower": 0, "upper": 100,
                              "na_values": [999]},
                      "income": {"type": "numeric", "lower": 0, "upper": 1000},
                      "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"]},
                      "grade": {"type": "ordinal", "categories": ["low", "mid", "high"]},
                      "id": {"type": "drop"}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _frame(n, seed=0):
    """Ages below 0 (2%) and above 100 (5%), 999 meaning missing; 20% undeclared jobs, some
    'Sales' (a case-only match); 15% undeclared grades; incomes all inside."""
    rng = np.random.default_rng(seed)
    u = rng.uniform(size=n)
    age = np.where(u < 0.02, -5, np.where(u < 0.07, 130, np.where(u < 0.1, 999, 40))).astype(
        object)
    age[rng.uniform(size=n) < 0.05] = "?"
    return pd.DataFrame({
        "id": np.arange(n),
        "age": age,
        "income": rng.uniform(0, 1000, n).round(2),
        "job": rng.choice(["clerk", "sales", "eng", "pilot", "Sales", ""], n,
                          p=[0.3, 0.3, 0.2, 0.15, 0.05, 0.0]),
        "grade": rng.choice(["low", "mid", "high", "top", ""], n, p=[0.3, 0.3, 0.2, 0.15, 0.05]),
        "y": rng.choice(["no", "yes"], n)})


def _warnings(err: str, out: str) -> list[str]:
    return [line.replace(out, "OUT") for line in err.strip().splitlines()
            if " boosting rounds on " not in line]


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_predict_workers_prints_the_in_memory_warnings(tmp_path, capsys, monkeypatch, suffix):
    monkeypatch.setattr("dpboost.cli._distributed.CSV_BLOCKSIZE", 20_000)  # several blocks
    frame = _frame(4000)
    data = tmp_path / f"d.{suffix}"
    if suffix == "csv":
        frame.to_csv(data, index=False)
    else:
        frame.assign(age=frame["age"].astype(str)).to_parquet(data)
    schema, model = tmp_path / "schema.json", tmp_path / "m.json"
    schema.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    for label in ([], ["--label", "y"]):  # without a spool, and with one (the accuracy)
        out = str(tmp_path / "p.csv")
        assert main(["predict", str(data), "--model", str(model), *label, "--out", out]) == 0
        captured = capsys.readouterr()
        in_memory = _warnings(captured.err, out)
        assert main(["predict", str(data), "--model", str(model), *label, "--out", out,
                     "--workers", "2"]) == 0
        captured_dask = capsys.readouterr()
        assert _warnings(captured_dask.err, out) == in_memory
        assert captured_dask.out == captured.out
    assert len(in_memory) == 6, in_memory
    for needle in ("column 'age' lie below", "column 'age' lie above",
                   "column 'job' (missing ones aside) are none of its declared categories",
                   "declared category 'sales' only if case is ignored",
                   "column 'grade' (missing ones aside) are none of its declared levels",
                   "wrote 4000 predictions"):
        assert sum(needle in line for line in in_memory) == 1, (needle, in_memory)


@pytest.mark.slow
def test_train_workers_prints_the_warnings_only_with_the_flag(tmp_path, capsys):
    data, schema = tmp_path / "d.csv", tmp_path / "schema.json"
    _frame(2000, seed=1).to_csv(data, index=False)
    schema.write_text(json.dumps(SCHEMA))
    lines = {}
    for flags in ([], ["--workers", "1"]):
        for figures in ([], ["--non-private-figures"]):
            assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out",
                         str(tmp_path / "m.json"), *flags, *figures]) == 0
            err = capsys.readouterr().err
            lines[bool(flags), bool(figures)] = [ln for ln in err.splitlines()
                                                 if "warning:" in ln]
    assert lines[False, False] == lines[True, False] == []
    assert len(lines[False, True]) == 5 and lines[True, True] == lines[False, True]


def test_read_encoded_checks_equal_the_whole_tables_in_every_layout(tmp_path, client):
    schema = Schema.from_dict(SCHEMA)
    frame = _frame(3000, seed=2)
    csv = tmp_path / "d.csv"
    frame.to_csv(csv, index=False)
    whole = read_table(csv, na_values=schema.na_values, text_columns=schema.text_columns,
                       column_na_values=schema.column_na_values)
    expected = (spelling_mismatches(whole, schema), outside_declarations(whole, schema), [])
    assert expected[1]["age"]["above"] > 0.01 and expected[0] == {"job": ("sales",)}
    for spool in (False, True):
        *_, found = read_encoded(str(csv), schema, blocksize=10_000, spool=spool, checks=True)
        assert found == expected
    folder = tmp_path / "data"
    folder.mkdir()
    as_text = frame.assign(age=frame["age"].astype(str))
    as_text.iloc[:1000].to_parquet(folder / "part-0.parquet", row_group_size=300)
    as_text.iloc[1000:].to_parquet(folder / "part-1.parquet", row_group_size=300)
    for spool in (False, True):
        *_, found = read_encoded(str(folder), schema, chunk_bytes=1, spool=spool, checks=True)
        assert found == expected
    assert len(read_encoded(str(folder), schema)) == 3  # without checks, as before


def test_a_bad_value_prints_the_error_and_no_warning(tmp_path, capsys):
    frame = _frame(500, seed=3)
    frame["income"] = frame["income"].astype(object)
    frame.loc[400, "income"] = "lots"
    data, schema = tmp_path / "d.csv", tmp_path / "schema.json"
    frame.to_csv(data, index=False)
    schema.write_text(json.dumps(SCHEMA))
    good = tmp_path / "good.csv"
    _frame(500, seed=3).to_csv(good, index=False)
    assert main(["train", str(good), "--schema", str(schema), *TRAIN, "--out",
                 str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    errs = []
    for flags in ([], ["--workers", "1"]):
        code = main(["predict", str(data), "--model", str(tmp_path / "m.json"), "--out",
                     str(tmp_path / "p.csv"), *flags])
        errs.append(capsys.readouterr().err.strip().splitlines())
        assert code == 2
    assert errs[0] == errs[1] and len(errs[0]) == 1 and "line 402" in errs[0][0], errs


@pytest.mark.slow
@pytest.mark.parametrize("figures", [[], ["--non-private-figures"]])
def test_an_empty_column_is_named_by_workers_as_in_memory(tmp_path, capsys, monkeypatch,
                                                          figures):
    """predict (and train with --non-private-figures) name a column without a single value;
    --workers, which counts partition by partition, said nothing."""
    monkeypatch.setattr("dpboost.cli._distributed.CSV_BLOCKSIZE", 20_000)  # several blocks
    frame = _frame(2000, seed=4).assign(income="?")  # every income missing
    data, schema, model = tmp_path / "d.csv", tmp_path / "schema.json", tmp_path / "m.json"
    frame.to_csv(data, index=False)
    schema.write_text(json.dumps(SCHEMA))
    lines = {}
    for flags in ([], ["--workers", "1"]):
        assert main(["train", str(data), "--schema", str(schema), *TRAIN, *figures, *flags,
                     "--out", str(model)]) == 0
        lines["train", bool(flags)] = [ln for ln in capsys.readouterr().err.splitlines()
                                       if "no value" in ln]
        out = str(tmp_path / "p.csv")
        assert main(["predict", str(data), "--model", str(model), "--out", out, *flags]) == 0
        lines["predict", bool(flags)] = [ln for ln in capsys.readouterr().err.splitlines()
                                         if "no value" in ln]
    assert lines["predict", False] == lines["predict", True]
    assert len(lines["predict", False]) == 1 and "column 'income' holds" in lines["predict",
                                                                                  False][0]
    assert lines["train", False] == lines["train", True]
    assert len(lines["train", False]) == (1 if figures else 0)


@pytest.mark.slow
def test_predict_workers_reads_an_older_model_as_in_memory_predict_does(tmp_path, capsys):
    """A model saved before ``train`` refused a top-level ``na_values`` token written as a
    category still predicts in memory; ``--workers`` re-checked its schema and refused it.
    Both now encode a model's rows with ``TabularEncoder.of_model``."""
    rows = ["age,job,y"] + [f"{20 + k % 50},{('admin.', 'unknown', 'tech')[k % 3]},{k % 2}"
                            for k in range(300)]
    data = tmp_path / "d.csv"
    data.write_text("\n".join(rows) + "\n")
    schema = {"columns": {"age": {"type": "numeric", "lower": 18, "upper": 100},
                          "job": {"type": "categorical",
                                  "categories": ["admin.", "unknown", "tech"]}},
              "label": {"column": "y", "classes": [0, 1]}}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                 "--out", str(model)]) == 0
    capsys.readouterr()
    saved = json.loads(model.read_text())  # as an older dpboost saved it
    saved["schema"]["na_values"] = ["unknown"]
    model.write_text(json.dumps(saved))
    outs = []
    for workers in ([], ["--workers", "2"]):
        out = tmp_path / f"p{len(outs)}.csv"
        code = main(["predict", str(data), "--model", str(model), "--label", "y",
                     "--out", str(out), *workers])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        outs.append((out.read_text(), captured.out))
    assert outs[0] == outs[1]
