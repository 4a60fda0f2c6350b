"""The private input map's release and constant coordinate, against their formulas (round 5).

Kills IM06: ``mean_mechanism`` built without the floating-point error bound of the centre
(``error_bound=0``).  The mean ``(1/n) sum_i x_i`` is computed in floating point by
:func:`dpboost.round_ops.centre` in any block order; the discrete Gaussian is private as
implemented only if its noise is calibrated to ``Delta' = 2R/n + 2E + g sqrt(d)`` with ``E`` the
public :func:`~dpboost.mechanisms.centre_error_bound` (the same rule as a boosting round).
Dropping ``E`` under-noises every mean release.

Kills IM09: the constant coordinate ``c_0 = R / (2 sqrt(d + 1))`` (module docstring, the report's
``input_centre_rule``) replaced by ``R / (2 sqrt(d))``: the mapped rows then exceed the
documented bound ``R sqrt(1 + 1/(4(d+1)))`` that :meth:`InputMap.transform` states.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpboost.input_map import InputMap, mean_mechanism, private_mean
from dpboost.mechanisms import centre_error_bound


@pytest.mark.parametrize("n, d, R", [(50, 4, 2.0), (1000, 3, 1.0), (20000, 10, 0.5)])
def test_the_mean_release_covers_the_float_error_of_the_centre(n, d, R):
    mech = mean_mechanism(n, d, R, 0.1)
    E = centre_error_bound(n, R)
    assert E > 0
    assert mech.error_bound == E
    g = mech.granularity
    assert mech.effective_sensitivity == pytest.approx(2 * R / n + 2 * E + g * math.sqrt(d),
                                                       rel=1e-15)


def test_the_released_mean_is_calibrated_to_the_effective_sensitivity():
    """sigma = g sqrt(t m) >= noise_multiplier * Delta' (the mechanism's own promise), with
    Delta' including 2E; the empirical noise of private_mean matches that sigma."""
    n, d, R, rho = 200, 3, 1.0, 0.05
    mech = mean_mechanism(n, d, R, rho)
    z = math.sqrt(1.0 / (2.0 * rho))
    delta = 2 * R / n + 2 * centre_error_bound(n, R) + mech.granularity * math.sqrt(d)
    assert mech.sigma >= z * delta * (1 - 1e-12)
    X = np.zeros((n, d))
    draws = np.array([private_mean(X, R, rho, rng=np.random.default_rng(s))
                      for s in range(400)])
    sd = draws.std()  # 1200 draws of N(0, sigma^2): relative error of sd ~ 1/sqrt(2 * 1200)
    assert abs(sd / mech.sigma - 1) < 5 / math.sqrt(2 * draws.size)


@pytest.mark.parametrize("d, R", [(1, 1.0), (4, 2.0), (63, 0.5)])
def test_the_constant_coordinate_is_R_over_2_sqrt_d_plus_1(d, R):
    mean = np.zeros(d)
    mean[0] = -R  # a mean on the sphere and the antipodal row: ||x - m|| = 2R, the largest
    imap = InputMap.for_mean(mean, R)
    assert imap.constant == R / (2.0 * math.sqrt(d + 1))
    x = -mean[None]
    out = imap.transform(x)[0]  # [R e_1, c_0]: the documented bound is attained
    assert out[-1] == imap.constant
    assert np.linalg.norm(out) <= R * math.sqrt(1 + 1 / (4 * (d + 1))) * (1 + 1e-12)
