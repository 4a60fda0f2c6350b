"""``dpboost predict`` names a bad cell's line as ``train`` does, and ``classes`` that mix text
and numbers are refused by name for the plan and the fit (binary and multiclass)."""

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.estimator import PrivateHalfspaceClassifier


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("predict_cells")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3)) * 0.3
    frame = pd.DataFrame(X, columns=list("abc"))
    frame["y"] = (X[:, 0] > 0).astype(int)
    frame.to_csv(folder / "train.csv", index=False)
    assert main(["train", str(folder / "train.csv"), "--label", "y", "--classes", "0,1",
                 "--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0",
                 "--out", str(folder / "m.json")]) == 0
    return folder, frame


@pytest.mark.parametrize("cell,said", [("", "column 'b' is empty at line 6"),
                                       ("x", "column 'b' holds a non-numeric value at line 6"),
                                       (np.inf, "(first bad row: row 4 (line 6))")])
def test_predict_names_the_line_of_a_bad_cell(model, capsys, cell, said):
    folder, frame = model
    bad = frame.astype(object)
    bad.loc[4, "b"] = cell
    bad.to_csv(folder / "test.csv", index=False)
    code = main(["predict", "--model", str(folder / "m.json"), str(folder / "test.csv"),
                 "--label", "y"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and said in err[0], err
    assert "test.csv" in err[0]


@pytest.mark.parametrize("classes", [[1, "a"], [1, "a", 2], [0, 1, None]])
def test_mixed_or_missing_classes_are_named_before_any_data(classes):
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=classes)
    with pytest.raises((ValueError, TypeError), match="(?i)mix|None|NaN|missing"):
        est.planned_privacy_event()
    X = np.zeros((10, 2))
    with pytest.raises((ValueError, TypeError), match="(?i)mix|None|NaN|missing"):
        est.fit(X, np.array(classes * 10)[:10])


def test_online_does_not_offer_a_schema_flag_it_lacks(tmp_path, capsys):
    (tmp_path / "t.csv").write_text("a,b,y\n1,2,1\nx,3,-1\n2,2,1\n")
    assert main(["online", str(tmp_path / "t.csv"), "--label", "y"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 3" in err[0] and "(--schema)" not in err[0], err
