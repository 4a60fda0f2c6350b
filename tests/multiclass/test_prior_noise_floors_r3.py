"""Pins the noise-aware floors of ``dpboost.multiclass_prior`` (post-processing of releases).

Kills mutant M04 (``mass_factors`` drops the ``3 noise_sd`` floor on a class's released mass)
and guards M03 (``imbalanced`` drops the ``+ 2 noise_sd`` on the smallest count).

Why these properties: a released mass or count is only known to within its noise; the
documented rules are ``m_k >= max(3 noise_sd, 1e-3 max m)`` (``balance_centres``: a mass at the
noise level must not be divided out, which would amplify a centre that is mostly noise) and
"imbalanced beyond the noise": ``max - 2 sd >= 2 max(min + 2 sd, 1)``.  The expected values are
written out from those formulas.
"""

import numpy as np
import pytest

from dpboost.multiclass_prior import balance_centres, imbalanced, mass_factors


def test_mass_factors_floor_masses_at_three_noise_sd():
    W = np.array([[0.5, 0.9], [0.2, 0.1], [0.0, -0.02]])
    sd = 0.1
    m = np.maximum(W[:, -1], max(3 * sd, 1e-3 * 0.9))  # [0.9, 0.3, 0.3]
    np.testing.assert_allclose(mass_factors(W, sd), m.mean() / m, rtol=1e-12)
    np.testing.assert_allclose(balance_centres(W, sd), W * (m.mean() / m)[:, None], rtol=1e-12)
    assert mass_factors(W, sd).max() == pytest.approx(0.5 / 0.3)


@pytest.mark.parametrize("counts,sd,expected", [
    ([100, 30], 5.0, True),     # 90 >= 2 * 40
    ([100, 40], 5.0, False),    # 90 < 2 * 50
    ([100, 45], 3.0, False),    # 94 < 2 * 48
    ([100, 44], 2.0, True),     # 96 >= 2 * 48
    ([100, 46], 2.0, False),    # 96 < 2 * 50
])
def test_imbalance_allows_for_the_noise_on_both_ends(counts, sd, expected):
    assert imbalanced(np.array(counts), sum(counts), noise_sd=sd) is expected
