"""Red team, round 6 (session 25): refusals whose wording depended on rows other than the
one at fault.  Each case builds two files that differ in one data row (not the row at fault)
and checks both are refused with the same line."""

from __future__ import annotations

import gzip
import json

import pytest

from dpboost.cli import main

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "1"]


def _refusal(tmp_path, capsys, name: str, data: bytes | str, schema: dict) -> tuple[int, str]:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(schema))
    capsys.readouterr()
    code = main(["train", str(path), "--schema", str(spec), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().replace(str(path), "DATA")
    return code, err


HEADERLESS = {"names": ["c", "x", "y"], "separator": ",",
              "columns": {"c": {"type": "categorical", "categories": ["a", "b"]},
                          "x": {"type": "numeric", "lower": 0, "upper": 9}},
              "label": {"column": "y", "classes": ["no", "yes"]}}


def test_a_declared_separator_numbers_lines_whatever_line_1_holds(tmp_path, capsys):
    """Line 1 (a private row of a headerless file) that sniffs as whitespace made the error of
    row 21 name physical lines, shifted by an earlier quoted line break (22 against 21)."""
    rows = [f"a,{i % 9},{'no' if i % 2 else 'yes'}" for i in range(30)]
    rows[5] = '"p\nq",3,no'
    rows[20] = "a,zz,no"
    other = list(rows)
    other[0] = "a\t1 2 3\tb\tc,1,no"  # a valid row under "," (an undeclared category)
    a = _refusal(tmp_path, capsys, "a.csv", "\n".join(rows) + "\n", HEADERLESS)
    b = _refusal(tmp_path, capsys, "b.csv", "\n".join(other) + "\n", HEADERLESS)
    # row 21 starts on physical line 22, record line 21: the record lines of session 26 do not
    # move with row 6's quoted line break either (tests/tabular/test_record_lines.py)
    assert a == b and a[0] == 2 and "at line 21" in a[1]


def test_the_header_hint_of_a_headerless_file_reads_line_1_alone(tmp_path, capsys):
    """Line 1's undeclared label got "looks like a header row" only when line 2 held a number
    where line 1 had a word; the hint is now a function of line 1 alone."""
    rows = ["a,5,maybe", "b,3,no", *[f"a,{i % 9},yes" for i in range(20)]]
    other = list(rows)
    other[1] = "7,3,no"  # an undeclared category: a valid row
    a = _refusal(tmp_path, capsys, "a.csv", "\n".join(rows) + "\n", HEADERLESS)
    b = _refusal(tmp_path, capsys, "b.csv", "\n".join(other) + "\n", HEADERLESS)
    assert a == b and a[0] == 2 and "header" not in a[1]  # line 1 holds a number
    head = "kind,value,y\n"  # a header spelt otherwise than 'names': no number in line 1
    words = _refusal(tmp_path, capsys, "w.csv", head + "\n".join(rows[1:]) + "\n", HEADERLESS)
    assert "holds no number, as a header row" in words[1]


@pytest.mark.parametrize("header,row_a,row_b", [
    ("occupation,x,y", "a,3,no", "job,3,no"),  # "Its next line holds 'job'"
    ("0,1,note,y", "3,4,abc,no", "3,4,5,no"),  # "first line looks like data" or the names
])
def test_a_missing_column_is_explained_by_the_header_alone(tmp_path, capsys, header, row_a,
                                                          row_b):
    schema = {"columns": {"job": {"type": "categorical", "categories": ["a"]},
                          "age": {"type": "numeric", "lower": 0, "upper": 9}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    rest = "".join(f"{row_a.rsplit(',', 1)[0]},yes\n" for _ in range(10))
    a = _refusal(tmp_path, capsys, "a.csv", f"{header}\n{row_a}\n{rest}", schema)
    b = _refusal(tmp_path, capsys, "b.csv", f"{header}\n{row_b}\n{rest}", schema)
    assert a == b and a[0] == 2 and "job" not in a[1].split("(named in the schema)")[1]


def test_a_damaged_gzip_stream_gets_one_message_whatever_its_rows(tmp_path, capsys):
    """One flipped byte gave "its compressed data is damaged" for one file and "its checksum
    or length does not match" for its neighbour: the kind followed the bytes around it."""
    import random

    random.seed(1)
    rows = ["c,x,y"] + [f"{'ab'[i % 2]},{random.random() * 9:.6f},{'no' if i % 3 else 'yes'}"
                        for i in range(300)]
    other = list(rows)
    other[150] = "b,7.123456,yes"
    schema = {"columns": {"c": {"type": "categorical", "categories": ["a", "b"]},
                          "x": {"type": "numeric", "lower": 0, "upper": 9}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    seen = set()
    for offset in range(40, 1400, 97):
        pair = []
        for lines in (rows, other):
            raw = bytearray(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
            raw[offset] ^= 0xFF
            pair.append(_refusal(tmp_path, capsys, "d.csv.gz", bytes(raw), schema))
        assert pair[0] == pair[1]
        seen.add(pair[0][1])
    assert len(seen) == 1 and "damaged or truncated" in seen.pop()


@pytest.mark.parametrize("classes", ["0,1,a,inf", "0,1,a,nan", "0,1,a"])
def test_a_label_spelt_inf_is_matched_as_written_whatever_other_rows_hold(tmp_path, capsys,
                                                                          classes):
    """Red team round 7: 'inf' was refused as a non-finite number only while every label read
    as a number, so another row's valid 'a' decided train or refuse (or the message)."""
    results = []
    for last in ("1", "a"):
        path = tmp_path / f"m{last}.csv"
        path.write_text(f"a,b,label\n0.1,0.2,0\n0.3,0.4,1\n0.5,0.6,inf\n0.7,0.8,{last}\n")
        capsys.readouterr()
        code = main(["train", str(path), "--classes", classes, *TRAIN,
                     "--out", str(tmp_path / "m.json")])
        err = capsys.readouterr().err.strip().replace(str(path), "DATA")
        results.append((code, err.splitlines()[-1] if code else ""))
    assert results[0] == results[1]
    assert results[0][0] == (0 if "inf" in classes else 2)  # inf is a class only there


def test_the_totals_hint_splits_by_the_declared_separator(tmp_path, capsys):
    """Red team round 7: the totals-row hint split lines by line 1's sniffed separator, so a
    headerless file's line 1 (a private row) decided whether the hint was given."""
    schema = {"names": ["job", "a", "y"], "separator": ";",
              "columns": {"job": {"type": "categorical", "categories": ["clerk", "sales"]},
                          "a": {"type": "numeric", "lower": 0, "upper": 1}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    body = "sales;0.2;yes\nclerk;0.9;no\nTotal;3;\n"
    a = _refusal(tmp_path, capsys, "a.csv", "clerk;0.5;no\n" + body, schema)
    b = _refusal(tmp_path, capsys, "b.csv", "a,b,c;0.5;no\n" + body, schema)
    assert a == b and "looks like a totals row" in a[1]


def test_a_label_only_schema_reads_labels_with_its_decimal_comma(tmp_path, capsys):
    schema = {"label": {"column": "label", "classes": [0, 1]}, "decimal": ",",
              "separator": ";"}
    rows = "".join(f"0.{k % 9};0.{k % 7};{'1,0' if k % 2 else '0'}\n" for k in range(20))
    code, err = _refusal(tmp_path, capsys, "d.csv", "a;b;label\n" + rows, schema)
    assert code == 0, err
