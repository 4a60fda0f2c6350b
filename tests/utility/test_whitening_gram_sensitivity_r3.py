"""Pins the L2 sensitivity the whitening's second-moment release is calibrated to.

Kills mutant W01 (``sensitivity = R^2`` instead of ``sqrt 2 R^2`` in ``whitening.mechanism``).

Why this property: the release is the upper triangle (diagonal included) of ``sum_i x_i x_i^T``
over rows with ``||x|| <= R``.  Replacing one row changes it by ``u(x) - u(x')`` with
``u(x) = upper(x x^T)``; ``||u(x)||^2 = (||x||^4 + sum x_k^4)/2 <= R^4`` and
``<u(x), u(x')> = ((x.x')^2 + sum x_k^2 x'_k^2)/2 >= 0``, so ``||u(x) - u(x')|| <= sqrt 2 R^2``,
attained by two orthogonal coordinate vectors.  The mechanism's ``sensitivity`` must be at least
the change of the very vector it releases (``gram(X)[triu]``) for such a pair, and for random
pairs on the sphere; the noise's sigma is then ``sensitivity * z`` with the event's ``z``.
"""

import math

import numpy as np
import pytest

from dpboost import whitening


def _upper(X):
    G = X.T @ X
    return G[np.triu_indices(X.shape[1])]


@pytest.mark.parametrize("R", [0.5, 1.0, 3.0])
def test_sensitivity_covers_the_worst_neighbour(R):
    n, d, rho = 50, 4, 0.01
    mech = whitening.mechanism(n, d, R, rho)
    X = np.zeros((n, d))
    X[:, 1] = R / 2
    X2 = X.copy()
    X[0] = [R, 0, 0, 0]
    X2[0] = [0, 0, R, 0]
    change = float(np.linalg.norm(_upper(X) - _upper(X2)))
    assert change == pytest.approx(math.sqrt(2) * R * R, rel=1e-12)
    assert mech.sensitivity >= change * (1 - 1e-12)
    rng = np.random.default_rng(1)
    for _ in range(200):
        x, x2 = rng.normal(size=(2, d))
        x *= R / np.linalg.norm(x)
        x2 *= R / np.linalg.norm(x2)
        Xa, Xb = X.copy(), X.copy()
        Xa[0], Xb[0] = x, x2
        assert np.linalg.norm(_upper(Xa) - _upper(Xb)) <= mech.sensitivity * (1 + 1e-12)


def test_noise_scale_matches_the_event():
    R, rho = 1.0, 0.003
    mech = whitening.mechanism(1000, 5, R, rho)
    z = whitening.second_moment_event(rho).noise_multiplier
    assert 1.0 / (2.0 * z * z) <= rho * (1 + 1e-12)
    assert mech.sigma >= math.sqrt(2) * R * R * z * (1 - 1e-9)
