"""Session 21: label errors name no class the row resembles.

The case hint named the declared class ("the schema declares 'A'"), which told the reader
the row's label was a case variant of 'A'.  ``train``'s message states no count of such rows:
on dask the error comes from one partition, and the message must not depend on the backend.
"""

from __future__ import annotations

import json
import re

import pytest

from dpboost.cli import main
from dpboost.tabular import BadValueError, TabularEncoder

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1}},
          "label": {"column": "y", "classes": ["Alpha", "Beta", "Gamma"]}}
TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6"]


def _message(labels, schema=SCHEMA) -> str:
    with pytest.raises(BadValueError) as info:
        TabularEncoder(schema).encode_labels(labels)
    return str(info.value)


@pytest.mark.parametrize("variant", ["alpha", "BETA", "gAMMA"])
def test_the_case_hint_is_the_same_whichever_class_the_label_resembles(variant):
    text = _message(["Alpha", variant, "Beta"])
    assert text == ("The label at row 1 is not one of the schema's classes ['Alpha', 'Beta', "
                    "'Gamma'] (labels are case-sensitive and must be written as the schema "
                    "declares them).")


@pytest.mark.parametrize("dotted", ["Alpha.", "Beta.", "Gamma."])
def test_the_dot_hint_is_the_same_whichever_class_the_label_resembles(dotted):
    text = _message([dotted, "Beta", "x", "Gamma"])
    assert text.endswith("(it ends in '.', as UCI adult.test's labels do: remove the dots).")
    assert text.count("'Alpha'") == 1  # only in the list of classes


@pytest.mark.parametrize("k", [1, 2, 5, 9])
def test_the_message_does_not_depend_on_the_rows_after_the_first_bad_one(k):
    labels = ["Alpha", "Beta"] * 5
    for j in range(k):
        labels[j] = ["x", "y", "zz"][j % 3]
    whole, first = _message(labels), _message(labels[:1])
    assert whole == first and "in all" not in whole, whole


def test_a_missing_label_is_named_as_missing():
    text = _message(["Alpha", "", "x", None, "Beta", float("nan")])
    assert text.startswith("The label is missing at row 1: remove the rows without one")
    assert text.endswith("run predict without --label).")


@pytest.mark.parametrize("marker", ["NA", "n/a", "?", "null"])
def test_a_missing_value_marker_gets_the_missing_label_hint(marker):
    text = _message(["Alpha", marker, "Beta"])
    assert "(it reads as a missing-value marker: remove the rows without a label" in text
    assert f"'{marker}'" not in text and f'"{marker}"' not in text


def test_train_names_the_line_outside_the_classes(tmp_path, capsys):
    data, schema = tmp_path / "d.csv", tmp_path / "s.json"
    labels = ["no", "yes", "no", "N", "Y", "yes", "no", "Y"]
    data.write_text("a,y\n" + "".join(f"0.{i},{v}\n" for i, v in enumerate(labels)))
    schema.write_text(json.dumps({**SCHEMA, "label": {"column": "y",
                                                      "classes": ["no", "yes"]}}))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1
    assert err.endswith("The label at line 5 is not one of the schema's classes ['no', 'yes'].")


def test_train_gives_the_missing_label_hint_for_an_na_label(tmp_path, capsys):
    data, schema = tmp_path / "d.csv", tmp_path / "s.json"
    data.write_text("a,y\n0.1,True\n0.2,False\n0.3,NA\n0.4,True\n")
    schema.write_text(json.dumps({**SCHEMA, "label": {"column": "y",
                                                      "classes": ["False", "True"]}}))
    code = main(["train", str(data), "--schema", str(schema), *TRAIN,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip()
    assert code != 0
    assert "at line 4" in err and "missing-value marker" in err
