"""Red team, session 26, second round: neighbouring files (one row apart, not the refused one)
get the same outcome and the same message.

* a quote after spaces at a line's start (``  "yes",30``) was read with its quotes by pyarrow
  and without them by pandas, and another row's ``, "x"`` chose pandas;
* the pandas reader's width error named the physical line;
* a line of a form feed, or ``""``, was blank to the line numbering and a row to the readers;
* a later non-number hid an earlier infinity.
"""

from __future__ import annotations

import json

import pytest

from dpboost.cli import main

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]
NUMERIC = {"columns": {"x1": {"type": "numeric", "lower": 0, "upper": 10},
                       "x2": {"type": "numeric", "lower": 0, "upper": 10}},
           "label": {"column": "y", "classes": [0, 1]}}


def _outcomes(tmp_path, capsys, schema, texts, workers=False):
    (tmp_path / "s.json").write_text(json.dumps(schema))
    out = []
    for k, text in enumerate(texts):
        path = tmp_path / f"f{k}.csv"
        path.write_bytes(text.encode())
        code = main(["train", str(path), "--schema", str(tmp_path / "s.json"), *TRAIN,
                     *(["--workers", "1"] if workers else []),
                     "--out", str(tmp_path / f"m{k}.json")])
        captured = capsys.readouterr()
        err = "\n".join(line for line in captured.err.splitlines()
                        if " boosting rounds on " not in line)
        out.append((code, err.replace(path.name, "F.csv")))
    return out


def test_a_quote_after_spaces_at_a_line_start_reads_alike(tmp_path, capsys):
    schema = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 100}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    rows = [f"{'yes' if i % 2 else 'no'},{30 + i % 40}" for i in range(200)]
    rows[0] = '  "yes",30'
    other = list(rows)
    other[-1] = 'no, "60"'
    first, second = _outcomes(tmp_path, capsys, schema,
                              ["y,x\n" + "\n".join(r) + "\n" for r in (rows, other)])
    assert first == second and first[0] == 0  # both read "yes" (before: refused / trained)


def test_the_spaced_reader_names_record_lines(tmp_path, capsys):
    schema = {"columns": {"x": {"type": "numeric", "lower": 0, "upper": 10},
                          "job": {"type": "categorical", "categories": ["a", "c"]}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    texts = ['x,job,y\n1, "a\nb",no\n2,c,yes\n3,c\n4,c,no\n',
             'x,job,y\n1, "a b",no\n2,c,yes\n3,c\n4,c,no\n']
    first, second = _outcomes(tmp_path, capsys, schema, texts)
    assert first == second and first[0] == 2 and "line 4" in first[1]


@pytest.mark.parametrize("odd", ["\f", '""', "\v", "\u00a0"])
def test_a_line_of_a_form_feed_or_empty_quotes_is_a_row_for_every_count(tmp_path, capsys,
                                                                         odd):
    base = f"x1,x2,y\n1,2,0\n{odd}\n4,5,1\n"
    outcomes = _outcomes(tmp_path, capsys, NUMERIC,
                         [base + "6,7,0\n", base + "6,7\n", base + '6, "7",0\n'])
    assert outcomes[0][0] == 2
    assert all("line 3" in err for _, err in outcomes)  # the odd line, whatever follows
    assert outcomes[0][1] == outcomes[2][1]


def test_an_earlier_infinity_is_named_before_a_later_non_number(tmp_path, capsys):
    body = "".join(f"{i % 9},{(i * 7) % 9},{i % 2}\n" for i in range(20))
    texts = ["x1,x2,y\ninf,2,0\n" + body + "7,8,0\n", "x1,x2,y\ninf,2,0\n" + body + "zz,8,0\n"]
    first, second = _outcomes(tmp_path, capsys, NUMERIC, texts)
    assert first == second and "line 2 is infinite" in first[1]
