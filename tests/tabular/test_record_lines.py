"""Refusals name the record line of the failing row, the same whatever the other rows hold.

Neighbouring files differ in one row that is NOT the refused one (red team, session 26):
a quoted line break in that row (F3), written after a separator's space (F4), moved the line
named for a later row; a headerless file's line 1 set the width line 2 was judged by (F7);
and a header row repeated by joining files was "a non-numeric value" (F8).
"""

import gzip
import json

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.readers import line_of

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]
SCHEMA = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 300},
                      "job": {"type": "drop"}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _refusal(tmp_path, capsys, text: str, *, schema=None, name="d.csv", args=()) -> str:
    """The one stderr line of ``train`` on a file holding ``text`` (always at one path)."""
    path = tmp_path / name
    data = text.encode()
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    extra = ["--label", "y", "--classes", "no,yes"]
    if schema is not None:
        (tmp_path / "s.json").write_text(json.dumps(schema))
        extra = ["--schema", str(tmp_path / "s.json")]
    code = main(["train", str(path), *extra, *TRAIN, *args,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    lines = [ln for ln in err.strip().splitlines()
             if " boosting rounds on " not in ln and "the noise dominates" not in ln]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _table(row2: str, sep: str = ",", space: str = "") -> str:
    """Header, five rows; row 2 is the neighbours' difference, row 4 the refused one."""
    s = sep + space
    rows = [f"30{s}{row2}{s}no", f"40{s}c{s}yes", f"50{s}d{s}no", f"xx{s}e{s}yes",
            f"60{s}f{s}no"]
    return f"age{s}job{s}y\n" + "\n".join(rows) + "\n"


NEIGHBOURS = ['"a\nb"', "ab", '"a\n\n\nb"', '"p, q"']


@pytest.mark.parametrize("sep, space", [(",", ""), (",", " "), (";", ""), ("\t", ""),
                                        ("|", " ")])
@pytest.mark.parametrize("schema", [None, SCHEMA])
@pytest.mark.parametrize("name", ["d.csv", "d.csv.gz"])
def test_neighbours_get_one_message_for_a_later_row(tmp_path, capsys, sep, space, schema,
                                                    name):
    """F3, F4: row 2 with and without quoted line breaks (after a space too), row 4 refused:
    one message, naming line 5 (header, then four records), the spreadsheet's row."""
    messages = {_refusal(tmp_path, capsys, _table(row2, sep, space), schema=schema, name=name)
                for row2 in NEIGHBOURS}
    assert len(messages) == 1, messages
    assert "line 5" in messages.pop()


@pytest.mark.parametrize("seed", range(6))
def test_neighbours_differing_anywhere_above_get_one_message(tmp_path, capsys, seed):
    """Random files, blank lines between rows, one earlier row replaced by a multi-line one."""
    rng = np.random.default_rng(seed)
    n, bad = 12, int(rng.integers(3, 12))
    rows = [f"{a},w{a},{'yes' if a % 2 else 'no'}" for a in rng.integers(0, 99, n)]
    rows[bad] = "oops,z,no"
    blanks = rng.integers(0, 2, n)
    other = int(rng.integers(0, bad))

    def text(rows):
        return "age, job ,y\n" + "".join("\n" * b + r + "\n" for b, r in zip(blanks, rows))

    changed = list(rows)
    changed[other] = changed[other].replace(",w", ', "multi\n\nline\n', 1).replace(
        ",yes", '",yes').replace(",no", '",no')
    first = _refusal(tmp_path, capsys, text(rows), schema=SCHEMA)
    assert first == _refusal(tmp_path, capsys, text(changed), schema=SCHEMA)
    assert f"line {2 + bad + int(blanks[:bad + 1].sum())}" in first  # header, blanks, rows


def test_line_of_counts_records_against_an_independent_count(tmp_path):
    """Each record one line, each blank line one, built alongside the file."""
    rng = np.random.default_rng(7)
    for trial in range(20):
        parts, expected, number = ["a, b, y\n"], [], 1
        for k in range(int(rng.integers(1, 15))):
            for _ in range(int(rng.integers(0, 3))):
                parts.append("\n" if rng.random() < 0.5 else "   \n")
                number += 1
            cell = rng.choice(['"x\ny"', ' "p\n\nq"', "z", ' "m, n"', ""])
            parts.append(f"{k},{cell},no\n")
            number += 1
            expected.append(number)
        path = tmp_path / f"r{trial}.csv"
        path.write_text("".join(parts), newline="")
        assert [line_of(path, k, header=True) for k in range(len(expected))] == expected
        assert line_of(path, len(expected), header=True) is None


def test_a_field_count_error_below_a_multiline_value_names_the_record_line(tmp_path,
                                                                           capsys):
    """pyarrow's 'expected 3 columns' error, both neighbours: the same record line."""
    texts = [_table(row2).replace("60,f,no", "60,f,no,7") for row2 in NEIGHBOURS]
    messages = {_refusal(tmp_path, capsys, t, schema=SCHEMA) for t in texts}
    assert messages == {f"dpboost train: error: {tmp_path / 'd.csv'}, line 6: expected 3 "
                        "fields (as in the first row), found 4. If line 6 is a note or a "
                        "total below the table, delete it."}


NAMES = {**SCHEMA, "names": ["age", "job", "y"]}


@pytest.mark.parametrize("first, hint", [("30,a,no,7", "field is empty"),
                                         ("#30,a,no,7", "starts with '#'")])
def test_declared_names_judge_line_1_alone(tmp_path, capsys, first, hint):
    """F7: a headerless file's line 1, a private row, one field too many: line 1 is named
    against the declared names, never line 2 against line 1."""
    first = first.replace(",7", ",") if hint == "field is empty" else first
    line = _refusal(tmp_path, capsys, first + "\n40,c,yes\n50,d,no\n", schema=NAMES)
    assert "(line 1) but the schema's 'names' lists 3" in line and hint in line
    assert "line 2" not in line


@pytest.mark.parametrize("first", ["30,a,no", "31,bb,yes", '32, "x, y", no', "33,,no"])
def test_declared_names_judge_line_2_alone(tmp_path, capsys, first):
    """F7: line 2 one field too many: one message whatever line 1 holds."""
    line = _refusal(tmp_path, capsys, first + "\n40,c,yes,7\n50,d,no\n", schema=NAMES)
    assert line.endswith(", line 2: expected 3 fields (as in the first row), found 4.")


@pytest.mark.parametrize("bom", ["", "\ufeff"])
@pytest.mark.parametrize("schema", [None, SCHEMA])
def test_joined_gzip_streams_name_the_repeated_header(tmp_path, capsys, bom, schema):
    """F8: ``cat a.csv.gz b.csv.gz``, each with its header (and a byte-order mark)."""
    part = bom + "age,job,y\n" + "".join(f"{a},j,{'yes' if a % 2 else 'no'}\n"
                                         for a in range(20))
    path = tmp_path / "j.csv.gz"
    path.write_bytes(gzip.compress(part.encode()) + gzip.compress(part.encode()))
    extra = (["--label", "y", "--classes", "no,yes"] if schema is None else
             ["--schema", str(tmp_path / "s.json")])
    (tmp_path / "s.json").write_text(json.dumps(SCHEMA))
    code = main(["train", str(path), *extra, *TRAIN, "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1] == (f"dpboost train: error: {path}: line 22 repeats the "
                                     "header row (files joined together?): delete it.")


def test_plain_joined_files_without_a_schema_name_the_repeated_header(tmp_path, capsys):
    line = _refusal(tmp_path, capsys, _table("ab").replace("xx", "70") + _table("ab"))
    assert line.endswith("line 7 repeats the header row (files joined together?): delete it.")


@pytest.mark.parametrize("sep", [",", "; "])
def test_predict_notes_number_record_lines(tmp_path, sep):
    """The blank line between records and the totals row below the table that ``predict``
    names: the same record line whether a row above holds a quoted line break."""
    from dpboost.csv_errors import blank_lines_between, last_totals_line

    found = set()
    for cell in ['"a\n\nb"', "ab"]:
        path = tmp_path / "p.csv"
        path.write_text(f"x{sep}y\n{cell}{sep}1\n\n2{sep}no\nTotal{sep}3\n")
        found.add((blank_lines_between(path), last_totals_line(path)))
    assert found == {((1, 3), 5)}


def test_an_unclosed_quote_is_named_on_its_own_line(tmp_path, capsys):
    # user trial, session 26: the hint blamed line 1 ("a title or a note")
    from dpboost.cli import main

    schema = tmp_path / "s.json"
    schema.write_text('{"separator": ";", "columns": {"age": {"type": "numeric", "lower": 0, '
                      '"upper": 100}, "city": {"type": "categorical", "categories": '
                      '["Munich", "Berlin"]}}, "label": {"column": "y", "classes": ["no", '
                      '"yes"]}}')
    data = tmp_path / "u.csv"
    data.write_text('age;city;y\n30;"Munich;yes\n40;Berlin;no\n50;Berlin;yes\n')
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert "Line 2 opens a quote" in err and "title or a note" not in err


@pytest.mark.parametrize("declared", [False, True])
@pytest.mark.parametrize("gz", [False, True])
def test_text_that_is_not_utf8_is_named_by_its_record_line(tmp_path, capsys, declared, gz):
    # session 26: "is not UTF-8 text (line 203)" beside "(line 202)" when another row held a
    # quoted line break
    from dpboost.cli import main

    schema = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                          "job": {"type": "categorical", "categories": ["a", "b"]}},
              "label": {"column": "y", "classes": ["no", "yes"]},
              **({"separator": ","} if declared else {})}
    (tmp_path / "s.json").write_text(json.dumps(schema))
    rows = [f"{20 + i % 50},a,{'yes' if i % 2 else 'no'}".encode() for i in range(300)]
    rows[200] = b"44,b\xe9,no"
    errors = []
    for name, third in (("p", b"33,a,no"), ("q", b'33,"a\nb",no')):
        changed = list(rows)
        changed[2] = third
        data = b"age,job,y\n" + b"\n".join(changed) + b"\n"
        path = tmp_path / (name + (".csv.gz" if gz else ".csv"))
        path.write_bytes(gzip.compress(data) if gz else data)
        assert main(["train", str(path), "--schema", str(tmp_path / "s.json"),
                     "--target-epsilon", "1", "--target-delta", "1e-6",
                     "--out", str(tmp_path / "m.json")]) == 2
        errors.append(capsys.readouterr().err.replace(path.name, "F"))
    assert errors[0] == errors[1] and "is not UTF-8 text (line 202)" in errors[0]
