"""PrivateHalfspaceClassifier: calibration from public quantities only, modes, input handling."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from _core_helpers import margin_data

from accounting import DiscreteGaussianEvent, SelfComposedEvent, calibrate_noise
from dpboost.defaults import adaptive_rounds
from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier, clip_rows
from dpboost.exceptions import PrivacyLeakWarning
from dpboost.theory import algorithm5_parameters, sigma_util

P = PrivateHalfspaceClassifier


def _fit(X, y, **kw):
    kw.setdefault("classes", [-1, 1])
    kw.setdefault("random_state", 0)
    kw.setdefault("n_rounds", 20)
    kw.setdefault("kappa", 0.25)
    kw.setdefault("calibration", None)  # the rounds alone: the historical plan
    return P(kw.pop("eps", 1.0), kw.pop("delta", 1e-6), **kw).fit(X, y)


def test_noise_is_the_smallest_that_meets_the_target():
    X, y, _ = margin_data(2000, 5, 0.1, seed=1)
    clf = _fit(X, y, n_rounds=50, kappa=0.2, norm_bound=1.0)
    rep = clf.privacy_report_
    z = calibrate_noise(target_epsilon=1.0, target_delta=1e-6, count=50,
                        mechanism="discrete_gaussian").noise_multiplier
    assert rep["noise_multiplier"] == pytest.approx(z, rel=1e-12)
    assert rep["accounting_method"] == "cks"  # the discrete Gaussian is accounted via zCDP
    exact = 2.0 / (0.2 * 2000)
    assert rep["sensitivity_exact_arithmetic"] == pytest.approx(exact)
    # the grid adds g sqrt(d) <= Delta / 1024, the float bound 2E far less
    assert exact < rep["sensitivity"] <= exact * (1 + 1 / 1024 + 1e-9)
    assert z * rep["sensitivity"] <= rep["sigma"] <= z * rep["sensitivity"] * (1 + 1e-3)
    assert rep["epsilon"]["best"] <= 1.0 + 1e-9
    assert rep["epsilon"]["best"] >= 1.0 - 1e-4  # the smallest noise: the budget is used
    assert rep["rho"] == pytest.approx(50 / (2 * z**2))
    assert rep["mu"] is None  # not a continuous Gaussian: no GDP claim
    assert clf.privacy_event_ == SelfComposedEvent(DiscreteGaussianEvent(noise_multiplier=z),
                                                   count=50)
    paper = _fit(X, y, n_rounds=50, kappa=0.2, sensitivity="paper").privacy_report_
    assert paper["sigma"] == pytest.approx(2 * rep["sigma"], rel=2e-3)
    assert rep["sigma_util"] is None and rep["utility_guarantee_applies"] is None


def test_no_data_derived_parameter():
    X1, y1, _ = margin_data(1500, 4, 0.1, seed=2)
    rng = np.random.default_rng(9)
    X2 = rng.normal(size=(1500, 4)) * 5.0  # different data, far outside the ball
    y2 = rng.choice([-1, 1], 1500)
    r1 = _fit(X1, y1).privacy_report_
    r2 = _fit(X2, y2).privacy_report_
    r3 = _fit(X1 * 1000.0, y1).privacy_report_  # scaled up, rows then clipped
    def public(report):  # signal_ratio is read from the released centres (post-processing)
        return {k: v for k, v in report.items() if k != "signal_ratio"}

    assert public(r1) == public(r2) == public(r3)
    assert r1["sigma"] == r2["sigma"] == r3["sigma"]


def test_rows_are_clipped_row_by_row():
    X, y, _ = margin_data(500, 3, 0.1, seed=3)
    big = X * np.linspace(0.5, 40.0, 500)[:, None]
    clipped = clip_rows(big, 1.0)
    norms = np.linalg.norm(clipped, axis=1)
    assert norms.max() <= 1.0
    inside = np.linalg.norm(big, axis=1) <= 1.0
    np.testing.assert_array_equal(clipped[inside], big[inside])
    np.testing.assert_allclose(norms[~inside], 1.0, rtol=1e-12)
    a = _fit(big, y)
    b = _fit(clipped, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9, atol=1e-12)
    assert clip_rows(X, 1.0) is X  # nothing to clip: no copy


def test_float32_rows_clip_within_the_bound():
    X = (np.random.default_rng(0).normal(size=(1000, 7)) * 3).astype(np.float32)
    c = clip_rows(X, 1.0)
    assert c.dtype == np.float32
    assert np.sqrt(np.einsum("ij,ij->i", c, c, dtype=np.float64)).max() <= 1.0


def test_seeded_determinism():
    X, y, _ = margin_data(1000, 4, 0.1, seed=4)
    a, b, c = _fit(X, y, random_state=5), _fit(X, y, random_state=5), _fit(X, y, random_state=6)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


@pytest.mark.slow
def test_accuracy_on_separable_margin_data():
    # tau = 0.1, d = 20, n = 50,000, (1, 1e-6)-DP, defaults.  Noise on the mean of T = 100
    # centres: sigma / sqrt(T) ~ 0.0068 / 10 ~ 7e-4 per coordinate, far below the margin
    # direction's signal (~tau/4), so accuracy >= 0.9 holds with a wide margin (measured 1.0).
    X, y, _ = margin_data(60_000, 20, 0.1, seed=0)
    clf = P(1.0, 1e-6, classes=[-1, 1], random_state=0).fit(X[:50_000], y[:50_000])
    assert clf.score(X[50_000:], y[50_000:]) >= 0.9
    rep = clf.privacy_report_
    rounds = next(m for m in rep["mechanisms"] if m["name"].startswith("boosting rounds"))
    # the rounds see d + 1 = 21 coordinates: the centred features and the constant
    assert rep["n_rounds"] == adaptive_rounds(rep["kappa"], 50_000, 21, rounds["rho"])
    assert clf.privacy_report_["kappa"] == 0.25
    assert clf.privacy_report_["learning_rate"] == 5.0


@pytest.mark.slow
def test_theory_mode_settings_and_theorem24_margin():
    # margin 0.9, accuracy 0.9: kappa = 0.225, gamma = 0.1125, lambda = gamma/4, T = 1885
    X, y, _ = margin_data(8000, 2, 0.9, seed=5)
    clf = P(20.0, 1e-6, margin=0.9, accuracy=0.9, classes=[-1, 1], diagnostics=True,
            random_state=0).fit(X, y)
    p = algorithm5_parameters(margin=0.9, accuracy=0.9)
    rep = clf.privacy_report_
    assert (rep["kappa"], rep["learning_rate"], rep["n_rounds"]) == (
        p.kappa, p.gamma / 4, p.n_rounds)
    assert rep["learning_rate"] == pytest.approx(0.9 / 32)
    assert rep["n_rounds"] == math.ceil(16 * math.log(1 / 0.225) / (0.9 / 8) ** 2)
    assert rep["sigma_util"] == pytest.approx(sigma_util(0.9, p.n_rounds, 0.05))
    assert rep["mode"] == "theory"
    assert rep["utility_guarantee_applies"] is True and rep["sigma"] <= rep["sigma_util"]
    assert rep["sigma_at_most_sigma_util"] is True
    diag = clf.diagnostics_
    assert diag["non_private"] is True
    assert diag["gamma"] == pytest.approx(0.9 / 8)
    # Theorem 24: Pr[y H(x) <= gamma] <= kappa when every round had advantage gamma
    assert diag["fraction_margin_at_most_gamma"] <= rep["kappa"]
    assert diag["max_mu_hat_times_kappa_n"] <= 1 + 1e-9
    assert clf.score(X, y) >= 0.99


def test_theory_mode_override_and_small_n_voids_utility_only():
    X, y, _ = margin_data(600, 3, 0.5, seed=6)
    clf = _fit(X, y, margin=0.5, n_rounds=30)  # overridden T
    assert clf.privacy_report_["utility_guarantee_applies"] is False
    assert clf.privacy_report_["epsilon"]["best"] <= 1.0 + 1e-9


def test_staged_decision_function():
    X, y, _ = margin_data(400, 3, 0.1, seed=7)
    clf = _fit(X, y, n_rounds=15)
    stages = list(clf.staged_decision_function(X))
    assert len(stages) == 15 == clf.hypothesis_coefs_.shape[0]
    np.testing.assert_allclose(stages[-1], clf.decision_function(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(stages[4], X @ clf.hypothesis_coefs_[:5].mean(axis=0),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(clf.coef_, clf.hypothesis_coefs_.mean(axis=0))
    assert clf.intercept_ == 0.0


def test_float32_input_is_kept_and_works():
    X, y, _ = margin_data(3000, 5, 0.1, seed=8)
    a = _fit(X.astype(np.float32), y, n_rounds=30)
    b = _fit(X, y, n_rounds=30)
    assert a.decision_function(X.astype(np.float32)).dtype == np.float32
    assert abs(a.score(X, y) - b.score(X, y)) <= 0.02
    assert a.privacy_report_ == b.privacy_report_


def test_labels_declared_inferred_and_strings():
    X, y, _ = margin_data(300, 3, 0.1, seed=9)
    s = np.where(y > 0, "spam", "ham")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = _fit(X, s, classes=["ham", "spam"])
    assert list(clf.classes_) == ["ham", "spam"]
    assert set(clf.predict(X)) <= {"ham", "spam"}
    assert clf.privacy_report_["labels_inferred_from_data"] is False
    with pytest.warns(PrivacyLeakWarning, match="classes=") as rec:
        clf = _fit(X, s, classes=None)
    assert "leak" in str(rec[0].message)
    assert clf.privacy_report_["labels_inferred_from_data"] is True
    # declared classes may be absent from y (the label set is not learned from data)
    _fit(X, np.full(300, "ham"), classes=["ham", "spam"])


@pytest.mark.parametrize(
    "y_kind, classes, match",
    [
        ("three", [0, 1], "not in classes"),  # three or more classes: tests/multiclass
        ("one", None, "one class"),
    ],
)
def test_label_errors(y_kind, classes, match):
    X = np.random.default_rng(0).normal(size=(30, 2)) / 3
    y = {"three": np.arange(30) % 3, "two": np.arange(30) % 2, "one": np.zeros(30)}[y_kind]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyLeakWarning)
        with pytest.raises(ValueError, match=match):
            _fit(X, y, classes=classes)


def test_nan_row_is_named():
    X = np.random.default_rng(0).normal(size=(50, 3)) / 3
    X[17, 1] = np.nan
    with pytest.raises(ValueError, match="first bad row: 17"):
        _fit(X, np.arange(50) % 2 * 2 - 1)
    X[17, 1] = np.inf
    with pytest.raises(ValueError, match="first bad row: 17"):
        _fit(X, np.arange(50) % 2 * 2 - 1)


@pytest.mark.parametrize(
    "kw, exc, match",
    [
        ({"eps": 0.0}, ValueError, "'target_epsilon' parameter of PrivateHalfspaceClassifier"),
        ({"eps": float("inf")}, ValueError, "'target_epsilon'.*float in \\[1e-09, 1e\\+06\\]"),
        ({"norm_bound": float("inf")}, ValueError, "'norm_bound'"),
        ({"delta": 1.0}, ValueError, "'target_delta'.*float in \\(0, 1\\)"),
        ({"delta": "x"}, TypeError, "'target_delta'"),
        ({"kappa": 1.5}, ValueError, ("'kappa' parameter of PrivateHalfspaceClassifier must "
                                      "be a float in \\(0, 1\\). Got 1.5 instead.")),
        ({"kappa": 0.01}, ValueError, "kappa \\* n_samples >= 1"),
        ({"n_rounds": 0}, ValueError, "'n_rounds'"),
        ({"n_rounds": 2.5}, TypeError, "'n_rounds'"),
        ({"learning_rate": -1.0}, ValueError, "'learning_rate'"),
        ({"norm_bound": 0.0}, ValueError, "'norm_bound'"),
        ({"margin": 1.5}, ValueError, "'margin'"),
        ({"accuracy": 1.0}, ValueError, "'accuracy'"),
        ({"accounting": "rdp"}, ValueError, "'accounting'"),
        ({"sensitivity": "loose"}, ValueError, "'sensitivity'"),
        ({"diagnostics": "yes"}, TypeError, "'diagnostics'"),
        ({"random_state": "seed"}, TypeError, "'random_state'"),
    ],
)
def test_parameter_errors_use_the_house_template(kw, exc, match):
    X = np.random.default_rng(0).normal(size=(50, 2)) / 3
    with pytest.raises(exc, match=match):
        _fit(X, np.arange(50) % 2 * 2 - 1, **kw)


def test_diagnostics_only_when_asked():
    X, y, _ = margin_data(300, 3, 0.1, seed=10)
    assert not hasattr(_fit(X, y), "diagnostics_")


def test_nonprivate_baseline_is_accurate_and_declares_no_privacy():
    from accounting import NonPrivateEvent

    X, y, _ = margin_data(3000, 10, 0.1, seed=11)
    clf = BoostedHalfspaceClassifier(classes=[-1, 1]).fit(X, y)
    assert clf.privacy_event_ == NonPrivateEvent()
    assert clf.score(X, y) >= 0.97
