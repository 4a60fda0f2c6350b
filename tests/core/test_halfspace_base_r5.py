"""A refit forgets every fitted attribute of the earlier fit (mutation round 5).

``_BoostedHalfspaceBase._forget_fit`` deletes the public attributes ending in ``_`` before a
new fit.  Kills HB16 (the ``delattr`` skipped): a refit with ``diagnostics=False`` after one
with ``diagnostics=True`` then kept ``diagnostics_``, NON-private statistics of the *earlier*
training data, beside a model that claims to release only private output; and a binary refit
after a multiclass fit kept the multiclass ``temperature_``-like attributes.
"""

from __future__ import annotations

import warnings

import numpy as np

from dpboost import PrivateHalfspaceClassifier


def _data(n=300, d=3, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / 3
    y = (np.arange(n) % classes)
    return X, y


def _fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y)


def test_a_refit_without_diagnostics_drops_the_earlier_non_private_diagnostics():
    X, y = _data()
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], n_rounds=5, kappa=0.25,
                                     diagnostics=True, random_state=0)
    _fit(est, X, y)
    assert est.diagnostics_["non_private"] is True
    _fit(est.set_params(diagnostics=False), X, y)
    assert not hasattr(est, "diagnostics_")


def test_a_refit_keeps_only_the_attributes_of_its_own_kind_of_fit():
    """Every public fitted attribute after a refit is one a fresh fit of that kind sets."""
    X3, y3 = _data(classes=3)
    X2, y2 = _data(seed=1)
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], n_rounds=5, kappa=0.25,
                                     random_state=0)
    _fit(est, X3, y3)
    _fit(est.set_params(classes=[0, 1]), X2, y2)
    fresh = _fit(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], n_rounds=5, kappa=0.25,
                                            random_state=0), X2, y2)

    def public(e):
        return {k for k in vars(e) if k.endswith("_") and not k.startswith("_")}

    assert public(est) == public(fresh), public(est) ^ public(fresh)
