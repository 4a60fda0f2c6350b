"""Multiclass robustness (third robustness sweep).

Found and pinned here:

1. ``multiclass="foo"`` was accepted by a binary fit (checked only on the multiclass path),
   and ``planned_privacy_event()`` with three declared classes read it as ``"joint"`` while
   ``fit`` refused it.
2. ``classes=[[0, 1], [2, 3]]`` was flattened into four classes; ``classes=[None, 1, 2]``
   raised numpy's comparison error.
3. A model file whose classes mix strings and numbers (``["1", 1, "a"]``: three labels in
   JSON) was read as ``['1', '1', 'a']``, two classes predicting the same label.
4. A loaded model scored finite rows near 1e308 as ``inf - inf = NaN`` (the wrong class, and
   NaN probabilities); the estimator rescales such rows, and now the model file does too.

Checked and held (pinned so that they stay so): the joint and one-vs-rest releases
recomputed from the mechanism calls (count, sensitivity ``2R/(kappa n)``, noise multiplier)
and their cost converted in 40-digit arithmetic never exceed the target; a declared class
absent from the data, a single observed class, 200 classes on 300 rows.
"""

from __future__ import annotations

import warnings

import mpmath as mp
import numpy as np
import pytest

import dpboost.mechanisms as mechanisms
from accounting import ZCDPAccountant
from dpboost import PrivateHalfspaceClassifier


def _data(n=300, d=3, K=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) / 3, rng.integers(0, K, n)


# -- 1. the multiclass parameter is checked on every path --------------------------------------
@pytest.mark.parametrize("value, error", [("OVR", ValueError), ("foo", ValueError),
                                          (3, TypeError), (None, TypeError)])
def test_multiclass_parameter_is_checked_by_a_binary_fit_and_by_the_plan(value, error):
    X, y = _data(K=2)
    msg = "The 'multiclass' parameter of PrivateHalfspaceClassifier must be one of 'joint', 'ovr'."
    with pytest.raises(error, match=msg):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], multiclass=value,
                                   random_state=0).fit(X, y)
    with pytest.raises(error, match=msg):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2],
                                   multiclass=value).planned_privacy_event()


# -- 2. the classes declaration ----------------------------------------------------------------
FLAT = "The 'classes' parameter of PrivateHalfspaceClassifier must be a flat list of labels"


@pytest.mark.parametrize("classes, error, match", [
    ([[0, 1], [2, 3]], ValueError, FLAT), ("abc", TypeError, FLAT),
    ({0: 1, 1: 2, 2: 3}, TypeError, FLAT),
    # named since session 19 (it was the generic TypeError)
    ([None, 1, 2], ValueError, "holds a missing value \\(None or NaN\\) at position 0"),
])
def test_a_malformed_classes_declaration_is_one_clear_error(classes, error, match):
    X, y = _data()
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=classes, random_state=0)
    with pytest.raises(error, match=match):
        est.planned_privacy_event()
    with pytest.raises(error, match=match):
        est.fit(X, y)


# -- held: the cost recomputed from the mechanism calls -----------------------------------------
def _exact_cks_epsilon(rho, delta):
    """CKS20 Prop. 12 for rho-zCDP, minimised in 40-digit arithmetic."""
    mp.mp.dps = 40
    rho, log_delta = mp.mpf(rho), mp.log(mp.mpf(delta))

    def f(t):
        a = 1 + mp.exp(t)
        return rho * a + mp.log(1 - 1 / a) - (log_delta + mp.log(a)) / (a - 1)

    t0 = mp.log(mp.sqrt(-log_delta / rho))
    return f(mp.findroot(lambda t: mp.diff(f, t), t0))


@pytest.mark.parametrize("mode", ["joint", "ovr"])
@pytest.mark.parametrize("eps, kw", [(0.5, {"n_rounds": 12, "kappa": 0.4}), (2.0, {}),
                                     (0.05, {})])
def test_multiclass_cost_recomputed_from_the_releases(monkeypatch, mode, eps, kw):
    calls = []
    release = mechanisms.LatticeGaussian.release

    def record(self, value, *, rng):
        calls.append(self)
        return release(self, value, rng=rng)

    monkeypatch.setattr(mechanisms.LatticeGaussian, "release", record)
    K, n = 4, 500
    X, y = _data(n=n, K=K, seed=1)
    clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=list(range(K)), multiclass=mode,
                                     random_state=0, **kw).fit(X, y)
    rep = clf.privacy_report_
    T, kappa = rep["n_rounds"], rep["kappa"]
    d = X.shape[1] + (rep["input_centre"] is not None)  # the centred fit adds a constant
    width = K * d if mode == "joint" else d
    rounds = [m for m in calls if m.dimension == width]
    assert len(rounds) == (T if mode == "joint" else K * T)
    for m in rounds:  # one release per round (joint) or per round and class (one-vs-rest)
        assert m.sensitivity == pytest.approx(2.0 / (kappa * n), rel=1e-15)
        assert m.noise_multiplier == rounds[0].noise_multiplier
        assert m.sigma >= m.noise_multiplier * m.effective_sensitivity
    rho_rounds = len(rounds) / (2.0 * rounds[0].noise_multiplier ** 2)
    listed = {m["name"].split(" (")[0]: m["rho"] for m in rep["mechanisms"]}
    assert rho_rounds <= listed["boosting rounds"] * (1 + 1e-12)
    total = sum(listed.values())
    assert total == pytest.approx(ZCDPAccountant().compose(clf.privacy_event_).rho, rel=1e-12)
    assert _exact_cks_epsilon(total, 1e-6) <= eps
    assert rep["epsilon"]["best"] <= eps


# -- held: degenerate label sets -----------------------------------------------------------------
def test_declared_classes_absent_from_the_data_and_a_single_observed_class():
    X, y = _data()
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2, 3], random_state=0).fit(X, y)
    assert clf.decision_function(X[:5]).shape == (5, 4)
    np.testing.assert_allclose(clf.predict_proba(X[:5]).sum(axis=1), 1.0)
    # a class seen in no row: the plan (K = 4 declared) is what was spent
    planned = ZCDPAccountant().compose(clf.planned_privacy_event()).rho
    assert planned == pytest.approx(ZCDPAccountant().compose(clf.privacy_event_).rho, rel=1e-9)
    one = PrivateHalfspaceClassifier(1.0, 1e-6, classes=["a", "b", "c"], random_state=0)
    one.fit(X, np.full(300, "b"))
    assert set(one.predict(X)) <= {"a", "b", "c"}
    with pytest.raises(ValueError, match=r"not in classes"):  # 2 declared, a third in y
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=0).fit(X, y)


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_two_hundred_classes_on_three_hundred_rows(mode):
    X, y = _data(K=200, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn: more classes than half the rows
        clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=list(range(200)), multiclass=mode,
                                         random_state=0).fit(X, y)
    assert clf.predict_proba(X[:3]).shape == (3, 200)
    assert clf.privacy_report_["n_rounds"] == 10  # the multiclass floor
    assert clf.privacy_report_["epsilon"]["best"] <= 1.0


# -- 3. model files: labels distinct as read ----------------------------------------------------
@pytest.mark.parametrize("classes", [["1", 1, "a"], [1, 2.5, "2.5"], ["a", "b", True]])
def test_a_model_file_whose_labels_collapse_when_read_is_refused(classes):
    import json

    from dpboost.model_io import ModelFileError, model_from_dict, model_to_dict

    X, y = _data()
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    content = json.loads(json.dumps(model_to_dict(clf)))
    assert model_from_dict(content).classes_.tolist() == [0, 1, 2]
    content["classes"] = classes  # three labels in JSON; numpy reads strings for all three
    with pytest.raises(ModelFileError, match="3 distinct labels"):
        model_from_dict(content)


# -- 4. model files: finite rows whose scores overflow --------------------------------------------
def _exact_scores(X, W, b):
    """``X @ W.T + b`` in 60-digit arithmetic (no overflow)."""
    mp.mp.dps = 60
    return [[sum(mp.mpf(float(x)) * mp.mpf(float(w)) for x, w in zip(row, wk)) + mp.mpf(float(bk))
             for wk, bk in zip(W, b)] for row in X]


@pytest.mark.parametrize("classes", [[0, 1], [0, 1, 2]])
def test_a_loaded_model_scores_rows_near_the_float_limit_by_their_sign(classes):
    import json

    from dpboost.model_io import model_from_dict, model_to_dict

    X, y = _data(K=len(classes))
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=classes, random_state=0).fit(X, y)
    content = json.loads(json.dumps(model_to_dict(clf)))
    W = np.atleast_2d(content["coef"]) * 100.0  # weights large enough to overflow x . w
    content["coef"] = W.tolist() if len(classes) > 2 else W[0].tolist()
    model = model_from_dict(content)
    b = np.atleast_1d(model.intercept_)
    big = np.array([[1e308, -1e308, 1e308], [-1e308, 1e308, 1e308], [1e308, 1e308, -1e308],
                    [-1.7e308, 0.0, 1.7e308], [0.1, 0.2, 0.3]])
    exact = _exact_scores(big, W, b)
    if len(classes) == 2:
        expected = [classes[1] if s[0] > 0 else classes[0] for s in exact]
    else:
        expected = [classes[max(range(len(s)), key=s.__getitem__)] for s in exact]
    assert model.predict(big).tolist() == expected
    assert not np.isnan(model.decision_function(big)).any()
    proba = model.predict_proba(big)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (np.asarray(classes)[proba.argmax(axis=1)] == expected).all()


def test_the_estimator_scores_multiclass_rows_near_the_float_limit():
    """An (n, K) overflow mask was applied to the (n, d) rows (AxisError), and the softmax of
    an infinite score was NaN: now the scores keep their sign and the probabilities are a
    distribution (one-hot where a score overflows)."""
    from dpboost import PrivateHalfspaceClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3)) / 3.0
    y = np.arange(300) % 3
    est = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    est.coef_ = est.coef_ * 1e4  # weights of a model on rows in small units (post-processing)
    far = np.vstack([X[:5] / np.abs(X[:5]).max(axis=1, keepdims=True) * 1e308, X[:5]])
    with np.errstate(over="ignore", invalid="ignore"):
        assert not np.all(np.isfinite(far[:5] @ est.coef_.T))  # the naive product overflows
    scores = est.decision_function(far)
    assert scores.shape == (10, 3) and np.all(np.isfinite(scores) | np.isinf(scores))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.sign(X[:5] @ est.coef_.T)
    assert np.array_equal(np.sign(scores[:5]), expected)
    proba = est.predict_proba(far)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(est.predict(far)[5:], est.predict(X[:5]))


@pytest.mark.parametrize("flag, mode", [([], "joint"), (["--multiclass", "ovr"], "ovr")])
def test_train_cli_chooses_the_multiclass_mode_and_charges_its_plan(tmp_path, capsys, flag,
                                                                    mode):
    """``dpboost train --multiclass`` (there was no flag: one-vs-rest was API-only); the
    ledger is charged the planned rho of the estimator with that mode."""
    import json

    import pandas as pd

    from dpboost.cli import main

    rng = np.random.default_rng(0)
    labels = ["no", "yes", "maybe"]
    data, schema, ledger = tmp_path / "d.csv", tmp_path / "s.json", tmp_path / "l.json"
    pd.DataFrame({"age": rng.uniform(0, 100, 300).round(2),
                  "y": rng.choice(labels, 300)}).to_csv(data, index=False)
    schema.write_text(json.dumps({"columns": {"age": {"type": "numeric", "lower": 0,
                                                      "upper": 100}},
                                  "label": {"column": "y", "classes": labels}}))
    assert main(["budget", "init", str(ledger), "--target-epsilon", "5",
                 "--target-delta", "1e-5"]) == 0
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--seed", "0", "--ledger", str(ledger),
                 "--out", str(tmp_path / "m.json"), *flag]) == 0
    model = json.loads((tmp_path / "m.json").read_text())
    assert model["privacy_report"]["multiclass"] == mode
    planned = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2],
                                         multiclass=mode).planned_privacy_event()
    from accounting import event_from_dict

    charged = event_from_dict(json.loads(ledger.read_text())["spends"][-1]["event"])
    rho = ZCDPAccountant().compose(charged).rho
    assert rho == pytest.approx(ZCDPAccountant().compose(planned).rho, rel=1e-9)
    capsys.readouterr()
    assert main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--multiclass", "both",
                 "--out", str(tmp_path / "m2.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--multiclass" in err[0]
