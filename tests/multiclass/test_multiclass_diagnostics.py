"""``diagnostics=True`` and ``verbose`` on multiclass fits (joint and one-vs-rest, numpy and dask).

``diagnostics_`` is NON-private and labelled so; asking for it (or for progress output) must
not change the fitted model by a single bit.  The statistics are checked against independent
computations: the staged decision function, and the measure producer's own cumulative gain
and measures.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier
from dpboost.multiclass import MulticlassHypothesis, MulticlassLazyBregBoost

MODES = ["joint", "ovr"]
RELEASED = ("coef_", "intercept_", "hypothesis_coefs_", "released_centres_", "boosted_coef_",
            "input_scale_", "classes_")


def _blobs(n=1500, d=5, K=4, seed=0):
    rng = np.random.default_rng(seed)
    dirs = rng.normal(size=(K, d))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    y = rng.integers(0, K, n)
    X = 0.45 * dirs[y] + rng.normal(0, 0.15, (n, d))
    X[:5] *= 4.0  # a few rows outside the ball: clipped
    return X, y, K


def _fit(X, y, K, mode, **kw):
    kw.setdefault("random_state", 11)
    return PrivateHalfspaceClassifier(1.0, 1e-6, classes=list(range(K)), multiclass=mode,
                                      **kw).fit(X, y)


def _same_model(a, b):
    for name in RELEASED:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.privacy_report_ == b.privacy_report_
    assert a.privacy_event_ == b.privacy_event_


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pinned", [False, True])  # practical defaults (centre, scale) or pinned
def test_diagnostics_and_verbose_leave_the_model_bit_identical(mode, pinned, capsys):
    X, y, K = _blobs()
    kw = dict(n_rounds=15, kappa=0.5) if pinned else {}
    plain = _fit(X, y, K, mode, **kw)
    watched = _fit(X, y, K, mode, diagnostics=True, verbose=1, **kw)
    _same_model(plain, watched)
    assert "diagnostics_" not in vars(plain)
    assert watched.diagnostics_["multiclass"] == mode


@pytest.mark.parametrize("mode", MODES)
def test_keys_labels_and_ranges(mode):
    X, y, K = _blobs()
    clf = _fit(X, y, K, mode, diagnostics=True)
    diag = clf.diagnostics_
    T = clf.privacy_report_["n_rounds"]
    assert diag["non_private"] is True and "WITHOUT privacy" in diag["note"]
    assert diag["n_classes"] == K and diag["gamma"] == 0.0
    assert diag["theorem24_bound"] == clf.privacy_report_["kappa"]
    assert len(diag["training_accuracy_by_round"]) == len(diag["fraction_at_cap_by_round"]) == T
    assert diag["training_accuracy"] == diag["training_accuracy_by_round"][-1]
    assert 0.0 < diag["max_mu_hat_times_kappa_n"] <= 1.0 + 1e-9  # smoothness (Theorem 24)
    for key in ("fraction_margin_at_most_gamma", "training_accuracy"):
        assert 0.0 <= diag[key] <= 1.0
    assert all(0.0 <= f <= 1.0 for f in diag["fraction_at_cap_by_round"])
    json.dumps(diag)  # plain floats and lists
    if mode == "ovr":
        by = diag["by_class"]
        assert len(by["fraction_margin_at_most_gamma"]) == K
        assert diag["fraction_margin_at_most_gamma"] == max(by["fraction_margin_at_most_gamma"])
        assert diag["max_mu_hat_times_kappa_n"] == max(by["max_mu_hat_times_kappa_n"])
        assert np.allclose(np.mean(by["fraction_at_cap_by_round"], axis=0),
                           diag["fraction_at_cap_by_round"], rtol=0, atol=1e-15)
    else:
        assert "by_class" not in diag


@pytest.mark.parametrize("mode", MODES)
def test_accuracy_by_round_is_the_staged_models(mode):
    X, y, K = _blobs()
    X = X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    # pinned (no private centre or scale) and no clipping: the rows boosted are the rows given
    clf = _fit(X, y, K, mode, diagnostics=True, n_rounds=15, kappa=0.5)
    staged = [float(np.mean(np.argmax(s, axis=1) == y))
              for s in clf.staged_decision_function(X)]
    assert np.allclose(staged, clf.diagnostics_["training_accuracy_by_round"], rtol=0,
                       atol=2.0 / len(y))  # a tie broken differently at most
    assert clf.diagnostics_["training_accuracy"] == pytest.approx(clf.score(X, y),
                                                                  abs=2.0 / len(y))


def test_joint_margin_and_cap_match_the_measure_producer():
    """Pinned run (no private centre or scale): the rows boosted are the clipped rows."""
    X, y, K = _blobs(n=800)
    clf = _fit(X, y, K, "joint", diagnostics=True, n_rounds=12, kappa=0.4, learning_rate=2.0)
    Xc = X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    H = [MulticlassHypothesis(c) for c in clf.released_centres_]
    nxm = MulticlassLazyBregBoost(0.4, 2.0)
    nxm.measure(Xc, y, H)
    margins = 2.0 * nxm.cumulative_gain / len(H) - 1.0
    diag = clf.diagnostics_
    assert diag["fraction_margin_at_most_gamma"] == pytest.approx(np.mean(margins <= 0.0),
                                                                  abs=1.5 / len(y))
    caps = [float(np.mean(nxm.recompute(Xc, y, H[:t]) >= 1.0)) for t in range(len(H))]
    assert np.allclose(caps, diag["fraction_at_cap_by_round"], rtol=0, atol=1.5 / len(y))
    ratios = [nxm.recompute(Xc, y, H[:t]).max() for t in range(len(H))]
    assert diag["max_mu_hat_times_kappa_n"] == pytest.approx(max(ratios), rel=1e-9)


@pytest.mark.parametrize("mode", MODES)
def test_a_refit_without_diagnostics_drops_them(mode):
    X, y, K = _blobs(n=600)
    clf = _fit(X, y, K, mode, diagnostics=True, n_rounds=5)
    assert "diagnostics_" in vars(clf)
    clf.set_params(diagnostics=False).fit(X, y)
    assert "diagnostics_" not in vars(clf)


def test_diagnostics_are_never_written_into_a_model_file(tmp_path):
    from dpboost.model_io import save_model

    X, y, K = _blobs(n=600)
    clf = _fit(X, y, K, "ovr", diagnostics=True, n_rounds=5)
    path = tmp_path / "m.json"
    save_model(clf, path)
    text = path.read_text()
    assert "diagnostic" not in text and "accuracy" not in text and "non_private" not in text


def test_the_non_private_baseline_has_no_diagnostics():
    X, y, K = _blobs(n=600)
    clf = BoostedHalfspaceClassifier(n_rounds=5, classes=list(range(K))).fit(X, y)
    assert "diagnostics_" not in vars(clf)


@pytest.mark.parametrize("mode, plan", [
    ("joint", "7 joint 4-class boosting rounds on 600 rows x 5 features; estimated"),
    ("ovr", "4 one-vs-rest runs of 7 boosting rounds on 600 rows x 5 features; estimated"),
])
def test_verbose_prints_the_plan_and_drives_the_bar(mode, plan, capsys, monkeypatch):
    import dpboost.progress as progress

    X, y, K = _blobs(n=600)
    _fit(X, y, K, mode, n_rounds=7)
    assert capsys.readouterr().err == ""  # verbose=0: silent
    ticks = []

    def counting(*args, **kwargs):
        callback, close = original(*args, **kwargs)
        return (lambda t, mu, h: ticks.append(t)), close

    original = progress.round_callback
    monkeypatch.setattr(progress, "round_callback", counting)
    _fit(X, y, K, mode, n_rounds=7, verbose=1)
    err = capsys.readouterr().err
    assert f"PrivateHalfspaceClassifier: {plan}" in err
    assert len(ticks) == (7 if mode == "joint" else 4 * 7)  # every round of every problem


@pytest.mark.parametrize("mode", MODES)
def test_on_dask_the_same_statistics_and_the_same_model(mode):
    da = pytest.importorskip("dask.array")
    import dask

    X, y, K = _blobs(n=1200)
    kw = dict(n_rounds=6, random_state=5)
    Xd, yd = da.from_array(X, chunks=(500, X.shape[1])), da.from_array(y, chunks=500)
    with dask.config.set(scheduler="synchronous"):
        plain = _fit(Xd, yd, K, mode, **kw)
        watched = _fit(Xd, yd, K, mode, diagnostics=True, verbose=1, **kw)
    _same_model(plain, watched)
    mem = _fit(X, y, K, mode, diagnostics=True, **kw).diagnostics_
    got = watched.diagnostics_
    assert got.keys() == mem.keys()
    # the chunked sums may differ from memory by a grid step (tests/distributed); compare the
    # statistics when they do not
    if np.array_equal(plain.released_centres_, _fit(X, y, K, mode, **kw).released_centres_):
        for key in ("training_accuracy_by_round", "fraction_at_cap_by_round",
                    "fraction_margin_at_most_gamma"):
            assert got[key] == mem[key], key
        assert got["max_mu_hat_times_kappa_n"] == pytest.approx(
            mem["max_mu_hat_times_kappa_n"], rel=1e-12)
