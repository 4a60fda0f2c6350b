"""A schema's declared ``"separator"`` that does not split the file is named as the cause.

Red team s33 R1, finding 4: a comma file under ``"separator": ";"`` (or the reverse) was told
"the separator is taken from the first line and must be a comma, semicolon, ...", the rule for
a file without a declaration, which it did not follow and which named no remedy.  Now the
line says the schema's separator splits every line and to correct it, in memory and with
``--workers`` alike.
"""

from __future__ import annotations

from _refusal_cases import ledger_train_argv, refusal_lines

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1},
                      "b": {"type": "categorical", "categories": ["u", "v"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def test_a_declared_separator_that_does_not_split_the_file_is_named(tmp_path, client, capsys):
    for declared, used in ((";", ","), (",", ";")):
        data = tmp_path / f"d{used}.csv"
        data.write_text(used.join("aby") + "\n" + "".join(
            used.join([f"0.{k % 10}", "uv"[k % 2], ("no", "yes")[k % 3 == 0]]) + "\n"
            for k in range(60)))
        argv, ledger = ledger_train_argv(tmp_path, data, {**SCHEMA, "separator": declared})
        (line,), _ = refusal_lines(argv, client, capsys, ledger)
        assert f"with the schema's \"separator\" {declared!r}" in line, line
        assert "taken from the first line and must be" not in line
        (tmp_path / "ledger.json").unlink()
