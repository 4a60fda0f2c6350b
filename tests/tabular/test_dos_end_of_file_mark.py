"""A CSV ending in the DOS end-of-file mark ``\\x1a`` (red team, session 34): the last line's
refusal said to delete it "if it is a note or a total below the table", a line most editors
show empty.  It now names the control character, in memory, with ``--workers`` and in
``predict`` (the same function words every reader's field-count error)."""

import json

import pytest

from dpboost.cli import main
from dpboost.csv_errors import field_count_error

ROWS = "".join(f"{i % 7},{'yes' if i % 3 else 'no'}\n" for i in range(60))


@pytest.mark.parametrize("tail, marks", [("\x1a", "\\x1a"), ("\x1a\x00", "\\x00, \\x1a")])
def test_the_mark_is_named(tmp_path, tail, marks):
    path = tmp_path / "f.csv"
    path.write_bytes(("a,y\n" + ROWS + tail).encode())
    message = str(field_count_error(path, 62, 2, 1, whitespace=False, last=True))
    assert f"holds only the control character{'s' if ',' in marks else ''} {marks} " in message
    assert "note or a total" not in message
    (tmp_path / "g.csv").write_text("a,y\n" + ROWS + "Total\n")
    other = str(field_count_error(tmp_path / "g.csv", 62, 2, 1, whitespace=False, last=True))
    assert other.endswith("If line 62 is a note or a total below the table, delete it.")


def test_train_and_predict_name_it(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_bytes(("a,y\n" + ROWS + "\x1a").encode())
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"a": {"type": "numeric", "lower": 0, "upper": 6}},
                                  "label": {"column": "y", "classes": ["no", "yes"]}}))
    assert main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Line 62 holds only the control character \\x1a" in err[0], err
    clean = tmp_path / "clean.csv"
    clean.write_text("a,y\n" + ROWS)
    assert main(["train", str(clean), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(path),
                 "--out", str(tmp_path / "p.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Line 62 holds only the control character \\x1a" in err[0], err
