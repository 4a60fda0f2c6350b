"""``dpboost predict`` says when every prediction is one class (user trial, session 25: a
biopsy file with 8% malignant rows was predicted all "benign" at ROC AUC 0.99, silently)."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost.cli._predict_notes import say_one_class


@pytest.mark.parametrize("pred,said", [
    (np.array(["benign"] * 78, dtype=object), True),
    (np.array([0, 0, 0]), True),
    (np.array(["benign"] * 77 + ["malignant"], dtype=object), False),
    (np.array([1]), False),  # one row: nothing to say
])
def test_one_class_is_said_only_when_every_row_has_it(capsys, pred, said):
    say_one_class(pred, np.array(["benign", "malignant"]))
    err = capsys.readouterr().err
    assert (f"every one of the {pred.size} rows is predicted '{pred[0]}'" in err) is said
    assert err.count("\n") == int(said)
    if said:
        assert "'score' column" in err and "np." not in err
