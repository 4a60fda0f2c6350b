"""The shipped public schemas of the raw UCI Adult (census income) files.

``examples/schemas/adult.json``, ``adult-binned.json`` (issue 14's bins) and
``adult-additive.json`` (its additive variant, issue 14's binned census target; both measured by
``benchmarks/bench_binned.py --tasks census,census-additive``) are written from ``adult.names``
alone.  The raw files are not shipped, so these tests use rows written in their format: a
space after each comma, ``?`` for a missing category, no header, and ``adult.test``'s labels
ending in ``.``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

SCHEMAS = Path(__file__).resolve().parents[2] / "examples" / "schemas"

ROWS = "".join(", ".join(row) + "\n" for row in [
    ["45", "Private", "120000", "Masters", "14", "Married-civ-spouse", "Exec-managerial",
     "Husband", "White", "Male", "15024", "0", "50", "United-States", ">50K"],
    ["17", "?", "80000", "11th", "7", "Never-married", "?", "Own-child", "Black", "Female",
     "0", "0", "12", "?", "<=50K"],
    ["90", "Self-emp-inc", "99000", "Doctorate", "16", "Widowed", "Prof-specialty",
     "Unmarried", "Other", "Female", "99999", "4356", "99", "Holand-Netherlands", ">50K"],
    ["33", "Never-worked", "50000", "Preschool", "1", "Separated", "Armed-Forces", "Wife",
     "Amer-Indian-Eskimo", "Male", "0", "1902", "1", "Outlying-US(Guam-USVI-etc)", "<=50K"],
])


def _read(tmp_path, name: str, text: str = ROWS):
    schema = Schema.load(SCHEMAS / name)
    path = tmp_path / "adult.data"
    path.write_text(text)
    frame = read_table(path, names=schema.names, columns=list(schema.read_columns),
                       na_values=schema.na_values, text_columns=[schema.label.column])
    return schema, TabularEncoder(schema).fit(), frame


@pytest.mark.parametrize("name", ["adult.json", "adult-binned.json"])
def test_the_schemas_encode_adult_rows_in_the_unit_ball(tmp_path, name):
    schema, enc, frame = _read(tmp_path, name)
    assert schema.draft_marks() == []
    Z = enc.transform(frame)
    assert Z.shape == (4, enc.n_features_out_)
    assert (np.linalg.norm(Z, axis=1) <= 1 + 1e-12).all()
    assert enc.encode_labels(frame["income"]).tolist() == [1, 0, 1, 0]
    names = enc.get_feature_names_out().tolist()
    assert not any(n.startswith("fnlwgt") for n in names)  # a sampling weight: dropped
    # every category named in the rows is declared: each categorical block has one 1,
    # except where the row says '?' (missing: no category)
    for column in ("workclass", "occupation", "native-country", "education", "race"):
        block = [j for j, n in enumerate(names) if n.startswith(column + "=")]
        hot = (Z[:, block] != 0).sum(axis=1).tolist()
        assert hot == [0 if frame[column].iloc[i] is None or str(frame[column].iloc[i])
                       .strip() in ("?", "nan") else 1 for i in range(4)], column


def test_the_binned_schema_puts_each_value_in_its_public_bin(tmp_path):
    _, enc, frame = _read(tmp_path, "adult-binned.json")
    Z = enc.transform(frame)
    names = enc.get_feature_names_out().tolist()

    def hot(row, column):
        return [n for j, n in enumerate(names) if n.startswith(column) and Z[row, j] != 0]

    assert hot(0, "age") == ["age[40,50)"]
    assert hot(2, "age") == ["age[80,90)"]  # the upper edge belongs to the last bin
    assert hot(0, "capital-gain") == ["capital-gain[10000,20000)"]
    assert hot(1, "capital-gain") == ["capital-gain[0,1)"]  # no gain: a bin of its own
    assert hot(2, "capital-gain") == ["capital-gain[20000,99999)"]
    assert hot(3, "hours-per-week") == ["hours-per-week[1,10)"]
    assert hot(3, "education-num") == ["education-num=1"]


def test_the_additive_schema_orders_education_and_folds_rare_groups(tmp_path):
    schema, enc, frame = _read(tmp_path, "adult-additive.json")
    assert schema.draft_marks() == []
    Z = enc.transform(frame)
    assert (np.linalg.norm(Z, axis=1) <= 1 + 1e-12).all()
    names = enc.get_feature_names_out().tolist()
    assert not any(n.startswith(("education=", "education-num=", "fnlwgt")) for n in names)
    # education-num: ONE feature, its 16 public levels evenly on [-1, 1] (the k-th of 16 is
    # -1 + 2k/15, before the encoder's row scaling, the same for every row here)
    (j,) = [j for j, n in enumerate(names) if n.startswith("education-num")]
    levels = np.array([14, 7, 16, 1])
    ratio = Z[:, j] / (-1 + 2 * (levels - 1) / 15)
    assert np.allclose(ratio, ratio[0]) and ratio[0] > 0
    # native-country: United-States or all zeros; race: White, Black or all zeros
    for column, hot in (("native-country", [1, 0, 0, 0]), ("race", [1, 1, 0, 0])):
        block = [j for j, n in enumerate(names) if n.startswith(column + "=")]
        assert (Z[:, block] != 0).sum(axis=1).tolist() == hot, column
    assert [n for n in names if n.startswith("age")][:2] == ["age[17,20)", "age[20,25)"]


def test_adult_test_labels_with_dots_are_refused_with_the_hint(tmp_path):
    text = ROWS.replace(">50K\n", ">50K.\n").replace("<=50K\n", "<=50K.\n")
    _, enc, frame = _read(tmp_path, "adult.json", text)
    with pytest.raises(BadValueError, match="as UCI adult.test's labels do: remove the dots"):
        enc.encode_labels(frame["income"])
