"""Pins the slope draw's sensitivity in ``dpboost.private_threshold`` (documented ``2^10 + 2``).

Kills mutant T02 (``BRIER_SENSITIVITY = BRIER_GRID + 1``).

Why this property: the slope is drawn by the exponential mechanism with
``eta = sqrt(2 s rho) / Delta`` per Brier step; its privacy argument (module docstring, item 5,
and :func:`brier_utilities`) takes ``Delta = 2^10 + 2`` steps: one row moves the real sum by at
most 1 (``2^10`` steps) plus two roundings of the correctly rounded sum.  So ``eta * (2^10 + 2)``
must stay within ``sqrt(2 s rho)`` (the share's bounded-range epsilon / 2, Cesar & Rogers 2021
L. 3.2); with a smaller ``Delta`` it exceeds it by ``1/(2^10 + 1)``.  The same holds for the
temperature draw of :mod:`dpboost.private_temperature`, which shares the constant.  The bound
itself is checked on adversarial neighbours (one row replaced by its opposite label).
"""

import math

import numpy as np
import pytest

from dpboost.private_temperature import temperature_eta
from dpboost.private_threshold import SLOPE_SHARE, brier_utilities, threshold_etas

DELTA_STEPS = 2 ** 10 + 2


@pytest.mark.parametrize("rho", [1e-4, 2e-4, 0.003, 0.05, 0.7, 3.0])
def test_slope_eta_times_documented_sensitivity_is_within_its_share(rho):
    _, slope = threshold_etas(rho)
    budget = math.sqrt(2.0 * SLOPE_SHARE * rho)
    assert float(slope * DELTA_STEPS) <= budget
    assert float(slope * DELTA_STEPS) > budget * (1 - 1e-8)  # and nothing is wasted


@pytest.mark.parametrize("rho", [1e-4, 0.003, 0.7])
def test_temperature_eta_times_documented_sensitivity_is_within_rho(rho):
    assert float(temperature_eta(rho) * DELTA_STEPS) <= math.sqrt(2.0 * rho)


def test_one_row_moves_the_utilities_by_at_most_the_sensitivity():
    rng = np.random.default_rng(3)
    slopes = 2.0 ** (np.arange(17) / 2)
    worst = 0
    for _ in range(40):
        n = int(rng.integers(2, 300))
        u = rng.uniform(-1, 1, n)
        y = rng.choice([-1, 1], n)
        cut = float(rng.uniform(-0.5, 0.5))
        i = int(rng.integers(n))
        y2, u2 = y.copy(), u.copy()
        y2[i], u2[i] = -y[i], -np.sign(y[i]) * 1.0
        diff = np.abs(brier_utilities(u, y, cut, slopes) - brier_utilities(u2, y2, cut, slopes))
        worst = max(worst, int(diff.max()))
    assert 2 ** 10 - 64 <= worst <= DELTA_STEPS
