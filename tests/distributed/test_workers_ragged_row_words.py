"""A row of the wrong width is worded alike in memory and under ``--workers`` (red team,
session 28, findings 3 and F4): the block reader never asked whether a last line was a note
below the table, and said "(the schema's names)" of a headerless file where memory says
"(as in the first row)"; memory asked about an unclosed quote running to the file's end, which
every reader now refuses before (its hint also fired on a literal ``p"``)."""

from __future__ import annotations

import random

import pytest

from _refusal_cases import ledger_train_argv, refusal_lines

COLUMNS = {"a": {"type": "numeric", "lower": 0, "upper": 100},
           "b": {"type": "categorical", "categories": ["x", "y", "z"]}}
SCHEMA = {"columns": COLUMNS, "label": {"column": "label", "classes": ["no", "yes"]}}
HEADERLESS = {**SCHEMA, "names": ["a", "b", "label"]}


def _rows(n: int, spaced: bool = False) -> list[str]:
    rng = random.Random(3)
    sep = ", " if spaced else ","
    return [sep.join([str(rng.randint(0, 100)), rng.choice(["x", '"y"', "z"]),
                      rng.choice(["yes", "no"])]) for _ in range(n)]


CASES = {  # (schema, file text, the line named, whether asked about a note below the table)
    "note below": (SCHEMA, "a,b,label\n" + "\n".join(_rows(900)) + "\nSource: a survey\n\n",
                   902, True),
    "note below, spaced quotes": (SCHEMA, "a,b,label\n" + "\n".join(_rows(900, True))
                                  + "\nSource: a survey\n", 902, True),
    "short row inside": (SCHEMA, "a,b,label\n" + "\n".join(_rows(600) + ["7,x"] + _rows(300))
                         + "\n", 602, False),
    "headerless, long row": (HEADERLESS, "\n".join(_rows(600) + ['7,x,p",no'] + _rows(300))
                             + "\n", 601, False),
    "literal quote, short row": (SCHEMA, "a,b,label\n" + "\n".join(_rows(600) + ['7,p"']
                                                                   + _rows(300)) + "\n",
                                 602, False),
}


@pytest.mark.parametrize("spool", [True, False], ids=["spool", "no-spool"])
@pytest.mark.parametrize("case", CASES)
def test_a_row_of_the_wrong_width_is_worded_alike(tmp_path, client, capsys, case, spool):
    schema, text, line, below = CASES[case]
    path = tmp_path / "d.csv"
    path.write_text(text)
    argv, ledger = ledger_train_argv(tmp_path, path, schema)
    message = refusal_lines(argv, client, capsys, ledger, spool=spool)[1][0]
    assert f"{path}, line {line}: expected 3 fields (as in the first row), found " in message
    assert message.endswith(f" If line {line} is a note or a total below the table, delete it."
                            if below else ".")
    assert "quote" not in message
