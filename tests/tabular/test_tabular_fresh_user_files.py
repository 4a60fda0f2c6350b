"""Fresh raw files and hand-written schemas, as a README reader brings them (an audit).

Each test failed before its fix: a file saved by a spreadsheet, R or a download site, read
with a schema written from the README alone, was silently misread or gave a message that
named neither the file nor what to change.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.readers import read_table
from dpboost.tabular import BadValueError, TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]

SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 120},
                      "income": {"type": "numeric", "lower": 0, "upper": 100000}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _rows(n: int = 20, sep: str = ",") -> list[str]:
    rng = np.random.default_rng(0)
    return [sep.join([str(rng.integers(18, 90)), str(rng.integers(100, 900)),
                      str(rng.choice(["no", "yes"]))]) for _ in range(n)]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _schema(tmp_path: Path, content: dict = SCHEMA) -> Path:
    return _write(tmp_path / "schema.json", json.dumps(content))


def _train(tmp_path: Path, data: Path, schema: Path) -> int:
    return main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])


# -- "decimal": "," ---------------------------------------------------------------------------

DECIMAL_SCHEMA = {"decimal": ",",
                  "columns": {"a": {"type": "numeric", "lower": 0, "upper": 5},
                              "b": {"type": "numeric", "lower": 0, "upper": 100000}},
                  "label": {"column": "y", "classes": ["nein", "ja"]}}


def test_a_thousands_dot_under_a_decimal_comma_is_refused_not_read_as_a_decimal(
        tmp_path, one_line_error):
    # a German export writes 1234 as 1.234; under "decimal": "," it was read as 1.234,
    # 1000 times too small, with no word (the README promises thousands separators are never
    # guessed)
    data = _write(tmp_path / "d.csv", "a;b;y\n1,5;1.234;ja\n2,5;999;nein\n3,0;12.500;ja\n"
                                      "1,0;2.000;nein\n")
    schema = _schema(tmp_path, DECIMAL_SCHEMA)
    line = one_line_error(_train(tmp_path, data, schema), "Column 'b'", "line 2",
                          "thousands separator", "decimal commas")
    assert "1.234;" not in line and "12.500" not in line


def test_a_decimal_comma_in_a_column_read_as_text_is_a_number():
    # '2,5' beside a cell that is not a number (read as text) was an error that said to
    # declare "decimal": ",", which the schema did; a number cell (7.0) holds no '.' to refuse
    import pandas as pd

    content = {**DECIMAL_SCHEMA, "na_values": ["n/a"]}
    frame = pd.DataFrame({"a": [1.5, 1.5, 1.5], "b": ["7", "2,5", "n/a"], "y": ["ja"] * 3})
    x = np.asarray(TabularEncoder(content).fit().transform(frame))
    mixed = frame.assign(b=pd.Series([7.0, "2,5", "n/a"], dtype=object))
    assert np.array_equal(np.asarray(TabularEncoder(content).fit().transform(mixed)), x)
    scale = x[0, 0] / (-1 + 2 * 1.5 / 5)  # the row's common factor
    assert x[1, 1] / scale == pytest.approx(-1 + 2 * 2.5 / 100000)


def test_a_thousands_separator_under_a_decimal_comma_does_not_say_to_declare_it():
    frame = {"a": ["1,5", "24.402,00"], "b": ["1", "2"], "y": ["ja", "nein"]}
    import pandas as pd

    encoder = TabularEncoder(DECIMAL_SCHEMA).fit()
    with pytest.raises(BadValueError) as info:
        encoder.transform(pd.DataFrame(frame))
    assert "declare \"decimal\"" not in str(info.value)
    assert "thousands separator" in str(info.value) and "24.402" not in str(info.value)


def test_schema_draft_under_a_decimal_comma_does_not_draft_thousands_dots_as_numbers(
        tmp_path, capsys):
    data = _write(tmp_path / "d.csv", "a;b;y\n1,5;1.234;ja\n2,5;2.500;nein\n3,0;12.500;ja\n"
                                      "1,0;2.000;nein\n")
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--decimal", ",", "--out", str(out)]) == 0
    draft = json.loads(out.read_text())
    assert draft["columns"]["a"]["type"] == "numeric"
    assert draft["columns"]["b"]["type"] != "numeric"  # was numeric, 1.234 to 12.5
    assert "thousands separator" in capsys.readouterr().err


# -- files that are not text -----------------------------------------------------------------

@pytest.mark.parametrize("name, needle", [
    ("download.zip", "is a ZIP archive: unzip it"),
    ("download.csv", "is a ZIP archive: unzip it"),
    ("book.xlsx", "spreadsheet workbook"),
])
def test_a_zip_archive_or_a_workbook_is_one_line(tmp_path, name, needle, one_line_error):
    # a Kaggle download or an Excel workbook gave "'utf-8' codec can't decode byte 0x85 in
    # position 16: invalid start byte", naming neither the file nor what to do
    inner = _write(tmp_path / "train.csv", "age,income,y\n" + "\n".join(_rows()) + "\n")
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(inner, "train.csv")
    one_line_error(_train(tmp_path, path, _schema(tmp_path)), str(path), needle)
    code = main(["schema", str(path), "--out", str(tmp_path / "d.json")])
    one_line_error(code, needle)


def test_an_old_excel_workbook_is_one_line(tmp_path, one_line_error):
    path = tmp_path / "book.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(range(256)) * 4)
    one_line_error(_train(tmp_path, path, _schema(tmp_path)), "Excel workbook (.xls)",
                   "save the sheet as CSV")


# -- layouts ---------------------------------------------------------------------------------

def test_a_header_one_name_short_suggests_a_nameless_row_index(tmp_path, one_line_error):
    # R's write.table(df, sep="\t") saves row names without a header name: the hint said to
    # delete line 1, the header
    rows = [f'"{k + 1}"\t' + row for k, row in enumerate(_rows(sep="\t"))]
    data = _write(tmp_path / "r.tsv", '"age"\t"income"\t"y"\n' + "\n".join(rows) + "\n")
    one_line_error(_train(tmp_path, data, _schema(tmp_path)), "line 2: expected 3 fields",
                   "R's write.table", "add a name at its start")


def test_a_pipe_separated_file_reads_as_its_comma_twin(tmp_path):
    # a database export's '|' was refused as "reads as a single column"; now a separator
    models = []
    for sep in (",", "|"):
        data = _write(tmp_path / "d.csv", f"age{sep}income{sep}y\n"
                      + "\n".join(_rows(sep=sep)) + "\n")
        assert _train(tmp_path, data, _schema(tmp_path)) == 0
        models.append((tmp_path / "m.json").read_text())
    assert models[0] == models[1]


def test_a_note_below_the_table_is_named_as_such(tmp_path, one_line_error):
    # an export's "Total rows: 20" footer was "line 23: expected 3 fields, found 1" alone
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(_rows()) + "\n\n"
                  "Total rows: 20\n")
    one_line_error(_train(tmp_path, data, _schema(tmp_path)), "line 23", "found 1",
                   "note or a total below the table")


# -- schemas written from the README alone ---------------------------------------------------

_LABEL = {"column": "y", "classes": ["no", "yes"]}


@pytest.mark.parametrize("content, needle", [
    ({"columns": {"age": {"type": "binary"}}, "label": _LABEL},
     "Write 'categorical' for 'binary'"),
    ({"columns": {"age": {"type": "numeric", "range": [0, 120]}}, "label": _LABEL},
     'two keys, "lower" and "upper"'),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "log": True}},
      "label": _LABEL}, 'Write "transform": "log"'),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "transform": "log1p"}},
      "label": _LABEL}, "Write 'log' for 'log1p'"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "transform": "log10"}},
      "label": _LABEL}, "Write 'log' for 'log10'"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "missing": "mean"}},
      "label": _LABEL}, "would be read from the data"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "impute": "median"}},
      "label": _LABEL}, "never filled with a value read from the data"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "nbins": 4}},
      "label": _LABEL}, "Write 'bins' for 'nbins'"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9}}, "label": "y"},
     'Write "label": {"column": "y", "classes": [negative, positive]}'),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9},
                  "y": {"type": "label", "classes": ["no", "yes"]}}},
     "The label is declared at the top level"),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9}}, "label": _LABEL,
      "missing": "indicator"}, "belongs inside a column's entry"),
    # a key written in the wrong column's entry (red team session 30, finding 3)
    ({"columns": {"age": {"type": "ordinal", "categories": ["1", "2"], "lower": 0}},
      "label": _LABEL}, '"lower" belongs to a numeric column'),
    ({"columns": {"age": {"type": "categorical", "categories": ["1", "2"], "upper": 9}},
      "label": _LABEL}, '"upper" belongs to a numeric column'),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "categories": ["1"]}},
      "label": _LABEL}, '"categories" belongs to a categorical or ordinal column'),
    ({"columns": {"age": {"type": "numeric", "lower": 0, "upper": 9, "thousands": ","}},
      "label": _LABEL}, '"thousands" is a key of the whole schema, written at its top level'),
    ({"columns": {"age": {"type": "categorical", "categories": ["1"], "decimal": ","}},
      "label": _LABEL}, '"decimal" is a key of the whole schema, written at its top level'),
])
def test_a_readers_schema_slip_says_what_to_write(tmp_path, content, needle, one_line_error):
    # each was refused before, but with the list of allowed words only
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(_rows()) + "\n")
    one_line_error(_train(tmp_path, data, _schema(tmp_path, content)), needle)


def test_schema_draft_says_when_classes_differ_only_in_case(tmp_path, capsys):
    # a churn export writing Yes, yes and YES was drafted as a label of those three classes
    # (plus No, no): five classes, a multiclass task, with no word
    rows = [f"{k},{['Yes', 'yes', 'YES', 'No', 'no'][k % 5]}" for k in range(20)]
    data = _write(tmp_path / "d.csv", "tenure,Churn\n" + "\n".join(rows) + "\n")
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "Churn", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "differ only in case" in err and "the label 'Churn'" in err


def test_schema_draft_of_a_headerless_file_never_shows_repeats_of_its_first_row(tmp_path,
                                                                                 capsys):
    # german.data has no header: 'dpboost schema' read row 1 as one and printed "column
    # names ['1', '4'] repeated in the header row", two cells of a private row
    rows = [" ".join(["A11", str(6 + k), "A34", "17", "4", "17", "4", "17", str(1 + k % 2)])
            for k in range(10)]
    data = _write(tmp_path / "german.data", "\n".join(rows) + "\n")
    main(["schema", str(data), "--label", "8", "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert "'17'" not in err and "'4'" not in err and "--no-header" in err


def test_predict_on_a_file_with_a_header_says_how_to_read_it_with_a_names_model(
        tmp_path, capsys, one_line_error):
    # trained on adult.data (no header, "names" in the schema), predict on a test file with
    # the same names as a header said "delete 'names' from the schema", which lives in the
    # model file: the fix a user can make is to delete the header line
    content = {**SCHEMA, "names": ["age", "income", "y"]}
    train = _write(tmp_path / "adult.data", "\n".join(_rows()) + "\n")
    assert _train(tmp_path, train, _schema(tmp_path, content)) == 0
    capsys.readouterr()
    test = _write(tmp_path / "test.csv", "age,income,y\n" + "\n".join(_rows()) + "\n")
    code = main(["predict", "--model", str(tmp_path / "m.json"), str(test),
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "repeats the schema's 'names'", "delete line 1 from the file")


def test_a_currency_amount_with_thousands_separators_names_both(tmp_path, one_line_error):
    # an Excel export's "$39,458": the hint named the comma only, and after re-saving without
    # separators a second run stopped at the dollar sign
    rows = [f'{30 + k},"${k + 1},{100 + k:03d}",{"no" if k % 2 else "yes"}' for k in range(20)]
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(rows) + "\n")
    line = one_line_error(_train(tmp_path, data, _schema(tmp_path)), "Column 'income'",
                          "line 2", 'currency or percent sign too, as the column\'s "prefix"')
    assert "$" not in line


def test_schema_draft_refuses_a_continuous_label_in_one_line(tmp_path, one_line_error):
    # 'dpboost schema houses.csv --label price' drafted one class per price seen (500), and
    # train then fitted a 500-class model from the draft, with a warning of its marks only
    rows = [f"{30 + k % 40},{100000 + 37 * k}" for k in range(200)]
    data = _write(tmp_path / "d.csv", "age,price\n" + "\n".join(rows) + "\n")
    code = main(["schema", str(data), "--label", "price", "--out", str(tmp_path / "d.json")])
    line = one_line_error(code, "'price' holds more than 50 distinct values",
                          "cut the target into classes")
    assert "100037" not in line and not (tmp_path / "d.json").exists()


# -- a declared thousands separator ----------------------------------------------------------

def test_a_declared_thousands_separator_reads_grouped_numbers(tmp_path, capsys):
    # "39,458" in an Excel export (and 24.402,00 in a German one) could only be re-saved;
    # declared in the schema, the separator is read where it groups digits by three
    rows = [f'{30 + k},"{k + 1},{100 + k:03d}",{"no" if k % 2 else "yes"}' for k in range(20)]
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(rows) + "\n")
    assert _train(tmp_path, data, _schema(tmp_path, {**SCHEMA, "thousands": ","})) == 0
    model = json.loads((tmp_path / "m.json").read_text())
    assert model["schema"]["thousands"] == ","
    encoder = TabularEncoder({**SCHEMA, "thousands": ","}).fit()
    grouped = read_table(data, columns=["age", "income", "y"])
    x = np.asarray(encoder.transform(grouped))
    assert np.isclose(x[0, 1] / x[0, 2], -1 + 2 * 1100 / 100000)
    german = TabularEncoder({**DECIMAL_SCHEMA, "thousands": "."}).fit()
    import pandas as pd

    x = np.asarray(german.transform(pd.DataFrame({"a": ["1,5"], "b": ["24.402,50"]})))
    assert np.isclose(x[0, 1] / x[0, 2], -1 + 2 * 24402.5 / 100000)


@pytest.mark.parametrize("cell", ["12,34", "1,2345", ",123"])
def test_a_declared_thousands_separator_out_of_place_is_an_error(cell):
    import pandas as pd

    encoder = TabularEncoder({**SCHEMA, "thousands": ","}).fit()
    with pytest.raises(BadValueError, match="elsewhere than between groups of three") as info:
        encoder.transform(pd.DataFrame({"age": [30], "income": [cell], "y": ["no"]}))
    assert cell not in str(info.value)


@pytest.mark.parametrize("content", [{"thousands": ";"}, {"thousands": ",", "decimal": ","},
                                     {"thousands": "."}])
def test_a_thousands_separator_must_differ_from_the_decimal_mark(content):
    from dpboost.schema import Schema

    with pytest.raises(ValueError, match="'thousands'"):
        Schema.from_dict({**SCHEMA, **content})


# -- a number label against text classes (red team session 30, finding 4) ------------------

@pytest.mark.parametrize("labels, classes, needle", [
    (("1.0", "0.0"), ["0", "1"], 'declare them as JSON numbers, "classes": [0, 1]'),
    (("1.00", "0"), ["0", "1"], 'declare them as JSON numbers, "classes": [0, 1]'),
    (("Yes", "no"), ["no", "yes"], "labels are case-sensitive"),
    (("1.0", "a"), ["a", "1"], "matches only as written: write them as the column does"),
])
def test_a_number_label_against_text_classes_is_not_called_a_case_slip(
        tmp_path, one_line_error, labels, classes, needle):
    # "1.0" against the declared text "1" said "labels are case-sensitive", which it is not
    rows = [f"{20 + i},{300 + i},{labels[i % 2]}" for i in range(20)]
    data = _write(tmp_path / "d.csv", "age,income,y\n" + "\n".join(rows) + "\n")
    content = {**SCHEMA, "label": {"column": "y", "classes": classes}}
    line = one_line_error(_train(tmp_path, data, _schema(tmp_path, content)), needle, "line 2")
    assert labels[0] not in line.split("]", 1)[1]  # the label itself is never printed
    assert ("JSON numbers" in line) is ("JSON numbers" in needle)  # only for number classes
    if "JSON numbers" in needle:  # the declaration the hint names trains
        content["label"]["classes"] = [0, 1]
        assert _train(tmp_path, data, _schema(tmp_path, content)) == 0
