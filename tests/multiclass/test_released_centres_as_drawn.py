"""``released_centres_`` of a multiclass fit are the rounds' releases as drawn.

A red team (session 39) found them to be the class prior's rescaled and shrunk centres
whenever the prior applied, while the estimator documents "the rounds' releases exactly as
drawn, on the public grid"; the discriminants of the temperature's draw are built from the
releases, so they could not be recomputed from the fitted attributes.  These tests fail on
that code.
"""

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.multiclass_prior import mass_factors

from test_session20_imbalanced import _imbalanced


@pytest.fixture(scope="module")
def fitted():
    Xtr, ytr, _, _ = _imbalanced()
    return PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(Xtr,
                                                                                           ytr)


def test_the_released_centres_lie_on_the_public_grid(fitted):
    report = fitted.privacy_report_
    assert report["class_prior"]["log_prior"] is not None
    R, g = report["norm_bound"], report["grid_granularity"]
    steps = fitted.released_centres_ * R * R / g  # z_hat_t / R^2 on the grid g Z^d
    assert np.all(np.isfinite(steps))
    assert np.max(np.abs(steps - np.round(steps))) < 1e-6


def test_the_prior_rescales_what_was_released_not_the_attribute(fitted):
    """The counts were imbalanced, so the prior's centres differ from the release: the mean
    release's class masses are not all equal to the prior's rescaled ones."""
    W = fitted.released_centres_.mean(axis=0)
    noise_sd = fitted.privacy_report_["sigma"] / (
        fitted.privacy_report_["norm_bound"] ** 2 * np.sqrt(fitted.privacy_report_["n_rounds"]))
    factors = mass_factors(W, noise_sd)
    assert not np.allclose(factors, factors[0])  # the prior would have changed the centres
    assert fitted.released_centres_.shape == (fitted.privacy_report_["n_rounds"], 3,
                                              W.shape[1])
