"""A fit is invariant under scaling the rows and ``norm_bound`` by the same power of two (round 5).

Every released quantity of a fit is a function of the rows over ``R``: the sensitivities
(``2R/(kappa n)``, ``2R/n``, ``sqrt 2 R^2``), the public grid (a power of two times them), the
float error bound and the calibration's score ``u = x . w / (R ||w||)`` in ``[-1, 1]``.  With
``R = 4`` and rows ``4 x`` every step scales by an exact power of two, so with the same seed the
fit must predict the same probabilities on ``4 x`` as the ``R = 1`` fit on ``x``.

Kills ES12 (the calibration score normalised by ``||w||`` but not by ``R``: with ``R != 1`` the
scores fall outside ``[-1, 1]``, the range the histogram's public bins and the cut's public
candidates are laid out on, so the calibration is fitted to the wrong scale; invisible at
``R = 1``, where every existing test runs it).

Kills PR02 (the report's ``signal_ratio`` taking the mean released centre times ``R`` instead
of ``R^2``): the released centres are ``z_hat / R^2``, so ``R^2`` times their mean is the mean
noisy centre ``z_hat`` whose norm is compared with the noise ``sigma sqrt(d / T)``; both scale
with ``R``, so the ratio (which decides the NoiseDominatesWarning) must not change with it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier


def _data(n, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / (2 * np.sqrt(d))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) / np.sqrt(d) > 0.05, 1, 0)
    return X, y


def _fit(X, y, R):
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], norm_bound=R, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clf.fit(X, y)


@pytest.mark.parametrize("n, path", [(4000, "platt"), (300, "threshold")])
def test_scaling_rows_and_bound_by_four_changes_no_probability(n, path):
    X, y = _data(n)
    one, four = _fit(X, y, 1.0), _fit(4.0 * X, y, 4.0)
    assert (one.calibration_ is not None) == (path == "platt")
    assert (one.threshold_ is not None) == (path == "threshold")
    Xt, _ = _data(500, seed=1)
    np.testing.assert_allclose(four.predict_proba(4.0 * Xt), one.predict_proba(Xt),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(four.released_centres_, one.released_centres_ / 4.0)
    for key in ("signal_ratio", "noise_ratio", "noise_multiplier", "epsilon"):
        assert four.privacy_report_[key] == pytest.approx(one.privacy_report_[key], rel=1e-12)
    assert four.privacy_report_["sigma"] == pytest.approx(4.0 * one.privacy_report_["sigma"],
                                                          rel=1e-12)
