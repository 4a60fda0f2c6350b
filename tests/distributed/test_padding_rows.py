"""Rows of bare separators (``,,,``), as a spreadsheet pads its export below a table.

Red team s33 R1, finding 5: ``train`` refused them as "The label is missing at line N" alone,
and ``predict`` (a file without labels) predicted one row for each, from missing values, in
silence (23 predictions for 20 rows).  Now train's line says the row holds only separators,
and predict notes them; in memory and with ``--workers`` alike.
"""

from __future__ import annotations

from _refusal_cases import ledger_train_argv, refusal_lines

from dpboost.cli import main

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1},
                      "b": {"type": "categorical", "categories": ["u", "v"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _rows(n, label=True):
    return "".join(f"0.{k % 10},{'uv'[k % 2]}" + (f",{('no', 'yes')[k % 3 == 0]}" if label
                                                   else "") + "\n" for k in range(n))


def test_train_names_a_row_of_bare_separators(tmp_path, client, capsys):
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n" + _rows(60) + ",,\n,,\n")
    argv, ledger = ledger_train_argv(tmp_path, data, SCHEMA)
    (line,), _ = refusal_lines(argv, client, capsys, ledger)
    assert "The label is missing at line 62" in line
    assert "Line 62 holds only separators, no value" in line, line


def test_predict_notes_rows_of_bare_separators(tmp_path, client, capsys):
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n" + _rows(60))
    argv, _ = ledger_train_argv(tmp_path, data, SCHEMA)
    assert main(argv[:-4] + ["--out", str(tmp_path / "m.json")]) == 0
    test = tmp_path / "t.csv"
    test.write_text("a,b\n" + _rows(20, label=False) + ",\n,\n,\n")
    notes = []
    for cluster in ([], ["--scheduler", client.scheduler.address]):
        capsys.readouterr()
        assert main(["predict", "--model", str(tmp_path / "m.json"), str(test), "--out",
                     str(tmp_path / "p.csv"), *cluster]) == 0
        notes.append([ln for ln in capsys.readouterr().err.splitlines() if "separators" in ln])
        assert len((tmp_path / "p.csv").read_text().splitlines()) == 1 + 23
    assert notes[0] == notes[1] and len(notes[0]) == 1, notes
    assert "has 3 rows of separators only (the first at line 22)" in notes[0][0]
