"""A schema's ``"separator"`` decides how every row is split, whatever line 1 holds.

Three red-team rounds (sessions 22-23) found first rows of headerless files that set another
separator for the whole file (``"a,z" b 1`` above ``a, b, 1`` rows; ``1 12,5 3`` under a
decimal comma; an empty tab field).  Each was closed by a check that refuses the pair; a
declared separator closes the class: no row chooses how the others are read.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.readers import csv_layout, field_count, read_table
from dpboost.schema import Schema
from dpboost.separators import SEPARATORS, file_delimiter

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--n-rounds", "5", "--seed", "0"]
CATS = ["a", "b"]


def _schema(separator, **extra) -> dict:
    return {"names": ["a", "b", "y"], "separator": separator,
            "columns": {"a": {"type": "categorical", "categories": CATS},
                        "b": {"type": "categorical", "categories": CATS}},
            "label": {"column": "y", "classes": ["0", "1"]}, **extra}


def _rows(sep: str, n: int = 60) -> list[str]:
    glue = sep if sep != "whitespace" else " "
    return [glue.join([CATS[k % 2], CATS[k % 3 % 2], str(k % 2)]) for k in range(n)]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# first rows that sniffing reads with another separator than the declared one, each valid
# (three fields) under the declaration
FIRST_ROWS = {
    ";": ["x,y,z;b;1", "a,b;b,c;1", '"a,z";b;0'],
    ",": ['"a;z",b,1', "a b c,b,1", "a|b|c,b,0"],
    "\t": ["a,b,c\tb\t1", "a b\tb\t1"],
    "|": ["a,b|b|1", "a;b;c|b|0"],
    "whitespace": ['"a,z" b 1', "a,b,c b 1", "a;b b 0"],
}


@pytest.mark.parametrize("sep,first", [(s, f) for s, rows in FIRST_ROWS.items() for f in rows])
def test_a_first_row_cannot_change_how_the_others_are_split(tmp_path, sep, first):
    """Neighbours differing in line 1 read every other row alike, in the declared columns."""
    schema = Schema.from_dict(_schema(sep))
    glue = sep if sep != "whitespace" else " "
    plain = _write(tmp_path / "plain.txt", "\n".join([glue.join(["a", "b", "1"]),
                                                      *_rows(sep)]) + "\n")
    odd = _write(tmp_path / "odd.txt", "\n".join([first, *_rows(sep)]) + "\n")
    frames = [read_table(p, names=schema.names, separator=schema.separator,
                         text_columns=["a", "b", "y"]) for p in (plain, odd)]
    assert list(frames[0].columns) == list(frames[1].columns) == ["a", "b", "y"]
    assert len(frames[0]) == len(frames[1]) == 61
    assert frames[0].iloc[1:].equals(frames[1].iloc[1:])
    assert frames[1]["y"].iloc[0] in ("0", "1")  # line 1 itself split as declared
    for path in (plain, odd):  # the block reader of --workers and the width check agree
        assert csv_layout(path, schema.names, separator=sep)[0] == file_delimiter(
            path, "", separator=sep)
        assert field_count(path, separator=sep) == 3


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["memory", "workers"])
def test_both_neighbours_train_the_same_shape(tmp_path, workers):
    """Undeclared, line 1 '"a,z" b 1' above comma rows is refused (session 23's check); under
    '"separator": ","' it is one row of three fields, and the model is the neighbour's shape."""
    schema = _write(tmp_path / "s.json", json.dumps(_schema(",")))
    shapes = []
    for name, first in (("plain", "a, b, 1"), ("odd", '"a,z", b, 1')):
        data = _write(tmp_path / f"{name}.txt", "\n".join([first, *_rows(", ")]) + "\n")
        out = tmp_path / f"{name}.json"
        code = main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(out),
                     *workers])
        assert code == 0
        model = json.loads(out.read_text())
        shapes.append((len(model["coef"]) if "coef" in model else None,
                       model.get("feature_names"), model["schema"]))
    assert shapes[0] == shapes[1]
    assert shapes[0][2]["separator"] == ","


def test_predict_reads_the_test_file_with_the_models_separator(tmp_path, capsys):
    schema = _write(tmp_path / "s.json", json.dumps(_schema(";")))
    data = _write(tmp_path / "d.txt", "\n".join(_rows(";", 200)) + "\n")
    model = tmp_path / "m.json"
    assert main(["train", str(data), "--schema", str(schema), *TRAIN, "--out", str(model)]) == 0
    test = _write(tmp_path / "t.txt", "\n".join(["x,y,z;b;1", *_rows(";", 20)]) + "\n")
    capsys.readouterr()
    out = tmp_path / "p.csv"
    assert main(["predict", str(test), "--model", str(model), "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 21  # a header line, then one prediction per row


def test_without_a_declaration_the_file_is_still_sniffed(tmp_path):
    path = _write(tmp_path / "d.txt", "a;b;1\nb;a;0\n")
    frame = read_table(path, names=["a", "b", "y"], text_columns=["a", "b", "y"])
    assert frame["a"].tolist() == ["a", "b"]


@pytest.mark.parametrize("value", SEPARATORS)
def test_the_separator_survives_the_model_file(value):
    schema = Schema.from_dict(_schema(value))
    assert schema.separator == value
    assert Schema.from_dict(schema.to_dict()) == schema
    assert "separator" not in Schema.from_dict({k: v for k, v in _schema(value).items()
                                                if k != "separator"}).to_dict()


@pytest.mark.parametrize("value,hint", [("tab", '"\\t"'), ("\\t", '"\\t"'), (" ", "whitespace"),
                                        ("space", "whitespace"), (";;", ""), (1, ""),
                                        (None, None)])
def test_a_bad_separator_is_one_line(value, hint):
    if hint is None:
        assert Schema.from_dict(_schema(value)).separator is None
        return
    with pytest.raises(ValueError, match="'separator'") as info:
        Schema.from_dict(_schema(value))
    assert "\n" not in str(info.value) and hint in str(info.value)


def test_a_libsvm_schema_has_no_separator():
    with pytest.raises(ValueError, match="LIBSVM file"):
        Schema.from_dict({"n_features": 3, "separator": ","})


def test_a_declared_separator_is_the_one_read_even_beside_a_tsv_name(tmp_path):
    path = _write(tmp_path / "d.tsv", "a;b;1\nb;a;0\n")
    frame = read_table(path, names=["a", "b", "y"], separator=";", text_columns=["y"])
    assert frame["y"].tolist() == ["1", "0"]
    assert np.array_equal(frame["a"].to_numpy(), np.array(["a", "b"], dtype=object))


@pytest.mark.parametrize("sep,declared", [(";", ";"), ("\t", "\t"), (" ", "whitespace")])
def test_a_headerless_draft_declares_the_separator_it_read(tmp_path, sep, declared):
    data = _write(tmp_path / "d.txt", "\n".join(sep.join([CATS[k % 2], str(k % 5), str(k % 2)])
                                                for k in range(40)) + "\n")
    out = tmp_path / "s.json"
    assert main(["schema", str(data), "--no-header", "--label", "2", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["separator"] == declared
