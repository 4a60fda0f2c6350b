"""Cuts of a CSV file at record boundaries (:mod:`dpboost.csv_blocks`), against independent
readers: Python's ``csv`` module says where each record ends, pandas reads the blocks and the
whole file alike.  Random files of quoted line breaks, doubled quotes, stray quotes
(``5'11"``), lone carriage returns and byte-order marks, fixed seeds, small windows (so that
the state at a cut is settled by the two-hypothesis search, not by reading from the anchor).
"""

from __future__ import annotations

import csv
import io
import random

import numpy as np
import pandas as pd
import pytest

import dpboost.csv_blocks as cb
import dpboost.csv_errors  # noqa: F401  (raises the csv module's field size limit)
from dpboost.csv_blocks import parse_block, read_block, record_cuts

CELLS = ["a", "12", "", '"q"', '"l1\nl2"', '"a""b"', "5'11\"", '"p\r\nq"', '"\n"', '"x,y"',
         'ab"c"d', '"""\n"""', '"x\n\n"', "\r", '""',
         # spaces before a quote: it opens a value (skipinitialspace, as in memory)
         ' "x\ny"', '  "a""\n"', " 5'11\"", '  ""', "  "]


def _text(rng: random.Random, delimiter: str) -> bytes:
    rows = [delimiter.join(rng.choice(CELLS).replace(",", delimiter) for _ in range(3))
            for _ in range(rng.randint(0, 12))]
    body = "h1,h2,h3".replace(",", delimiter) + "\n" + "\n".join(rows) + rng.choice(["", "\n"])
    return rng.choice([b"", cb.UTF8_BOM]) + body.encode()


def _csv_record_ends(text: bytes, delimiter: str) -> list[int]:
    r"""The offsets of the ``\n`` bytes that end a record, by Python's csv module."""
    bom = len(cb.UTF8_BOM) if text.startswith(cb.UTF8_BOM) else 0
    lines = io.StringIO(text[bom:].decode(), newline="").readlines()
    ends = []
    reader = csv.reader(iter(lines), delimiter=delimiter, skipinitialspace=True)
    for _ in reader:
        end = bom + len("".join(lines[:reader.line_num]).encode()) - 1
        if text[end:end + 1] == b"\n":
            ends.append(end)
    return ends


def _expected_cuts(text: bytes, ends: list[int], blocksize: int) -> list[int]:
    """The first record end at or after each of dask's offsets (``len // blocksize`` blocks of
    equal length), each once."""
    count = max(1, len(text) // blocksize)
    cuts = {min((e for e in ends if e >= k * len(text) // count), default=len(text)) + 1
            for k in range(1, count)}
    return [0, *sorted(c for c in cuts if c < len(text)), len(text)] if text else [0]


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_cuts_are_the_csv_modules_record_ends(tmp_path, monkeypatch, delimiter):
    rng = random.Random(28)
    path = tmp_path / "f.csv"
    for _ in range(300):
        text = _text(rng, delimiter)
        path.write_bytes(text)
        ends = _csv_record_ends(text, delimiter)
        for blocksize in (1, 2, 5, 13):
            monkeypatch.setattr(cb, "WINDOW", rng.choice([1, 2, 3, 64]))
            monkeypatch.setattr(cb, "_STATE_CHUNK", rng.choice([1, 3, 1 << 23]))
            assert record_cuts(path, blocksize, delimiter) == _expected_cuts(text, ends,
                                                                             blocksize)


@pytest.mark.parametrize("delimiter", [",", ";", None])
def test_blocks_read_the_rows_of_the_whole_file(tmp_path, monkeypatch, delimiter):
    rng = random.Random(280)
    path = tmp_path / "f.csv"
    sep = r"\s+" if delimiter is None else delimiter
    kwargs = dict(dtype=str, keep_default_na=False, header=None, names=["h1", "h2", "h3"],
                  sep=sep, skip_blank_lines=True, skipinitialspace=delimiter is not None)
    compared = 0
    for _ in range(200):
        if delimiter is None:  # quoted cells only (an unquoted one may not hold spaces)
            cells = [c for c in CELLS if c.startswith('"') and c.endswith('"')] + ["7"]
            rows = [rng.choice([" ", "\t", "  "]).join(rng.choice(cells) for _ in range(3))
                    for _ in range(rng.randint(1, 12))]
            path.write_bytes(("h1 h2 h3\n" + "\n".join(rows) + "\n").encode())
        else:
            path.write_bytes(_text(rng, delimiter))
        whole = parse_block(path.read_bytes(), kwargs, 1, delimiter)  # one block
        if whole.isna().any().any():  # a short row (the block check refuses those)
            continue
        for blocksize in (1, 3, 8):
            monkeypatch.setattr(cb, "WINDOW", rng.choice([1, 4]))
            cuts = record_cuts(path, blocksize, delimiter)
            frames = [parse_block(read_block(str(path), a, b), kwargs, 1 if i == 0 else 0,
                                  delimiter)
                      for i, (a, b) in enumerate(zip(cuts, cuts[1:]))]
            blocks = pd.concat(frames, ignore_index=True)
            np.testing.assert_array_equal(blocks.to_numpy(), whole.to_numpy())
        compared += 1
    assert compared >= 100


@pytest.mark.parametrize("blocksize", [999, 1000, 4096, 10_000, 100_000])
def test_a_file_without_quoted_line_breaks_is_cut_as_dask_cuts_it(tmp_path, blocksize):
    import dask
    from dask.bytes import read_bytes

    path = tmp_path / "f.csv"
    path.write_bytes(b"a,b\n" + b"".join(b'%d,"%d"\n' % (i, i * i) for i in range(3000)))
    _, blocks = read_bytes(str(path), delimiter=b"\n", blocksize=blocksize, sample=False)
    lengths = [len(b) for b in dask.compute(*blocks[0], scheduler="sync")]
    assert record_cuts(path, blocksize, ",") == [0, *np.cumsum(lengths).tolist()]


def test_an_unclosed_quote_is_refused_as_in_memory_not_read_as_one_block(tmp_path):
    rows = [f"{i},note {i}" for i in range(2000)]
    rows[10] = '10,"an unclosed note'
    path = tmp_path / "f.csv"
    path.write_text("a,b\n" + "\n".join(rows) + "\n")
    with pytest.raises(ValueError, match="a row is longer than 0 MiB.*an unclosed quote"):
        record_cuts(path, 1000, ",", longest=4096)
    assert len(record_cuts(path, 1000, ",")) == 2  # within the longest row: the rest, one block


@pytest.mark.parametrize("run", [2 * 150_000, 2 * 150_000 + 1])
def test_a_run_of_quotes_longer_than_every_chunk(tmp_path, monkeypatch, run):
    """A dropped note of 300,000 quotes (an even run: quote characters; odd: it also closes
    the value), the file cut at 10,000-byte blocks with 1,000-byte chunks: the csv module's
    record ends (red team, session 28: a run of 120 million quotes took 107 s and 2.2 GB, one
    byte read at a time and an index per quote)."""
    monkeypatch.setattr(cb, "_STATE_CHUNK", 1000)
    monkeypatch.setattr(cb, "WINDOW", 64)
    rows = [f"{i},x,plain,yes" for i in range(3000)]
    rows[1500] = '5,x,"' + '"' * run + ('"' if run % 2 == 0 else "\n") + ',no'
    path = tmp_path / "f.csv"
    path.write_bytes(("a,b,note,y\n" + "\n".join(rows) + "\n").encode())
    text = path.read_bytes()
    expected = _expected_cuts(text, _csv_record_ends(text, ","), 10_000)
    assert record_cuts(path, 10_000, ",") == expected and len(expected) >= 6


def test_the_end_state_read_backward_equals_the_text_read_forward(tmp_path, monkeypatch):
    """``ends_in_quoted_value``: from the end back (a plain file) and forward in chunks of 1-7
    bytes (a gzip stream), on random files: the same answer, that of the csv module (a record
    left open at the end raises its 'unexpected end of data' in strict mode)."""
    import gzip
    from functools import partial

    rng = random.Random(2028)
    path, packed = tmp_path / "f.csv", tmp_path / "f.csv.gz"
    seen = set()
    for _ in range(400):
        delimiter = rng.choice([",", ";", "|"])
        text = _text(rng, delimiter) + rng.choice([b"", b'"', b'x,"ab', b' "\n', b'""'])
        path.write_bytes(text)
        packed.write_bytes(gzip.compress(text))
        monkeypatch.setattr(cb, "WINDOW", rng.choice([1, 3, 64]))
        chunk = rng.randint(1, 7)
        monkeypatch.setattr(cb, "_stream_ends_inside", partial(_FORWARD, chunk=chunk))
        backward = cb.ends_in_quoted_value(path, delimiter)
        assert cb.ends_in_quoted_value(packed, delimiter, compressed=True) == backward
        body = text[len(cb.UTF8_BOM):] if text.startswith(cb.UTF8_BOM) else text
        reader = csv.reader(io.StringIO(body.decode(), newline=""), delimiter=delimiter,
                            skipinitialspace=True, strict=True)
        try:
            list(reader)
            left_open = False
        except csv.Error as exc:
            left_open = "unexpected end of data" in str(exc)
            if not left_open:  # strict mode's other complaints (a quote after a closing one)
                continue
        assert backward == left_open, text
        seen.add(backward)
    assert seen == {False, True}


_FORWARD = cb._stream_ends_inside


def test_gzip_is_one_block_of_the_decompressed_text(tmp_path):
    import gzip

    path = tmp_path / "f.csv.gz"
    with gzip.open(path, "wb") as handle:
        handle.write(b"a,b\n1,2\n")
    assert read_block(str(path), 0, 0, compressed=True) == b"a,b\n1,2\n"
