"""A label holding a control character (a NUL or a stray tab inside it, session 34's note): the
refusal said only that the label "is not one of the schema's classes", of a cell an editor shows
as ``yes``.  It now names the character, in memory, with ``--workers`` and in ``predict
--label``; so does a numeric cell's "not a number" (red team, session 35)."""

import json

import pytest

from dpboost.cli import main

ROWS = "".join(f"{i % 7},{'yes' if i % 3 else 'no'}\n" for i in range(60))
SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 6}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _files(tmp_path, cell):
    path = tmp_path / "f.csv"
    path.write_bytes(("a,y\n" + ROWS + f"3,{cell}\n" + ROWS).encode())
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    return path, schema


def _train(path, schema, out, *extra):
    return main(["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(out), *extra])


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
@pytest.mark.parametrize("cell, shown", [("yes\x00", "'\\x00'"), ("n\x00o", "'\\x00'"),
                                         ("ye\x08s", "'\\x08'"), ("no\x7f", "'\\x7f'")])
def test_train_names_the_control_character(tmp_path, capsys, cell, shown, workers):
    path, schema = _files(tmp_path, cell)
    assert _train(path, schema, tmp_path / "m.json", *workers) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "The label at line 62 is not one of the schema's classes" in err[0], err
    assert f"it holds the control character {shown}" in err[0], err


def test_predict_with_the_label_names_it_and_a_plain_typo_does_not(tmp_path, capsys):
    path, schema = _files(tmp_path, "yes\x00")
    clean = tmp_path / "clean.csv"
    clean.write_text("a,y\n" + ROWS)
    assert _train(clean, schema, tmp_path / "m.json") == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(tmp_path / "m.json"), str(path), "--label", "y",
                 "--out", str(tmp_path / "p.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "control character '\\x00'" in err[0], err
    typo, _ = _files(tmp_path, "yse")
    assert _train(typo, schema, tmp_path / "m2.json") == 2
    err = capsys.readouterr().err
    assert "not one of the schema's classes" in err and "control character" not in err


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
@pytest.mark.parametrize("cell", ["3\x00", "\x003.5", "1\x1b2"])
def test_a_numeric_cell_names_the_control_character(tmp_path, capsys, cell, workers):
    path = tmp_path / "f.csv"
    path.write_bytes(("a,y\n" + ROWS + f"{cell},no\n" + ROWS).encode())
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    assert _train(path, schema, tmp_path / "m.json", *workers) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Column 'a' is declared numeric but the cell at line 62 is not a number; it holds " \
           "the control character" in err[0], err
