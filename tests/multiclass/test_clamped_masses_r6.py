"""Round-6 mutation gaps of :func:`dpboost.multiclass_prior.clamped_masses`: the floor is
``max(3 noise_sd, 1e-3 max_k W[k, -1])``, both terms binding in their own regime."""

from __future__ import annotations

import numpy as np

from dpboost.multiclass_prior import clamped_masses


def test_without_noise_the_floor_is_a_thousandth_of_the_largest_mass():
    W = np.array([[0.1, 2.0], [0.3, -0.5], [0.0, 1e-6], [0.2, 0.01]])
    np.testing.assert_allclose(clamped_masses(W, 0.0), [2.0, 2e-3, 2e-3, 0.01], rtol=1e-15)


def test_the_larger_of_the_two_floors_binds():
    W = np.array([[0.0, 10.0], [0.0, 0.001], [0.0, 0.05]])
    np.testing.assert_allclose(clamped_masses(W, 0.002), [10.0, 0.01, 0.05], rtol=1e-15)
    np.testing.assert_allclose(clamped_masses(W, 0.01), [10.0, 0.03, 0.05], rtol=1e-15)


def test_the_clamp_is_scale_equivariant_in_the_masses():
    rng = np.random.default_rng(0)
    W = rng.normal(0, 1, (6, 4))
    np.testing.assert_allclose(clamped_masses(7.0 * W, 0.0), 7.0 * clamped_masses(W, 0.0),
                               rtol=1e-14)
