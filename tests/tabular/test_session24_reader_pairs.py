"""Session 24's red team: one valid row switched the file to the second CSV reader (pandas,
for a quoted value after spaces), which read some rows differently.

* A number beyond int64 (``2**64``, valid: clipped to its bound) made the pandas reader's
  ``.str.strip()`` an internal error, where the pyarrow reader trained.
* A line of a form feed, a vertical tab or a no-break space was skipped by pyarrow and read
  as a row by pandas (``The label is missing``): one neighbour trained, the other refused.
* ``--workers`` refused a quoted cell holding a separator, spaces and a quote
  (a cell ``note, "x"`` written quoted) as a "quoted value after spaces".
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.pandas_csv import read_spaced, records_quote_after_space
from dpboost.readers import _read_arrow
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0", "--n-rounds", "5"]
SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                      "job": {"type": "categorical", "categories": ["clerk", "sales"]},
                      "note": {"type": "drop"}},
          "label": {"column": "y", "classes": ["no", "yes"]}}
NAMES = ["age", "job", "note", "y"]


def _cells(rng, k: int) -> list[str]:
    age = rng.choice(["31", "0", "-4", "120.5", str(2**64), str(-(2**63) - 1), "1e308", ""])
    job = rng.choice(["clerk", "sales", "", " sales", "x y", '"a,b"'])
    note = rng.choice(["ok", '"note, ""x"""', "", "n/a", "7"])
    return [age, job, note, "no" if k % 2 else "yes"]


@pytest.mark.parametrize("seed", range(8))
def test_both_readers_encode_every_row_alike(tmp_path, seed):
    """The pandas reader (chosen for a file with a quoted value after spaces) and pyarrow's
    give the same encoded rows, over random rows of huge numbers, empty and quoted cells."""
    rng = np.random.default_rng(seed)
    path = tmp_path / "d.csv"
    path.write_text("age,job,note,y\n" + "".join(",".join(_cells(rng, k)) + "\n"
                                                  for k in range(60)))
    args = (NAMES, 1, ",", None, ["", "NA"], ["job", "y", "note"])
    frames = [_read_arrow(path, *args), read_spaced(path, *args)]
    encoded = [TabularEncoder(SCHEMA).fit().transform(f) for f in frames]
    np.testing.assert_array_equal(encoded[0], encoded[1])
    assert frames[0]["y"].tolist() == frames[1]["y"].tolist()


@pytest.mark.parametrize("blank", ["\x0c", "\x0b", "\u00a0"])
@pytest.mark.parametrize("spaced", [False, True], ids=["pyarrow", "pandas"])
@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
def test_a_line_of_other_whitespace_is_refused_by_every_reader(tmp_path, one_line_error,
                                                               blank, spaced, workers):
    rows = [f"{20 + k % 50},{'clerk' if k % 3 else 'sales'},n,{'yes' if k % 2 else 'no'}"
            for k in range(200)]
    rows.insert(100, blank)
    if spaced:
        rows[10] = '33, "clerk",n,yes'
    data = tmp_path / "d.csv"
    data.write_text("age,job,note,y\n" + "\n".join(rows) + "\n", encoding="utf-8")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json"), *workers])
    one_line_error(code, "4 fields")  # in memory "expected 4 fields ... found 1"


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
def test_a_quoted_cell_holding_comma_space_quote_is_read(tmp_path, workers):
    rows = [f"{20 + k % 50},{'clerk' if k % 3 else 'sales'},n,{'yes' if k % 2 else 'no'}"
            for k in range(200)]
    rows[8] = '34,clerk,"note, ""x""",yes'
    data = tmp_path / "d.csv"
    data.write_text("age,job,note,y\n" + "\n".join(rows) + "\n")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json"), *workers]) == 0


@pytest.mark.parametrize("text, found", [
    ('a,b\n30, "clerk"\n', True), ('a,b\n30,\t"clerk"\n', True),
    ('a,b\n"note, ""x""",1\n', False), ('a,b\n"x\n, ""y""",2\n', False), ("a,b\n1,2\n", False),
])
def test_records_quote_after_space(text, found):
    assert records_quote_after_space(io.StringIO(text), ",") is found


@pytest.mark.parametrize("declared, extra_label", [("0,1,a", "a"), ("0.5,1", "0.5"),
                                                   ("1,1.5,2", "1.5")])
def test_the_kind_of_declared_classes_is_the_declarations(tmp_path, declared, extra_label):
    """'--classes 0,1,a' was refused ("the labels in the data are integers") unless a row held
    'a': the neighbour with one such row trained.  Both now train, with the same classes."""
    first = declared.split(",")[0]
    models = []
    for name, last in (("plain", first), ("other", extra_label)):
        rows = [f"{k % 7 / 10},{k % 5 / 10},{declared.split(',')[k % 2]}" for k in range(60)]
        rows[-1] = f"0.1,0.2,{last}"
        data = tmp_path / f"{name}.csv"
        data.write_text("a,b,y\n" + "\n".join(rows) + "\n")
        out = tmp_path / f"{name}.json"
        assert main(["train", str(data), "--label", "y", "--classes", declared, *TRAIN,
                     "--out", str(out)]) == 0
        models.append(json.loads(out.read_text())["classes"])
    assert models[0] == models[1]
