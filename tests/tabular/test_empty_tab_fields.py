"""A file read as whitespace-separated refuses a line with an empty tab field.

A red-team pair (session 22): a headerless file (schema ``"names"``) whose every other row is
``no<TAB><TAB>0 4`` was read tab-separated when its first row was ``yes<TAB>5<TAB>7`` (column
``b`` missing) and whitespace-separated when it was ``yes<TAB><TAB>1 2`` (``b = 0``: the empty
field dropped, the columns shifted); the fits were told apart at epsilon >= 3.1 against a
claimed 1.  Now such a line is refused under whitespace reading, so one row cannot change how
another is read without an error.
"""

import json

import pytest

from dpboost.cli import main
from dpboost.pandas_csv import empty_tab_field, file_quotes_after_space
from dpboost.readers import read_table

SCHEMA = {"names": ["y", "b", "c"],
          "columns": {"b": {"type": "numeric", "lower": 0, "upper": 10, "missing": "indicator"},
                      "c": {"type": "drop"}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _file(path, first):
    """A file read as whitespace-separated unless its name is ``.tsv`` (then tab-separated)."""
    rows = [first] + [f"{'yes' if i % 2 else 'no'}\t\t{i % 7} {i % 5}" for i in range(300)]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("first", ["yes\t\t1 2", "yes 5 7"])
@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
def test_whitespace_reading_refuses_an_empty_tab_field(tmp_path, capsys, first, workers):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    code = main(["train", str(_file(tmp_path / "d.txt", first)), "--schema", str(schema),
                 "--target-epsilon", "1", "--target-delta", "1e-6",
                 "--out", str(tmp_path / "m.json"), *workers])
    err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
    assert code == 2 and len(err) == 1 and not (tmp_path / "m.json").exists(), err
    if not workers:
        line = 1 if "\t" in first else 2
        assert f"line {line}: an empty field between tabs" in err[0]


def test_the_tab_separated_neighbour_reads_every_row_alike(tmp_path):
    frame = read_table(_file(tmp_path / "d.tsv", "yes\t5\t7"), names=SCHEMA["names"],
                       text_columns=["y"])
    assert frame["b"].iloc[1:].isna().all()  # tab-separated: column b empty on every row


def test_single_tabs_in_a_whitespace_file_still_read(tmp_path):
    path = tmp_path / "mpg.data"  # UCI auto-mpg's layout: spaces, then one tab
    path.write_text('18.0   8   307.0\t"chevrolet malibu"\n15.0   8   350.0\t"buick skylark"\n')
    frame = read_table(path, names=["mpg", "cyl", "disp", "name"], text_columns=["name"])
    assert frame["name"].tolist() == ["chevrolet malibu", "buick skylark"]


@pytest.mark.parametrize("line,empty", [("a\t\tb", True), ("\ta b", True), ("a b\t", True),
                                        ("a\t \tb", True), ("a\tb\r\n", False),
                                        ("a b c", False)])
def test_empty_tab_field(line, empty):
    assert empty_tab_field(line) is empty


def test_a_spaced_quote_far_from_its_separator_is_found_across_a_cut(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("a,b\n" + "1,x\n" * 300 + "30," + " " * 200 + '"clerk"\n')
    for chunk in (7, 64, 1000, 1 << 20):
        assert file_quotes_after_space(path, ",", chunk=chunk), chunk
