"""Weak learners: the noise stream follows the ``rng`` passed, and ``R`` rescales (round 5).

Kills WL07 (``GaussianCenteringHalfspace.fit`` keeps its block of pre-drawn noise when called
with a *different* Generator): the learner would hand a second run the unused draws of the
first run's stream instead of drawing from the stream it was given, so a run's noise is not the
one its ``random_state`` names (a seeded run is no longer reproducible from its seed, and two
runs share one stream's draws).

Kills WL09 (``CenteringHalfspace`` dividing the centre by ``R`` instead of ``R^2``): the
hypothesis must be ``clip(x . z / R^2, -1, 1)``, i.e. the same hypothesis on ``x / R`` with the
centre ``z / R`` (module docstring), which makes it invariant under rescaling the rows and the
bound together.

Kills WL04 (the round's mechanism built without the centre's floating-point error bound ``E``:
the noise must be calibrated to ``Delta' = 2R/(kappa n) + 2E + g sqrt(d)``, the class
docstring's floating-point-safe release) and WL06 (the private hypothesis dividing the released
centre by ``R`` instead of ``R^2``: with ``R != 1`` every released round then scores ``x . z_hat
/ R``, a different halfspace from the one the privacy analysis and the docs describe).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpboost.mechanisms import LatticeNoise, centre_error_bound
from dpboost.round_ops import centre
from dpboost.weak_learners import CenteringHalfspace, GaussianCenteringHalfspace, centering_sum


def _problem(n=200, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= 2 * np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.int8)
    mu = np.full(n, 1.0 / n)
    return X, y, mu


def test_a_new_generator_gets_its_own_noise_not_the_earlier_runs_draws():
    X, y, mu = _problem()
    wl = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25)
    first = wl.fit(X, y, mu, rng=np.random.default_rng(0)).coef
    second = wl.fit(X, y, mu, rng=np.random.default_rng(1)).coef
    fresh = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25)
    np.testing.assert_array_equal(second, fresh.fit(X, y, mu, rng=np.random.default_rng(1)).coef)
    assert not np.array_equal(first, second)


def test_the_same_generator_keeps_drawing_from_its_block():
    """Within one run (the same Generator object) the learner's draws equal a fresh learner's
    run on that seed, round for round."""
    X, y, mu = _problem()
    a = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25)
    b = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25)
    a.fit(X, y, mu, rng=np.random.default_rng(9))  # an earlier run on another stream
    ra, rb = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(3):
        np.testing.assert_array_equal(a.fit(X, y, mu, rng=ra).coef, b.fit(X, y, mu, rng=rb).coef)


@pytest.mark.parametrize("R", [0.25, 3.0])
def test_the_centering_hypothesis_divides_by_R_squared(R):
    X, y, mu = _problem()
    h = CenteringHalfspace(R).fit(X * R, y, mu, rng=np.random.default_rng(0))
    np.testing.assert_allclose(h.coef, centering_sum(X * R, y, mu) / R**2, rtol=1e-15)
    unit = CenteringHalfspace(1.0).fit(X, y, mu, rng=np.random.default_rng(0))
    np.testing.assert_allclose(h(X * R), unit(X), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("n, d, R, mode", [(100, 2, 1.0, "tight"), (5000, 20, 3.0, "paper")])
def test_the_round_is_calibrated_to_the_effective_sensitivity(n, d, R, mode):
    wl = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25, norm_bound=R,
                                    sensitivity=mode)
    mech = wl.mechanism(n, d)
    E = centre_error_bound(n, R)
    assert E > 0 and mech.error_bound == E
    delta = wl.sensitivity(n) + 2 * E + mech.granularity * math.sqrt(d)
    assert wl.effective_sensitivity(n, d) == pytest.approx(delta, rel=1e-15)
    assert wl.sigma(n, d) >= 2.0 * delta * (1 - 1e-12)


@pytest.mark.parametrize("R", [0.5, 4.0])
def test_the_private_hypothesis_is_the_released_centre_over_R_squared(R):
    X, y, mu = _problem()
    X = X * R
    wl = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25, norm_bound=R)
    h = wl.fit(X, y, mu, rng=np.random.default_rng(3))
    weights = mu * y
    z_hat = wl.mechanism(*X.shape).release(centre(X, weights),
                                           rng=LatticeNoise(np.random.default_rng(3)))
    np.testing.assert_array_equal(h.coef, z_hat / R**2)
