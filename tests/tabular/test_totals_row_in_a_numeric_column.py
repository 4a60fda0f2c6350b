"""``train`` refuses a totals row whose first cell sits in a numeric column as ``predict`` does.

Red team, session 32: a spreadsheet's ``Total,,`` below a table whose first column is a
numeric price was refused by ``train`` as a text cell in a numeric column, with the advice to
declare the column categorical or list the word in 'na_values'; ``predict`` named the row a
totals row.  Now both say the latter, in memory and with ``--workers``
(:func:`dpboost.cli._row_lines.with_line` serves both).
"""

from __future__ import annotations

import json
import random

import pytest

from dpboost.cli import main

SCHEMA = {"columns": {"price": {"type": "numeric", "lower": 0, "upper": 1000},
                      "job": {"type": "categorical", "categories": ["clerk", "sales"]}},
          "label": {"column": "bought", "classes": ["no", "yes"]}}


def _file(tmp_path, last: str):
    rng = random.Random(0)
    rows = "".join(f"{rng.randint(100, 900)},{rng.choice(['clerk', 'sales'])},"
                   f"{rng.choice(['no', 'yes'])}\n" for _ in range(50))
    data, spec = tmp_path / "d.csv", tmp_path / "s.json"
    data.write_text("price,job,bought\n" + rows + last)
    spec.write_text(json.dumps(SCHEMA))
    return data, spec


@pytest.mark.parametrize("word", ["Total", " Grand TOTAL ", "Summe"])
def test_train_names_the_totals_row(tmp_path, capsys, word):
    data, spec = _file(tmp_path, f"{word},,\n")
    assert main(["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [(f"dpboost train: error: {data}: line 52, the last, looks like a totals row "
                    "below the table (its first cell says so), not a record of the table: "
                    "delete it.")]


def test_a_word_in_the_last_row_that_is_no_totals_word_keeps_the_cell_error(tmp_path, capsys):
    data, spec = _file(tmp_path, "unknown,clerk,no\n")
    assert main(["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert "Column 'price' is declared numeric but the cell at line 52" in err
    assert "totals row" not in err
