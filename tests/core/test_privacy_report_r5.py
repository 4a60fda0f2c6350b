"""Theory mode's utility claim in the privacy report (round 5).

``utility_guarantee_applies`` is True only when ``sigma <= sigma_util`` *and* Algorithm 5's
settings were not overridden: an explicit ``n_rounds``, ``kappa`` or ``learning_rate``
replaces the values Theorem 24 / Lemma 38 are proved for, so the guarantee is void however
small the noise (class docstring).  Kills PR09 (the flag ignoring the override): a run with
``n_rounds=5`` has a tiny ``sigma`` and would be reported as carrying the theorem's accuracy
guarantee, which five rounds do not.
"""

from __future__ import annotations

import warnings

import numpy as np

from dpboost import PrivateHalfspaceClassifier


def test_an_overridden_theory_run_claims_no_utility_guarantee():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12000, 2))  # sigma ~ 0.0085 < sigma_util ~ 0.0185
    X /= 2 * np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X[:, 0] > 0, 1, 0)
    clf = PrivateHalfspaceClassifier(10.0, 1e-6, margin=0.5, n_rounds=5, classes=[0, 1],
                                     random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = clf.fit(X, y).privacy_report_
    assert rep["mode"] == "theory"
    assert rep["sigma_at_most_sigma_util"] is True  # the noise alone would allow it
    assert rep["utility_guarantee_applies"] is False
