"""Session 24's raw-file user trial: accounting negatives, negative-number hints, damaged gzip
streams, and the split example on a gzip file.

* A draft declared ``"prefix": ["$", "($"], "suffix": ")"`` for a column of ``$11,650.14`` and
  ``($11,650.14)``, so 409 of 4,000 negative balances were read as positive (held-out accuracy
  0.691 against 0.793 with a correct schema), silently; a hand-written ``"prefix": "("`` did
  the same.  Parentheses around a number are now its minus sign, as a spreadsheet reads them.
* ``45.00-`` (SAP) and ``−5%`` under a declared prefix were told to declare another symbol.
* A damaged gzip stream was an internal error (``zlib.error``) or ``CRC check failed``
  without the file's name.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.number_symbols import detect_symbols, strip_symbols
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0", "--n-rounds", "5"]
ROOT = Path(__file__).resolve().parents[2]


def _decode(cells, **column) -> np.ndarray:
    """The numbers the encoder read (declared range [-2000, 2000], block 0 of 2)."""
    encoder = TabularEncoder({"thousands": ",", "columns": {
        "x": {"type": "numeric", "lower": -2000, "upper": 2000, **column}}})
    z = encoder.fit_transform(pd.DataFrame({"x": cells}, dtype=object))[:, 0]
    return (z * np.sqrt(2) / (1 - 1e-12) + 1) / 2 * 4000 - 2000


def test_accounting_parentheses_are_a_minus_sign_over_many_numbers():
    rng = np.random.default_rng(0)
    values = np.round(rng.uniform(0, 1999, 300), 2)
    forms = [("({:,.2f})", {}), ("(${:,.2f})", {"prefix": "$"}), ("$({:,.2f})", {"prefix": "$"}),
             ("({:.1f}%)", {"suffix": "%"}), ("( {:.2f} )", {})]
    for form, column in forms:
        cells = [form.format(v) for v in values]
        written = [float(f"{v:.1f}" if "%" in form else f"{v:.2f}") for v in values]
        np.testing.assert_allclose(_decode(cells, **column), -np.array(written), atol=1e-6)


@pytest.mark.parametrize("cell", ["-(5)", "(-5)", "((5))", "(5", "5)", "(a)"])
def test_other_parentheses_stay_errors(cell):
    with pytest.raises(BadValueError, match="not a number"):
        _decode(["1", cell])


@pytest.mark.parametrize("key", ["prefix", "suffix"])
@pytest.mark.parametrize("symbol", ["(", ")", "($", "$("])
def test_a_parenthesis_is_not_a_symbol(key, symbol):
    with pytest.raises(ValueError, match=r"Parentheses around a number are read as its minus"):
        Schema.from_dict({"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1,
                                            key: symbol}}})


def test_the_draft_declares_the_currency_not_the_parentheses(tmp_path):
    number = (lambda t: t.replace(",", "").replace(".", "", 1).lstrip("-").isdigit())
    assert detect_symbols(["$11,650.14", "($11,650.14)", "$(2.00)"], number) == (("$",), ())
    assert strip_symbols("($11,650.14)", ("$",)) == "-11,650.14"
    rows = [f"{'(' if k % 3 == 0 else ''}${1000 + 37 * k:,}.50{')' if k % 3 == 0 else ''}"
            for k in range(60)]
    data = tmp_path / "d.csv"
    data.write_text("balance,y\n" + "\n".join(f'"{r}",{"ab"[k % 2]}' for k, r in enumerate(rows))
                    + "\n")
    out = tmp_path / "s.json"
    assert main(["schema", str(data), "--label", "y", "--thousands", ",",
                 "--out", str(out)]) == 0
    spec = json.loads(out.read_text())["columns"]["balance"]
    assert spec["prefix"] == "$" and "suffix" not in spec and spec["lower"] < 0 < spec["upper"]


@pytest.mark.parametrize("cell", ["$45.00-", "\u2212$5", "\u2212 5%"])
def test_a_negative_written_otherwise_is_named_as_a_negative(cell):
    with pytest.raises(BadValueError, match="negative number written with a typographic minus "
                                            "sign or a trailing minus"):
        _decode(["$1", cell], prefix="$", suffix="%")


def _gzip_rows(n: int = 400) -> bytes:
    rng = np.random.default_rng(1)
    return gzip.compress("".join(f"{rng.normal():.6f},{rng.normal():.6f},{'ab'[k % 2]}\n"
                                 for k in range(n)).encode(), mtime=0)


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
@pytest.mark.parametrize("damage", ["crc", "stream", "truncated"])
def test_a_damaged_gzip_stream_is_one_line_naming_the_file(tmp_path, one_line_error, damage,
                                                           workers):
    """Never zlib's text: 'CRC check failed 0x0 != 0xb548235c' holds the checksum of the
    whole decompressed file, a function of every row (red team, session 24)."""
    raw = bytearray(_gzip_rows())
    if damage == "crc":
        raw[-8] ^= 0xFF  # the stored CRC-32
    elif damage == "stream":
        raw[len(raw) // 2: len(raw) // 2 + 40] = bytes(40)  # inside the deflate blocks
    else:
        raw = raw[: len(raw) * 2 // 3]
    data = tmp_path / "d.csv.gz"
    data.write_bytes(bytes(raw))
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"names": ["x1", "x2", "y"], "columns": {
        "x1": {"type": "numeric", "lower": -4, "upper": 4},
        "x2": {"type": "numeric", "lower": -4, "upper": 4}},
        "label": {"column": "y", "classes": ["a", "b"]}}))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json"), *workers])
    line = one_line_error(code, str(data))
    assert "gzip" in line or "not UTF-8" in line or "fields" in line, line
    assert "0x" not in line and "CRC" not in line


def test_an_unclosed_quote_under_workers_is_one_line(tmp_path, one_line_error):
    """It was an internal error (dask's parser), where in memory it is a one-line refusal."""
    rows = [f"{20 + k % 50},{'ab'[k % 2]}" for k in range(200)]
    rows[5] = '63,"b'
    data = tmp_path / "d.csv"
    data.write_text("x,y\n" + "\n".join(rows) + "\n")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"columns": {"x": {"type": "numeric", "lower": 0,
                                                     "upper": 100}},
                                  "label": {"column": "y", "classes": ["a", "b"]}}))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json"), "--workers", "1"])
    one_line_error(code, f"{data}, line 7: a quote", "no quote closes")  # as in memory


def test_the_split_example_decompresses_a_gzip_file(tmp_path):
    data = tmp_path / "d.csv.gz"
    data.write_bytes(_gzip_rows(100))
    train, test = tmp_path / "train.csv", tmp_path / "test.csv.gz"
    subprocess.run([sys.executable, str(ROOT / "examples" / "split_80_20.py"), str(data),
                    str(train), str(test), "--no-header"], check=True, capture_output=True)
    kept = train.read_text().splitlines() + gzip.decompress(test.read_bytes()).decode().split()
    assert sorted(kept) == sorted(gzip.decompress(data.read_bytes()).decode().split())
    assert len(train.read_text().splitlines()) == 80


@pytest.mark.parametrize("damage", ["crc", "stream"])
def test_a_damaged_gzip_libsvm_file_is_one_line_without_its_checksum(tmp_path, one_line_error,
                                                                     damage):
    """The LIBSVM loader read the file with its own gzip opener: 'CRC check failed 0x84b390d9
    != 0x75803a37', the checksum of the data; a damaged stream mid-file decompressed to
    garbage first, which the parser named."""
    rng = np.random.default_rng(0)
    raw = bytearray(gzip.compress("".join(
        f"{1 if k % 2 else -1} 1:{rng.random():.4f} 2:{rng.random():.4f}\n"
        for k in range(400)).encode(), mtime=0))
    if damage == "crc":
        raw[-8] ^= 0xFF
    else:
        raw[len(raw) // 2: len(raw) // 2 + 40] = bytes(40)
    data = tmp_path / "d.svm.gz"
    data.write_bytes(bytes(raw))
    code = main(["train", str(data), "--n-features", "2", "--index-base", "1", *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    line = one_line_error(code, str(data), "could not be read as gzip")
    assert "0x" not in line
