"""Quirky raw files at the public boundary: readers, the encoder and the CLI (an audit's findings).

Each test would have failed before its fix: a byte-order mark renamed the first column, a
quoted line break shifted line numbers (and broke pyarrow's chunker on big files), a date in a
categorical column crashed the reader, a file in another encoding surfaced as a bare codec
message, an output path that cannot be written was found only after the budget was spent.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import header_names, line_of, read_table
from dpboost.tabular import BadValueError, TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]

SCHEMA = {
    "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 120},
        "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"],
                "missing": "indicator"},
    },
    "label": {"column": "y", "classes": ["no", "yes"]},
}


def _csv(n: int = 40, seed: int = 0, sep: str = ",", eol: str = "\n") -> str:
    rng = np.random.default_rng(seed)
    rows = [sep.join(["age", "job", "y"])]
    rows += [sep.join([str(rng.integers(18, 90)), str(rng.choice(["clerk", "sales", "eng"])),
                       str(rng.choice(["no", "yes"]))]) for _ in range(n)]
    return eol.join(rows) + eol


def _files(tmp_path: Path, data: bytes | str, schema: dict = SCHEMA, name: str = "d.csv"):
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(schema))
    return path, schema_path




# -- readers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("compress", [False, True])
def test_byte_order_mark_does_not_rename_the_first_column(tmp_path, compress):
    data = ("\ufeff" + _csv()).encode()
    path = tmp_path / ("bom.csv.gz" if compress else "bom.csv")
    path.write_bytes(gzip.compress(data) if compress else data)
    assert header_names(path) == ["age", "job", "y"]
    frame = read_table(path, columns=["age", "job"])
    assert list(frame.columns) == ["age", "job"] and frame["age"].dtype.kind == "i"


def test_quoted_line_breaks_keep_rows_and_line_numbers(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text('age,job,y\n30,"multi\nline",no\n40,"a, b",yes\n50,eng,no\n')
    frame = read_table(path)
    assert frame["job"].tolist() == ["multi\nline", "a, b", "eng"]
    # record lines (session 26): the multi-line value is one line, so the rows after it are
    # numbered as in a file without it, a neighbour (tests/tabular/test_record_lines.py)
    assert [line_of(path, r, header=True) for r in range(3)] == [2, 3, 4]


def test_quoted_line_breaks_in_a_big_file(tmp_path):
    """pyarrow's parallel chunker split records at a quoted line break past its first block."""
    path = tmp_path / "big.csv"
    path.write_text("a,b\n" + "".join(f'{i},"x\ny{i}"\n' for i in range(200_000)))
    assert len(read_table(path)) == 200_000


def test_dates_in_a_categorical_column_stay_text(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("day,y\n2020-01-01,no\n2021-06-30,yes\n 2020-01-01 ,no\n")
    frame = read_table(path)
    assert frame["day"].tolist() == ["2020-01-01", "2021-06-30", "2020-01-01"]
    enc = TabularEncoder({"columns": {"day": {"type": "categorical",
                                              "categories": ["2020-01-01", "2021-06-30"]}}})
    Z = enc.fit_transform(frame)
    assert (Z[:, :2] > 0).tolist() == [[True, False], [False, True], [True, False]]


@pytest.mark.parametrize("data, match", [
    ("a,b\n1,é\n".encode("latin-1"), "is not UTF-8 text"),
    ("a,b\n1,x\n".encode("utf-16"), "is not UTF-8 text"),
    (("a,b\n" + "1,x\n" * 50_000 + "2,é\n").encode("latin-1"), "is not UTF-8 text"),
    (gzip.compress(b"a,b\n" + b"1,2\n" * 1000)[:-30], r"\.gz could not be read"),
], ids=["latin-1", "utf-16", "latin-1-past-the-first-block", "truncated-gzip"])
def test_undecodable_files_are_one_line_naming_the_file(tmp_path, data, match):
    path = tmp_path / "x.csv.gz"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=match) as info:
        read_table(path)
    assert str(path) in str(info.value)


def test_a_repeated_header_name_is_an_error_only_when_it_is_read(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("age,note,note,y\n30,a,b,no\n40,c,d,yes\n")
    assert read_table(path, columns=["age", "y"])["age"].tolist() == [30, 40]
    with pytest.raises(ValueError, match=r"names the column\(s\) \['note'\] more than once"):
        read_table(path, columns=["note", "y"])
    ws = tmp_path / "r.txt"
    ws.write_text("age note note y\n30 a b no\n40 c d yes\n")
    assert read_table(ws, columns=["age", "y"])["y"].tolist() == ["no", "yes"]


def test_a_single_column_file_hints_at_the_separator(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("age:job:y\n30:eng:no\n")
    with pytest.raises(ValueError, match="separator is taken from the first line"):
        read_table(path, columns=["age", "job"])


# -- the CLI ---------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [
    _csv(), "\ufeff" + _csv(), _csv(eol="\r\n"), _csv(sep=";"), _csv(sep="\t"),
    "\ufeff" + _csv(sep=";", eol="\r\n"), _csv(sep="|"),
], ids=["plain", "bom", "crlf", "semicolon", "tab", "bom-semicolon-crlf", "pipe"])
def test_quirky_files_train_and_predict_identically(tmp_path, capsys, data):
    """The same table in any of these spellings gives byte-identical predictions."""
    plain, schema = _files(tmp_path, _csv(), name="plain.csv")
    quirky = tmp_path / "quirky.csv"
    quirky.write_bytes(data.encode())
    model = tmp_path / "m.json"
    assert main(["train", str(quirky), "--schema", str(schema), *TRAIN, "--out",
                 str(model)]) == 0
    outs = []
    for k, path in enumerate((plain, quirky)):
        out = tmp_path / f"p{k}.csv"
        assert main(["predict", "--model", str(model), str(path), "--out", str(out),
                     "--label", "y"]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    draft = tmp_path / "draft.json"
    assert main(["schema", str(quirky), "--label", "y", "--out", str(draft)]) == 0
    assert list(json.loads(draft.read_text())["columns"]) == ["age", "job"]


@pytest.mark.parametrize("out", ["{tmp}", "{tmp}/missing/m.json", "{tmp}/d.csv/m.json",
                                 "/proc/dpboost-model.json"],
                         ids=["a-folder", "no-folder", "under-a-file", "unwritable"])
def test_train_refuses_an_unwritable_out_before_spending_the_budget(tmp_path, capsys, out,
                                                                    one_line_error):
    data, schema = _files(tmp_path, _csv())
    ledger = tmp_path / "ledger.json"
    assert main(["budget", "init", str(ledger), "--target-epsilon", "10",
                 "--target-delta", "1e-5"]) == 0
    before = ledger.read_bytes()
    capsys.readouterr()
    out = out.format(tmp=tmp_path)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN, "--ledger", str(ledger),
                 "--out", out])
    line = one_line_error(code, f"--out {out}")
    assert ".tmp" not in line  # the message names the user's path, not a temporary file
    assert ledger.read_bytes() == before  # nothing was spent


@pytest.mark.parametrize("out", ["{tmp}", "{tmp}/missing/p.csv"], ids=["a-folder", "no-folder"])
def test_predict_refuses_an_unwritable_out_in_one_line(tmp_path, capsys, out, one_line_error):
    data, schema = _files(tmp_path, _csv())
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out",
                 str(model)]) == 0
    capsys.readouterr()
    out = out.format(tmp=tmp_path)
    code = main(["predict", "--model", str(model), str(data), "--out", out])
    assert ".tmp" not in one_line_error(code, f"--out {out}")


def test_one_row_is_a_one_line_error_not_a_crash(tmp_path, capsys, one_line_error):
    data, schema = _files(tmp_path, _csv(n=1))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN, "--out",
                 str(tmp_path / "m.json")])
    one_line_error(code, "has 1 data row; training needs at least 2")
    assert not (tmp_path / "m.json").exists()


def test_draft_of_a_column_with_infinities_uses_the_finite_values(tmp_path, capsys):
    data, _ = _files(tmp_path, "age,y\n30,no\ninf,yes\n-inf,no\n50,yes\n70,no\n")
    draft = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(draft)]) == 0
    age = json.loads(draft.read_text())["columns"]["age"]
    assert (age["lower"], age["upper"]) == (30.0, 70.0)


# -- the encoder's messages ------------------------------------------------------------------
@pytest.mark.parametrize("token", ["NA", "?", "null", "N/A", "-"])
def test_a_missing_marker_in_a_numeric_column_points_at_na_values(token):
    enc = TabularEncoder(SCHEMA)
    frame = pd.DataFrame({"age": ["30", token], "job": ["eng", "eng"]})
    with pytest.raises(BadValueError, match="'na_values'"):
        enc.fit_transform(frame)
    schema = {**SCHEMA, "na_values": [token]}
    Z = TabularEncoder(schema).fit_transform(frame)
    assert Z[1, 0] == 0.0  # declared: missing, encoded as zero


@pytest.mark.parametrize("value", ["12abc", "1,234"])
def test_a_non_number_is_not_blamed_on_na_values(value):
    frame = pd.DataFrame({"age": ["30", value], "job": ["eng", "eng"]})
    with pytest.raises(BadValueError, match="is not a number") as info:
        TabularEncoder(SCHEMA).fit_transform(frame)
    assert "na_values" not in str(info.value)


def test_a_label_differing_only_in_case_says_so_without_naming_the_class():
    # session 21: naming the declared class it resembles ('yes') gave the row's label away
    enc = TabularEncoder(SCHEMA).fit()
    with pytest.raises(BadValueError, match="labels are case-sensitive and must be written "
                       "as the schema declares them") as info:
        enc.encode_labels(["no", "Yes"])
    assert "declares 'yes'" not in str(info.value)


@pytest.mark.parametrize("command", ["train", "predict"])
def test_categories_differing_only_in_case_are_warned_about(tmp_path, capsys, command):
    plain, schema = _files(tmp_path, _csv(), name="plain.csv")
    upper = tmp_path / "upper.csv"
    upper.write_text(_csv().replace("eng", "ENG"))
    model = tmp_path / "m.json"
    assert main(["train", str(upper if command == "train" else plain), "--schema", str(schema),
                 *TRAIN, "--out", str(model), "--non-private-figures"]) == 0
    if command == "predict":
        capsys.readouterr()
        assert main(["predict", "--model", str(model), str(upper), "--out",
                     str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert f"dpboost {command}: warning: column 'job'" in err and "'eng' only if case" in err
    assert "ENG" not in err  # names the public declaration, not the data's value


# -- round 2: headers, booleans, headerless test files, schema files -------------------------
@pytest.mark.parametrize("first, match", [
    ("Age,job,y", "case-sensitive: the file has 'Age'"),
    ("sep=,\nage,job,y", r"line 1: 'sep=,' is a spreadsheet's separator hint"),
])
def test_header_near_misses_say_what_is_wrong(tmp_path, first, match):
    path = tmp_path / "h.csv"
    path.write_text(first + "\n30,eng,no\n40,clerk,yes\n")
    with pytest.raises(ValueError, match=match):
        read_table(path, columns=["age", "job", "y"])


@pytest.mark.parametrize("cells", [["true", "false"], ["TRUE", "0"], ["False", "1"]])
def test_booleans_in_a_numeric_column_read_as_one_and_zero(cells):
    schema = {"columns": {"flag": {"type": "numeric", "lower": 0, "upper": 1}}}
    Z = TabularEncoder(schema).fit_transform(pd.DataFrame({"flag": cells}))
    expected = [1.0 if c.lower() in ("true", "1") else -1.0 for c in cells]
    assert np.allclose(Z[:, 0] / Z[:, 1], expected)  # [0, 1] -> [-1, 1]; the intercept is 1


def test_a_headerless_test_file_may_leave_out_the_label(tmp_path, capsys):
    rows = _csv().splitlines()[1:]
    schema = {**SCHEMA, "names": ["age", "job", "y"]}
    data, schema_path = _files(tmp_path, "\n".join(rows) + "\n", schema)
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema_path), *TRAIN, "--out",
                 str(model)]) == 0
    unlabelled = tmp_path / "u.csv"
    unlabelled.write_text("".join(r.rsplit(",", 1)[0] + "\n" for r in rows))
    outs = []
    for k, path in enumerate((data, unlabelled)):
        out = tmp_path / f"p{k}.csv"
        assert main(["predict", "--model", str(model), str(path), "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_schema_file_with_a_byte_order_mark_loads(tmp_path, capsys):
    data, schema = _files(tmp_path, _csv())
    schema.write_bytes(b"\xef\xbb\xbf" + schema.read_bytes())  # as Windows Notepad saves it
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out",
                 str(tmp_path / "m.json")]) == 0


def test_predict_with_a_missing_model_names_the_flag(tmp_path, capsys, one_line_error):
    data, _ = _files(tmp_path, _csv())
    code = main(["predict", "--model", str(tmp_path / "none.json"), str(data)])
    one_line_error(code, "--model", "no such file")


@pytest.mark.filterwarnings("ignore:Unexpected behavior can result from passing skiprows")
@pytest.mark.parametrize("spelling", ["bom-semicolon-crlf-spaced-header", "tab", "headerless"])
def test_the_dask_csv_reader_reads_the_same_spellings_as_the_in_memory_one(tmp_path, spelling):
    """``--workers`` read only a comma-separated file with a clean header before."""
    dask = pytest.importorskip("dask")
    from dpboost.cli._distributed import read_encoded

    text = _csv(n=3000, seed=2, sep="\t" if spelling == "tab" else ";" if "semi" in spelling
                else ",", eol="\r\n" if "crlf" in spelling else "\n")
    schema = dict(SCHEMA)
    if spelling.startswith("bom"):
        text = "\ufeff" + text.replace("age;job;y", " age ; job ;y ", 1)
    if spelling == "headerless":
        text, schema = text.split("\n", 1)[1], {**SCHEMA, "names": ["age", "job", "y"]}
    path = tmp_path / "big.csv"
    path.write_bytes(text.encode())
    with dask.config.set(scheduler="synchronous"):
        X, y, _ = read_encoded(str(path), schema, blocksize=5_000, spool=False)
        assert X.numblocks[0] > 1
        Xc, yc = X.compute(), y.compute()
    frame = read_table(path, names=schema.get("names"))
    ref = TabularEncoder(schema).fit(frame)
    np.testing.assert_allclose(Xc, ref.transform(frame).astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(yc, ref.encode_labels(frame["y"]))


@pytest.mark.parametrize("command, victim", [("train", "data"), ("train", "schema"),
                                             ("predict", "data"), ("predict", "model"),
                                             ("schema", "data")])
def test_out_never_overwrites_an_input(tmp_path, capsys, command, victim, one_line_error):
    data, schema = _files(tmp_path, _csv())
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    target = {"data": data, "schema": schema, "model": model}[victim]
    before = target.read_bytes()
    argv = {"train": ["train", str(data), "--schema", str(schema), *TRAIN],
            "predict": ["predict", "--model", str(model), str(data)],
            "schema": ["schema", str(data), "--label", "y"]}[command]
    code = main([*argv, "--out", str(target)])
    one_line_error(code, f"--out {target} is the", "would replace it")
    assert target.read_bytes() == before


# -- round 3: the text NaN, --workers errors -------------------------------------------------
@pytest.mark.parametrize("nan", ["NaN", "nan", " NAN ", "-nan"])
def test_nan_text_is_missing_in_numeric_and_categorical_columns_alike(nan):
    frame = pd.DataFrame({"age": ["30", nan, ""], "job": ["eng", nan, ""]})
    Z = TabularEncoder(SCHEMA).fit_transform(frame)
    np.testing.assert_array_equal(Z[1], Z[2])  # as an empty cell: missing in both columns
    names = TabularEncoder(SCHEMA).get_feature_names_out().tolist()
    assert Z[1, names.index("job_missing")] > 0 and Z[1, names.index("age")] == 0.0
    with pytest.raises(BadValueError, match="The label is missing at row 1"):
        TabularEncoder(SCHEMA).fit().encode_labels(["no", nan])


def test_a_draft_does_not_offer_nan_text_as_a_category():
    from dpboost.schema_draft import draft_schema

    spec = draft_schema(pd.DataFrame({"job": ["a", "NaN", "b", "nan"]})).columns["job"]
    assert spec.categories == ("a", "b") and spec.missing == "indicator"


def test_nan_declared_as_a_category_stays_a_category():
    schema = {**SCHEMA, "columns": {**SCHEMA["columns"], "job": {
        "type": "categorical", "categories": ["clerk", "NaN"], "missing": "indicator"}},
              "label": {"column": "y", "classes": ["no", "NaN"]}}
    enc = TabularEncoder(schema).fit()
    Z = enc.transform(pd.DataFrame({"age": ["30", "30"], "job": ["NaN", "nan"]}))
    names = enc.get_feature_names_out().tolist()
    assert Z[0, names.index("job=NaN")] > 0 and Z[0, names.index("job_missing")] == 0.0
    assert Z[1, names.index("job=NaN")] == 0.0 and Z[1, names.index("job_missing")] > 0
    assert enc.encode_labels(["NaN", "no"]).tolist() == [1, 0]
    # a top-level token written as a category: a reader drops such cells, so the category
    # would never match (test_tabular_redteam_files.py)
    with pytest.raises(ValueError, match="also a declared category of column 'job'"):
        TabularEncoder({**schema, "na_values": ["NaN"]}).fit()


@pytest.mark.parametrize("sep", [",", " "])
def test_nan_text_trains_as_missing_or_as_its_declared_category(tmp_path, capsys, sep):
    """pyarrow reads NaN in a column of numbers as a float; a declared category survives."""
    codes = ["1", "2", "NaN"] * 20
    rows = [f"{20 + k % 50}{sep}{c}{sep}{'yes' if k % 3 else 'no'}" for k, c in enumerate(codes)]

    def model(column: list[str], categories: list, name: str) -> list[float]:
        schema = {"columns": {"age": SCHEMA["columns"]["age"], "code": {
            "type": "categorical", "categories": categories, "missing": "indicator"}},
                  "label": SCHEMA["label"]}
        text = "\n".join([sep.join(["age", "code", "y"])]
                         + [r.replace(f"{sep}{c}{sep}", f"{sep}{v}{sep}", 1)
                            for r, c, v in zip(rows, codes, column)]) + "\n"
        data, schema_path = _files(tmp_path, text, schema, name=f"{name}.csv")
        out = tmp_path / f"{name}.json"
        assert main(["train", str(data), "--schema", str(schema_path), *TRAIN, "--out",
                     str(out)]) == 0, capsys.readouterr().err
        return json.loads(out.read_text())["coef"]

    declared = model(codes, [1, 2, "NaN"], "declared")
    renamed = model([c.replace("NaN", "3") for c in codes], [1, 2, 3], "renamed")
    assert declared == renamed  # "NaN" declared: one category like any other
    for name in ("declared", "renamed"):  # predict reads the column as train does
        assert main(["predict", "--model", str(tmp_path / f"{name}.json"),
                     str(tmp_path / f"{name}.csv"), "--out", str(tmp_path / f"{name}.p")]) == 0
    assert (tmp_path / "declared.p").read_bytes() == (tmp_path / "renamed.p").read_bytes()
    undeclared = model(codes, [1, 2, 4], "undeclared")
    assert undeclared != declared
    unknown = model([c.replace("NaN", "x") for c in codes], [1, 2, 4], "unknown")
    assert unknown != undeclared  # undeclared text is all zeros without the missing flag
    if sep == ",":  # a whitespace-separated file has no empty cells
        assert undeclared == model([c.replace("NaN", "") for c in codes], [1, 2, 4], "empty")


def test_a_bad_value_error_pickles_whole():
    """A dask worker's error reaches the client with its column and row (it did not unpickle)."""
    import pickle

    error = BadValueError("The label 'x' at row 3 is not declared.", column="y", row=3)
    error.partition = 2
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), back.column, back.row, back.partition) == (
        BadValueError, str(error), "y", 3, 2)
    moved = back.moved(103, prefix="f.parquet: ")
    assert (str(moved), moved.row) == ("f.parquet: The label 'x' at row 103 is not declared.", 103)


@pytest.mark.parametrize("command", ["train", "predict"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_names_in_the_schema_of_a_file_with_a_header_is_one_clear_line(tmp_path, capsys,
                                                                        command, bom,
                                                                        one_line_error):
    # 'names' is for files WITHOUT a header; read as data, the header failed as
    # "Column 'age' ... holds the non-numeric value 'age' at line 1"
    named = {**SCHEMA, "names": ["age", "job", "y"]}
    good, good_schema = _files(tmp_path, _csv(), SCHEMA, name="good.csv")
    data = tmp_path / "d.csv"
    data.write_text(bom + _csv(), encoding="utf-8")
    schema = tmp_path / "named.json"
    schema.write_text(json.dumps(named))
    model = tmp_path / "m.json"
    if command == "train":
        code = main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)])
        assert not model.exists()
    else:
        assert main(["train", str(good), "--schema", str(good_schema), *TRAIN,
                     "--out", str(model)]) == 0
        capsys.readouterr()
        model_json = json.loads(model.read_text())
        model_json["schema"]["names"] = ["age", "job", "y"]
        model.write_text(json.dumps(model_json))
        code = main(["predict", str(data), "--model", str(model), "--out",
                     str(tmp_path / "p.csv")])
    one_line_error(code, "line 1 repeats the schema's 'names'", "delete 'names'")


def test_a_headerless_file_with_names_still_reads(tmp_path):
    body = _csv().split("\n", 1)[1]  # the same rows without the header
    data, _ = _files(tmp_path, body)
    frame = read_table(data, names=["age", "job", "y"])
    assert list(frame.columns) == ["age", "job", "y"] and len(frame) == 40
