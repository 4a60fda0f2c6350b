"""Session 23: messages a user trial found confusing.

Each test rebuilds one of the trial's files in ``tmp_path`` (the trial's own were a
spreadsheet export, a hand-written schema and a model trained on them) and checks the one
line the command prints: which side of an NFC/NFD mismatch is decomposed; a title line padded
with separators above the header; predict's case hint on labels; no ``--schema`` offered by
predict, which lacks it; a spreadsheet's totals row (predict refuses it as the last record,
train's missing-label error names it).  No message prints a data cell.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from dpboost.cli import main

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6"]
COMPOSED = "\u00c2ge"  # 'Âge' as one code point (NFC)
DECOMPOSED = "A\u0302ge"  # 'A' and a combining circumflex (NFD)


def _write(path, content):
    path.write_text(content if isinstance(content, str) else json.dumps(content),
                    encoding="utf-8")
    return path


def _rows(n: int = 20) -> str:
    return "".join(f"{i % 90},{'yes' if i % 2 else 'no'}\n" for i in range(n))


# -- an NFC/NFD mismatch names the side that is decomposed ----------------------------------
@pytest.mark.parametrize("in_file, in_schema, blamed", [
    (COMPOSED, DECOMPOSED, "The schema writes it with its accents decomposed"),
    (DECOMPOSED, COMPOSED, "The file writes it with its accents decomposed"),
])
def test_the_accent_hint_blames_the_decomposed_side(tmp_path, one_line_error, in_file,
                                                    in_schema, blamed):
    """The trial's file was NFC and its schema NFD, yet the hint said the file was decomposed
    and told the user to write the schema's key as the schema already did."""
    assert unicodedata.is_normalized("NFC", COMPOSED)
    assert not unicodedata.is_normalized("NFC", DECOMPOSED)
    data = _write(tmp_path / "d.csv", f"{in_file},y\n" + _rows())
    schema = _write(tmp_path / "s.json", {
        "columns": {in_schema: {"type": "numeric", "lower": 0, "upper": 120}},
        "label": {"column": "y", "classes": ["no", "yes"]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, blamed, json.dumps(in_file))  # the file's spelling, escaped
    other = ("The file writes" if blamed.startswith("The schema") else "The schema writes")
    assert other not in line
    assert not (tmp_path / "m.json").exists()


# -- a title line padded with separators above the header -----------------------------------
TITLE_SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120}},
                "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.mark.parametrize("above, line", [
    ("Customer report Q3,,,,\n,,,,\n", 1),  # the trial's title_rows.csv, blank-cell line too
    ("\n\n\"Report, Q3\" ,, , ,\n", 3),  # quoted, after blank lines, spaces in the cells
])
def test_a_padded_title_line_gets_the_title_hint(tmp_path, one_line_error, above, line):
    """A spreadsheet title padded to the table's width was "has no column 'age'; its columns
    are ['Customer report Q3', '', '', '', '']" without a word on why."""
    data = _write(tmp_path / "d.csv", above + "id,age,x,z,y\n"
                  + "".join(f"{i},{i % 90},1,2,{'yes' if i % 2 else 'no'}\n"
                            for i in range(20)))
    schema = _write(tmp_path / "s.json", TITLE_SCHEMA)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "has no column 'age'",
                   f"Its line {line} looks like a title above the header row (one name, then "
                   "empty fields): delete it")


@pytest.mark.parametrize("first", ["Customer report,Q3,,,", "id,,x,,", ",,,,report"])
def test_other_first_lines_get_no_title_hint(tmp_path, capsys, first):
    """Two names, or a first name that is empty: not a title line."""
    data = _write(tmp_path / "d.csv", first + "\n" + "".join(
        f"{i},{i % 90},1,2,{'yes' if i % 2 else 'no'}\n" for i in range(20)))
    schema = _write(tmp_path / "s.json", TITLE_SCHEMA)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    assert code == 2 and "has no column 'age'" in err, err
    assert "looks like a title" not in err, err


def test_a_title_that_reads_as_data_is_not_shown(tmp_path, one_line_error):
    """A first line that looks like a row (a number where a header has names) stays unshown,
    as before: the title hint never prints a row's cell."""
    data = _write(tmp_path / "d.csv", "".join(f"{i + 7},,,," + "\n" for i in range(3))
                  + "".join(f"{i},{i % 90},1,2,{i % 2}\n" for i in range(20)))
    schema = _write(tmp_path / "s.json", TITLE_SCHEMA)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "its first line looks like data")
    assert "'7'" not in line and "looks like a title" not in line


# -- predict --label says a label is a case variant, as train does --------------------------
LABEL_SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120}},
                "label": {"column": "y", "classes": ["no", "yes"]}}


def _trained(tmp_path, capsys, data, schema: dict):
    """The model file of ``train DATA --schema SCHEMA`` (its output swallowed)."""
    schema = _write(tmp_path / "s.json", schema)
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    return tmp_path / "m.json"


@pytest.fixture
def model(tmp_path, capsys):
    return _trained(tmp_path, capsys, _write(tmp_path / "train.csv", "age,y\n" + _rows(40)),
                    LABEL_SCHEMA)


@pytest.mark.parametrize("labels, count", [
    (["YES", "NO"] * 5, 10),  # the trial's upperlab.csv
    (["Yes", "no"] * 5, 5),  # mixlab.csv
    (["no", " Yes", "YES", "yes", "maybe"], 3),  # labels_case.csv (a space, then a word)
])
def test_predict_names_the_case_variant_kind(tmp_path, model, one_line_error, labels, count):
    """predict --label said only "N rows hold a label outside the model's classes ... spell
    the labels as the classes", where train says labels are case-sensitive."""
    data = _write(tmp_path / "t.csv",
                  "age,y\n" + "".join(f"{i},{v}\n" for i, v in enumerate(labels)))
    code = main(["predict", "--model", str(model), str(data), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    first = 2 + next(i for i, v in enumerate(labels) if v not in ("no", "yes"))
    line = one_line_error(code, f"{count} rows hold a label outside the model's classes "
                          f"['no', 'yes'] (the first at line {first}; labels are "
                          "case-sensitive and must be written as the classes are written); "
                          "write them so, or drop --label")
    for value in set(labels) - {"no", "yes"}:
        assert f"'{value.strip()}'" not in line  # the kind, never the label
    assert not (tmp_path / "p.csv").exists()


def test_a_label_of_no_class_gets_no_case_hint(tmp_path, model, one_line_error):
    data = _write(tmp_path / "t.csv", "age,y\n1,no\n2,maybe\n3,YES\n")
    code = main(["predict", "--model", str(model), str(data), "--label", "y"])
    line = one_line_error(code, "(the first at line 3); spell the labels as the classes")
    assert "case-sensitive" not in line


def test_train_with_classes_says_the_same(tmp_path, one_line_error):
    data = _write(tmp_path / "d.csv", "a,y\n1,no\n2,Yes\n3,yes\n")
    code = main(["train", str(data), "--label", "y", "--classes", "no,yes", *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "a row holds a label outside --classes ['no', 'yes'] (the first at "
                   "line 3; labels are case-sensitive and must be written as the classes are "
                   "written).")


# -- predict offers no flag it lacks -------------------------------------------------------
@pytest.fixture
def numeric_model(tmp_path, capsys):
    data = _write(tmp_path / "train.csv", "a,b,y\n" + "".join(
        f"{i % 7},{i % 5},{'pos' if i % 2 else 'neg'}\n" for i in range(40)))
    assert main(["train", str(data), "--label", "y", *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    return tmp_path / "m.json"


@pytest.mark.parametrize("rows, label, fix", [
    ("1,2,pos\n3,4,neg\n", [], "If it is the label column, name it with --label"),
    ("1,x,pos\n3,y,neg\n", ["--label", "2"], "Encode categories as numbers first, or train "
                                             "the model with a schema that declares"),
])
def test_predict_does_not_suggest_schema_flag(tmp_path, numeric_model, one_line_error, rows,
                                              label, fix):
    """A headerless test file with a text column ended "...or declare a schema (--schema)",
    a flag predict does not have (the trial's wide_test_noheader.csv: its label column, read
    as a feature since --label was not given)."""
    data = _write(tmp_path / "t.csv", rows)
    code = main(["predict", "--model", str(numeric_model), str(data), *label])
    line = one_line_error(code, "holds a non-numeric value at line 1", fix,
                          "('dpboost train --schema')")
    assert "(--schema)" not in line and "'x'" not in line and "pos" not in line


# -- a spreadsheet's totals row padded to the table's width ---------------------------------
def _excel(path, last: str, *, tail: str = "\r\n", n: int = 40):
    """A spreadsheet export: byte-order mark, CRLF, two trailing separators on every line."""
    rows = "".join(f"{i:05d},{20 + i % 60},{1000 + 37 * i}.5,{'yes' if i % 2 else 'no'},,\r\n"
                   for i in range(n))
    path.write_bytes(("\ufeffid,age,income,y,,\r\n" + rows + last + tail).encode("utf-8"))
    return path


EXCEL_SCHEMA = {"columns": {"id": {"type": "drop"},
                            "age": {"type": "numeric", "lower": 0, "upper": 120},
                            "income": {"type": "numeric", "lower": 0, "upper": 1e7}},
                "label": {"column": "y", "classes": ["no", "yes"]}}


@pytest.fixture
def excel_model(tmp_path, capsys):
    return _trained(tmp_path, capsys, _excel(tmp_path / "train.csv", "00099,30,1000,no,,"),
                    EXCEL_SCHEMA)


@pytest.mark.parametrize("last, tail", [
    ("Total,32323,21669723.4,,,", "\r\n"),  # the trial's excel.csv
    (" Grand TOTAL ,1,2,,,", "\r\n\r\n \r\n"),  # spaces, case, blank lines below
    ('"Summe",1,2,,,', ""),  # quoted, no line break at the end
    ("totaal,1,2", "\r\n"),  # short (tot_short.csv): named before the field count is
])
def test_predict_refuses_a_last_totals_row(tmp_path, excel_model, one_line_error, last, tail):
    """excel.csv's last line 'Total,32323,21669723.4,,,,,' was predicted as a row."""
    data = _excel(tmp_path / "t.csv", last, tail=tail)
    for extra in ([], ["--keep", "id"], ["--label", "y"]):
        code = main(["predict", "--model", str(excel_model), str(data), *extra,
                     "--out", str(tmp_path / "p.csv")])
        line = one_line_error(code, "line 42, the last, looks like a totals row below the "
                              "table (its first cell says so), not a record of the table: "
                              "delete it.")
        assert "32323" not in line and "21669723" not in line
        assert not (tmp_path / "p.csv").exists()


def test_predict_refuses_a_gzip_file_ending_in_a_totals_row(tmp_path, excel_model,
                                                            one_line_error):
    import gzip

    raw = _excel(tmp_path / "t.csv", "Totals,1,2,,,").read_bytes()
    (tmp_path / "t.csv.gz").write_bytes(gzip.compress(raw))
    code = main(["predict", "--model", str(excel_model), str(tmp_path / "t.csv.gz")])
    one_line_error(code, "line 42, the last, looks like a totals row")


@pytest.mark.parametrize("last", [
    "00099,30,1000,no,,",  # a record
    "Subtotal,1,2,,,",  # not a word of the list
    "total cost,1,2,,,",
    ',30,1000,no,,\r\n"Total,3",4,5,,',  # 'Total' inside a quoted cell of a record
])
def test_predict_keeps_other_last_rows(tmp_path, excel_model, capsys, last):
    data = _excel(tmp_path / "t.csv", last)
    code = main(["predict", "--model", str(excel_model), str(data), "--keep", "id",
                 "--out", str(tmp_path / "p.csv")])
    err = capsys.readouterr().err
    assert "totals row" not in err, err
    if code == 0:
        assert (tmp_path / "p.csv").read_text().count("\n") == 1 + 41 + last.count("\r\n")


def test_a_totals_row_in_the_middle_is_not_refused_by_predict(tmp_path, excel_model, capsys):
    """Only the last record: a 'Total' row above other rows may be a record (a first cell is
    an ID or a name), so predict keeps it; train's missing-label hint still names it."""
    from dpboost.csv_errors import totals_row_hint

    data = _excel(tmp_path / "t.csv", "Total,1,2,,,\r\n00100,30,1000,no,,")
    assert main(["predict", "--model", str(excel_model), str(data),
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert totals_row_hint(data, 42) == (" Line 42 looks like a totals row below the table "
                                         "(its first cell says so): delete it.")


@pytest.mark.parametrize("first, hinted", [
    ("Total", True), ("TOTALS", True), (" sum ", True), ("Grand Total", True),
    ("Gesamt", True), ("summe", True), ("Totaal", True), ('"Total"', True),
    ("Subtotal", False), ("00042", False), ("", False), ("Total:", False),
])
def test_the_totals_hint_reads_the_first_cell_of_the_line(tmp_path, first, hinted):
    data = _excel(tmp_path / "t.csv", f"{first},32323,21669723.4,,,")
    hint = totals_row_hint_of(data, 42)
    assert hint == (" Line 42 looks like a totals row below the table (its first cell says "
                    "so): delete it." if hinted else "")
    assert totals_row_hint_of(data, 41) == "" and totals_row_hint_of(data, 99) == ""
    assert totals_row_hint_of(tmp_path / "absent.csv", 42) == ""


def totals_row_hint_of(path, line):
    from dpboost.csv_errors import totals_row_hint

    return totals_row_hint(path, line)


def test_train_names_a_totals_row_whose_label_is_missing(tmp_path, one_line_error):
    """train said only "The label is missing at line 602" of excel.csv's totals row."""
    data = _excel(tmp_path / "d.csv", "Total,32323,21669723.4,,,")
    schema = _write(tmp_path / "s.json", EXCEL_SCHEMA)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "The label is missing at line 42", "Line 42 looks like a "
                          "totals row below the table (its first cell says so): delete it.")
    assert "32323" not in line


def test_predict_label_names_a_totals_row_above_the_last(tmp_path, excel_model,
                                                          one_line_error):
    """predict --label's own missing-label error adds the hint of train's."""
    data = _excel(tmp_path / "t.csv", "Sum,1,2,,,\r\n00100,30,1000,no,,")
    code = main(["predict", "--model", str(excel_model), str(data), "--label", "y"])
    one_line_error(code, "the label is missing at line 42 (1 row without a label)",
                   "drop --label. Line 42 looks like a totals row below the table")
