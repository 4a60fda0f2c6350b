"""A gzip file padded with zero bytes after its last member (as tape blocks pad) is read
whole by every reader, as GNU gzip and Python's gzip read it.

Until session 30 the in-memory reader (pyarrow's gzip stream) refused it as damaged while
``--workers`` (Python's gzip) trained on it (red team, session 29, round 2, finding 6).
"""

from __future__ import annotations

import gzip
import json

import pytest

from dpboost.cli import main

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 10},
                      "c": {"type": "categorical", "categories": ["p", "q"]}},
          "label": {"column": "y", "classes": ["no", "yes"]}}


def _files(tmp_path, padding: int):
    rows = [f"{i % 11},{'pq'[i % 2]},{['no', 'yes'][(i // 3) % 2]}" for i in range(300)]
    text = ("a,c,y\n" + "\n".join(rows) + "\n").encode()
    packed = gzip.compress(text, mtime=0)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    plain, padded = tmp_path / "plain.csv.gz", tmp_path / "padded.csv.gz"
    plain.write_bytes(packed)
    padded.write_bytes(packed + bytes(padding))
    return schema, plain, padded


def _train(path, schema, out, *extra) -> dict:
    argv = ["train", str(path), "--schema", str(schema), "--target-epsilon", "1",
            "--target-delta", "1e-6", "--out", str(out), "--seed", "3", *extra]
    assert main(argv) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("padding", [8, 512, 10_000])
def test_padded_gzip_trains_as_its_unpadded_twin(tmp_path, padding):
    schema, plain, padded = _files(tmp_path, padding)
    assert gzip.decompress(padded.read_bytes()) == gzip.decompress(plain.read_bytes())
    want = _train(plain, schema, tmp_path / "m1.json")
    got = _train(padded, schema, tmp_path / "m2.json")
    assert got["coef"] == want["coef"] and got["intercept"] == want["intercept"]


def test_padded_gzip_with_a_flipped_byte_is_one_line(tmp_path, capsys):
    schema, plain, _ = _files(tmp_path, 0)
    data = bytearray(plain.read_bytes())
    data[40] ^= 0xFF
    bad = tmp_path / "bad.csv.gz"
    bad.write_bytes(bytes(data) + bytes(512))
    argv = ["train", str(bad), "--schema", str(schema), "--target-epsilon", "1",
            "--target-delta", "1e-6", "--out", str(tmp_path / "m.json")]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"dpboost train: error: {bad} could not be read as gzip: it is damaged or "
                   "truncated (its compressed data, checksum or length does not decompress "
                   "whole)."]
