"""Session 23: messages a user trial found confusing.

Each test reproduces one of the trial's files in ``tmp_path`` (the trial's own files were a
spreadsheet export, a hand-written schema and a model trained on them) and checks the one
line the command prints: which side of an NFC/NFD mismatch is decomposed, ...
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from dpboost.cli import main

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6"]
COMPOSED = "\u00c2ge"  # 'Âge' as one code point (NFC)
DECOMPOSED = "A\u0302ge"  # 'A' and a combining circumflex (NFD)


def _write(path, content):
    path.write_text(content if isinstance(content, str) else json.dumps(content),
                    encoding="utf-8")
    return path


def _rows(n: int = 20) -> str:
    return "".join(f"{i % 90},{'yes' if i % 2 else 'no'}\n" for i in range(n))


# -- an NFC/NFD mismatch names the side that is decomposed ----------------------------------
@pytest.mark.parametrize("in_file, in_schema, blamed", [
    (COMPOSED, DECOMPOSED, "The schema writes it with its accents decomposed"),
    (DECOMPOSED, COMPOSED, "The file writes it with its accents decomposed"),
])
def test_the_accent_hint_blames_the_decomposed_side(tmp_path, one_line_error, in_file,
                                                    in_schema, blamed):
    """The trial's file was NFC and its schema NFD, yet the hint said the file was decomposed
    and told the user to write the schema's key as the schema already did."""
    assert unicodedata.is_normalized("NFC", COMPOSED)
    assert not unicodedata.is_normalized("NFC", DECOMPOSED)
    data = _write(tmp_path / "d.csv", f"{in_file},y\n" + _rows())
    schema = _write(tmp_path / "s.json", {
        "columns": {in_schema: {"type": "numeric", "lower": 0, "upper": 120}},
        "label": {"column": "y", "classes": ["no", "yes"]}})
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, blamed, json.dumps(in_file))  # the file's spelling, escaped
    other = ("The file writes" if blamed.startswith("The schema") else "The schema writes")
    assert other not in line
    assert not (tmp_path / "m.json").exists()
