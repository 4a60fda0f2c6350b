"""Round-6 mutation gaps of ``dpboost schema``'s note on drafted categories that are
missing-value words (:data:`dpboost.cli.schema.MISSING_CATEGORY_WORDS`, ``_first_five``)."""

from __future__ import annotations

import pytest

from dpboost.cli import main
from dpboost.cli.schema import MISSING_CATEGORY_WORDS, _first_five
from dpboost.cell_text import NA_WORDS

NOTE = "usually mark a missing value"


def _err(tmp_path, capsys, text: str) -> str:
    data, out = tmp_path / "t.csv", tmp_path / "s.json"
    data.write_text(text)
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    return capsys.readouterr().err


@pytest.mark.parametrize("word", ["null", "NULL", "#N/A", "n/a", "nil", "#NULL!", "N.A."])
def test_each_excel_and_database_word_is_named(tmp_path, capsys, word):
    err = _err(tmp_path, capsys, f"a,b,y\n{word},1,x\nred,2,z\nblue,3,x\nred,4,z\n")
    lines = [ln for ln in err.splitlines() if NOTE in ln]
    assert len(lines) == 1 and f"'a' ['{word}']" in lines[0]


def test_the_words_are_na_words_without_the_frequent_categories():
    assert set(MISSING_CATEGORY_WORDS) <= set(NA_WORDS)
    for often in ("none", "unknown", "missing", "-"):
        assert often not in MISSING_CATEGORY_WORDS
    for word in ("na", "n/a", "null", "nan", "?", "#n/a"):
        assert word in MISSING_CATEGORY_WORDS


def test_five_columns_are_shown_then_the_count_of_the_rest():
    found = {f"c{i}": ["NA"] for i in range(8)}
    text = _first_five(found)
    assert text == ("'c0' ['NA'], 'c1' ['NA'], 'c2' ['NA'], 'c3' ['NA'], 'c4' ['NA'] "
                    "and 3 more")
    five = {f"c{i}": ["?"] for i in range(5)}
    assert _first_five(five) == ", ".join(f"'c{i}' ['?']" for i in range(5))


def test_seven_columns_through_the_cli(tmp_path, capsys):
    header = ",".join(f"c{i}" for i in range(7)) + ",b,y\n"
    rows = ["NA," * 7 + "1,x", "red," * 7 + "2,z", "blue," * 7 + "3,x", "red," * 7 + "4,z"]
    err = _err(tmp_path, capsys, header + "\n".join(rows) + "\n")
    line = next(ln for ln in err.splitlines() if NOTE in ln)
    assert "'c4' ['NA'] and 2 more;" in line and "'c5'" not in line
