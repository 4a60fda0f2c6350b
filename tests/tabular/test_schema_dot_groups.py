"""``dpboost schema`` on a ``;`` file with decimal commas and ``.`` thousands (red team,
session 37): the first draft read a family income written ``16.310`` as 16.31, a thousand
times too small, and said nothing of it (it said to pass --decimal , for other columns).  It
now names such a column when another one writes decimal commas."""

from __future__ import annotations

import json

from dpboost.cli import main


def _draft(tmp_path, capsys, income, flags=()):
    rows = [f"{i % 7},{i % 10};{income[i % len(income)]};{'yes' if i % 3 else 'no'}"
            for i in range(30)]
    data = tmp_path / "d.csv"
    data.write_text("rate;income;y\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "s.json"
    capsys.readouterr()
    assert main(["schema", str(data), "--label", "y", "--out", str(out), *flags]) == 0
    return json.loads(out.read_text(encoding="utf-8"))["columns"]["income"], capsys.readouterr().err


def test_a_column_of_dot_groups_beside_decimal_commas_is_named(tmp_path, capsys):
    spec, err = _draft(tmp_path, capsys, ["16.310", "7.300", "96.000", "850"])
    assert spec["upper"] == 850  # what the first draft reads: 96.000 as 96
    assert "['income'] were drafted as numbers read with '.'" in err
    assert "--decimal , --thousands '.'" in err
    spec, err = _draft(tmp_path, capsys, ["16.310", "7.300", "96.000", "850"],
                       ["--decimal", ",", "--thousands", "."])
    assert spec["lower"] == 850 and spec["upper"] == 96000  # the re-run reads thousands
    assert "were drafted as numbers read with '.'" not in err


def test_decimals_that_are_not_groups_of_three_are_not_named(tmp_path, capsys):
    _, err = _draft(tmp_path, capsys, ["16.31", "7.3", "96.0"])
    assert "were drafted as numbers read with '.'" not in err
