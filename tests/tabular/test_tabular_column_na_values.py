"""Per-column missing-value tokens: a column's (or the label's) own ``"na_values"``.

The schema's top-level ``na_values`` apply to every column; a column's own list applies to
that column only, on top of them.  A token matches as the global list does: stripped text,
and a number wherever it appears (``999`` is ``999.0`` in a CSV and a Parquet number).
"""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.schema_draft import draft_schema
from dpboost.tabular import TabularEncoder, outside_declarations
from na_values_cases import ROWS, SCHEMA

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]

#: The encoding the schema prescribes, by hand: [age, age_missing, job=clerk, job=sales,
#: job=-, job_missing, city=rome, city=oslo, city_missing, intercept] / sqrt(4 blocks).
EXPECTED = np.array([
    [-0.4, 0, 1, 0, 0, 0, 1, 0, 0, 1],
    [0, 1, 0, 0, 1, 0, 0, 0, 1, 1],
    [0, 1, 0, 1, 0, 0, 0, 0, 1, 1],
    [0, 1, 0, 0, 0, 1, 0, 1, 0, 1],
    [0, 1, 1, 0, 0, 0, 0, 0, 1, 1],
    [0, 0, 0, 0, 1, 0, 1, 0, 0, 1],
    [1, 0, 0, 1, 0, 0, 0, 1, 0, 1],
    [-0.86, 0, 1, 0, 0, 0, 0, 0, 1, 1],
]) * (1 - 1e-12) / 2.0


def _csv(tmp_path, rows=ROWS, name="d.csv"):
    path = tmp_path / name
    path.write_text("age,job,city,y\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


def _schema_file(tmp_path, content=SCHEMA):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(content))
    return path


def _read(path, schema):
    return read_table(path, columns=[*schema.columns, schema.label.column],
                      na_values=schema.na_values, column_na_values=schema.column_na_values,
                      text_columns=schema.text_columns)


def test_tokens_are_missing_in_their_own_column_only_in_memory():
    schema = Schema.from_dict(SCHEMA)
    frame = pd.DataFrame(ROWS, columns=["age", "job", "city", "y"])  # all text, as dask reads
    np.testing.assert_allclose(TabularEncoder(schema).transform(frame), EXPECTED, atol=1e-12)


def test_csv_and_parquet_encode_as_the_dataframe(tmp_path):
    schema = Schema.from_dict(SCHEMA)
    csv = _csv(tmp_path)
    np.testing.assert_allclose(TabularEncoder(schema).transform(_read(csv, schema)), EXPECTED,
                               atol=1e-12)
    # a Parquet column of numbers holds 999 itself (an int and a float column)
    for age in ([30, 999, 999, None, None, 50, 120, 7], [30.0, 999.0, 999.0, None, None, 50.0,
                                                         120.0, 7.0]):
        frame = pd.DataFrame(ROWS, columns=["age", "job", "city", "y"])
        frame["age"] = pd.array(age, dtype="Int64" if isinstance(age[0], int) else "float64")
        frame.to_parquet(tmp_path / "d.parquet")
        got = TabularEncoder(schema).transform(_read(tmp_path / "d.parquet", schema))
        np.testing.assert_allclose(got, EXPECTED, atol=1e-12)


def test_a_token_is_not_counted_as_undeclared_or_clipped():
    schema = Schema.from_dict(SCHEMA)
    frame = pd.DataFrame(ROWS, columns=["age", "job", "city", "y"])
    found = outside_declarations(frame, schema)
    assert found["age"] == {"below": 0.0, "above": 0.25}  # 120 of 30, 50, 120, 7
    assert found["city"] == {"undeclared": 0.0}


def test_labels_listed_in_the_label_na_values_are_missing():
    schema = Schema.from_dict(SCHEMA)
    encoder = TabularEncoder(schema)
    assert encoder.encode_labels(["no", "yes", " yes "]).tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match=r"^The label is missing at row 1: remove the rows "
                                         r"without one \(to only predict them, .*\)\.$"):
        encoder.encode_labels(["no", " ?? ", "yes"])


@pytest.mark.parametrize("spec, needles", [
    ({"columns": {"c": {"type": "categorical", "categories": ["a", "2"],
                        "na_values": [2.0]}}}, ["lists 2.0", "declared category '2'"]),
    ({"columns": {"c": {"type": "categorical", "categories": ["a", "unknown"],
                        "na_values": [" unknown "]}}}, ["'unknown'", "category 'unknown'"]),
    ({"label": {"column": "y", "classes": ["no", "yes"], "na_values": ["yes"]}},
     ["'na_values' of the label", "declared class 'yes'"]),
    ({"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1, "na_values": "NA"}}},
     ["list of texts or numbers", 'Write it as a list: ["NA"]']),
    ({"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1, "na_values": [["?"]]}}},
     ["list of texts or numbers"]),
    ({"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1, "na_values": [True]}}},
     ["list of texts or numbers"]),
    ({"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1,
                        "missing_values": ["?"]}}}, ["Write 'na_values' for 'missing_values'"]),
    ({"columns": {"c": {"type": "categorical", "categories": ["a"], "na": ["?"]}}},
     ["Write 'na_values' for 'na'"]),
    ({"columns": {"c": {"type": "numeric", "lower": 0, "upper": 1, "missing": ["?"]}}},
     ["'zero' or 'indicator'", "in 'na_values'"]),
    ({"label": {"column": "y", "classes": ["no", "yes"], "missing_values": ["?"]}},
     ["Write 'na_values' for 'missing_values'"]),
])
def test_bad_column_na_values_are_one_line_errors(tmp_path, spec, needles):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(spec))
    with pytest.raises((TypeError, ValueError)) as info:
        Schema.load(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    for needle in needles:
        assert needle in message, message


def test_a_token_of_another_column_may_be_a_category_here():
    """'-' is missing in 'city' and a category of 'job': no clash, each column its own."""
    schema = Schema.from_dict(SCHEMA)
    assert schema.na_values_of("job") == ("?",)
    assert schema.na_values_of("city") == ("?", "-", "n/a")
    assert schema.na_values_of("age") == ("?", "999", "unknown")
    assert schema.na_values_of("y") == ("?", "??")


def test_to_dict_and_save_round_trip(tmp_path):
    schema = Schema.from_dict(SCHEMA)
    assert Schema.from_dict(schema.to_dict()) == schema
    assert schema.to_dict()["columns"]["age"]["na_values"] == [999, "unknown"]
    schema.save(tmp_path / "s.json")
    assert Schema.load(tmp_path / "s.json") == schema
    stripped = Schema.from_dict({"columns": {"c": {
        "type": "numeric", "lower": 0, "upper": 1, "na_values": [" ? ", "", "?", 9, 9.0]}}})
    assert stripped.columns["c"].na_values == ("?", 9)


def test_a_model_file_keeps_the_column_na_values(tmp_path):
    path = _csv(tmp_path, [(a, j, c, y) for a, j, c, y in ROWS if y != "??"] * 3)
    schema, model = _schema_file(tmp_path), tmp_path / "m.json"
    assert main(["train", str(path), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    saved = json.loads(model.read_text())["schema"]
    assert saved["columns"]["city"]["na_values"] == ["-", "n/a"]
    assert saved["label"]["na_values"] == ["??"]


def test_train_and_predict_say_a_label_token_is_missing(tmp_path, one_line_error):
    inside = [r for r in ROWS if r[0] != "120"]  # no clipping warning before the error
    rows = [*inside, ("40", "clerk", "rome", "??")]
    path, schema = _csv(tmp_path, rows * 2), _schema_file(tmp_path)
    code = main(["train", str(path), "--schema", str(schema), *TRAIN, "--out",
                 str(tmp_path / "m.json")])
    one_line_error(code, "label is missing", "line 9")
    good = _csv(tmp_path, inside * 2, name="good.csv")
    assert main(["train", str(good), "--schema", str(schema), *TRAIN, "--out",
                 str(tmp_path / "m.json")]) == 0
    code = main(["predict", str(path), "--model", str(tmp_path / "m.json"), "--label", "y",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, "label is missing at line 9")


def test_the_draft_lists_tokens_per_column_marked_from_data(tmp_path):
    frame = pd.DataFrame({"hp": ["?" if i % 7 == 0 else str(40 + i) for i in range(40)],
                          "w": [str(i) for i in range(40)],
                          "job": ["a", "b", "?", "c"] * 10,
                          "y": ["no", "yes"] * 20})
    draft = draft_schema(frame, "y")
    assert draft.na_values == ()  # nothing applies to every column any more
    hp = draft.columns["hp"]
    assert hp.na_values == ("?",) and "na_values" in hp.from_data
    assert draft.columns["w"].na_values == ()
    assert "?" in draft.columns["job"].categories  # '?' among words is a category
    with pytest.warns(PrivacyLeakWarning, match="for hp, w, job"):
        TabularEncoder(draft).fit()
    # once the lower and upper bounds are public, the mark on the tokens alone still warns
    content = draft.to_dict()
    content["columns"]["hp"]["from_data"] = ["na_values"]
    for name in ("w", "job"):
        content["columns"][name].pop("from_data")
    content["label"].pop("from_data")
    with pytest.warns(PrivacyLeakWarning, match=r"for hp: ") as caught:
        TabularEncoder(content).fit()
    assert len(caught) == 1


def test_cli_schema_says_which_columns_got_tokens(tmp_path, capsys):
    rows = [f"{'?' if i % 9 == 0 else 40 + i},{i % 5},{i % 2}" for i in range(60)]
    data = tmp_path / "d.csv"
    data.write_text("hp,k,y\n" + "\n".join(rows) + "\n")
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "s.json")]) == 0
    err = capsys.readouterr().err
    assert "'hp' ['?']" in err and "'k'" not in err.split("'na_values'")[-1]
    content = json.loads((tmp_path / "s.json").read_text())
    assert "na_values" not in content
    assert content["columns"]["hp"]["na_values"] == ["?"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["train", str(data), "--schema", str(tmp_path / "s.json"), *TRAIN,
                     "--out", str(tmp_path / "m.json")]) == 0
    assert "hp" in capsys.readouterr().err + " ".join(str(w.message) for w in caught)


def test_a_global_number_token_is_missing_in_a_categorical_column_wherever_it_appears(tmp_path):
    """The global list now matches as a column's own list does (by category_key): a Parquet
    float 999.0 or a CSV cell 999.0 in a categorical column was an undeclared category."""
    schema = Schema.from_dict({"na_values": ["999"], "columns": {
        "size": {"type": "categorical", "categories": ["1", "2"], "missing": "indicator"}}})
    cells = [1.0, 999.0, 2.0, 999.0]
    pd.DataFrame({"size": cells}).to_parquet(tmp_path / "d.parquet")
    (tmp_path / "d.csv").write_text("size\n1\n999.0\n2\n 999 \n")
    for path in (tmp_path / "d.parquet", tmp_path / "d.csv"):
        frame = read_table(path, na_values=schema.na_values, text_columns=schema.text_columns)
        Z = TabularEncoder(schema).transform(frame)
        assert Z[:, 2].astype(bool).tolist() == [False, True, False, True], path
        assert outside_declarations(frame, schema) == {"size": {"undeclared": 0.0}}
