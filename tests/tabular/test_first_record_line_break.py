"""A headerless file whose first row holds a quoted line break (red team, session 32).

The width of a headerless file was read from its first *line*, so a quoted line break in the
first row made it one or more fields short: ``train`` refused it as a file of fewer columns
than the schema's ``names`` (in memory and with ``--workers``), ``predict`` and ``schema
--no-header`` said "line 1: expected 3 fields (as in the first row), found 4", while the same
line break in the fifth row trained.  One private row decided between a model and a
refusal.  The width is now the first *record*'s.
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main
from dpboost.readers import csv_layout, field_count

SCHEMA = {"names": ["age", "job", "note", "bought"], "separator": ",",
          "columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                      "job": {"type": "categorical", "categories": ["clerk", "sales"]},
                      "note": {"type": "drop"}},
          "label": {"column": "bought", "classes": ["no", "yes"]}}


def _rows(broken: int, n: int = 40) -> str:
    rows = [f'{20 + k},{"sales" if k % 2 else "clerk"},"n{k}",{"yes" if k % 2 else "no"}'
            for k in range(n)]
    rows[broken] = rows[broken].replace(f'"n{broken}"', f'"a\nb {broken}"')
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("broken", [0, 4])
def test_the_width_is_the_first_records(tmp_path, broken):
    path = tmp_path / "d.csv"
    path.write_text(_rows(broken))
    assert field_count(path) == 4
    delimiter, names, skip = csv_layout(path, names=SCHEMA["names"])
    assert (delimiter, names, skip) == (",", SCHEMA["names"], 0)


def test_train_predict_and_schema_read_it_as_they_read_a_later_line_break(tmp_path, capsys):
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(SCHEMA))
    said = []
    for broken in (0, 4):
        data, model = tmp_path / f"d{broken}.csv", tmp_path / f"m{broken}.json"
        data.write_text(_rows(broken))
        assert main(["train", str(data), "--schema", str(spec), "--target-epsilon", "1",
                     "--target-delta", "1e-6", "--seed", "0", "--out", str(model)]) == 0
        assert main(["predict", "--model", str(model), str(data), "--label", "bought",
                     "--out", str(tmp_path / "p.csv")]) == 0
        assert main(["schema", str(data), "--no-header", "--label", "3", "--out",
                     str(tmp_path / f"draft{broken}.json")]) == 0
        err = capsys.readouterr().err
        assert "error" not in err, err
        said.append((json.loads((tmp_path / f"draft{broken}.json").read_text())["names"],
                     json.loads(model.read_text())["feature_names"]))
    assert said[0] == said[1]
    assert said[0][0] == ["0", "1", "2", "3"]
