"""Regressions from the second robustness sweep.

1. ``sklearn.clone`` of a private estimator holding a Generator gave every clone the same noise.
2. ``PrivateSelection.fit`` did not validate ``X``/``y`` and hid the PrivacyLeakWarning.
3. A model file with a NaN/inf/string intercept, repeated feature names or classes, or a
   probability of the wrong kind loaded and predicted silently.
4. ``norm_bound`` outside what float64 arithmetic supports overflowed (or named an internal
   class) instead of a clear error naming ``norm_bound``.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn.base import clone

from dpboost import halfspace_base
from dpboost.cli import main
from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier
from dpboost.exceptions import ModelFileError, PrivacyLeakWarning, SeededCloneWarning
from dpboost.model_io import HalfspaceModel, load_model, save_model
from dpboost.selection import PrivateSelection

PINNED = {"n_rounds": 20, "kappa": 0.25}  # both given: the plain rounds, no calibration


def _data(n=400, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / 4
    return X, (X[:, 0] > 0).astype(int)


# -- 1. clones draw independent noise --------------------------------------------------------
def test_generator_clones_fitted_on_neighbours_draw_independent_noise():
    X, y = _data()
    X2 = X.copy()
    X2[0] = 0.5  # replace-one neighbour
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1],
                                     random_state=np.random.default_rng(), **PINNED)
    a = clone(est).fit(X, y)
    b = clone(est).fit(X2, y)
    sigma = a.privacy_report_["sigma"]
    diff = b.released_centres_ - a.released_centres_
    # two independent draws differ by about sigma * sqrt(2); identical noise left ~1e-3
    assert np.std(diff) > 0.5 * sigma
    same = clone(est).fit(X, y)
    assert not np.array_equal(same.released_centres_, a.released_centres_)


def test_generator_clones_are_reproducible_from_the_parent_seed():
    X, y = _data()

    def releases(seed):
        parent = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1],
                                            random_state=np.random.default_rng(seed), **PINNED)
        return [clone(parent).fit(X, y).released_centres_ for _ in range(2)]

    first, second = releases(7), releases(7)
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    assert not np.array_equal(first[0], first[1])  # successive clones: different streams


def test_clone_gives_a_child_stream_not_a_copy():
    parent_rng = np.random.default_rng(3)
    for est in (PrivateHalfspaceClassifier(1.0, 1e-6, random_state=parent_rng),
                PrivateSelection(1.0, 1e-6, random_state=parent_rng)):
        c1, c2 = clone(est), clone(est)
        assert est.random_state is parent_rng  # the original keeps its Generator
        draws = {float(g.random()) for g in (c1.random_state, c2.random_state)}
        assert len(draws) == 2
        assert float(np.random.default_rng(3).random()) not in draws  # not a state copy


def test_int_seed_clones_warn_once(monkeypatch):
    monkeypatch.setattr(halfspace_base, "_seeded_clone_warned", [False])
    est = PrivateHalfspaceClassifier(1.0, 1e-6, random_state=5)
    with pytest.warns(SeededCloneWarning, match="identical noise"):
        c = clone(est)
    assert c.random_state == 5  # reproducibility, as asked
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeededCloneWarning)
        clone(est)  # once per process
        clone(PrivateHalfspaceClassifier(1.0, 1e-6, random_state=None))


def test_none_random_state_draws_fresh_noise_every_fit():
    X, y = _data()
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=None, **PINNED)
    first = est.fit(X, y).released_centres_.copy()
    assert not np.array_equal(first, est.fit(X, y).released_centres_)
    assert clone(est).random_state is None


# -- 2. PrivateSelection validates X and y at its boundary -----------------------------------
SMALL = {"candidates": [{"n_rounds": 5, "kappa": 0.25}], "expected_runs": 1.5}


@pytest.mark.parametrize(
    "X, y, match",
    [
        (np.zeros((20, 3)), np.arange(19) % 2, "inconsistent numbers of samples"),
        (np.zeros(20), np.arange(20) % 2, "must be 2-D .* is 1-D"),
        (np.zeros((1, 3)), [0], "minimum of 2"),
        (np.zeros((20, 3)), np.zeros((20, 2)), "y"),
        (np.where(np.eye(20, 3) > 0, np.nan, 0.0), np.arange(20) % 2, "first bad row: 0"),
    ],
)
def test_selection_rejects_misaligned_or_malformed_input(X, y, match):
    sel = PrivateSelection(1.0, 1e-6, classes=[0, 1], random_state=0, **SMALL)
    with pytest.raises(ValueError, match=match):
        sel.fit(X, y)


def test_selection_warns_once_that_inferred_classes_leak():
    X, y = _data(2000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sel = PrivateSelection(2.0, 1e-6, random_state=0, **SMALL).fit(X, y)
    leaks = [w for w in caught if issubclass(w.category, PrivacyLeakWarning)]
    assert len(leaks) == 1 and "PrivateSelection" in str(leaks[0].message)
    assert sel.classes_.tolist() == [0, 1]


# -- 3. model files are validated on load ----------------------------------------------------
def _good(tmp_path):
    path = tmp_path / "m.json"
    model = HalfspaceModel([0.5, -1.0, 0.25], 0.1, [0, 1], None, probability="sigmoid")
    save_model(model, path, feature_names=["a", "b", "c"])
    return path


@pytest.mark.parametrize(
    "key, value, match",
    [
        ("intercept", "nan", "intercept"),
        ("intercept", float("nan"), "intercept"),  # JSON NaN literal
        ("intercept", "inf", "intercept"),
        ("intercept", float("-inf"), "intercept"),
        ("intercept", "1e5", "intercept"),
        ("coef", [True, False, True], "coef"),
        ("coef", ["1", 0, 0], "coef"),
        ("feature_names", ["a", "a", "b"], "distinct"),
        ("feature_names", [1, 2, 3], "feature_names"),
        ("classes", [1, 1], "distinct"),
        ("classes", [None, 1], "distinct"),
        ("classes", [[0], [1, 2]], "distinct"),
        ("probability", "softmax", "probability"),
        ("n_features", 3.0, "n_features"),
    ],
)
def test_tampered_model_fails_on_load(tmp_path, key, value, match):
    path = _good(tmp_path)
    content = json.loads(path.read_text())
    content[key] = value
    path.write_text(json.dumps(content))
    with pytest.raises(ModelFileError, match=match):
        load_model(path)


def test_multiclass_model_must_say_softmax(tmp_path):
    path = tmp_path / "k.json"
    coef = np.arange(6, dtype=float).reshape(3, 2)
    save_model(HalfspaceModel(coef, [0.0, 0.1, 0.2], ["x", "y", "z"], None,
                              probability="softmax"), path)
    assert load_model(path).predict([[1.0, 2.0]]).tolist() == ["z"]
    content = json.loads(path.read_text())
    content["probability"] = "sigmoid"
    path.write_text(json.dumps(content))
    with pytest.raises(ModelFileError, match="softmax"):
        load_model(path)


def test_predict_cli_one_line_for_a_nan_intercept(tmp_path, capsys):
    path = _good(tmp_path)
    content = json.loads(path.read_text())
    content["intercept"] = "nan"
    path.write_text(json.dumps(content))
    data = tmp_path / "x.csv"
    data.write_text("a,b,c\n0.1,0.2,0.3\n")
    code = main(["predict", "--model", str(path), str(data)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "intercept" in err[0], err


# -- 4. norm_bound is checked against the range the arithmetic supports ----------------------
@pytest.mark.parametrize("bound", [1e200, 1e155, 1e-300, 1e-200, float("inf"), float("nan"), 0.0])
def test_norm_bound_out_of_range_names_norm_bound(bound):
    X, y = _data()
    for est in (PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], norm_bound=bound),
                BoostedHalfspaceClassifier(n_rounds=5, norm_bound=bound, classes=[0, 1])):
        with pytest.raises(ValueError, match=r"'norm_bound' parameter .* \[1e-100, 1e\+100\]"):
            est.fit(X * (bound if np.isfinite(bound) and bound > 0 else 1.0), y)
    with pytest.raises(ValueError, match="norm_bound"):  # before any data
        PrivateHalfspaceClassifier(1.0, 1e-6, norm_bound=bound).planned_privacy_event()


@pytest.mark.parametrize("bound", [1e-100, 1e100])
@pytest.mark.parametrize("pinned", [True, False])
def test_norm_bound_at_the_ends_of_the_range_fits(bound, pinned):
    X, y = _data(2000)
    kw = PINNED if pinned else {}
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], norm_bound=bound,
                                     random_state=0, **kw).fit(X * bound, y)
    assert np.all(np.isfinite(est.coef_)) and np.isfinite(est.intercept_)
    assert est.score(X * bound, y) > 0.8


@pytest.mark.parametrize("bound", ["1e200", "1e-300"])
def test_train_cli_one_line_for_norm_bound_out_of_range(tmp_path, capsys, bound):
    X, y = _data(50)
    data = tmp_path / "t.csv"
    data.write_text("a,b,c,d,label\n" + "".join(
        ",".join(map(repr, row.tolist())) + f",{lab}\n" for row, lab in zip(X, y)))
    code = main(["train", str(data), "--classes", "0,1", "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--norm-bound", bound,
                 "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "'norm_bound'" in err[0] and "Traceback" not in err[0]


def test_a_single_declared_class_names_both_binary_and_multiclass():
    X, y = _data()
    with pytest.raises(ValueError, match="at least two distinct labels .two for a binary fit, "
                                         "three or more for multiclass"):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[1], random_state=0).fit(X, y)
