"""Hand-written schemas and raw files a new user brings (an audit's findings).

Each test failed before its fix: a mistake a person makes writing a schema from the README,
or a quirk of a raw file, gave a puzzling message, a traceback or a silently wrong model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]

SCHEMA = {
    "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 120},
        "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"]},
    },
    "label": {"column": "y", "classes": ["no", "yes"]},
}


def _csv(n: int = 40, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    rows = ["id,age,job,y"]
    rows += [f"{k},{rng.integers(18, 90)},{rng.choice(['clerk', 'sales', 'eng'])},"
             f"{rng.choice(['no', 'yes'])}" for k in range(n)]
    return "\n".join(rows) + "\n"


def _files(tmp_path: Path, data: str, schema: dict | str = SCHEMA):
    path = tmp_path / "d.csv"
    path.write_text(data)
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(schema if isinstance(schema, str) else json.dumps(schema))
    return path, schema_path


def _train_with_age_on_line_3(tmp_path: Path, cell: str) -> int:
    """``dpboost train`` on a file whose line 3 holds ``cell`` in the numeric column 'age'."""
    lines = _csv(20).splitlines()
    parts = lines[2].split(",")
    lines[2] = ",".join([parts[0], cell, *parts[2:]])
    path, schema = _files(tmp_path, "\n".join(lines) + "\n")
    return main(["train", str(path), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])




def test_a_repeated_key_in_the_schema_json_is_refused(tmp_path, capsys, one_line_error):
    # a second "columns" (or a column named twice) silently replaced the first before
    text = json.dumps(SCHEMA)[:-1] + ', "columns": {}}'
    path, schema = _files(tmp_path, _csv(), text)
    code = main(["train", str(path), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "schema.json", "'columns' appears twice")
    schema.write_text('{"columns": {"age": {"type": "numeric", "lower": 0, "upper": 1}, '
                      '"age": {"type": "drop"}}}')
    with pytest.raises(ValueError, match="'age' appears twice"):
        Schema.load(schema)


@pytest.mark.parametrize("content, needles", [
    # an unknown key in the label was ignored: "name" left the label without a column and
    # train said the schema "declares no label"
    ({"label": {"name": "y", "classes": ["no", "yes"]}}, ["['name']", "'column' for 'name'"]),
    ({"label": {"column": "y", "values": ["no", "yes"]}}, ["'classes' for 'values'"]),
    ({"columns": {"age": {"type": "number", "lower": 0, "upper": 1}}},
     ["'numeric' for 'number'"]),
    ({"columns": {"age": {"type": "Numeric", "lower": 0, "upper": 1}}},
     ["'numeric' for 'Numeric'"]),
    ({"columns": {"age": {"type": "numeric", "min": 0, "max": 1}}},
     ["'lower' for 'min'", "'upper' for 'max'"]),
    ({"columns": {"age": {"type": "numeric", "lower": "0", "upper": 1}}},
     ["Got '0'", "without quotes: 0"]),
    ({"columns": {"job": {"type": "categorical", "values": ["a"]}}},
     ["'categories' for 'values'"]),
    ({"columns": {"job": {"type": "category", "categories": ["a"]}}},
     ["'categorical' for 'category'"]),
    ({"target": {"column": "y", "classes": ["no", "yes"]}}, ["'label' for 'target'"]),
])
def test_common_hand_written_mistakes_name_the_right_spelling(content, needles):
    with pytest.raises((TypeError, ValueError)) as info:
        Schema.from_dict(content)
    for needle in needles:
        assert needle in str(info.value), str(info.value)


def test_a_correct_spelling_gets_no_hint():
    with pytest.raises(ValueError) as info:
        Schema.from_dict({"columns": {"age": {"type": "weird", "lower": 0, "upper": 1}}})
    assert "Write" not in str(info.value)


def _trained(tmp_path, capsys, data: str | None = None) -> tuple[Path, Path]:
    path, schema = _files(tmp_path, data or _csv(60))
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    return path, model


def test_predict_label_naming_a_feature_column_is_one_line(tmp_path, capsys, one_line_error):
    # before: "missing key 'Column age does not exist in schema'" (the column was read twice)
    path, model = _trained(tmp_path, capsys)
    code = main(["predict", str(path), "--model", str(model), "--label", "age",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "--label 'age'", "'columns'", "('y')")
    assert not (tmp_path / "p.csv").exists()


def test_predict_label_missing_on_a_row_names_its_line(tmp_path, capsys, one_line_error):
    # before: "The label column holds [None] outside the model's classes"
    _, model = _trained(tmp_path, capsys)
    test = tmp_path / "t.csv"
    lines = _csv(10, seed=1).splitlines()
    lines[4] = lines[4].rsplit(",", 1)[0] + ","
    test.write_text("\n".join(lines) + "\n")
    code = main(["predict", str(test), "--model", str(model), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "t.csv", "label is missing at line 5", "1 row")


def test_a_schema_without_label_takes_label_and_classes_from_the_flags(tmp_path, capsys,
                                                                       one_line_error):
    # before: "declares no label" although --label and --classes declared it
    content = {"columns": SCHEMA["columns"]}
    path, schema = _files(tmp_path, _csv(60), content)
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema), "--label", "y",
                 "--classes", "no,yes", *TRAIN, "--out", str(model)]) == 0
    assert json.loads(model.read_text())["schema"]["label"] == {"column": "y",
                                                                 "classes": ["no", "yes"]}
    capsys.readouterr()
    assert main(["predict", str(path), "--model", str(model), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert "accuracy" in capsys.readouterr().out
    code = main(["train", str(path), "--schema", str(schema), "--label", "y", *TRAIN,
                 "--out", str(model)])
    one_line_error(code, "declares no label", "--classes NEG,POS")


@pytest.mark.parametrize("cell, needles", [
    ('"1,234"', ["written with a comma", "if the comma separates thousands",
                 '"decimal": ","']),
    ('"1,234,567"', ["no thousands separators"]),
    ("41.5%", ["a percent sign", "'lower' and 'upper' in that unit"]),
    ("72 kg", ["with a unit"]),
])
def test_a_number_written_for_people_says_what_to_change(tmp_path, capsys, cell, needles,
                                                         one_line_error):
    # before: only "holds the non-numeric value '1,234' at line 3", nothing to change
    code = _train_with_age_on_line_3(tmp_path, cell)
    line = one_line_error(code, "Column 'age'", "at line 3", *needles)
    assert cell.strip('"') not in line  # a cell's content is private


def test_a_bound_too_tight_or_a_category_left_out_is_warned(tmp_path, capsys):
    # before: silently clipped / all zeros (by design) without a word
    schema = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 50},
                          "job": {"type": "categorical", "categories": ["clerk", "sales"]}},
              "label": SCHEMA["label"]}
    path, schema_path = _files(tmp_path, _csv(60), schema)
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema_path), *TRAIN,
                 "--out", str(model)]) == 0
    assert "warning" not in capsys.readouterr().err  # by default no figure of the data
    assert main(["train", str(path), "--schema", str(schema_path), *TRAIN,
                 "--out", str(model), "--non-private-figures"]) == 0
    err = capsys.readouterr().err
    assert "of the values present in column 'age' lie above its declared upper bound 50" in err
    assert ("of the values present in column 'job' (missing ones aside) are none of its declared "
            "categories") in err
    assert "eng" not in err  # fractions only, never a value of the data
    assert main(["predict", str(path), "--model", str(model),
                 "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "column 'age' lie above" in err and "column 'job' (missing ones aside) are none" in err
    path, schema_path = _files(tmp_path, _csv(60))  # the right schema: no warning
    assert main(["train", str(path), "--schema", str(schema_path), *TRAIN,
                 "--out", str(model)]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_missing_schema_file_names_the_flag(tmp_path, capsys, one_line_error):
    # before: "[Errno 2] No such file or directory: 'nope.json'"
    path, _ = _files(tmp_path, _csv())
    code = main(["train", str(path), "--schema", str(tmp_path / "nope.json"), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "--schema", "nope.json: no such file.")


def test_a_declared_decimal_comma_reads_numbers_categories_and_labels(tmp_path, capsys):
    # a semicolon file from a spreadsheet in a decimal-comma locale; before, '12,5' was only
    # ever a non-numeric value, and a category 1 written '1,0' never matched
    rng = np.random.default_rng(0)
    rows = ["weight;grade;y"]
    for _ in range(60):
        w = rng.uniform(40, 120)
        rows.append(f"{w:.1f}".replace(".", ",") + f";{rng.choice(['1,0', '2,0'])};"
                    + ("1,0" if w > 80 else "0,0"))
    schema = {"decimal": ",", "columns": {
        "weight": {"type": "numeric", "lower": 30, "upper": 130},
        "grade": {"type": "categorical", "categories": [1, 2]}},
        "label": {"column": "y", "classes": [0, 1]}}
    path, schema_path = _files(tmp_path, "\n".join(rows) + "\n", schema)
    model = tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema_path), *TRAIN,
                 "--out", str(model)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["predict", str(path), "--model", str(model), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert "accuracy" in capsys.readouterr().out
    from dpboost.readers import read_table

    frame = read_table(path, decimal=",", text_columns=["grade"])
    assert frame["weight"].dtype == np.float64
    # a text column keeps its cells as written (session 26: train reads every column so);
    # the encoder reads '2,0' as 2 by the schema's decimal mark
    assert frame["grade"].iloc[0] in ("1,0", "2,0")
    encoder = TabularEncoder(schema).fit()
    pointed = frame.assign(grade=frame["grade"].str.replace(",", ".").astype(float))
    np.testing.assert_array_equal(encoder.transform(frame), encoder.transform(pointed))
    with pytest.raises(ValueError, match="'decimal'"):
        Schema.from_dict({"decimal": ";"})


def test_schema_draft_says_why_numbers_written_for_people_are_dropped(tmp_path, capsys):
    # before: 'income' ("1,234") and 'weight' ("72 kg") were drafted as categories (or, with
    # more distinct values than --max-categories, as 'drop') without a word
    rows = ["customer_id,income,weight,y"]
    rows += [f'C{k:04d},"{1000 + 37 * k:,}",{40 + k} kg,{"yes" if k % 2 else "no"}'
             for k in range(30)]
    path, _ = _files(tmp_path, "\n".join(rows) + "\n")
    assert main(["schema", str(path), "--label", "y", "--out", str(tmp_path / "s.json")]) == 0
    err = capsys.readouterr().err
    assert "column 'income' was drafted as 'categorical'" in err and "thousands" in err
    assert "customer_id" not in err.replace("every row: ['customer_id']", "")  # said, as drop
    # session 21: '72 kg' is drafted numeric with its declared suffix, and said no more
    weight = json.loads((tmp_path / "s.json").read_text())["columns"]["weight"]
    assert weight["type"] == "numeric" and weight["suffix"] == "kg"
    assert "column 'weight'" not in err


def test_schema_draft_with_decimal_comma(tmp_path, capsys):
    rows = ["weight;y"] + [f"{40 + k},5;{'yes' if k % 2 else 'no'}" for k in range(30)]
    path, _ = _files(tmp_path, "\n".join(rows) + "\n")
    out = tmp_path / "s.json"
    assert main(["schema", str(path), "--label", "y", "--out", str(out)]) == 0
    assert "pass --decimal ," in capsys.readouterr().err
    assert main(["schema", str(path), "--label", "y", "--out", str(out),
                 "--decimal", ","]) == 0
    draft = json.loads(out.read_text())
    assert draft["decimal"] == "," and draft["columns"]["weight"]["lower"] == 40.5


def test_spaces_around_schema_names_are_ignored_as_in_the_header(tmp_path, capsys):
    # before: "d.csv has no column 'age '" although the header's names are stripped
    content = {"columns": {" age ": SCHEMA["columns"]["age"], "job": SCHEMA["columns"]["job"]},
               "label": {"column": "y ", "classes": ["no", "yes"]}}
    path, schema = _files(tmp_path, _csv(40), content)
    assert main(["train", str(path), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0
    with pytest.raises(ValueError, match="'age' twice"):
        Schema.from_dict({"columns": {"age": {"type": "drop"}, "age ": {"type": "drop"}}})


@pytest.mark.parametrize("where", ["classes", "categories"])
def test_a_nested_class_or_category_is_refused(where):
    # before: ["no"] was accepted and matched no label ("The label 'no' ... is not one of")
    content = {"columns": {"job": {"type": "categorical", "categories": ["a"]}},
               "label": {"column": "y", "classes": ["no", "yes"]}}
    if where == "classes":
        content["label"]["classes"] = [["no"], "yes"]
    else:
        content["columns"]["job"]["categories"] = [["a"], "b"]
    with pytest.raises(TypeError, match="texts, numbers or booleans"):
        Schema.from_dict(content)


def test_a_schema_without_columns_says_so_when_a_column_is_text(tmp_path, capsys, one_line_error):
    # before: "... or declare a schema (--schema)", said to a user who had given one
    path, schema = _files(tmp_path, _csv(), {"columns": {}, "label": SCHEMA["label"]})
    code = main(["train", str(path), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "column 'job'", "under 'columns' in", "declares none")


def test_multiclass_output_header_is_well_formed_for_classes_with_commas(tmp_path, capsys):
    # before: the header cell was score_"low, cheap" (a quote inside a field): 9 header
    # fields over rows of 7
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 10, 90)
    names = np.array(["low, cheap", 'mid "std"', "high"])
    rows = ["x,seg"] + [f'{v:.2f},"{names[int(v // 3.34)].replace(chr(34), 2 * chr(34))}"'
                        for v in x]
    content = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 10}},
               "label": {"column": "seg", "classes": names.tolist()}}
    path, schema = _files(tmp_path, "\n".join(rows) + "\n", content)
    model, preds = tmp_path / "m.json", tmp_path / "p.csv"
    assert main(["train", str(path), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    assert main(["predict", str(path), "--model", str(model), "--out", str(preds)]) == 0
    import pandas as pd

    frame = pd.read_csv(preds)
    assert frame.columns.tolist() == ["prediction", "score_low, cheap", 'score_mid "std"',
                                      "score_high", "probability_low, cheap",
                                      'probability_mid "std"', "probability_high"]
    assert set(frame["prediction"]) <= set(names)


@pytest.mark.parametrize("cell, needle", [
    ("yes", "declare it \"categorical\""), ("premium", "declare it \"categorical\""),
    ("NA", "list that text in the schema's 'na_values'"), ("?", "missing-value marker"),
    ("unknown", "missing-value marker"),
])
def test_a_word_in_a_numeric_column_suggests_categorical_not_only_na(tmp_path, capsys, cell,
                                                                     needle, one_line_error):
    # before: "yes" in a numeric column only suggested listing 'yes' among the missing values
    code = _train_with_age_on_line_3(tmp_path, cell)
    line = one_line_error(code, "Column 'age'", needle)
    assert f"'{cell}'" not in line  # a cell's content is private


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
@pytest.mark.parametrize("given", [[], ["--label", "y"]], ids=["nothing", "label-only"])
def test_a_schema_without_a_label_is_told_the_same_with_workers(tmp_path, one_line_error,
                                                                 workers, given):
    # red team s35 F6: with --workers the refusal asked for "--schema with columns and a
    # label", without saying which or that --label and --classes would do
    no_label = {"columns": {**SCHEMA["columns"], "id": {"type": "drop"}}}
    path, schema = _files(tmp_path, _csv(), no_label)
    code = main(["train", str(path), "--schema", str(schema), *TRAIN, *given, *workers,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "schema.json declares no label: add \"label\": {\"column\": ..., "
                   "\"classes\": [negative, positive]}, or give both --label COL and "
                   "--classes NEG,POS.")
    assert not (tmp_path / "m.json").exists()
