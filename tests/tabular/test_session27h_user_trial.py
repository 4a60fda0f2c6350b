"""Session 27: five findings of user trial 27u, on small inline copies of the trial's files.

A. ``read_table(path, text_columns=None)`` raised ``TypeError: 'NoneType' object is not
   iterable`` though ``na_values=None`` is accepted (finding 6).
B. ``dpboost schema`` on a currency column with thousands separators (``$52.40``,
   ``"$5,879.60"``) hinted only at ``"prefix"``, never at ``--thousands ,``; following the hint
   failed at train (finding 4).
C. Every missing column in a file with a header got "If the file has two header rows ...,
   delete the first", also when the file and the schema simply do not belong together
   (finding 5).
D. ``dpboost schema`` without ``--label`` drafted the label as a feature without a word, and
   train refused the draft (finding 8).
E. ``"edges"`` needed ``"lower"``/``"upper"`` too, though they must equal its first and last
   edge (finding 10).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli.schema import _column_hint
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


def _err_lines(capsys) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


# -- A. text_columns=None ---------------------------------------------------------------------
QUOTED = ('\ufeff"name","x1","city","label"\r\n"Smith, J0","39.89","Austin, TX","neg"\r\n'
          '"Smith, J1","49.23","New York, NY","pos"\r\n"Smith, J2","007","Reno, NV","neg"\r\n')


@pytest.mark.parametrize("text", [QUOTED, "a;b;y\n1,5;2;0\n3;4;1\n", "a b y\n1 2 no\n3 4 yes\n"])
def test_text_columns_none_reads_as_no_text_columns(tmp_path, text):
    path = _write(tmp_path / "d.csv", text)
    decimal = "," if ";" in text else "."
    expected = read_table(path, text_columns=(), decimal=decimal)
    got = read_table(path, text_columns=None, decimal=decimal)  # TypeError before
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs and got.attrs["dpboost_typed"] == ()


def test_a_bare_name_for_text_columns_is_refused(tmp_path):
    """Red team round 2: 'x1' was read letter by letter ('x', '1'), so column x1 was typed
    ('007' read as 7); a bare name is refused, as for 'columns'."""
    path = _write(tmp_path / "d.csv", QUOTED)
    with pytest.raises(TypeError, match="'text_columns' parameter of read_table must be a list"):
        read_table(path, text_columns="x1")
    assert read_table(path, text_columns=["x1"])["x1"].tolist()[2] == "007"


# -- B. a currency column with thousands separators -------------------------------------------
def _copay_file(tmp_path, grouped_at: int, n: int = 120):
    """A column ``copay`` of currency cells under 1,000 with one ``"$5,879.60"`` at row
    ``grouped_at`` (as the trial's diab-train.csv: ``$147.13``, then line 4)."""
    rows = []
    for k in range(n):
        cell = '"$5,879.60"' if k == grouped_at else f"${40 + 7.31 * k:.2f}"
        rows.append(f"{20 + k % 50},{'yes' if k % 3 else 'no'},{cell}\n")
    return _write(tmp_path / f"d{grouped_at}.csv", "age,y,copay\n" + "".join(rows))


def _copay_line(capsys) -> str:
    lines = [ln for ln in _err_lines(capsys) if ln.startswith("column 'copay'")]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("grouped_at", [2, 90])  # among the first 50 cells, and past them
def test_a_currency_column_with_thousands_names_the_flag(tmp_path, capsys, grouped_at):
    data = _copay_file(tmp_path, grouped_at)
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
    line = _copay_line(capsys)
    assert "--thousands ','" in line  # before: only "declare the sign in ... "prefix""
    assert '"prefix"' in line  # the currency sign is still to be declared
    assert "5,879" not in line and "$40.00" not in line  # never a cell
    note = json.loads((tmp_path / "d.json").read_text())["columns"]["copay"]["note"]
    assert "--thousands" in note and "categories" not in note  # was: "list ... categories"
    # following the hint drafts the column as numbers with the '$' prefix
    assert main(["schema", str(data), "--label", "y", "--thousands", ",",
                 "--out", str(tmp_path / "t.json")]) == 0
    spec = json.loads((tmp_path / "t.json").read_text())["columns"]["copay"]
    assert spec["type"] == "numeric" and spec["prefix"] == "$"


def test_the_hint_is_the_same_wherever_the_grouped_cell_lies(tmp_path, capsys):
    lines = []
    for at in (2, 49, 90, 119):
        data = _copay_file(tmp_path, at)
        assert main(["schema", str(data), "--label", "y",
                     "--out", str(tmp_path / f"d{at}.json")]) == 0
        lines.append(_copay_line(capsys))
    assert len(set(lines)) == 1


def test_a_currency_column_without_separators_is_drafted_with_its_prefix(tmp_path, capsys):
    data = _copay_file(tmp_path, grouped_at=-1)  # no grouped cell: no hint needed
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
    assert not [ln for ln in _err_lines(capsys) if "'copay'" in ln]
    spec = json.loads((tmp_path / "d.json").read_text())["columns"]["copay"]
    assert spec["type"] == "numeric" and spec["prefix"] == "$"


def test_the_column_hint_prefers_the_separator_only_without_the_flag():
    cells = pd.Series([f"${40 + k}.25" for k in range(60)])
    unit = _column_hint(cells, ".", None)
    assert '"prefix"' in unit and "thousands" not in unit
    grouped = pd.concat([cells, pd.Series(["$5,879.60"])], ignore_index=True)
    assert '"thousands": ","' in _column_hint(grouped, ".", None)
    assert _column_hint(grouped, ".", ",") == _column_hint(cells, ".", ",")  # flag given


# -- C. a header that does not match the schema -----------------------------------------------
DIAB_SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                           "bmi": {"type": "numeric", "lower": 10, "upper": 60},
                           "bp": {"type": "numeric", "lower": 40, "upper": 200}},
               "label": {"column": "high_progression", "classes": ["no", "yes"]}}


def _train_error(tmp_path, capsys, text: str, name: str = "d.csv") -> str:
    data = _write(tmp_path / name, text)
    schema = _write(tmp_path / "s.json", json.dumps(DIAB_SCHEMA))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    lines = _err_lines(capsys)
    assert code == 2 and len(lines) == 1, lines
    return lines[0].replace(name, "F.csv")


def test_a_header_of_another_file_is_not_called_two_header_rows(tmp_path, capsys):
    bc_semi = ("radius;texture;perimeter;diagnosis\n17,99;10,38;122,8;malignant\n"
               "20,57;17,77;132,9;benign\n")
    line = _train_error(tmp_path, capsys, bc_semi)
    assert "two header rows" not in line  # before: "... delete the first."
    assert "holds none of the 4 columns the schema names" in line
    imbal = "income,age,score,fraud\n69721.0,47,668,0\n51000.0,33,702,1\n"
    line = _train_error(tmp_path, capsys, imbal)
    assert "two header rows" not in line and "holds 1 of the 4 columns" in line


@pytest.mark.parametrize("first", ["Demographics,,Labs,", ",X1,X2,Y", "visit,visit,labs,labs"])
def test_a_spreadsheet_upper_header_row_still_gets_the_two_rows_hint(tmp_path, capsys, first):
    text = f"{first}\nage,bmi,bp,high_progression\n50,25,120,no\n60,31,140,yes\n"
    line = _train_error(tmp_path, capsys, text)
    assert "two header rows" in line and "delete the first" in line


@pytest.mark.parametrize("first", [",p,q,r", ",,,"])
def test_an_index_column_or_bare_commas_get_both_remedies(tmp_path, capsys, first):
    """Red team round 2 (session 27): a wrong file pandas wrote with its index (``,p,q,r``)
    was told only to delete its header, and a line of bare commas above the header only that
    the file and schema do not belong together.  Both now get both remedies."""
    line = _train_error(tmp_path, capsys, f"{first}\n1,2,3,4\n5,6,7,8\n")
    assert "holds none of the 4 columns" in line and "belong together" in line
    assert "two header rows" in line and "delete the first" in line


def test_trailing_separators_are_not_an_upper_header_row(tmp_path, capsys):
    line = _train_error(tmp_path, capsys, "p,q,r,,\n1,2,3,,\n4,5,6,,\n")
    assert "two header rows" not in line and "holds none of the 4" in line


def test_the_header_hint_reads_line_1_and_the_schema_only(tmp_path, capsys):
    """Neighbouring files (any row changed, one row added) get the same message."""
    rng = np.random.default_rng(0)
    for header in ("radius,texture,diagnosis", "Group,,Outcome"):
        rows = [f"{rng.integers(100)},{rng.integers(100)},{rng.choice(['a', 'b'])}"
                for _ in range(30)]
        neighbour = [*rows[:-1], "age,bmi,high_progression", "1,2,no"]  # line 2 is the same
        lines = {_train_error(tmp_path, capsys, "\n".join([header, *r]) + "\n")
                 for r in (rows, neighbour, rows[::-1])}
        assert len(lines) == 1, lines


# -- D. a draft without --label ---------------------------------------------------------------
IMBAL = "".join(f"{50000 + 17 * k},{20 + k % 40},{'south' if k % 2 else 'north'},{k % 7 // 6}\n"
                for k in range(60))


def test_a_draft_without_label_says_so_without_naming_a_column(tmp_path, capsys):
    data = _write(tmp_path / "imbal.csv", "income,age,region,fraud\n" + IMBAL)
    assert main(["schema", str(data), "--out", str(tmp_path / "d.json")]) == 0
    notes = [ln for ln in _err_lines(capsys) if ln.startswith("no --label given")]
    assert len(notes) == 1 and "--label COL" in notes[0]
    assert not any(f"'{c}'" in notes[0] or f" {c} " in notes[0]
                   for c in ("income", "age", "region", "fraud"))  # nothing guessed
    assert "label" not in json.loads((tmp_path / "d.json").read_text())
    assert main(["schema", str(data), "--label", "fraud", "--out", str(tmp_path / "e.json")]) == 0
    assert not any(ln.startswith("no --label") for ln in _err_lines(capsys))


# -- E. "edges" carry the range ---------------------------------------------------------------
def test_edges_alone_give_the_bounds_and_encode_as_the_explicit_ones():
    alone = {"columns": {"bmi_pct": {"type": "numeric", "edges": [0, 20, 40, 100],
                                     "suffix": "%"}}}
    explicit = {"columns": {"bmi_pct": {"type": "numeric", "lower": 0, "upper": 100,
                                        "edges": [0, 20, 40, 100], "suffix": "%"}}}
    spec = Schema.from_dict(alone).columns["bmi_pct"]  # refused before: "needs a 'lower'"
    assert (spec.lower, spec.upper) == (0, 100)
    assert Schema.from_dict(alone).to_dict() == Schema.from_dict(explicit).to_dict()
    frame = pd.DataFrame({"bmi_pct": ["48.9%", "18.9%", "-3%", "20%", "140%", None]})
    np.testing.assert_array_equal(TabularEncoder(alone).fit().transform(frame),
                                  TabularEncoder(explicit).fit().transform(frame))


@pytest.mark.parametrize("spec, needle", [
    ({"lower": 5, "edges": [0, 20, 100]}, "within [lower, upper] = [5, 100]"),
    ({"upper": 90, "edges": [0, 20, 100]}, "within [lower, upper] = [0, 90]"),
    # refused as edges, not as a 'lower' nobody wrote (red team round 2, session 27)
    ({"edges": [0]}, "strictly increasing list of at least 2 finite numbers"),
    ({"edges": ["0", 50, 100]}, "strictly increasing list of at least 2 finite numbers"),
    ({"edges": "0,50,100"}, "strictly increasing list of at least 2 finite numbers"),
    ({"edges": [0, float("nan"), 100]}, "strictly increasing list of at least 2 finite"),
    ({"edges": [0, 50, float("inf")]}, "strictly increasing list of at least 2 finite"),
    ({"edges": [100, 50, 0]}, "strictly increasing list of at least 2 finite numbers"),
    ({"edges": [True, 5, 9]}, "strictly increasing list of at least 2 finite numbers"),
    ({"edges": [0, 50, 100], "bins": 3}, "gives both 'bins' and 'edges'"),
])
def test_edges_do_not_override_a_bound_given_or_excuse_a_bad_list(spec, needle):
    with pytest.raises((ValueError, TypeError), match=None) as info:
        Schema.from_dict({"columns": {"x": {"type": "numeric", **spec}}})
    assert needle in str(info.value)


def test_a_drop_columns_note_is_the_same_for_neighbours(tmp_path, capsys):
    """Red team, session 27: the note first held the stderr hint, which lists the
    missing-value words among the cells; a note stays in the model file, so one row ('?' for
    '$412.30') changed the published schema.  The note is now one fixed text."""
    rng = np.random.default_rng(7)
    rows = [[f'"${v:,.2f}"', str(a), str(t)] for v, a, t in
            zip(rng.uniform(10, 3000, 120), rng.integers(18, 90, 120), rng.integers(0, 2, 120))]
    notes = []
    for cell in ('"$412.30"', "?"):
        rows[60][0] = cell
        data = _write(tmp_path / "p.csv", "amount,age,y\n" + "".join(",".join(r) + "\n"
                                                                   for r in rows))
        assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
        notes.append(json.loads((tmp_path / "d.json").read_text())["columns"]["amount"]["note"])
    assert notes[0] == notes[1] and "?" not in notes[1]
    assert any("'?'" in ln for ln in _err_lines(capsys))  # the hint on stderr still says it


def test_numpy_edges_give_bounds_as_numbers_do():
    """Red team round 2: numpy edges were refused for want of a 'lower', numpy bounds not."""
    numpy_spec = {"type": "numeric", "edges": [np.int64(0), np.float32(20), np.int64(100)]}
    plain = {"type": "numeric", "edges": [0, 20, 100]}
    assert (Schema.from_dict({"columns": {"x": numpy_spec}}).to_dict()
            == Schema.from_dict({"columns": {"x": plain}}).to_dict())
