"""``predict_proba`` follows the fitted model, not a ``set_params`` after the fit (red team,
session 37): a model fitted without calibration offered ``predict_proba`` once
``calibration="private"`` was set (sigmoids of raw scores, near 0.5, presented as calibrated),
and a calibrated one hid it after ``calibration="none"``."""

from __future__ import annotations

import pickle
import warnings

import numpy as np

from dpboost import PrivateHalfspaceClassifier, make_margin_data


def _fit(**params):
    X, y = make_margin_data(1500, 4, 0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], random_state=0,
                                          **params).fit(X, y), X


def test_set_params_after_fit_does_not_change_predict_proba():
    plain, _ = _fit(n_rounds=20, kappa=0.25)  # pinned: "auto" calibrates nothing
    assert not hasattr(plain, "predict_proba")
    plain.set_params(calibration="private")
    assert not hasattr(plain, "predict_proba")
    assert not hasattr(pickle.loads(pickle.dumps(plain)), "predict_proba")
    calibrated, X = _fit()
    expected = calibrated.predict_proba(X[:5])
    calibrated.set_params(calibration="none")
    assert np.array_equal(calibrated.predict_proba(X[:5]), expected)
    unfitted = PrivateHalfspaceClassifier(1.0, 1e-6, calibration="none")
    assert not hasattr(unfitted, "predict_proba")  # before a fit: as the parameters say
    assert hasattr(unfitted.set_params(calibration="private"), "predict_proba")
