"""``budget show`` escapes a note's control characters, and ``budget spend`` refuses an empty
note (red team, session 36: a line break broke the table, an ANSI escape recoloured the
terminal, and a blank ``--note`` was taken although the flag is required)."""

from __future__ import annotations

import json

from dpboost.cli import main


def test_control_characters_are_escaped_and_kept_in_the_file(tmp_path, capsys):
    path = tmp_path / "l.json"
    assert main(["budget", "init", str(path), "--target-epsilon", "3",
                 "--target-delta", "1e-6"]) == 0
    note = "two\nlines \x1b[31mred\x07"
    assert main(["budget", "spend", str(path), "--noise-multiplier", "30", "--n-rounds", "5",
                 "--note", note]) == 0
    capsys.readouterr()
    assert main(["budget", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "two\\nlines \\x1b[31mred\\x07" in out and "\x1b" not in out and "\x07" not in out
    assert len(out.splitlines()) == 4  # the head, the column names, one spend, the total
    assert json.loads(path.read_text())["spends"][0]["label"] == note
    assert main(["budget", "show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["spends"][0]["label"] == note


def test_an_empty_note_is_refused_and_nothing_spent(tmp_path, capsys):
    path = tmp_path / "l.json"
    assert main(["budget", "init", str(path), "--target-epsilon", "3",
                 "--target-delta", "1e-6"]) == 0
    before = path.read_bytes()
    for note in ("", "   "):
        assert main(["budget", "spend", str(path), "--noise-multiplier", "30", "--n-rounds",
                     "5", "--note", note]) == 2
        assert "--note is empty" in capsys.readouterr().err
    assert path.read_bytes() == before
