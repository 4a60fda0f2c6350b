"""``dpboost train`` names the header's columns a schema leaves out (red team session 30,
finding 8): a column missing from a hand-written schema trained without a word.

The note reads the header only, so neighbouring files (one row replaced) print the same line.
"""

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli._train_notes import unused_columns
from dpboost.schema import Schema

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "3", "--seed", "0"]
COLUMNS = {"age": {"type": "numeric", "lower": 0, "upper": 100}}
LABEL = {"column": "y", "classes": ["no", "yes"]}


def _frame(n=60, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"id": np.arange(n), "age": rng.uniform(0, 100, n).round(1),
                         "note": "x", "y": rng.choice(["no", "yes"], n)})


def _train(tmp_path, frame, columns, capsys, name="d.csv"):
    data = tmp_path / name
    if name.endswith(".parquet"):
        frame.to_parquet(data)
    else:
        frame.to_csv(data, index=False)
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": columns, "label": LABEL}))
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    return [ln for ln in capsys.readouterr().err.splitlines() if "note:" in ln]


@pytest.mark.parametrize("name", ["d.csv", "d.parquet"])
def test_undeclared_header_columns_are_named_once(tmp_path, capsys, name):
    notes = _train(tmp_path, _frame(), COLUMNS, capsys, name)
    assert notes == ["dpboost train: note: the file's columns 'id', 'note' are not in the "
                     'schema and were not used; declare {"type": "drop"} for a column left out '
                     "on purpose."]


def test_dropped_columns_silence_it_and_neighbours_print_the_same(tmp_path, capsys):
    columns = {**COLUMNS, "id": {"type": "drop"}}
    a = _train(tmp_path, _frame(), columns, capsys)
    other = _frame()
    other.loc[7, ["age", "note", "y"]] = [3.5, "a long note, with a comma", "yes"]
    assert a == _train(tmp_path, other, columns, capsys) and len(a) == 1 and "'note'" in a[0]
    assert _train(tmp_path, _frame(), {**columns, "note": {"type": "drop"}}, capsys) == []


def test_a_file_without_a_header_row_gives_no_note(tmp_path):
    data = tmp_path / "d.csv"
    _frame().to_csv(data, index=False, header=False)
    schema = Schema.from_dict({"names": ["id", "age", "note", "y"], "columns": COLUMNS,
                               "label": LABEL})
    assert unused_columns(data, schema, "y") == []
