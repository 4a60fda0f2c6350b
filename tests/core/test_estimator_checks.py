"""scikit-learn conformance (parametrize_with_checks) for both halfspace classifiers."""

from __future__ import annotations

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier

# The checks fit without classes=, which (correctly) emits PrivacyLeakWarning; they also use a
# large epsilon so that accuracy checks on 200-300 points are about the estimator contract,
# not about the privacy/utility trade-off.  The first one runs the adaptive defaults (private
# count for kappa, private input scale, private calibration and predict_proba) with T fixed
# at 10 to keep the checks fast (a learned T at epsilon 1e4 is the 1,000-round cap).
ESTIMATORS = [
    PrivateHalfspaceClassifier(target_epsilon=1e4, target_delta=1e-6, n_rounds=10,
                               random_state=0),
    BoostedHalfspaceClassifier(n_rounds=10),
]


@pytest.mark.filterwarnings("ignore::dpboost.exceptions.PrivacyLeakWarning")
@pytest.mark.filterwarnings("ignore::dpboost.exceptions.ClippedRowsWarning")  # random rows
@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)
