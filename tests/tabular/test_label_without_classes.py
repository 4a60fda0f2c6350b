"""A schema's label without ``"classes"`` (red team, session 37): it was refused in Python's
words, "must be a list of at least 2 labels. Got None instead.", while ``--classes`` was
offered beside it; now one line says the key is missing and when ``--classes`` applies."""

from __future__ import annotations

import pytest

from dpboost.schema import Schema

_COLUMNS = {"age": {"type": "numeric", "lower": 0, "upper": 100}}


def test_a_label_without_classes_says_the_key_is_missing():
    with pytest.raises(ValueError, match=r'The label declares no "classes".*--label COL '
                                         r'--classes NEG,POS only when the schema has no '
                                         r'"label" at all') as caught:
        Schema.from_dict({"columns": _COLUMNS, "label": {"column": "y"}})
    assert "Got None" not in str(caught.value)


@pytest.mark.parametrize("classes", [None, ["yes"], "no,yes"])
def test_classes_declared_but_wrong_keep_their_message(classes):
    with pytest.raises(ValueError, match="'classes' of the label"):
        Schema.from_dict({"columns": _COLUMNS, "label": {"column": "y", "classes": classes}})

