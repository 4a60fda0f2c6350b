"""A whitespace-separated file reads under ``--workers`` as in memory, row by row.

Red team (session 25): with ``"separator": "whitespace"`` the block check of ``--workers``
split each line with ``str.split()``, so a row ``63 "sales x" 59 yes`` (a quoted value holding
a space, one field in memory) was refused as five fields while the in-memory reader trained
it; ``str.splitlines()`` also cut lines at form feeds and vertical tabs.  Both readers now call
one rule (:func:`dpboost.pandas_csv.whitespace_fault`) on lines cut alike.  A quote left open
at a line's end (``63 "sales 59 yes``) made pandas read the next lines into that value, in
memory (one row changed others) and otherwise again across the blocks of ``--workers``: both
readers refuse it, naming its line.
"""

from __future__ import annotations

import io
import json
import random
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli._csv_rows import ShortRowError, block_ok
from dpboost.cli._distributed import read_encoded
from dpboost.pandas_csv import open_quote, whitespace_fault, whitespace_fields
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder

pytest.importorskip("dask.dataframe")

SPEC = {"names": ["amt", "job", "score", "bought"], "separator": "whitespace",
        "columns": {"amt": {"type": "numeric", "lower": 0, "upper": 100},
                    "job": {"type": "categorical", "categories": ["clerk", "sales x", "eng"]},
                    "score": {"type": "numeric", "lower": 0, "upper": 100}},
        "label": {"column": "bought", "classes": ["no", "yes"]}}
SCHEMA = Schema.from_dict(SPEC)
SCHEMA_WIDTH = TabularEncoder(SCHEMA).fit().n_features_out_
JOBS = ["clerk", "eng", '"sales x"', '"eng"', '"sales  x"', '"sales\tx"']
GAPS = [" ", "  ", "\t", " \t "]
ENDS = ["", "\f", "\v", "\r", "\xa0", " ", "\u3000", "\x1c"]  # "\r" then "\n": a CRLF end


def _row(rng: random.Random, odd: bool) -> str:
    cells = [str(rng.randint(0, 100)), rng.choice(JOBS) if odd else rng.choice(JOBS[:2]),
             str(rng.randint(0, 100)), rng.choice(["no", "yes"])]
    line = cells[0]
    for cell in cells[1:]:
        line += (rng.choice(GAPS) if odd else " ") + cell
    return line + (rng.choice(ENDS) if odd else "")


def _write(path, rows: list[str]):
    path.write_bytes(("\n".join(rows) + "\n").encode())
    return path


def _in_memory(path):
    frame = read_table(path, names=SCHEMA.names, separator="whitespace",
                       na_values=SCHEMA.na_values, text_columns=SCHEMA.text_columns)
    enc = TabularEncoder(SCHEMA).fit()
    return enc.transform(frame), enc.encode_labels(frame["bought"])


def _workers(path):
    X, y, _ = read_encoded(str(path), SCHEMA, dtype=np.float64, blocksize=2_000, spool=False)
    assert X.numblocks[0] > 1  # several blocks: the rows are cut as the workers cut them
    return X.compute(), y.compute()


def test_open_quote_is_the_rule_of_pandas_tokenizer():
    """Compared with pandas itself over random lines: a line leaves a quote open exactly when
    pandas reads the next line into one of its values (or runs to the end of the file)."""
    rng = random.Random(25)
    seen = {True: 0, False: 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(1500):
            line = "".join(rng.choice('ab "\t\f') for _ in range(rng.randint(1, 9)))
            if not line.strip(" \t"):
                continue  # a blank line: pandas skips it
            try:
                frame = pd.read_csv(io.StringIO(line + "\nzz zz\n"), sep=r"\s+", header=None,
                                    names=list(range(12)), dtype=str, keep_default_na=False)
                spans = len(frame) < 2 or any("\n" in v for v in frame.iloc[0])
            except (pd.errors.ParserError, ValueError):  # EOF inside a quoted value
                spans = True
            assert open_quote(line) == spans, repr(line)
            seen[spans] += 1
    assert min(seen.values()) > 150  # both kinds of line were drawn


def test_the_count_of_a_line_is_pandas_count():
    """Over random lines of letters, quotes, spaces, tabs, form feeds, vertical tabs and
    no-break spaces (no quote left open, no empty tab field), :func:`whitespace_fault` passes
    a line only at the width pandas reads (the position of a field ``END`` appended to the
    line), and there exactly when :func:`whitespace_fields` counts that width too."""
    rng = random.Random(11)
    passed = 0
    for _ in range(800):
        line = "".join(rng.choice('ab "\t\f\v\xa0') for _ in range(rng.randint(1, 10)))
        if not line.strip(" \t") or open_quote(line) or whitespace_fault(line, 99) == "tab":
            continue
        frame = pd.read_csv(io.StringIO(line + " END\n"), sep=r"\s+", header=None,
                            names=list(range(14)), dtype=str, keep_default_na=False)
        width = list(frame.iloc[0]).index("END")
        ok = [w for w in range(12) if whitespace_fault(line, w) is None]
        assert ok == ([width] if len(whitespace_fields(line)) == width else []), repr(line)
        passed += bool(ok)
    assert passed > 200


def test_whitespace_fields_without_quotes_is_str_split():
    """The fast path of :func:`whitespace_fields` (``str.split``) is its regex: the same
    blank characters (form feed, vertical tab, no-break space, U+3000, U+001C...)."""
    rng = random.Random(3)
    chars = "ab \t\f\v\r\x1c\x1f\x85\xa0\u2028\u3000\u200b\ufeff"
    for _ in range(20_000):
        line = "".join(rng.choice(chars) for _ in range(rng.randint(0, 10)))
        assert whitespace_fields(line) == re.findall(r'(?:"[^"]*"|[^\s"])+', line)


@pytest.mark.parametrize("seed", range(6))
def test_the_block_check_refuses_the_lines_the_in_memory_reader_refuses(tmp_path, seed):
    """Line by line over random rows, odd and plain, with a header skipped: the block check
    refuses a block exactly when the in-memory reader refuses one of its lines."""
    rng = random.Random(seed)
    for k in range(40):
        rows = [_row(rng, False) for _ in range(5)]
        odd = rng.choice([_row(rng, True), '63 "sales 59 yes', "63\t\tclerk 59 yes",
                          '5\'10" clerk 59 yes', "63 clerk\f59 yes", "\f", "63\rclerk 59 yes"])
        rows.insert(rng.randint(0, 5), odd)
        path = _write(tmp_path / f"f{k}.txt", ["amt job score bought", *rows])
        try:
            read_table(path, separator="whitespace", text_columns=["job", "bought"])
            memory = True
        except ValueError:
            memory = False
        try:
            workers = block_ok(path.read_bytes(), None, 4, 1)
        except ShortRowError:
            workers = False
        faults = [whitespace_fault(line, 4) for line in io.StringIO(odd + "\n", newline="")]
        assert workers == all(f is None for f in faults), repr(odd)
        if not workers:  # what the block check refuses, the in-memory reader refuses
            assert not memory, repr(odd)


@pytest.mark.parametrize("seed", range(4))
def test_odd_rows_encode_as_in_memory_under_workers(tmp_path, client, seed):
    """Quoted values holding spaces or tabs, tabs between fields, trailing form feeds,
    vertical tabs, carriage returns and no-break spaces: the same X and y in both readers."""
    rng = random.Random(100 + seed)
    rows = [_row(rng, rng.random() < 0.3) for _ in range(300)]
    assert sum('"' in r for r in rows) > 10 and sum(r[-1:] in "\f\v\r\xa0" for r in rows) > 5
    path = _write(tmp_path / "d.txt", rows)
    X, y = _in_memory(path)
    X_w, y_w = _workers(path)
    assert X.shape == (300, SCHEMA_WIDTH) and len(y) == 300
    np.testing.assert_array_equal(X_w, X)
    np.testing.assert_array_equal(y_w, y)
    sales = X[:, 2]  # the one-hot cell of "sales x": quoted rows read as that category
    assert (sales > 0).sum() == sum('"sales x"' in r for r in rows) > 0


def _said(exc: ValueError) -> str:
    """The error without the file and where the width comes from (the in-memory reader says
    "as in the first row" of a schema's names too)."""
    return re.sub(r" \((as in the first row|the schema's names)\)", "", str(exc).split(", ", 1)[1])


@pytest.mark.parametrize("odd", ['63 "sales 59 yes', "63\tclerk 59 yes\t", "63 clerk 59",
                                 "63 clerk 59 yes no", '63 x"sales x" 59 yes', "63 clerk\f59 yes",
                                 "\f", '63 "sales x"\f59 yes', "63 \v clerk 59 yes"])
def test_a_refused_row_is_refused_by_both_at_its_line(tmp_path, client, odd):
    """Rows that one count or pandas' own reading splits otherwise than the schema's width
    (a form feed separates for ``str.split`` and not for pandas), a quote left open, an empty
    tab field: both readers refuse the file, naming the row's line, in the same words."""
    rng = random.Random(5)
    rows = [_row(rng, False) for _ in range(200)]
    rows.insert(150, odd)
    rows.insert(170, '12 "sales x" 40 no')  # a later quote, that an open one would pair with
    path = _write(tmp_path / "d.txt", rows)
    with pytest.raises(ValueError) as memory:
        _in_memory(path)
    with pytest.raises(ValueError) as workers:
        _workers(path)
    assert _said(memory.value).startswith("line 151: ")
    assert _said(memory.value) == _said(workers.value)


def _train(data, schema, out, *workers):
    return main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--n-rounds", "3", "--seed", "0", "--out",
                 str(out), *workers])


@pytest.mark.slow
def test_train_with_and_without_workers_agree_on_neighbours(tmp_path, capsys):
    """The red team's rows through the command line: a quoted value holding a space and a
    trailing form feed train in both readers with the same number of rows; a quote left open
    is refused by both, in one identical line."""
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SPEC))
    rng = random.Random(9)
    base = [_row(rng, False) for _ in range(200)]
    for name, odd, code in (("quoted", '63 "sales x" 59 yes', 0), ("ff", "63 clerk 59 yes\f", 0),
                            ("open", '63 "sales 59 yes', 2)):
        data = _write(tmp_path / f"{name}.txt", [*base[:100], odd, *base[100:]])
        errors = []
        for run, workers in (("m", ()), ("w", ("--workers", "2"))):
            out = tmp_path / f"{name}-{run}.json"
            assert _train(data, schema, out, *workers) == code, (name, run)
            err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
            errors.append(err)
            if code == 0:
                assert json.loads(out.read_text())["privacy_report"]["n_samples"] == 201
            else:
                assert len(err) == 1 and "line 101: a double quote" in err[0], err
                assert not out.exists()
        assert errors[0] == errors[1]
