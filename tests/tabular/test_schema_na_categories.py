"""``dpboost schema`` names drafted categories that are missing-value words (red team s38).

R's ``write.csv`` writes a missing string as a bare ``NA``; the draft reads it as a category
(MplsStops' ``citationIssued`` became ``["NA", "NO", "YES"]``) and said nothing, while the same
word among numbers went to ``na_values`` with a note."""

from __future__ import annotations

import json

from dpboost.cli import main


def _draft(tmp_path, capsys, text: str):
    data, out = tmp_path / "t.csv", tmp_path / "s.json"
    data.write_text(text)
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    return json.loads(out.read_text()), capsys.readouterr().err


def test_a_missing_word_among_categories_is_named_with_its_column(tmp_path, capsys):
    draft, err = _draft(tmp_path, capsys, '"a","b","y"\n"NA",1,"x"\nNA,2,"z"\n"YES",3,"x"\n'
                                          '"NO",4,"z"\n"?",5,"x"\n')
    assert draft["columns"]["a"]["categories"] == ["?", "NA", "NO", "YES"]  # unchanged
    lines = [ln for ln in err.splitlines() if "usually mark a missing value" in ln]
    assert lines == ["some drafted categories are words that usually mark a missing value: "
                     "'a' ['?', 'NA']; where one does, move it from \"categories\" to the "
                     "column's \"na_values\" (the draft cannot tell)."]


def test_no_note_without_such_a_word(tmp_path, capsys):
    _, err = _draft(tmp_path, capsys, 'a,b,y\nred,1,x\nblue,2,z\nred,3,x\nblue,4,z\n')
    assert "usually mark a missing value" not in err


def test_words_that_are_often_categories_are_not_named(tmp_path, capsys):
    """A band "None" (zero visits) or a level "Unknown" is a category more often than not."""
    _, err = _draft(tmp_path, capsys, 'a,b,y\nNone,1,x\n1 to 3,2,z\nUnknown,3,x\nNone,4,z\n')
    assert "usually mark a missing value" not in err
