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


def test_a_ledger_over_its_target_says_so(tmp_path, capsys):
    """Red team, session 36: a ledger already over its target (spends edited in by hand)
    showed only "remaining 0.000000"."""
    path = tmp_path / "l.json"
    path.write_text(json.dumps({
        "format": "dpboost-budget-ledger", "version": 1, "target_epsilon": 1.0,
        "target_delta": 1e-6, "spends": [{"timestamp": "t", "label": "by hand", "event": {
            "type": "GaussianEvent", "noise_multiplier": 1.0}}]}))
    assert main(["budget", "show", str(path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "remaining 0.000000 of 1; OVER the target by " in last, last
    path.write_text(path.read_text().replace('"noise_multiplier": 1.0', '"noise_multiplier": 90'))
    assert main(["budget", "show", str(path)]) == 0
    assert "OVER" not in capsys.readouterr().out


def test_curves_needs_a_noise_free_cell_before_it_runs(tmp_path, capsys):
    """Red team, session 36: ``curves --noise-rates 0.5`` ran the whole grid, wrote its CSV,
    then exited 2 with "no noise-free cell"."""
    out = tmp_path / "c"
    assert main(["curves", "--out", str(out), "--noise-rates", "0.5"]) == 2
    assert "--noise-rates must include 0" in capsys.readouterr().err
    assert not out.exists()
