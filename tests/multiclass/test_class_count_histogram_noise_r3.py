"""Pins the noise of the multiclass class-count histogram (``dpboost.multiclass_prior``).

Kills mutant M01 (``histogram_variance`` returns ``t m`` instead of ``2 t m``).

Why this property: the plan charges the class counts as the binary count's event
``DiscreteGaussianEvent(sqrt(t m))`` with ``(t, m) = lattice_variance(sqrt(1/(2 rho)))``
(``RunPlan.count_event``), i.e. ``1/(2 t m)``-zCDP for sensitivity 1.  A histogram of class
counts has replace-one L2 sensitivity ``sqrt 2`` (one row leaves a class and joins another), so
with variance ``V`` per cell it is ``2/(2V) = 1/V``-zCDP (CKS20 Thm 14 / Bun & Steinke 2016):
``V`` must be at least ``2 t m`` for the charged event to cover it.  Checked both as the formula
and on the empirical variance of ``private_class_counts`` (10,000 draws: the standard error of a
sample variance is ``V sqrt(2/N) = 1.4%`` of ``V``, the margin 6% is 4 of them; a halved variance
is 50% off).
"""

import math

import numpy as np
import pytest

from accounting import ZCDPAccountant
from accounting.events import DiscreteGaussianEvent
from dpboost.mechanisms import lattice_variance
from dpboost.multiclass_prior import histogram_variance, private_class_counts


@pytest.mark.parametrize("rho", [1e-4, 3e-3, 0.02, 0.5, 4.0])
def test_histogram_variance_is_covered_by_the_charged_event(rho):
    t, m = lattice_variance(math.sqrt(0.5 / rho))
    charged = ZCDPAccountant().compose(DiscreteGaussianEvent(math.sqrt(t * m))).rho
    V = histogram_variance(rho)
    assert 2.0 / (2.0 * V) <= charged * (1 + 1e-12)  # sensitivity sqrt 2
    assert charged <= rho * (1 + 1e-12)
    assert V == 2 * t * m


def test_empirical_variance_of_the_noisy_counts():
    rho = 0.02
    y_idx = np.repeat(np.arange(4), [50, 30, 15, 5])
    rng = np.random.default_rng(7)
    draws = np.array([private_class_counts(y_idx, 4, rho, rng=rng) for _ in range(2500)],
                     dtype=np.float64)
    noise = draws - np.array([50, 30, 15, 5])
    V = histogram_variance(rho)
    assert abs(float(noise.mean())) < 0.05 * math.sqrt(V)
    assert float(noise.var()) == pytest.approx(V, rel=0.06)
