"""A multiclass fit given ``n_rounds`` keeps the learned input map, as a binary fit does.

A red team (session 39) found ``--n-rounds`` silently dropping the private centre, whitening,
input scale and class prior of a joint multiclass fit (chem97 at epsilon = 1: 0.343 with the
default, 0.323 with ``--n-rounds`` set to the default's own T).  These tests fail on that code.
"""

import numpy as np
import pytest
from sklearn.datasets import make_classification

from accounting import ZCDPAccountant
from dpboost import PrivateHalfspaceClassifier


def _data():
    X, y = make_classification(6000, 6, n_informative=4, n_classes=3, n_clusters_per_class=1,
                               weights=[0.6, 0.3, 0.1], random_state=0)
    return X / (4 * np.sqrt(6)), y


def _fit(X, y, **kw):
    return PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2], random_state=3,
                                      **kw).fit(X, y)


def test_the_default_rounds_given_explicitly_give_the_same_model():
    X, y = _data()
    learned = _fit(X, y)
    T = learned.privacy_report_["n_rounds"]
    given = _fit(X, y, n_rounds=T)
    assert given.privacy_report_["n_rounds"] == T
    assert given.input_centre_ is not None and given.input_scale_ >= 1.0
    np.testing.assert_array_equal(given.coef_, learned.coef_)
    np.testing.assert_array_equal(given.intercept_, learned.intercept_)
    assert given.privacy_report_["class_prior"] is not None
    assert given.privacy_report_["n_rounds_rule"] == "given"
    for clf in (learned, given):  # both spend the planned rho, within the target
        planned = ZCDPAccountant().compose(clf.planned_privacy_event()).rho
        spent = ZCDPAccountant().compose(clf.privacy_event_).rho
        assert spent == pytest.approx(planned, rel=1e-12)
        assert clf.privacy_report_["epsilon"]["best"] <= 2.0


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_other_given_rounds_keep_the_centre(mode):
    X, y = _data()
    clf = _fit(X, y, n_rounds=40, multiclass=mode)
    assert clf.input_centre_ is not None
    assert (clf.privacy_report_["input_whitening"] is None) == (mode == "ovr")


def test_without_calibration_a_given_t_is_the_historical_plan():
    X, y = _data()
    clf = _fit(X, y, n_rounds=40, calibration="none")
    assert clf.input_centre_ is None and clf.privacy_report_["class_prior"] is None
