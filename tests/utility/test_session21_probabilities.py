"""Session 21: private Platt's probabilities keep the ranking of the score (measured trial).

On the trial's fraud file (9,600 rows, 1.8% positive, epsilon = 1) Platt's slope sat at its floor
``MIN_SLOPE`` in 4 of 8 seeds and every probability was about the base rate; the probability
column's ROC AUC equalled the score's in every seed (0.50-0.55: the score itself ranked nothing
there).  These tests pin that a fit of any noisy histogram maps the score monotonically into
``[0, 1]``, so the probabilities never rank worse than the score.
"""

import numpy as np
from scipy.special import expit

from dpboost.histogram_cuts import MIN_SLOPE
from dpboost.private_platt import private_platt


def test_probabilities_are_monotone_in_the_score_over_random_histograms():
    rng = np.random.default_rng(2021)
    grid = np.linspace(-1.0, 1.0, 2001)
    for case in range(25):
        n = int(rng.integers(3000, 20000))
        rate = float(rng.choice([0.01, 0.05, 0.3, 0.5]))
        sep = float(rng.uniform(-0.05, 0.3))  # includes scores that rank nothing, or backwards
        y = np.where(rng.random(n) < rate, 1, -1)
        u = np.clip(rng.normal(0.0, rng.uniform(0.02, 0.3), n) + sep * (y > 0), -1, 1)
        fit = private_platt(u, y, float(rng.choice([1e-4, 1e-3, 1e-2])), rng=rng)
        assert fit.slope >= MIN_SLOPE, case
        p = expit(fit.slope * grid + fit.offset)
        assert np.all(np.isfinite(p)) and np.all((p >= 0.0) & (p <= 1.0)), case
        assert np.all(np.diff(p) >= 0.0), case

