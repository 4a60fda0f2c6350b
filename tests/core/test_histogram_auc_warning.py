"""The "no longer than its own noise" warning reads the released score histogram's AUC too
(red team, session 35).  On a flights table with 1,458 declared airports (d = 1,497, most
coordinates used by no row) every fit warned "expect predictions near chance" at held-out AUC
0.675 (logistic regression 0.681): the Platt spread divides by sqrt(d).  The histogram the
calibration releases ranks the training scores directly; its AUC is post-processing.  Its bins
tie most pairs, so it reads low: 0.56-0.58 below where the training AUC is 0.63-0.65, against
0.49-0.50 for labels independent of the rows and 0.53 for session 32's weak task, which still
warn (tests/core/test_session23_signal_ratio.py)."""

import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from dpboost import PrivateHalfspaceClassifier
from dpboost.privacy_report import HISTOGRAM_AUC_WARNING
from dpboost.private_platt import histogram_auc


def test_histogram_auc_is_the_roc_auc_of_the_binned_scores():
    rng = np.random.default_rng(0)
    for _ in range(300):
        bins = int(rng.integers(1, 12))
        pos, neg = rng.integers(0, 30, bins), rng.integers(0, 30, bins)
        if pos.sum() == 0 or neg.sum() == 0:
            assert histogram_auc(pos, neg) is None
            continue
        scores = np.r_[np.repeat(np.arange(bins), pos), np.repeat(np.arange(bins), neg)]
        labels = np.r_[np.ones(pos.sum()), np.zeros(neg.sum())]
        assert histogram_auc(pos, neg) == pytest.approx(roc_auc_score(labels, scores))
    # noisy counts below zero count as empty cells
    assert histogram_auc(np.array([-3, 0, 5]), np.array([4, 1, -2])) == pytest.approx(1.0)


def _wide(n, seed, k=800, used=50):
    """One of ``k`` one-hot columns (only ``used`` of them occur) and 20 numbers; a weak but
    real signal: the Bayes AUC is about 0.66."""
    rng = np.random.default_rng(seed)
    cat = rng.integers(0, used, n)
    effect = np.random.default_rng(99).normal(0, 0.6, used)
    num = rng.uniform(-1, 1, (n, 20))
    logit = -1.2 + effect[cat] + 0.8 * num[:, 0] - 0.5 * num[:, 1]
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    X = np.zeros((n, k + 20))
    X[np.arange(n), cat] = 1.0
    X[:, k:] = num
    return X / np.sqrt(21.0), y


@pytest.mark.parametrize("seed", [1, 2])
def test_a_weak_real_signal_on_wide_one_hot_rows_does_not_warn(seed):
    X, y = _wide(8000, 0)
    X_test, y_test = _wide(5000, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=seed).fit(X, y)
    report = est.privacy_report_
    auc = report["calibration"]["histogram_auc"]
    # the premise: the old rule fired (signal ratio noise-sized, Platt spread flat)
    assert 0.9 < report["signal_ratio"] < 1.1
    assert report["calibration"]["slope"] / np.sqrt(X.shape[1] + 1) < 0.5
    assert roc_auc_score(y_test, est.decision_function(X_test)) > 0.62
    assert HISTOGRAM_AUC_WARNING <= auc < roc_auc_score(y, est.decision_function(X))
    assert not [w for w in caught if "near chance" in str(w.message)]
