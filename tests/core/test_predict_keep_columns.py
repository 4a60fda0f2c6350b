"""``dpboost predict --keep``: columns of the file copied, as written, in front of the
predictions, row for row, for every kind of model that reads names; refused in one line where
there are no names (LIBSVM, a headerless file of a model without ``names``) or on dask."""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli._keep_columns import keep_names

SCHEMA = {"columns": {"code": {"type": "categorical", "categories": ["p", "q"]},
                      "x": {"type": "numeric", "lower": -4, "upper": 4}},
          "label": {"column": "y", "classes": ["a", "b"]}}


def _rows(rng, n):
    x = rng.normal(size=n)
    return pd.DataFrame({"id": [f"00{k}" for k in range(n)],  # leading zeros kept as text
                         "code": rng.choice(["p", "q"], size=n), "x": np.round(x, 3),
                         "y": np.where(x > 0, "b", "a"),
                         "note": [f"hi, {k}" if k % 3 else "" for k in range(n)]})


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keep")
    rng = np.random.default_rng(0)
    _rows(rng, 300).to_csv(folder / "train.csv", index=False)
    (folder / "s.json").write_text(json.dumps(SCHEMA))
    assert main(["train", str(folder / "train.csv"), "--schema", str(folder / "s.json"),
                 "--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0",
                 "--out", str(folder / "m.json")]) == 0
    test = _rows(rng, 25)
    test[["note", "x", "id", "code"]].to_csv(folder / "test.csv", index=False)  # reordered
    return folder, test


def _predict(folder, *extra):
    return main(["predict", str(folder / "test.csv"), "--model", str(folder / "m.json"),
                 *extra])


def test_kept_columns_lead_and_line_up_with_the_plain_output(fitted, capsys):
    folder, test = fitted
    assert _predict(folder, "--out", str(folder / "plain.csv")) == 0
    assert _predict(folder, "--keep", "id, note", "--out", str(folder / "kept.csv")) == 0
    capsys.readouterr()
    plain = pd.read_csv(folder / "plain.csv")
    kept = pd.read_csv(folder / "kept.csv", dtype={"id": str}, keep_default_na=False)
    assert list(kept.columns) == ["id", "note", *plain.columns]
    assert kept["id"].tolist() == test["id"].tolist()  # "000", not 0
    assert kept["note"].tolist() == test["note"].fillna("").tolist()  # commas, empty cells
    pd.testing.assert_frame_equal(kept[plain.columns], plain)


def test_headerless_file_with_schema_names_keeps_by_name(tmp_path, capsys):
    rng = np.random.default_rng(1)
    rows = _rows(rng, 200)[["id", "code", "x", "y"]]
    rows.to_csv(tmp_path / "train.csv", index=False, header=False)
    schema = dict(SCHEMA, names=["id", "code", "x", "y"],
                  columns=dict(SCHEMA["columns"], id={"type": "drop"}))
    (tmp_path / "s.json").write_text(json.dumps(schema))
    assert main(["train", str(tmp_path / "train.csv"), "--schema", str(tmp_path / "s.json"),
                 "--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0",
                 "--out", str(tmp_path / "m.json")]) == 0
    rows.drop(columns="y").to_csv(tmp_path / "t.csv", index=False, header=False)  # no label
    capsys.readouterr()
    assert main(["predict", str(tmp_path / "t.csv"), "--model", str(tmp_path / "m.json"),
                 "--keep", "id"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("id,prediction") and [r.split(",")[0] for r in out[1:]] == \
        rows["id"].tolist()


@pytest.mark.parametrize("keep,said", [("zzz", "has no column 'zzz'; its columns are"),
                                       ("Id", "has no column 'Id'; did you mean 'id'?"),
                                       ("id,id", "give distinct column names"),
                                       ("id,", "give distinct column names")])
def test_bad_keep_is_one_line_and_writes_nothing(fitted, capsys, keep, said):
    folder, _ = fitted
    out = folder / f"none-{abs(hash(keep))}.csv"
    assert _predict(folder, "--keep", keep, "--out", str(out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and not out.exists(), err


def test_keep_is_refused_on_dask_before_a_cluster_starts(fitted, capsys):
    folder, _ = fitted
    assert _predict(folder, "--keep", "id", "--workers", "1", "--out",
                    str(folder / "d.csv")) == 2
    assert "in memory only" in capsys.readouterr().err


def test_keep_needs_names(tmp_path, capsys):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 3)) * 0.3
    lines = [f"{int(r[0] > 0) * 2 - 1} " + " ".join(f"{j + 1}:{v:.3f}" for j, v in enumerate(r))
             for r in X]
    (tmp_path / "d.svm").write_text("\n".join(lines) + "\n")
    assert main(["train", str(tmp_path / "d.svm"), "--n-features", "3", "--index-base", "1",
                 "--classes=-1,1", "--target-epsilon", "1", "--target-delta", "1e-6",
                 "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    assert main(["predict", str(tmp_path / "d.svm"), "--model", str(tmp_path / "m.json"),
                 "--keep", "id"]) == 2
    assert "has no header row" in capsys.readouterr().err


def test_keep_names_splits_at_unescaped_commas():
    assert keep_names(r"a\,b, c ,d") == ["a,b", "c", "d"]
    assert keep_names("only") == ["only"]
