"""The private cut's slope, pulled halfway (in log) toward the public ``2 sqrt(d)`` for the
probabilities (session 21): a formula, the cut and ``predict`` untouched, and the Brier gain
on breast cancer replayed on the same fits."""

from __future__ import annotations

import math

import numpy as np
from breast_cases import breast_split
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit

from dpboost import private_threshold as pt
from dpboost.estimator import PrivateHalfspaceClassifier


@settings(max_examples=200, deadline=None)
@given(j=st.integers(0, 40), d=st.integers(1, 5000))
def test_the_probability_slope_is_the_geometric_mean_and_lies_between(j, d):
    drawn = 2.0 ** (j / 2)
    fit = pt.ThresholdFit(0.0, drawn, 1, 1, 1.0, 1.0, pt.prior_slope(d))
    prior = 2.0 * math.sqrt(d)
    assert math.isclose(fit.probability_slope, math.sqrt(drawn * prior), rel_tol=1e-12)
    assert min(drawn, prior) * (1 - 1e-12) <= fit.probability_slope
    assert fit.probability_slope <= max(drawn, prior) * (1 + 1e-12)
    assert pt.ThresholdFit(0.0, drawn, 1, 1, 1.0, 1.0).probability_slope == drawn


def _breast(seed, eps):
    Z, y, Zt, yt = breast_split()
    clf = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1],
                                     random_state=np.random.default_rng(seed)).fit(Z, y)
    return clf, Zt, yt


def test_the_cut_and_predict_are_untouched_and_brier_falls_on_breast_cancer():
    # 8 seeds at epsilon = 2 (427 rows: the private cut's path).  Each fit is scored twice on
    # its held-out rows: with the slope used (sqrt(a 2 sqrt(d))) and with the drawn a alone.
    # Measured when written: mean Brier 0.097 -> 0.082 (helper replay, 8 seeds); the test
    # asserts only that the mean falls.
    used, drawn = [], []
    for seed in range(8):
        clf, X, y = _breast(seed, 2.0)
        cut = clf.threshold_
        assert cut is not None and clf.privacy_report_["threshold"]["probability_slope"] == \
            cut.probability_slope
        p = clf.predict_proba(X)[:, 1]
        log_odds = clf.decision_function(X)
        u = log_odds / cut.probability_slope + cut.threshold  # the score the cut was drawn on
        np.testing.assert_array_equal(clf.predict(X), (u > cut.threshold).astype(int))
        used.append(np.mean((p - y) ** 2))
        drawn.append(np.mean((expit(cut.slope * (u - cut.threshold)) - y) ** 2))
    assert np.mean(used) < np.mean(drawn)
