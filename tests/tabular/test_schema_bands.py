"""``dpboost schema`` on a column of bands (red team, session 37).

A column of ``None``, ``1 to 3``, ``4 to 9`` and ``10 or more`` (prior convictions, 64% of
rows ``None``) was drafted right, as four categories, but the draft then said it "reads as a
number with a unit, a currency or a percent sign" and advised listing ``None``, its commonest
category, as missing.  A cell holding two numbers joined by a dash or a word is a band: no
such hint.  A column of one number with a unit still gets it.
"""

from __future__ import annotations

import json

from dpboost.cli import main


def _draft(tmp_path, capsys, cells):
    data = tmp_path / "d.csv"
    rows = [f"{c},{i % 2}" for i, c in enumerate(cells * 10)]
    data.write_text("x,y\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "s.json"
    capsys.readouterr()
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))["columns"]["x"], capsys.readouterr().err


def test_bands_are_categories_without_a_number_hint(tmp_path, capsys):
    for cells in (["None", "1 to 3", "4 to 9", "10 or more"], ["18-25", "26-40", "41-65"],
                  ["0 bis 4", "5 bis 9", "keine"]):
        spec, err = _draft(tmp_path, capsys, cells)
        assert spec["type"] == "categorical", (cells, spec)
        assert "column 'x'" not in err and "na_values" not in err, (cells, err)


def test_one_number_with_a_unit_still_gets_the_hint(tmp_path, capsys):
    _, err = _draft(tmp_path, capsys, ["12 kg", "7 kg", "30 kg", "4 kg", "9 kg", "NA"])
    assert "column 'x' was drafted as" in err and "unit" in err, err
