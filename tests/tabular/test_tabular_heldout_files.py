"""Held-out raw files with hand-written schemas: what a new user meets (a robustness sweep).

Files modelled on well-known public tables and their quirks (UCI adult's ``" ?"`` and
``" >50K."``, bank marketing's ``999`` sentinel, Kaggle's ``PassengerId`` and ``customerID``,
trailing separators, Parquet copies of CSV files), each schema written from the README alone.
Each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.readers import read_table, sniff_delimiter
from dpboost.schema import Schema
from dpboost.schema_draft import IDENTIFIER_NOTE
from dpboost.tabular import TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]


def _write(path: Path, content) -> Path:
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def _coef(path: Path) -> list:
    model = json.loads(path.read_text())
    return [model["coef"], model["intercept"]]


def _same_model_from(tmp_path: Path, capsys, schema: Path, names: tuple[str, ...]) -> None:
    """Train on each of ``names`` (one table saved in different formats): the same model."""
    coefs = []
    for name in names:
        out = tmp_path / f"{name}.json"
        assert main(["train", str(tmp_path / name), "--schema", str(schema), *TRAIN,
                     "--out", str(out)]) == 0, capsys.readouterr().err
        coefs.append(_coef(out))
    assert coefs[0] == coefs[1]


@pytest.fixture(scope="module")
def scheduler():
    """The address of a 1-worker local dask cluster for this module's ``--scheduler`` runs."""
    pytest.importorskip("distributed")
    from distributed import Client

    from dpboost.distributed import local_cluster

    cluster = local_cluster(1, "1GiB")
    client = Client(cluster)
    yield client.scheduler.address
    client.close()
    cluster.close()


# -- privacy: nothing printed by default depends on the data -------------------------------
def test_train_on_dask_prints_no_partition_count(tmp_path, capsys, monkeypatch, scheduler):
    """`train --workers` printed "(dask, 3 partitions)": a CSV's partitions are its size in
    bytes over the block size, so one value written longer in one row changed the count."""
    import dpboost.cli._distributed as distributed_cli

    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 100000}},
        "label": {"column": "y", "classes": [0, 1]}})
    files = []
    for k, wide in enumerate(["1", "0" * 300 + "1"]):  # the same value, written longer
        (tmp_path / f"run{k}").mkdir()
        rows = [f"{wide if i == 0 else i % 7},{i % 2}" for i in range(60)]
        files.append(_write(tmp_path / f"run{k}" / "d.csv", "x,y\n" + "\n".join(rows) + "\n"))
    # one block for the first file, two for its longer neighbour
    monkeypatch.setattr(distributed_cli, "CSV_BLOCKSIZE", files[0].stat().st_size)
    outputs = []
    for data in files:
        assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                     "--scheduler", scheduler, "--out", str(data.parent / "m.json")]) == 0
        outputs.append(capsys.readouterr().out.replace(str(data.parent), "RUN"))
    assert outputs[0] == outputs[1]


def test_a_whitespace_file_reads_without_a_warning_that_one_row_sets(tmp_path):
    """pandas parses a whitespace-separated file in chunks of 262,144 rows and warned
    "Columns (0: x) have mixed types" when one row far down held 'true' (read as 1) in a
    numeric column; train printed the warning by default, a bit of one row's content."""
    import warnings

    rows = [f"{i % 50} {i % 2}" for i in range(270_000)]
    rows[-10] = "true 1"
    data = _write(tmp_path / "d.txt", "x y\n" + "\n".join(rows) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = read_table(data, columns=["x", "y"])
    assert len(frame) == 270_000


def test_train_prints_no_other_librarys_warning_by_default(tmp_path, capsys, monkeypatch):
    """Warnings raised while reading and fitting were all printed; one from pandas or dask
    can depend on the rows (as pandas' mixed types did). Only dpboost's own warnings (a
    draft's marks, inferred classes) are printed, the others with --non-private-figures."""
    import warnings

    import pandas.errors

    import dpboost.readers

    real = dpboost.readers.read_table

    def read_and_warn(*args, **kwargs):
        warnings.warn("Columns (0: x) have mixed types.", pandas.errors.DtypeWarning)
        return real(*args, **kwargs)

    monkeypatch.setattr(dpboost.readers, "read_table", read_and_warn)
    data = _write(tmp_path / "d.csv", "x,y\n" + "".join(f"{i},{i % 2}\n" for i in range(20)))
    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 20}},
        "label": {"column": "y", "classes": [0, 1]}})
    args = ["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(tmp_path / "m")]
    assert main(args) == 0
    assert "mixed types" not in capsys.readouterr().err
    assert main([*args, "--non-private-figures"]) == 0
    assert "dpboost train: warning: Columns (0: x) have mixed types." in capsys.readouterr().err


@pytest.mark.parametrize("text, hint", [
    ('{"columns": {\n "age": {"type": "numeric", "lower": 0, "upper": 99},\n},\n'
     ' "label": {"column": "y", "classes": [0, 1]}}', "A comma at line 2 ends an object"),
    ('{"columns": {\n // age in years\n "age": {"type": "numeric", "lower": 0, "upper": 99}'
     '}}', "JSON has no comments"),
    ("{'columns': {}}", "not single ones"),
    ('{"columns": {}, "label": None}', "JSON writes null, not Python's None"),
])
def test_json_slips_of_a_hand_written_schema_say_what_to_change(tmp_path, one_line_error,
                                                                 text, hint):
    """A trailing comma, a comment, single quotes or Python's None (a schema typed by hand or
    pasted from Python) gave only the parser's "Expecting property name enclosed in double
    quotes at line 3", which names neither the slip nor its line."""
    data = _write(tmp_path / "d.csv", "age,y\n30,0\n40,1\n")
    schema = _write(tmp_path / "s.json", text)
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "is not valid JSON", hint)


# -- na_values: one rule whichever reader produced the table --------------------------------
def _sentinel_frame(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({"age": rng.integers(18, 90, n),
                         "pdays": np.where(rng.random(n) < 0.5, 999, rng.integers(0, 30, n)),
                         "y": rng.choice(["no", "yes"], n)})


SENTINEL_SCHEMA = {"na_values": ["999"],
                   "columns": {"age": {"type": "numeric", "lower": 18, "upper": 100},
                               "pdays": {"type": "numeric", "lower": 0, "upper": 40,
                                         "missing": "indicator"}},
                   "label": {"column": "y", "classes": ["no", "yes"]}}


def test_a_numeric_sentinel_in_na_values_is_missing_in_parquet_as_in_csv(tmp_path, capsys):
    """Bank marketing writes pdays = 999 for "never contacted". Listed in 'na_values', it was
    missing in a CSV (pyarrow nulls the text) but a Parquet column of numbers kept 999 and
    clipped it to the upper bound: the same table trained two different models."""
    frame = _sentinel_frame()
    frame.to_csv(tmp_path / "bank.csv", index=False)
    frame.to_parquet(tmp_path / "bank.parquet")
    schema = _write(tmp_path / "s.json", SENTINEL_SCHEMA)
    _same_model_from(tmp_path, capsys, schema, ("bank.csv", "bank.parquet"))
    encoded = TabularEncoder(SENTINEL_SCHEMA).fit_transform(frame)
    assert (encoded[:, 2] > 0).sum() == (frame["pdays"] == 999).sum()  # the indicator


def test_a_numeric_sentinel_is_missing_however_it_is_written(tmp_path):
    """``999.0`` in a CSV is the number of the declared ``"999"``: missing, as the text
    ``999`` is (a reader keeping every cell as text, as dask's does, agrees)."""
    path = _write(tmp_path / "d.csv", "pdays,y\n999,no\n999.0,yes\n12,no\n")
    schema = Schema.from_dict({"na_values": ["999"], "columns": {
        "pdays": {"type": "numeric", "lower": 0, "upper": 40, "missing": "indicator"}}})
    encoder = TabularEncoder(schema).fit()
    as_read = encoder.transform(read_table(path, na_values=schema.na_values))
    as_text = encoder.transform(pd.read_csv(path, dtype=str, keep_default_na=False))
    np.testing.assert_array_equal(as_read, as_text)
    assert (as_read[:, 1] > 0).tolist() == [True, True, False]


def test_na_values_written_with_spaces_match_the_stripped_cells(tmp_path):
    """UCI adult writes ``", ?"``; a schema copying the cell as ``" ?"`` matched in memory
    (pyarrow compares the raw text) but not on dask, whose cells reach the encoder unstripped
    and are compared stripped: the missing indicator was 0 there, and a numeric ``" ?"`` was a
    'non-numeric value' error on dask only."""
    path = _write(tmp_path / "adult.csv", "age, work, y\n39, ?, no\n50, Private, yes\n"
                                          " ?, Gov, no\n")
    schema = Schema.from_dict({"na_values": [" ?"], "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 100, "missing": "indicator"},
        "work": {"type": "categorical", "categories": ["Private", "Gov"],
                 "missing": "indicator"}}})
    assert schema.na_values == ("?",)
    encoder = TabularEncoder(schema).fit()
    in_memory = encoder.transform(read_table(path, na_values=schema.na_values))
    as_text = encoder.transform(pd.read_csv(path, dtype=str, keep_default_na=False)
                                .rename(columns=str.strip))
    np.testing.assert_array_equal(in_memory, as_text)
    assert (in_memory[:, 1] > 0).tolist() == [False, False, True]  # age missing
    assert (in_memory[:, 4] > 0).tolist() == [True, False, False]  # work missing


def test_na_values_written_as_numbers_say_to_quote_them():
    with pytest.raises(TypeError, match=r'Write each in quotes: \["999", "\?"\]'):
        Schema.from_dict({"na_values": [999, "?"], "columns": {}})


def test_parquet_time_stamps_match_declared_dates_as_csv_text_does(tmp_path, capsys):
    """A date column saved by pandas to Parquet holds time stamps, keyed
    '2020-01-01 00:00:00', so the declared '2020-01-01' never matched: the column was all
    zeros from Parquet (without a word) and one-hot from the same table as CSV."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"signup": pd.to_datetime(rng.choice(["2020-01-01", "2020-06-15"], 40)),
                          "y": rng.integers(0, 2, 40)})
    frame.to_parquet(tmp_path / "d.parquet")
    frame.assign(signup=frame["signup"].dt.strftime("%Y-%m-%d")).to_csv(tmp_path / "d.csv",
                                                                       index=False)
    schema = _write(tmp_path / "s.json", {
        "columns": {"signup": {"type": "categorical", "categories": ["2020-01-01",
                                                                    "2020-06-15"]}},
        "label": {"column": "y", "classes": [0, 1]}})
    _same_model_from(tmp_path, capsys, schema, ("d.csv", "d.parquet"))
    encoded = TabularEncoder(json.loads(schema.read_text())).fit_transform(frame)
    assert (encoded[:, :2] > 0).sum(axis=1).tolist() == [1] * 40


def test_decomposed_accents_match_the_declared_categories(tmp_path, one_line_error):
    """A file saved with decomposed accents (Unicode NFD, as macOS tools may write 'São
    Paulo') matched none of the declared categories typed composed: the column was all zeros
    without a word, and such a header name was "no column 'Região'; its columns are
    ['Região', ...]", two names that print alike."""
    import unicodedata

    rows = [f"{c},{i % 2}" for i, c in enumerate(["São Paulo", "Zürich"] * 10)]
    data = _write(tmp_path / "d.csv", unicodedata.normalize("NFD", "city,y\n"
                                                            + "\n".join(rows) + "\n"))
    schema = {"columns": {"city": {"type": "categorical", "categories": ["São Paulo",
                                                                        "Zürich"]}},
              "label": {"column": "y", "classes": [0, 1]}}
    encoded = TabularEncoder(schema).fit_transform(read_table(data, text_columns=["city"]))
    assert (encoded[:, :2] > 0).sum(axis=1).tolist() == [1] * 20
    header = _write(tmp_path / "h.csv", unicodedata.normalize("NFD", "Região,y\n1,0\n2,1\n"))
    schema_path = _write(tmp_path / "s.json", {
        "columns": {"Região": {"type": "numeric", "lower": 0, "upper": 3}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(header), "--schema", str(schema_path), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "accents decomposed", '"Regia\\u0303o"')


# -- train --workers reads what the in-memory reader reads ----------------------------------
def _small_table(n: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"a": rng.normal(size=n).round(3), "c": rng.choice(["u", "v"], n),
                         "label": rng.integers(0, 2, n)})


SMALL_SCHEMA = {"columns": {"a": {"type": "numeric", "lower": -4, "upper": 4},
                            "c": {"type": "categorical", "categories": ["u", "v"]}},
                "label": {"column": "label", "classes": [0, 1]}}


def _train_both(tmp_path, data: Path, scheduler, capsys) -> list:
    """The model of ``data`` in memory and on dask; dask's stderr must be empty."""
    schema = _write(tmp_path / "s.json", SMALL_SCHEMA)
    coefs = []
    for where in ([], ["--scheduler", scheduler]):
        out = tmp_path / f"m{len(coefs)}.json"
        code = main(["train", str(data), "--schema", str(schema), *TRAIN, *where,
                     "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 0, err
        assert [ln for ln in err.splitlines() if " boosting rounds on " not in ln] == []
        coefs.append(_coef(out))
    return coefs


def test_trailing_separators_train_on_dask_as_in_memory(tmp_path, capsys, scheduler):
    """``a,c,label,,`` (a spreadsheet's trailing commas) trained in memory, which reads only
    the schema's columns, but on dask was "the header row names the column(s) [''] more
    than once" though neither empty column is read."""
    frame = _small_table()
    lines = ["a,c,label,,"] + [f"{r.a},{r.c},{r.label},," for r in frame.itertuples()]
    data = _write(tmp_path / "trailing.csv", "\n".join(lines) + "\n")
    in_memory, on_dask = _train_both(tmp_path, data, scheduler, capsys)
    assert in_memory == on_dask


@pytest.mark.parametrize("name", ["d.csv.gz", "d.csv"])
def test_a_gzip_file_trains_on_dask_without_a_dask_warning(tmp_path, capsys, scheduler, name):
    """A gzip CSV on dask printed dask's own "gzip compression does not support breaking
    apart files ... use the keyword ``blocksize=None``" (a keyword the user cannot pass); one
    without the '.gz' suffix, which the in-memory reader knows by its magic bytes, was read
    as binary text."""
    import gzip

    data = tmp_path / name
    data.write_bytes(gzip.compress(_small_table().to_csv(index=False).encode()))
    in_memory, on_dask = _train_both(tmp_path, data, scheduler, capsys)
    assert in_memory == on_dask


@pytest.mark.parametrize("name", ["d.pq", "d.data"])
def test_a_parquet_file_by_suffix_or_magic_trains_on_dask(tmp_path, capsys, scheduler, name):
    """The in-memory reader knows Parquet by '.parquet', '.pq' or its 'PAR1' magic; on dask a
    '.pq' file (or any other name) was read as CSV: "is not UTF-8 text; re-save it as UTF-8"."""
    data = tmp_path / name
    _small_table().to_parquet(data)
    in_memory, on_dask = _train_both(tmp_path, data, scheduler, capsys)
    np.testing.assert_allclose(in_memory[0], on_dask[0], rtol=1e-6)  # float32 on dask


# -- labels -----------------------------------------------------------------------------------
ADULT_SCHEMA = {"names": ["age", "workclass", "income"], "na_values": ["?"],
                "columns": {"age": {"type": "numeric", "lower": 17, "upper": 90},
                            "workclass": {"type": "categorical",
                                          "categories": ["Private", "State-gov"]}},
                "label": {"column": "income", "classes": ["<=50K", ">50K"]}}


def test_adult_test_labels_ending_in_a_dot_say_so(tmp_path, capsys, one_line_error):
    """UCI's adult.test writes " >50K." where adult.data writes " >50K". `predict --label`
    said "The label column holds ['<=50K.', '>50K.'] outside the model's classes", naming
    neither the file nor the fix; `train` did not say what differed."""
    work = ["Private", "?", "State-gov"]
    rows = [f"{20 + i}, {work[i % 3]}, {'>50K' if i % 4 == 0 else '<=50K'}" for i in range(40)]
    data = _write(tmp_path / "adult.data", "\n".join(rows) + "\n")
    test = _write(tmp_path / "adult.test", "\n".join(r + "." for r in rows) + "\n")
    schema = _write(tmp_path / "s.json", ADULT_SCHEMA)
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    capsys.readouterr()
    code = main(["predict", "--model", str(model), str(test), "--label", "income",
                 "--out", str(tmp_path / "p.csv")])
    one_line_error(code, str(test), "remove the dots", "drop --label")
    code = main(["train", str(test), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m2.json")])
    line = one_line_error(code, "at line 1", "remove the dots", "'<=50K'")
    assert "header" not in line  # line 1 is data: no hint to delete 'names'


def test_a_class_listed_in_na_values_says_why_the_label_is_missing(tmp_path, one_line_error):
    """Pima diabetes marks a missing glucose with 0; a schema listing "0" in 'na_values' made
    every label 0 missing too, and train said only "The label is missing at line 2" of a
    line whose label cell reads 0."""
    data = _write(tmp_path / "diabetes.csv", "Glucose,Outcome\n148,1\n0,0\n85,0\n")
    schema = _write(tmp_path / "s.json", {
        "na_values": ["0"],
        "columns": {"Glucose": {"type": "numeric", "lower": 40, "upper": 200,
                                "missing": "indicator"}},
        "label": {"column": "Outcome", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "missing at line 3", "'na_values' ['0']", "class '0' always reads")


def test_predict_on_dask_takes_a_headerless_test_file_without_the_label(tmp_path, capsys,
                                                                         scheduler):
    """The README: a headerless test file for predict may leave out the label column of the
    schema's "names". In memory it could; with --workers it was "has 2 fields per row (line
    1) but the schema's 'names' lists 3"."""
    rows = [f"{20 + i}, {['Private', '?', 'State-gov'][i % 3]}" for i in range(30)]
    data = _write(tmp_path / "adult.data", "\n".join(
        f"{r}, {'>50K' if i % 4 == 0 else '<=50K'}" for i, r in enumerate(rows)) + "\n")
    test = _write(tmp_path / "adult.test", "\n".join(rows) + "\n")
    schema = _write(tmp_path / "s.json", ADULT_SCHEMA)
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    for where, out in (([], "p.csv"), (["--scheduler", scheduler], "pd.csv")):
        code = main(["predict", "--model", str(model), str(test), *where,
                     "--out", str(tmp_path / out)])
        assert code == 0, capsys.readouterr().err
    assert (tmp_path / "p.csv").read_text() == (tmp_path / "pd.csv").read_text()


def test_a_parquet_folder_file_without_a_declared_column_is_refused(tmp_path, scheduler,
                                                                    one_line_error):
    """A Parquet folder whose second file lacks the declared column 'c' trained without a
    word: the chunk's files were concatenated and that file's rows read 'c' as missing."""
    frame = _small_table()
    folder = tmp_path / "data"
    folder.mkdir()
    frame.iloc[:20].to_parquet(folder / "part-0.parquet")
    frame.iloc[20:].drop(columns=["c"]).to_parquet(folder / "part-1.parquet")
    schema = _write(tmp_path / "s.json", SMALL_SCHEMA)
    code = main(["train", str(folder), "--schema", str(schema), *TRAIN,
                 "--scheduler", scheduler, "--out", str(tmp_path / "m.json")])
    one_line_error(code, "part-1.parquet has no column 'c'")
    assert not (tmp_path / "m.json").exists()


# -- reading: headerless and whitespace-separated files -----------------------------------
def test_a_headerless_file_without_names_says_to_declare_them(tmp_path, capsys,
                                                              one_line_error):
    """UCI adult has no header row; a schema without "names" met "has no column 'age'; its
    columns are ['39', 'State-gov', ...]" with no word on what to change."""
    data = _write(tmp_path / "adult.data", "".join(
        f"{30 + i}, State-gov, {i % 2}\n" for i in range(10)))
    schema = _write(tmp_path / "s.json", {
        "columns": {"age": {"type": "numeric", "lower": 0, "upper": 100}},
        "label": {"column": "income", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "has no column 'age'", "list its column names in the schema's 'names'")


def test_names_over_a_header_that_differs_from_them_suggest_deleting_names(tmp_path,
                                                                            one_line_error):
    """A schema's "names" (copied from adult.names) over a file that has its own header
    spelled otherwise ('Age' for 'age'): the header was read as data and the error advised
    declaring 'age' categorical, since it "holds words (like 'Age')"."""
    data = _write(tmp_path / "adult.csv", "Age,Work,Income\n39,Private,<=50K\n50,?,>50K\n")
    schema = _write(tmp_path / "s.json", {**ADULT_SCHEMA, "names": ["age", "workclass",
                                                                    "income"]})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "at line 1", "holds no number, as a header row", "delete 'names'")


def test_a_header_name_with_a_non_breaking_space_is_named_as_such(tmp_path, one_line_error):
    """Excel writes 'Total<NBSP>Charges'; a schema's 'Total Charges' met "has no column 'Total
    Charges'; its columns are ['Total\\xa0Charges', ...]" with no word on the difference."""
    data = _write(tmp_path / "telco.csv", "Total\u00a0Charges,y\n1,0\n2,1\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"Total Charges": {"type": "numeric", "lower": 0, "upper": 9000}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "differs from it only in its spaces", '"Total\\u00a0Charges"')


def test_a_date_in_a_numeric_column_says_what_to_do(tmp_path, one_line_error):
    """A signup date declared numeric was "holds the non-numeric value '2020-05-27'" and no
    more (no hint: the text holds digits but is no number written for people)."""
    data = _write(tmp_path / "d.csv", "signup,y\n2020-05-27,0\n2021-01-03,1\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"signup": {"type": "numeric", "lower": 0, "upper": 1}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "at line 2", "it reads as a date", "'categorical'")
    assert "2020" not in line  # a cell's content is private


@pytest.mark.parametrize("marker", ["#N/A", "#DIV/0!", "n.a."])
def test_a_spreadsheet_missing_marker_points_at_na_values(tmp_path, one_line_error, marker):
    """Excel writes '#N/A' or '#DIV/0!' where a number is missing: the error advised declaring
    the column categorical, since it "holds words (like '#N/A')"."""
    data = _write(tmp_path / "d.csv", f"x,y\n1,0\n{marker},1\n3,0\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"x": {"type": "numeric", "lower": 0, "upper": 5}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "at line 3", "list that text in the schema's 'na_values'")
    assert marker not in line  # a cell's content is private
    assert "categorical" not in line


def test_two_header_rows_are_named_as_such_not_as_a_headerless_file(tmp_path, capsys,
                                                                    one_line_error):
    """UCI's credit-card-default spreadsheet, exported, has a row 'X1,X2,...,Y' above the
    names. The schema's 'LIMIT_BAL' was "no column" with no word on why; the headerless hint
    must not fire there (its first line holds no number)."""
    data = _write(tmp_path / "credit.csv", ",X1,X2,Y\nID,LIMIT_BAL,SEX,default payment next "
                                           "month\n1,20000,2,1\n2,120000,2,1\n3,90000,2,0\n")
    schema = _write(tmp_path / "s.json", {
        "columns": {"LIMIT_BAL": {"type": "numeric", "lower": 0, "upper": 1e6}},
        "label": {"column": "default payment next month", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, "no column 'LIMIT_BAL'", "two header rows", "delete the first")
    assert "'names'" not in line
    assert main(["schema", str(data), "--out", str(tmp_path / "d.json")]) == 0
    assert "--no-header" not in capsys.readouterr().err


AUTO_MPG = ('18.0   8   307.0      130.0      3504.      12.0   70  1\t"chevrolet chevelle '
            'malibu"\n'
            '15.0   8   350.0      165.0      3693.      11.5   70  1\t"buick skylark 320"\n'
            '25.0   4   98.00      ?          2046.      19.0   71  1\t"ford pinto"\n'
            '24.0   4   113.0      95.00      2372.      15.0   70  3\t"toyota corona mark ii"\n')
AUTO_MPG_NAMES = ["mpg", "cylinders", "displacement", "horsepower", "weight", "acceleration",
                  "model year", "origin", "car name"]


def test_auto_mpg_aligned_with_spaces_and_one_tab_reads_as_whitespace(tmp_path, capsys):
    """UCI auto-mpg aligns its numbers with spaces and puts a tab before the quoted car name:
    the tab was taken for the separator ("2 fields per row but the schema's 'names' lists
    9"), and a quoted name with spaces counted as several fields."""
    assert sniff_delimiter(AUTO_MPG.splitlines()[2]) is None  # a '?' among the numbers
    data = _write(tmp_path / "auto-mpg.data", AUTO_MPG)
    frame = read_table(data, names=AUTO_MPG_NAMES, na_values=["?"])
    assert frame["car name"].tolist()[:2] == ["chevrolet chevelle malibu", "buick skylark 320"]
    assert frame["horsepower"].isna().tolist() == [False, False, True, False]
    assert frame["origin"].tolist() == [1, 1, 1, 3]
    schema = _write(tmp_path / "s.json", {
        "names": AUTO_MPG_NAMES, "na_values": ["?"],
        "columns": {"horsepower": {"type": "numeric", "lower": 40, "upper": 250,
                                   "missing": "indicator"},
                    "weight": {"type": "numeric", "lower": 1500, "upper": 5500}},
        "label": {"column": "origin", "classes": [1, 2, 3]}})
    assert main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0, capsys.readouterr().err


def test_a_quoted_value_with_spaces_is_one_whitespace_separated_field(tmp_path):
    """``18 8 "chevrolet malibu"`` is 3 fields, as pandas reads it; the width check split the
    quotes and refused the line ("expected 3 fields (as in the first row), found 4")."""
    data = _write(tmp_path / "cars.txt", 'mpg cyl name\n18 8 "chevrolet malibu"\n15 8 pinto\n')
    frame = read_table(data)
    assert frame["name"].tolist() == ["chevrolet malibu", "pinto"]
    bad = _write(tmp_path / "bad.txt", 'mpg cyl name\n18 8 "chevrolet malibu" x\n')
    with pytest.raises(ValueError, match="line 2: expected 3 fields"):
        read_table(bad)


# -- dpboost schema: drafts that a new user can keep -----------------------------------------
def test_schema_draft_leaves_out_columns_without_a_name(tmp_path, capsys):
    """Trailing separators in the header stopped the draft ("the header row names the
    column(s) [''] more than once; rename them"); now the unnamed columns are left out, and
    stderr says which."""
    data = _write(tmp_path / "d.csv", "a,b,label,,\n" + "".join(
        f"{i / 10},{i % 3},{i % 2},,\n" for i in range(20)))
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "label", "--out", str(out)]) == 0
    assert "positions 4, 5; trailing separators?" in capsys.readouterr().err
    assert set(json.loads(out.read_text())["columns"]) == {"a", "b"}


def test_schema_draft_drops_camel_case_identifiers(tmp_path, capsys):
    """Kaggle's ``PassengerId`` (titanic) was drafted as a numeric feature from 1 to n, and
    telco's ``customerID`` ("7590-VHVEG") got the hint "write the number alone, without
    '-VHVEG', and give the column's 'lower' and 'upper' in that unit"."""
    rows = [f"{i + 1},{7590 + i}-VHVEG,{i % 5},{i % 2}" for i in range(30)]
    data = _write(tmp_path / "d.csv", "PassengerId,customerID,x,y\n" + "\n".join(rows))
    out = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    columns = json.loads(out.read_text())["columns"]
    dropped = {"type": "drop", "from_data": ["type"], "note": IDENTIFIER_NOTE}
    assert columns["PassengerId"] == dropped and columns["customerID"] == dropped
    assert "write the number alone" not in capsys.readouterr().err


def test_schema_draft_reads_a_question_mark_among_numbers_as_missing(tmp_path, capsys):
    """UCI marks missing numbers with '?' (auto-mpg's horsepower, heart disease's ca): the
    draft gave such a column up as 'drop' (over 50 distinct texts) or listed '?' as one of
    its categories, without a word. Now '?' goes into 'na_values', the column is numeric
    with a missing indicator, and the draft trains as it stands."""
    rng = np.random.default_rng(0)
    rows = [f"{'?' if i % 9 == 0 else 40 + i},"
            f"{'?' if i % 13 == 5 else f'{rng.integers(0, 4)}.0'},{i % 2}" for i in range(80)]
    data = _write(tmp_path / "d.csv", "horsepower,ca,y\n" + "\n".join(rows) + "\n")
    draft = tmp_path / "draft.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(draft)]) == 0
    assert "'horsepower' ['?']" in capsys.readouterr().err  # listed per column now
    content = json.loads(draft.read_text())
    assert content["columns"]["horsepower"]["na_values"] == ["?"]
    assert "na_values" in content["columns"]["horsepower"]["from_data"]
    assert content["columns"]["horsepower"]["type"] == "numeric"
    assert content["columns"]["horsepower"]["missing"] == "indicator"
    assert "?" not in content["columns"]["ca"].get("categories", [])
    assert main(["train", str(data), "--schema", str(draft), *TRAIN,
                 "--out", str(tmp_path / "m.json")]) == 0


def test_schema_draft_of_a_headerless_file_says_to_pass_no_header(tmp_path, capsys,
                                                                  one_line_error):
    """`dpboost schema adult.data` (no header row) took the first data row for the column
    names without a word, and `--label income` said "Label column 'income' not found;
    columns are ['39', 'State-gov', ...]"."""
    data = _write(tmp_path / "adult.data", "".join(
        f"{30 + i}, State-gov, {1000 * i}, {'>50K' if i % 3 else '<=50K'}\n"
        for i in range(10)))
    out = tmp_path / "draft.json"
    one_line_error(main(["schema", str(data), "--out", str(out)]), "no draft was written",
                   "pass --no-header")
    code = main(["schema", str(data), "--label", "income", "--out", str(out)])
    one_line_error(code, "--label 'income'", "pass --no-header")


# -- the Python API of the README --------------------------------------------------------------
def test_the_encoder_matches_frame_columns_without_their_spaces():
    """`pandas.read_csv` keeps the spaces of a header written "age, job, y", which the file
    readers strip: the README's pipeline on such a frame failed with "The data has no column
    'job'; its columns are ['age', ' job', ' y']"."""
    import io

    frame = pd.read_csv(io.StringIO("age, job, y\n30, clerk, no\n40, eng, yes\n"))
    schema = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                          "job": {"type": "categorical", "categories": ["clerk", "eng"]}}}
    stripped = frame.rename(columns=str.strip)
    np.testing.assert_array_equal(TabularEncoder(schema).fit_transform(frame),
                                  TabularEncoder(schema).fit_transform(stripped))
    with pytest.raises(ValueError, match="2 columns named 'job'"):
        TabularEncoder(schema).fit_transform(pd.concat([stripped, frame[[" job"]]], axis=1))


def test_a_headerless_file_whose_rows_end_in_a_separator_says_so(tmp_path, one_line_error):
    """Rows written 'a,y,' have one empty field more than the schema's "names": the error
    counted the fields but did not say that the extra one is the empty last field."""
    data = _write(tmp_path / "d.data", "".join(f"{i},{i % 2},\n" for i in range(10)))
    schema = _write(tmp_path / "s.json", {
        "names": ["a", "y"], "columns": {"a": {"type": "numeric", "lower": 0, "upper": 10}},
        "label": {"column": "y", "classes": [0, 1]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    one_line_error(code, "3 fields per row", "last field is empty", "add a name for each")
