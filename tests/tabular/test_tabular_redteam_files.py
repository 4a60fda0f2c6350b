"""Raw files and hand-written schemas from a red-team of ``schema``, ``train`` and ``predict``.

Each test failed before its fix: a file unlike those of the other tabular tests (bank
marketing with ';' and quotes, UCI adult with ', ' and ' ?', an Excel export, a census code
list) or a schema written by hand from the README gave a message that printed a cell, a
puzzling message, or a silently wrong encoding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]


def _write(path: Path, content) -> Path:
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


# -- a cell's content is never printed -----------------------------------------------------
@pytest.mark.parametrize("cell, needle", [
    ('"69,368"', "written with a comma"), ("41.5%", "a percent sign"),
    ("forty", 'declare it "categorical"'), ("#N/A", "missing-value marker"),
    ("2020-05-27", "it reads as a date"),
    ("1 234", "spaces or apostrophes between groups of digits"),
    ("1\u00a0234", "spaces or apostrophes between groups of digits"),
    ("\u22125", "typographic minus sign or a trailing minus"),
    ("12-", "typographic minus sign or a trailing minus"),  # (12) is -12 (session 24)
    ("10:30", "a time of day or a duration"), ("7:05 PM", "a time of day or a duration"),
])
def test_a_bad_numeric_cell_is_named_by_column_and_line_not_by_content(tmp_path, cell, needle,
                                                                       one_line_error):
    """Before: 'holds the non-numeric value '69,368' at line 4' (and 'write 69368 if ...');
    a French '1 234' or an Excel '\u22125' got no hint at all."""
    rows = ["income;y"] + [f"{1000 + k};{k % 2}" for k in range(6)]
    rows[3] = f"{cell};1"
    data = _write(tmp_path / "d.csv", "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"income": {"type": "numeric", "lower": 0, "upper": 1e5}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "Column 'income'", "the cell at line 4 is not a number", needle)
    assert cell.strip('"') not in line and cell.strip('"').replace(",", "") not in line


# -- na_values and declared codes ------------------------------------------------------------
def test_a_global_number_token_does_not_swallow_a_code_written_otherwise(tmp_path):
    """A census code list declares '0999'; the top-level 'na_values' ['999'] made every
    '0999' cell missing (its number is 999), so the category was silently all zeros."""
    schema = {"na_values": ["999"], "columns": {
        "code": {"type": "categorical", "categories": ["0999", "0100"],
                 "missing": "indicator"}},
        "label": {"column": "y", "classes": ["0999", "1"]}}
    enc = TabularEncoder(schema).fit()
    Z = enc.transform(pd.DataFrame({"code": ["0999", " 0999 ", "999", "999.0", "0100"]}))
    names = enc.get_feature_names_out().tolist()
    assert (Z[:, names.index("code=0999")] > 0).tolist() == [True, True, False, False, False]
    assert (Z[:, names.index("code_missing")] > 0).tolist() == [False, False, True, True, False]
    assert enc.encode_labels(["0999", "1"]).tolist() == [0, 1]
    rows = ["code,y"] + [f"{c},{k % 2}" for k, c in enumerate(["0999", "999", "0100"] * 4)]
    data = _write(tmp_path / "d.csv", "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", {**schema, "label": {"column": "y",
                                                              "classes": [0, 1]}})
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    from dpboost.readers import read_table

    frame = read_table(data, na_values=["999"], text_columns=["code"])
    Z = TabularEncoder(str(schema)).fit_transform(frame)
    assert (Z[:, names.index("code=0999")] > 0).sum() == 4


def test_a_global_token_written_as_a_category_is_refused_by_train(tmp_path, one_line_error):
    """Bank marketing's 'unknown' job is a category; a top-level 'na_values' ['unknown'] made
    the reader drop every such cell, so the declared category never matched, without a word."""
    rows = ["age;job;y"] + [f"{20 + k};{'unknown' if k % 3 else 'admin.'};{k % 2}"
                            for k in range(12)]
    data = _write(tmp_path / "d.csv", "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", {"na_values": ["unknown"], "columns": {
        "age": {"type": "numeric", "lower": 18, "upper": 100},
        "job": {"type": "categorical", "categories": ["admin.", "unknown"]}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "'unknown', which is also a declared category of column 'job'",
                   "the 'na_values' of the columns where it means missing")
    from dpboost.schema import Schema  # a model file saved before the check still loads

    assert Schema.load(schema).na_values == ("unknown",)


# -- line numbers ----------------------------------------------------------------------------
def test_predict_names_the_line_of_a_bad_label_in_a_headerless_file(tmp_path, one_line_error):
    """predict passed the header of its own output (a text) where the file's header flag was
    due, so a label outside the classes in a headerless file was blamed on the next line."""
    schema = _write(tmp_path / "s.json", {
        "names": ["age", "g", "y"],
        "columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                    "g": {"type": "categorical", "categories": ["a", "b"]}},
        "label": {"column": "y", "classes": ["no", "yes"]}})
    train = _write(tmp_path / "train.csv", "30,a,no\n40,b,yes\n50,a,no\n60,b,yes\n")
    test = _write(tmp_path / "test.csv", "30,a,no\n40,b,maybe\n50,a,no\n")
    model = tmp_path / "m.json"
    assert main(["train", str(train), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    code = main(["predict", "--model", str(model), str(test), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    line = one_line_error(code, "1 row holds a label outside", "(the first at line 2)")
    assert "maybe" not in line


@pytest.mark.parametrize("rows, line, extra", [
    (['"sec\nret",7,1'], 4, ""),                                 # a quoted line break
    (["5,1," + "SECRET" * 40], 4, ""),                             # pyarrow cuts the row
    (['"3,1', "4,0"], 4, None),  # the rest of the file in one cell: its own refusal
])
def test_a_row_with_the_wrong_width_is_named_by_its_line_never_by_its_text(
        tmp_path, one_line_error, rows, line, extra):
    """pyarrow quotes the row it failed on; when the row was not found again by its text (a
    quoted line break, a row pyarrow shortened) the message printed the row instead."""
    data = _write(tmp_path / "d.csv", "a,y\n1,0\n2,1\n" + "\n".join(rows) + "\n3,0\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    if extra is None:  # named by the line the quote opens on (session 28)
        text = one_line_error(code, f"line {line}: a quote", "opens a value that no quote")
    else:
        text = one_line_error(code, f"line {line}: expected 2 fields", extra)
    assert "SECRET" not in text and "sec" not in text and "3,1" not in text


# -- hand-written schemas --------------------------------------------------------------------
def test_classes_of_another_kind_than_the_labels_say_so(tmp_path, one_line_error):
    """Classes ["no", "yes"] over a 0/1 label column said only that line 2's label was not a
    class, as if one row were wrong; every row was."""
    data = _write(tmp_path / "d.csv", "x,y\n" + "".join(f"{k},{k % 2}\n" for k in range(8)))
    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": ["no", "yes"]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "The label at line 2 is not one of the schema's classes",
                   "none of the 8 labels read is one of them")


@pytest.mark.parametrize("spec, needle", [
    ({"columns": {"c": {"type": "categorical",
                        "categories": ["red", "green", "blue", " red"]}}},
     "'red' is listed twice (at positions 1 and 4)"),
    ({"columns": {"c": {"type": "ordinal", "categories": [1, 2, "2"]}}},
     "2 is listed twice (at positions 2 and 3)"),
    ({"columns": {"c": {"type": "categorical", "categories": ["a"]}},
      "label": {"column": "y", "classes": ["no", "yes", "no"]}},
     "'no' is listed twice"),
])
def test_a_category_listed_twice_is_named(spec, needle):
    """A list of 40 categories with one repeat was refused as 'without duplicates' and the
    whole list, leaving the reader to find the repeat."""
    with pytest.raises(ValueError, match="without duplicates|distinct") as info:
        TabularEncoder(spec).fit()
    assert needle in str(info.value)


@pytest.mark.parametrize("spec, needle", [
    ({"na_values": "?", "columns": {"c": {"type": "categorical", "categories": ["a"]}}},
     'Write it as a JSON list: ["?"].'),
    ({"columns": {"c": {"type": "categorical", "categories": "red,green, blue"}}},
     'Write it as a JSON list: ["red", "green", "blue"].'),
    ({"columns": {"c": {"type": "categorical", "categories": ["a"]}},
      "label": {"column": "y", "classes": "no,yes"}},
     'Write it as a JSON list: ["no", "yes"].'),
    ({"columns": [{"name": "age", "type": "numeric", "lower": 0, "upper": 9}]},
     'Key each spec by its column\'s name: {"age": {"type": "numeric", "lower": 0, '
     '"upper": 9}, ...}.'),
    ({"columns": {"c": {"type": "categorical", "categories": ["a"]}},
      "label": {"column": "y", "classes": ["no", "yes"], "positive": "yes"}},
     "The positive class is the second of 'classes': list it second."),
])
def test_shapes_a_hand_written_schema_gets_wrong_say_what_to_write(spec, needle):
    """A list typed as one text, columns as a list of named objects (as other tools write
    them) and a 'positive' key were refused without saying what to write."""
    with pytest.raises((TypeError, ValueError)) as info:
        TabularEncoder(spec).fit()
    assert needle in str(info.value)


# -- dpboost schema --------------------------------------------------------------------------
def test_schema_drafts_a_file_with_a_repeated_header_name_without_it(tmp_path, capsys):
    """'a,b,a,y': the draft stopped at 'names the column(s) ['a'] more than once', although
    train reads such a file when the schema leaves 'a' out."""
    data = _write(tmp_path / "d.csv", "a,b,a,y\n" + "".join(
        f"{k},{k % 3},{k + 1},{k % 2}\n" for k in range(10)))
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    assert "['a'] repeated in the header row" in capsys.readouterr().err
    assert list(json.loads(out.read_text())["columns"]) == ["b"]


# -- predict ---------------------------------------------------------------------------------
def test_predict_warns_of_a_column_without_a_single_value(tmp_path, capsys):
    """An export whose 'income' column came out empty was predicted as if every income were
    missing, without a word (the other checks count only the values present)."""
    schema = _write(tmp_path / "s.json", {
        "na_values": ["?"],
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 10},
                    "income": {"type": "numeric", "lower": 0, "upper": 1e5},
                    "job": {"type": "categorical", "categories": ["a", "b"]}},
        "label": {"column": "y", "classes": [0, 1]}})
    train = _write(tmp_path / "train.csv", "x,income,job,y\n" + "".join(
        f"{k},{1000 * k},{'ab'[k % 2]},{k % 2}\n" for k in range(10)))
    test = _write(tmp_path / "test.csv", "x,income,job,y\n1,,?,0\n2,,?,1\n3,,?,0\n")
    model = tmp_path / "m.json"
    assert main(["train", str(train), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(test), "--out",
                 str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "columns 'income', 'job' hold no value in this file" in err
    assert main(["predict", "--model", str(model), str(train), "--out",
                 str(tmp_path / "p.csv")]) == 0
    assert "no value" not in capsys.readouterr().err


def test_train_warns_of_a_column_without_a_single_value_only_with_the_figures(tmp_path,
                                                                               capsys):
    """train said nothing of an empty column (its other checks count the values present);
    the warning is a figure of the data, so it comes with --non-private-figures only."""
    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 10},
                    "income": {"type": "numeric", "lower": 0, "upper": 1e5}},
        "label": {"column": "y", "classes": [0, 1]}})
    data = _write(tmp_path / "d.csv", "x,income,y\n" + "".join(
        f"{k},,{k % 2}\n" for k in range(10)))
    for flags in ([], ["--non-private-figures"]):
        assert main(["train", str(data), "--schema", str(schema), *TRAIN, *flags,
                     "--out", str(tmp_path / "m.json")]) == 0
        err = capsys.readouterr().err
        assert ("dpboost train: warning: column 'income' holds no value" in err) == bool(flags)


def test_a_label_with_classes_but_no_column_says_the_column_is_missing(tmp_path,
                                                                       one_line_error):
    """Before: 'declares no label', though the label and its classes were there."""
    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"classes": [0, 1]}})
    data = _write(tmp_path / "d.csv", "x,y\n1,0\n2,1\n3,0\n")
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "declares the label's classes but not its column", "--label NAME")


@pytest.mark.parametrize("first, needle", [
    ("# exported 2024-01-01\na,y\n", "Line 1 starts with '#', a comment: delete it."),
    ("#a,y\n", "The file writes it '#a', with a '#' before the first name"),
    ("Table 1: survey\na,y\n", "If line 1 is a title or a note rather than the header or a "
                                "row, delete it."),
])
def test_a_comment_above_the_header_or_a_hash_before_it_is_named(tmp_path, first, needle,
                                                                  one_line_error):
    """A '# exported ...' line above the header became the header: 'no column 'a'; its
    columns are ['#', 'exported', ...]' said nothing of the comment (and UCI adult.test's
    '|1x3 Cross validator' title made 'predict --label' say the label column was absent)."""
    data = _write(tmp_path / "d.csv", first + "1,0\n2,1\n3,0\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, needle)


@pytest.mark.parametrize("size", [5, 50_000])
def test_text_that_is_not_utf8_is_named_by_its_line_not_its_bytes(tmp_path, size,
                                                                  one_line_error):
    """A Latin-1 'é' was named by its byte (0xe9, a cell's content) and an offset into some
    decoded chunk, or by pyarrow's message; now by its line."""
    data = tmp_path / "d.csv"
    data.write_bytes(("a,y\n" + "1,0\n" * size + "2,é\n").encode("latin-1"))
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": ["0", "é"]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, f"is not UTF-8 text (line {size + 2}); re-save it as UTF-8")
    assert "0xe9" not in line


# -- reading ---------------------------------------------------------------------------------
def test_quoted_values_after_a_space_are_read_unquoted(tmp_path, capsys, one_line_error):
    """'"age", "job", "y"' over '30, "clerk", "no"': pyarrow kept the quotes of a value after
    a space, so the schema's 'job' was 'no column' (the file had '"job"'), and a value with a
    comma inside its quotes split in two."""
    rows = ['"age", "name", "job", "y"'] + [
        f'{20 + k}, "Smith, J{k}", "{"clerk" if k % 2 else "sales"}", "{"yes" if k % 2 else "no"}"'
        for k in range(12)]
    data = _write(tmp_path / "d.csv", "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                    "job": {"type": "categorical", "categories": ["clerk", "sales"]}},
        "label": {"column": "y", "classes": ["no", "yes"]}})
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(data), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert "warning" not in capsys.readouterr().err  # every job is a declared category
    from dpboost.readers import read_table

    frame = read_table(data)
    assert frame.columns.tolist() == ["age", "name", "job", "y"]
    assert frame["name"].iloc[0] == "Smith, J0" and frame["job"].iloc[0] == "sales"
    _write(data, "\n".join(rows[:5] + ['30, "clerk", "no"'] + rows[5:]) + "\n")
    code = main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)])
    one_line_error(code, "line 6: expected 4 fields (as in the first row), found 3")


def test_a_title_line_above_a_headerless_test_file_is_named(tmp_path, one_line_error):
    """UCI adult.test starts with '|1x3 Cross validator': read with the schema's 'names',
    'predict --label income' said the file had no label column."""
    schema = _write(tmp_path / "s.json", {
        "names": ["age", "hours", "income"],
        "columns": {"age": {"type": "numeric", "lower": 17, "upper": 90},
                    "hours": {"type": "numeric", "lower": 0, "upper": 99}},
        "label": {"column": "income", "classes": ["<=50K", ">50K"]}})
    rows = [f"{20 + k}, {30 + k}, {'>50K' if k % 2 else '<=50K'}" for k in range(10)]
    train = _write(tmp_path / "adult.data", "\n".join(rows) + "\n")
    test = _write(tmp_path / "adult.test", "|1x3 Cross validator\n" + "\n".join(rows) + "\n")
    model = tmp_path / "m.json"
    assert main(["train", str(train), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    code = main(["predict", "--model", str(model), str(test), "--label", "income",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "line 2 is separated by commas, but line 1 holds none",
                   "If line 1 is a title or a note")


def test_rows_ending_in_a_separator_under_a_header_without_one_say_so(tmp_path,
                                                                      one_line_error):
    """Rows 'a,y' / '1,0,' (an export's trailing separator on data rows only) said only
    'line 2: expected 2 fields, found 3'."""
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    data = _write(tmp_path / "d.csv", "a,y\n1,0,\n2,1,\n3,0,\n")
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "line 2: expected 2 fields (as in the first row), found 3",
                   "Line 2 ends in a separator: if every row does, end line 1 with one too")
    _write(data, "a,y,\n1,0,\n2,1,\n3,0,\n")
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
def test_a_header_ending_in_a_separator_above_rows_without_one_says_so(tmp_path,
                                                                       one_line_error,
                                                                       sep, workers):
    """A header 'a,y,' above rows '1,0' (red team, session 35: an R export's header edited by
    hand) was told 'If line 1 is a title or a note ... delete it': the header itself."""
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    rows = "".join(f"{k}{sep}{k % 2}\n" for k in range(40))
    data = _write(tmp_path / "d.csv", f"a{sep}y{sep}\n" + rows)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json"), *workers])
    line = one_line_error(code, "line 2: expected 3 fields (as in the first row), found 2",
                          "Line 1 ends in a separator and line 2 does not: remove the "
                          "separator at the end of line 1")
    assert "title or a note" not in line


def test_the_block_reader_layout_names_columns_quoted_after_a_space(tmp_path):
    """csv_layout (the block reader's) names such a file's columns unquoted; it refused the
    file until session 28, when the block reader began to read its values unquoted too."""
    from dpboost.readers import csv_layout

    data = _write(tmp_path / "d.csv", '"age", "job"\n30, "clerk"\n40, "sales"\n')
    assert csv_layout(data)[1] == ["age", "job"]
    assert csv_layout(_write(tmp_path / "e.csv", 'age,"job"\n30,"clerk"\n'))[1] == ["age", "job"]


def test_schema_says_why_a_column_was_drafted_as_drop(tmp_path, capsys):
    """A city column of 120 names and an export's empty 'cabin' column were drafted as
    'drop' without a word; an identifier's drop is said too (session 23)."""
    rows = ["customerID,city,cabin,amount,y"] + [
        f"C{k:03d},city{k},,{k},{k % 2}" for k in range(120)]
    data = _write(tmp_path / "d.csv", "\n".join(rows) + "\n")
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "drafted as 'drop', holding no value: ['cabin']." in err
    assert "holding more than 50 distinct texts (--max-categories): ['city']" in err
    assert "city0" not in err and "C000" not in err
    assert "holding a different value on every row: ['customerID']" in err


def test_a_headerless_file_read_with_a_header_never_shows_its_first_row(tmp_path, capsys,
                                                                        one_line_error):
    """UCI adult.data without 'names': 'no column 'age'; its columns are ['84', 'Self-emp',
    '80', '>50K']', a whole row of the data, in train, predict and schema alike."""
    data = _write(tmp_path / "adult.data", "".join(
        f"{30 + k}, Private-{k}, {40 + k}, {'>50K' if k % 2 else '<=50K'}\n" for k in range(8)))
    schema = _write(tmp_path / "s.json", {
        "columns": {"age": {"type": "numeric", "lower": 17, "upper": 90}},
        "label": {"column": "income", "classes": ["<=50K", ">50K"]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "no column 'age'", "looks like data", "'names'")
    assert "Private" not in line and "30" not in line.split("adult.data")[-1]
    code = main(["schema", str(data), "--label", "income", "--out", str(tmp_path / "d.json")])
    line = one_line_error(code, "--label 'income' is not a column", "--no-header")
    assert "Private" not in line


def test_a_typo_in_a_column_name_suggests_the_close_name(tmp_path, one_line_error):
    """'colour' for the file's 'color' listed the columns without pointing at it."""
    data = _write(tmp_path / "d.csv", "color,size,y\n" + "".join(
        f"{'red' if k % 2 else 'blue'},{k},{k % 2}\n" for k in range(6)))
    schema = _write(tmp_path / "s.json", {
        "columns": {"colour": {"type": "categorical", "categories": ["red", "blue"]}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "has no column 'colour'", "Did you mean 'color'?")


def test_predict_label_absent_names_the_models_label_column(tmp_path, one_line_error):
    """'predict --label income' on a file whose label column (as the model's) is 'y' said
    only that the file had no label column 'income'."""
    schema = _write(tmp_path / "s.json", {
        "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    data = _write(tmp_path / "d.csv", "a,y\n" + "".join(f"{k},{k % 2}\n" for k in range(6)))
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    code = main(["predict", "--model", str(model), str(data), "--label", "income",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "has no label column 'income'. The model's label column is 'y'.")


def test_a_from_data_mark_that_is_a_number_is_a_schema_error():
    """'from_data': 5 was "'int' object is not iterable", naming neither key nor column."""
    with pytest.raises(TypeError, match="'from_data' of numeric column 'size'"):
        TabularEncoder({"columns": {"size": {"type": "numeric", "lower": 1, "upper": 10,
                                             "from_data": 5}}}).fit()
