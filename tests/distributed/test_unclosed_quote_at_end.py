"""A quote that opens a value no quote closes: refused alike in memory and under ``--workers``.

Red team, session 28: a last row ``4,x,p,"yes<line break>`` trained in memory (pyarrow read the
label ``yes``), was refused under ``--workers`` ("not as the block reader read it"), and was
refused in memory too once another row held ``5, "x"`` (the pandas reader): one row decided
whether another was read.  Every reader now refuses a file that ends inside a quoted value,
naming the record line the quote opens on (:func:`dpboost.csv_blocks.ends_in_quoted_value`).
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main

from _refusal_cases import refusal_lines

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                      "b": {"type": "categorical", "categories": ["x", "y", "z"]},
                      "t": {"type": "drop"}},
          "label": {"column": "label", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("last, spaced", [('4,x,p,"yes', False), ('4,x,p,"yes', True),
                                          ('4,x,"p,yes', False)])
def test_a_quote_left_open_at_the_end_is_refused_alike(tmp_path, capsys, client, last,
                                                       spaced):
    rows = ["1,x,p,yes", "2,y,q,no"] * 200
    if spaced:  # the in-memory pandas reader, chosen by this one row
        rows[10] = '5, "x",p,yes'
    data, schema, ledger = tmp_path / "d.csv", tmp_path / "s.json", tmp_path / "ledger.json"
    data.write_text("a,b,t,label\n" + "\n".join(rows) + "\n" + last + "\n")
    schema.write_text(json.dumps(SCHEMA))
    assert main(["budget", "init", "--target-epsilon", "5", "--target-delta", "1e-5",
                 str(ledger)]) == 0
    argv = ["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
            "--target-delta", "1e-6", "--ledger", str(ledger), "--out", str(tmp_path / "m")]
    _, (line,) = refusal_lines(argv, client, capsys, ledger)  # in memory, on the cluster
    assert line.endswith(f"{data}, line 402: a quote (\") opens a value that no quote closes, "
                         "so the rest of the file would be one cell (the file ends inside "
                         "it); close that value, or delete the quote.")


def test_the_neighbour_with_the_quote_closed_trains(tmp_path):
    rows = ["1,x,p,yes", "2,y,q,no"] * 200
    data, schema = tmp_path / "d.csv", tmp_path / "s.json"
    data.write_text("a,b,t,label\n" + "\n".join(rows) + '\n4,x,p,"yes"\n')
    schema.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 0
