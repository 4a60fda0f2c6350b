"""How a CSV row is read depends on that row, never on which row comes first.

A red-team pair (session 22): the reader for quoted values after spaces (``61, "sales"``) was
chosen from the first two lines.  With the first data row ``50, "clerk"`` every row was
unquoted; with ``50,clerk`` the other rows kept their quotes (undeclared category and label),
and the fits were told apart (epsilon >= 1.21 against a claimed 1).  ``--workers`` likewise
refused one file and silently read the other.  Now the whole file chooses the reader in memory;
under ``--workers`` every block was checked and such a file refused, until session 28, when the
block reader began to read a quote after a separator's spaces as opening a value, as memory
does (:mod:`dpboost.csv_blocks`): both neighbours train there the model they train in memory.
"""

import json
import random

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.pandas_csv import file_quotes_after_space
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

SCHEMA = {"columns": {"amt": {"type": "numeric", "lower": 0, "upper": 100},
                      "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"]}},
          "label": {"column": "bought", "classes": ["no", "yes"]}}


def _write(path, first_spaced: bool, every: int = 50, n: int = 400):
    rng = random.Random(7)
    lines = ["amt,job,bought"]
    for i in range(n):
        a, j, lab = rng.randint(0, 100), rng.choice(["clerk", "sales", "eng"]), rng.choice(
            ["no", "yes"])
        spaced = first_spaced if i == 0 else (every and i % every == 0)
        lines.append(f'{a}, "{j}", "{lab}"' if spaced else f"{a},{j},{lab}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _encoded(path):
    schema = Schema.from_dict(SCHEMA)
    frame = read_table(path, text_columns=schema.text_columns)
    enc = TabularEncoder(schema).fit()
    return enc.transform(frame), enc.encode_labels(frame["bought"])


@pytest.mark.parametrize("every", [50, 0])
def test_the_first_row_changes_only_its_own_encoding(tmp_path, every):
    X, y = _encoded(_write(tmp_path / "d.csv", True, every))
    X2, y2 = _encoded(_write(tmp_path / "e.csv", False, every))
    np.testing.assert_array_equal(X[1:], X2[1:])
    np.testing.assert_array_equal(y[1:], y2[1:])
    np.testing.assert_array_equal(X[0], X2[0])  # both spellings of row 0 mean the same


def test_a_spaced_quote_is_found_on_any_line_and_across_chunks(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("a,b\n" + "1,x\n" * 5000 + '2, "y"\n')
    assert file_quotes_after_space(path, ",")
    assert file_quotes_after_space(path, ",", chunk=7)  # the pattern cut between chunks
    assert not file_quotes_after_space(path, ";")
    path.write_text('a,b\n1,"x, y"\n')  # a quoted comma without a space before the quote
    assert not file_quotes_after_space(path, ",")


def _train(data, schema, out, *workers):
    return main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "0", "--out", str(out), *workers])


def test_workers_train_both_neighbours_as_in_memory(tmp_path, capsys):
    """Refused under ``--workers`` ("spaces before quoted values") before session 28."""
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    for name, first in (("d.csv", True), ("e.csv", False)):
        data = _write(tmp_path / name, first)
        assert _train(data, schema, tmp_path / f"{name}.m.json") == 0
        assert _train(data, schema, tmp_path / f"{name}.w.json", "--workers", "1") == 0
        memory, workers = (json.loads((tmp_path / f"{name}.{k}.json").read_text())
                           for k in "mw")
        assert workers["coef"] == memory["coef"]


@pytest.mark.slow
def test_workers_train_a_file_without_spaced_quotes_as_in_memory(tmp_path, capsys):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    data = _write(tmp_path / "e.csv", False, every=0)
    assert _train(data, schema, tmp_path / "a.json") == 0
    assert _train(data, schema, tmp_path / "b.json", "--workers", "1") == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["privacy_report"]["n_samples"] == b["privacy_report"]["n_samples"] == 400
