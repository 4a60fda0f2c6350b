"""Defects of the raw-CSV-with-public-schema path found by a read-only trial (session 20).

Each test failed on the code before its fix.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder


def _age_schema(edges):
    return {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100, "edges": edges}},
            "label": {"column": "y", "classes": ["no", "yes"]}}


# -- 1. edges must span [lower, upper] -----------------------------------------------------
@pytest.mark.parametrize("edges, fixed", [
    ([20, 50, 70], "[0, 20, 50, 70, 100]"),   # before: 5 went to bin [20,50), 95 to [50,70)
    ([18, 65], "[0, 18, 65, 100]"),           # before: "a list of at least 3 numbers"
    ([0, 30], "[0, 30, 100]"),
    ([40, 100], "[0, 40, 100]"),
])
def test_edges_that_stop_short_of_the_bounds_are_refused_with_the_list_to_write(edges, fixed):
    with pytest.raises(ValueError, match="must start at lower = 0 and end at upper = 100") as e:
        Schema.from_dict(_age_schema(edges))
    assert f"write {fixed}" in str(e.value)


def test_edges_from_lower_to_upper_put_every_value_in_its_labelled_bin():
    enc = TabularEncoder(_age_schema([0, 20, 50, 70, 100])).fit()
    names = enc.get_feature_names_out().tolist()
    assert names == ["age[0,20)", "age[20,50)", "age[50,70)", "age[70,100)", "intercept"]
    ages = [5, 30, 60, 95, 10, 0, 100, 20, -3, 250]
    Z = enc.transform(pd.DataFrame({"age": ages}))
    for age, row in zip(ages, Z):
        lo, hi = names[int(np.argmax(row[:4]))][4:-1].split(",")
        clipped = min(max(age, 0), 100)
        assert float(lo) <= clipped and (clipped < float(hi) or clipped == 100 == float(hi))


def test_a_single_bin_is_refused_with_an_example():
    with pytest.raises(ValueError, match=r"at least 3 numbers from lower = 0 to upper = 100"):
        Schema.from_dict(_age_schema([0, 100]))


# -- 2. an undeclared code is "other", never the declared code with its number ---------------
def _diag(cells):
    enc = TabularEncoder({"columns": {"diag": {"type": "categorical",
                                               "categories": ["250.1", "428", "2134"]}}}).fit()
    Z = enc.transform(pd.DataFrame({"diag": cells}))[:, :3]
    return [int(np.argmax(r)) if r.any() else -1 for r in Z]


def test_an_undeclared_code_is_other_not_the_declared_code_with_its_number():
    cells = ["250.1", " 428 ", "2134", "250.10", "428.0", "02134", "+428", "4.28e2", "250.100"]
    assert _diag(cells) == [0, 1, 2, -1, -1, -1, -1, -1, -1]  # before: [0,1,2,0,1,2,1,1,0]


def test_a_column_of_numbers_still_matches_the_declared_codes():
    assert _diag([428, 428.0, np.int64(2134), 250.1, np.float32(428.0)]) == [1, 1, 2, 0, 1]
    assert _diag(pd.Series([428.0, np.nan, 250.1])) == [1, -1, 0]  # pandas' float column


def test_the_cli_warns_of_undeclared_codes_read_as_text(tmp_path, capsys):
    data = tmp_path / "icd.csv"
    rows = ["250.1", "428", "250.10", "428.0", "02134"] * 4
    data.write_text("diag,y\n" + "".join(f"{c},{'yes' if i % 2 else 'no'}\n"
                                         for i, c in enumerate(rows)))
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"diag": {"type": "categorical",
                                                       "categories": ["250.1", "428"]}},
                                  "label": {"column": "y", "classes": ["no", "yes"]}}))
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), str(data), "--out",
                 str(tmp_path / "p.csv")]) == 0
    assert ("60.0% of the values present in column 'diag' (missing ones aside) are none of its "
            "declared") in (
        capsys.readouterr().err)


# -- 3. a "drop" column need not be in the file -------------------------------------------
def _drop_files(tmp_path, header=True):
    rng = np.random.default_rng(3)
    ages = rng.integers(18, 90, 60)
    ys = np.where(ages > 50, "yes", "no")
    schema = {"columns": {"id": {"type": "drop"},
                          "age": {"type": "numeric", "lower": 0, "upper": 100}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    with_id = "".join(f"{i},{a},{y}\n" for i, (a, y) in enumerate(zip(ages, ys)))
    if not header:
        schema["names"] = ["id", "age", "y"]
    (tmp_path / "s.json").write_text(json.dumps(schema))
    (tmp_path / "with_id.csv").write_text(("id,age,y\n" if header else "") + with_id)
    (tmp_path / "no_id.csv").write_text("age,y\n" + "".join(
        f"{a},{y}\n" for a, y in zip(ages, ys)))
    return tmp_path


def _train(tmp_path, data):
    return main(["train", str(data), "--schema", str(tmp_path / "s.json"), "--target-epsilon",
                 "1", "--target-delta", "1e-6", "--seed", "0", "--out", str(tmp_path / "m.json")])


def test_train_and_predict_without_the_drop_column(tmp_path, capsys):
    _drop_files(tmp_path)
    assert _train(tmp_path, tmp_path / "no_id.csv") == 0  # before: "has no column 'id'"
    for name in ("with_id", "no_id"):
        assert main(["predict", "--model", str(tmp_path / "m.json"), str(tmp_path / f"{name}.csv"),
                     "--out", str(tmp_path / f"p_{name}.csv")]) == 0
    assert (tmp_path / "p_with_id.csv").read_text() == (tmp_path / "p_no_id.csv").read_text()


def test_a_headerless_file_still_holds_the_drop_column_as_a_position(tmp_path, one_line_error):
    _drop_files(tmp_path, header=False)
    assert _train(tmp_path, tmp_path / "with_id.csv") == 0
    two_fields = tmp_path / "two.csv"
    two_fields.write_text("30,no\n60,yes\n")
    one_line_error(main(["predict", "--model", str(tmp_path / "m.json"), str(two_fields),
                         "--out", str(tmp_path / "p.csv")]))


# -- 4. blank lines between rows are said, since predictions follow the non-blank rows ------
def test_predict_says_how_many_blank_lines_it_skipped(tmp_path, capsys):
    _drop_files(tmp_path)
    assert _train(tmp_path, tmp_path / "with_id.csv") == 0
    blank = tmp_path / "blank.csv"
    blank.write_text("id,age,y\n1,30,no\n\n2,40,yes\n   \n3,50,no\n4,60,yes\n\n")
    capsys.readouterr()
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(blank), "--out",
                 str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "wrote 4 predictions" in err
    assert "has 2 blank lines between its rows (the first at line 3), skipped" in err
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(tmp_path / "with_id.csv"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert "blank" not in capsys.readouterr().err


# -- 5. numbers with thousands separators among NA cells: the hint, and --thousands ---------
_GROUPED = 'inc,y\n"12,345",no\nNA,yes\n"1,234,567",no\n"9,999",yes\n"3,100",no\n?,no\n'


def test_schema_hints_at_thousands_separators_among_na_cells(tmp_path, capsys):
    data = tmp_path / "th.csv"
    data.write_text(_GROUPED)
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
    err = capsys.readouterr().err  # before: drafted categorical, nothing said
    assert "column 'inc' was drafted as 'categorical'" in err
    assert "pass --thousands ','" in err and "list ['?', 'NA']" in err


@pytest.mark.parametrize("text, flags, upper", [
    (_GROUPED, ["--thousands", ","], 1234567.0),
    ('inc;y\n1.234,5;no\nNA;yes\n12.345;no\n9.999,25;yes\n300;no\n',
     ["--thousands", ".", "--decimal", ","], 12345.0),
])
def test_schema_thousands_drafts_numbers_that_train_reads(tmp_path, capsys, text, flags, upper):
    data, draft = tmp_path / "th.csv", tmp_path / "d.json"
    data.write_text(text)
    assert main(["schema", str(data), "--label", "y", "--out", str(draft), *flags]) == 0
    content = json.loads(draft.read_text())
    assert content["thousands"] == flags[1]
    inc = content["columns"]["inc"]
    assert inc["type"] == "numeric" and inc["upper"] == upper and "NA" in inc["na_values"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the draft's PrivacyLeakWarning
        assert main(["train", str(data), "--schema", str(draft), "--target-epsilon", "1",
                     "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 0


def test_schema_thousands_equal_to_the_decimal_mark_is_refused(tmp_path, one_line_error):
    data = tmp_path / "th.csv"
    data.write_text(_GROUPED)
    one_line_error(main(["schema", str(data), "--out", str(tmp_path / "d.json"),
                         "--thousands", ",", "--decimal", ","]), "--thousands ','")


# -- 6. a declared category pandas reads as missing ('NA': Namibia) --------------------------
_CTRY = {"columns": {"country": {"type": "categorical", "categories": ["NA", "ZA", "BW"]},
                     "age": {"type": "numeric", "lower": 0, "upper": 120}},
         "label": {"column": "y", "classes": ["no", "yes"]}}


def test_a_frame_read_by_pandas_defaults_is_warned_of_a_declared_na_category(tmp_path):
    from dpboost.readers import read_table

    data = tmp_path / "c.csv"
    data.write_text("country,age,y\nNA,39,yes\nZA,50,no\nBW,20,no\n")
    enc = TabularEncoder(_CTRY).fit()
    with pytest.warns(UserWarning, match=r"Column 'country' declares \['NA'\].*keep_default_na"):
        Z = enc.transform(pd.read_csv(data))  # before: encoded as missing, silently
    assert not Z[0, :3].any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # read by dpboost: 'NA' stays text, nothing to say
        Z = enc.transform(read_table(data, text_columns=["country", "y"]))
    assert Z[0, 0] > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no declared category pandas would drop
        TabularEncoder({"columns": {"c": {"type": "categorical", "categories": ["ZA"]}}}).fit(
        ).transform(pd.DataFrame({"c": ["ZA", None]}))


def test_the_na_warning_reads_no_row():
    enc = TabularEncoder(_CTRY).fit()
    for frame in (pd.DataFrame({"country": ["ZA"], "age": [3]}),
                  pd.DataFrame({"country": [np.nan], "age": [3]})):
        with pytest.warns(UserWarning, match="declares") as caught:
            enc.transform(frame)
        assert len([w for w in caught if "declares" in str(w.message)]) == 1


# -- 7. a headerless file with more fields than 'names': the message says to name them -------
def test_more_fields_than_names_asks_to_name_every_field(tmp_path, one_line_error):
    (tmp_path / "s.json").write_text(json.dumps({
        "names": ["age", "y"], "columns": {"age": {"type": "numeric", "lower": 0, "upper": 99}},
        "label": {"column": "y", "classes": ["no", "yes"]}}))
    data = tmp_path / "d.csv"
    data.write_text("".join(f"{20 + i},{i % 7},{'yes' if i % 2 else 'no'}\n" for i in range(20)))
    one_line_error(_train(tmp_path, data), "has 3 fields per row (line 1)",
                   "Give every field a name in 'names', in the file's order")
