"""A quote that opens a value no quote closes: refused alike in memory and under ``--workers``.

Red team, session 28: a last row ``4,x,p,"yes<line break>`` trained in memory (pyarrow read the
label ``yes``), was refused under ``--workers`` ("not as the block reader read it"), and was
refused in memory too once another row held ``5, "x"`` (the pandas reader): one row decided
whether another was read.  Every reader now refuses a file that ends inside a quoted value,
naming the record line the quote opens on (:func:`dpboost.csv_blocks.ends_in_quoted_value`).
"""

from __future__ import annotations

import gzip
import json

import pytest

from dpboost.cli import main

from _refusal_cases import ledger_train_argv, refusal_lines

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                      "b": {"type": "categorical", "categories": ["x", "y", "z"]},
                      "t": {"type": "drop"}},
          "label": {"column": "label", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("last, spaced, packed", [
    ('4,x,p,"yes', False, False), ('4,x,p,"yes', True, False), ('4,x,"p,yes', False, False),
    ('4,x,p,"yes', False, True),  # gzip: read forward (trained in memory until re-read)
])
def test_a_quote_left_open_at_the_end_is_refused_alike(tmp_path, capsys, client, last,
                                                       spaced, packed):
    rows = ["1,x,p,yes", "2,y,q,no"] * 200
    if spaced:  # the in-memory pandas reader, chosen by this one row
        rows[10] = '5, "x",p,yes'
    text = "a,b,t,label\n" + "\n".join(rows) + "\n" + last + "\n"
    data = tmp_path / ("d.csv.gz" if packed else "d.csv")
    data.write_bytes(gzip.compress(text.encode()) if packed else text.encode())
    argv, ledger = ledger_train_argv(tmp_path, data, SCHEMA)
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
