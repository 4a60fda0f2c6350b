"""The binary rounds rule learns at most 300 rounds (:data:`dpboost.defaults.MAX_LEARNED_ROUNDS`).

On tables with few features ``2 q`` asked for 400-1,000 rounds, and more rounds cost accuracy
(a red team's GSS item: 0.898-0.902 at epsilon = 0.5 with 232 rounds, 0.889-0.892 at 2 with 696;
measured over 17 tasks in :mod:`dpboost.defaults`).  These tests fail on the rule without the
cap; the multiclass rule keeps ``T_max``.
"""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost import PrivateHalfspaceClassifier
from dpboost.defaults import (MAX_LEARNED_ROUNDS, MIN_ROUNDS, ROUNDS_PER_SNR, adaptive_rounds,
                              max_rounds)
from dpboost.multiclass import multiclass_rounds


@settings(max_examples=300, deadline=None)
@given(st.floats(0.01, 0.75), st.integers(2, 10**7), st.integers(1, 2000),
       st.floats(1e-6, 50.0))
def test_the_rule_is_the_clipped_snr_with_the_cap(kappa, n, d, rho):
    q = kappa * n * math.sqrt(2.0 * rho) / math.sqrt(d)
    expected = min(max_rounds(n, d), MAX_LEARNED_ROUNDS, max(MIN_ROUNDS, round(ROUNDS_PER_SNR * q)))
    assert adaptive_rounds(kappa, n, d, rho) == expected
    assert MIN_ROUNDS <= adaptive_rounds(kappa, n, d, rho) <= MAX_LEARNED_ROUNDS == 300


def test_a_few_features_and_many_rows_learn_300_rounds_not_2q():
    """randhie-sized (16,000 rows, 10 features) at epsilon = 1: 2q = 506 before."""
    assert adaptive_rounds(0.25, 16_000, 10, 0.02) == 300
    assert round(ROUNDS_PER_SNR * 0.25 * 16_000 * math.sqrt(0.04) / math.sqrt(10)) == 506


def test_the_multiclass_rule_keeps_t_max():
    T = multiclass_rounds(0.5, 200_000, 10, 1.0)
    assert T == max_rounds(200_000, 10) > MAX_LEARNED_ROUNDS


def test_a_fit_reports_the_capped_rounds():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 3)) / 4
    y = (X[:, 0] + rng.normal(scale=0.3, size=20_000) > 0).astype(int)
    clf = PrivateHalfspaceClassifier(5.0, 1e-6, classes=[0, 1], random_state=0).fit(X, y)
    report = clf.privacy_report_
    assert report["n_rounds"] == 300
    assert report["n_rounds_rule"].endswith("min(T_max, 300))")
    assert clf.privacy_event_ is not None
