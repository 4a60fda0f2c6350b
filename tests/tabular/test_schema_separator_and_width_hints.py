"""``dpboost schema --separator``, the draft's count line, and two width hints (red team,
session 36).

1. ISLP's ``Auto.data`` has a tab-separated header (``horsepower weight`` is one name's
   neighbour, split by a space) above rows aligned with spaces, one tab before the quoted
   name.  The draft could not be told the separator, and the refusal told the user to delete
   line 1 as a title.  ``--separator whitespace`` now drafts it (and writes ``"separator"``),
   and the refusal says the lines split alike on whitespace.
2. lifelines' ``divorce.dat`` holds ``12-15 years`` unquoted in a whitespace-separated file;
   the refusal's only advice was a header one name short, which shifts every column by one.
   It now names the value holding a space first.
3. The draft said "8 columns, 9 with values read from the data" (the 9th was the label).
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main

AUTO = ('mpg\tcylinders\tdisplacement\thorsepower weight\tacceleration\tyear\torigin\tname\n'
        + "".join(f'{15 + k}.0   8   350.0      {100 + k}.0      3693.      11.5   70  '
                  f'{1 + k % 3}\t"car {k}"\n' for k in range(12)))


def _draft(tmp_path, capsys, text, *flags):
    data, out = tmp_path / "auto.data", tmp_path / "d.json"
    data.write_text(text)
    code = main(["schema", str(data), "--label", "origin", "--out", str(out), *flags])
    return code, capsys.readouterr().err, out


def test_a_space_aligned_file_is_drafted_with_separator_whitespace(tmp_path, capsys):
    code, err, out = _draft(tmp_path, capsys, AUTO, "--separator", "whitespace")
    assert code == 0, err
    draft = json.loads(out.read_text())
    assert draft["separator"] == "whitespace"
    assert list(draft["columns"]) == ["mpg", "cylinders", "displacement", "horsepower",
                                      "weight", "acceleration", "year", "name"]
    assert "as line 1 was read" not in err  # the user gave it
    assert "8 columns, 8 of them with values read from the data, and the label classes." in err


def test_without_the_flag_the_refusal_names_whitespace(tmp_path, capsys):
    code, err, _ = _draft(tmp_path, capsys, AUTO)
    assert code == 2 and len(err.splitlines()) == 1
    assert "expected 8 fields (as in the first row), found 2" in err
    assert "Lines 1 and 2 split alike on runs of spaces and tabs (9 fields each)" in err
    assert "--separator whitespace" in err and "title" not in err


@pytest.mark.parametrize("flag,separator", [("tab", "\t"), (",", ","), (";", ";")])
def test_the_flag_is_written_into_the_draft(tmp_path, capsys, flag, separator):
    text = "a{0}b{0}origin\n1{0}2{0}1\n3{0}4{0}2\n".format(separator)
    code, err, out = _draft(tmp_path, capsys, text, "--separator", flag)
    assert code == 0, err
    assert json.loads(out.read_text())["separator"] == separator


def test_a_bad_separator_and_a_parquet_file_are_refused(tmp_path, capsys):
    assert main(["schema", "x.csv", "--out", str(tmp_path / "d.json"), "--separator",
                 ":"]) == 2
    assert "':' is not a separator" in capsys.readouterr().err
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    data = tmp_path / "t.parquet"
    pd.DataFrame({"a": [1, 2], "origin": [1, 2]}).to_parquet(data)
    assert main(["schema", str(data), "--out", str(tmp_path / "d.json"), "--separator",
                 "whitespace"]) == 2
    assert "drop --separator" in capsys.readouterr().err


def test_a_value_holding_a_space_is_named_before_a_short_header(tmp_path, capsys):
    text = ("  id   heduc   div\n   9   12-15 years   No\n  11   16 years   No\n")
    data = tmp_path / "divorce.dat"
    data.write_text(text)
    assert main(["schema", str(data), "--out", str(tmp_path / "d.json")]) == 2
    err = capsys.readouterr().err
    assert "expected 3 fields (as in the first row), found 4. If a value on line 2 holds a "
    "space, quote it" in err, err
    assert err.index("holds a space") < err.index("one name short")


def test_no_header_on_a_file_with_a_header_says_so(tmp_path, capsys):
    """Red team, session 36: ``--no-header`` on a file whose line 1 is a header drafted its
    names as the label's classes without a word."""
    for text, said in (("a,b,y\n1,2,yes\n3,4,no\n5,6,yes\n", True),
                       ("1,2,yes\n3,4,no\n5,6,yes\n", False)):
        data = tmp_path / "h.csv"
        data.write_text(text)
        assert main(["schema", str(data), "--no-header", "--label", "2", "--out",
                     str(tmp_path / "d.json")]) == 0
        err = capsys.readouterr().err
        assert ("re-run without --no-header" in err) == said, err
