"""A multiclass fit reports ``noise_ratio`` and warns when it reaches 1, as a binary fit does.

Before session 24 the multiclass report carried no noise figure: 300 digits rows at
epsilon 0.5 predicted below chance (held-out accuracy 0.03-0.06 against 0.1) without a word.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_digits

from dpboost import NoiseDominatesWarning, PrivateHalfspaceClassifier
from dpboost.privacy_report import NOISE_WARNING_RATIO


def _digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0 / 8.0, y  # rows in the unit ball (64 features in [0, 1/8])


def _fit(X, y, epsilon, mode="joint", seed=0):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = PrivateHalfspaceClassifier(target_epsilon=epsilon, target_delta=1e-6,
                                         classes=list(range(10)), multiclass=mode,
                                         random_state=np.random.default_rng(seed)).fit(X, y)
    noisy = [w for w in caught if issubclass(w.category, NoiseDominatesWarning)]
    return est, noisy


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_the_ratio_is_the_formula_of_public_and_released_values(mode):
    X, y = _digits()
    est, _ = _fit(X[:400], y[:400], 1.0, mode)
    report = est.privacy_report_
    T, K, d = est.released_centres_.shape
    assert (T, K) == (report["n_rounds"], 10)
    assert report["noise_ratio"] == pytest.approx(
        report["sigma"] * np.sqrt(d / T) / report["norm_bound"], rel=1e-12)


def test_the_ratio_does_not_depend_on_the_labels():
    """Two datasets of the same public shape (true and permuted labels) get the same ratio."""
    X, y = _digits()
    ratios = {_fit(X[:400], labels, 1.0)[0].privacy_report_["noise_ratio"]
              for labels in (y[:400], np.random.default_rng(3).permutation(y[:400]))}
    assert len(ratios) == 1


def test_a_fit_at_chance_warns_and_a_good_one_does_not():
    X, y = _digits()
    small, noisy = _fit(X[:300], y[:300], 0.5)
    assert small.privacy_report_["noise_ratio"] >= NOISE_WARNING_RATIO
    assert len(noisy) == 1 and "the noise dominates" in str(noisy[0].message)
    accuracy = np.mean(small.predict(X[1000:]) == y[1000:])
    assert accuracy < 0.2  # measured 0.064 (seed 0); chance is 0.1
    large, noisy = _fit(X[:1500], y[:1500], 5.0)
    assert large.privacy_report_["noise_ratio"] < 0.1 and not noisy
