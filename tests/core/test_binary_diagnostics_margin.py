"""The binary ``diagnostics_`` margin is Theorem 24's ``y H(x)``, without the class prior.

``LazyBregBoost``'s cumulative gain starts from the public class prior ``L_0`` (the practical
defaults' class balancing), which no hypothesis played: the margin of the aggregated
hypothesis ``H = mean_t clip(h_t)`` is ``2 (L - L_0) / T - 1``.
"""

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.weak_learners import CenteringHalfspace


@pytest.mark.parametrize("class_gain", [(0.0, 0.0), (0.6, 0.0), (0.0, 1.5)])
def test_margin_fraction_is_that_of_the_aggregated_hypothesis(class_gain):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(2000, 4)) / 3
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=2000) > 0.2, 1, -1).astype(np.int8)
    est = PrivateHalfspaceClassifier(1.0, 1e-6)
    est._run(X, y, kappa=0.3, learning_rate=2.0, n_rounds=8, weak_learner=CenteringHalfspace(),
             rng=np.random.default_rng(0), diagnostics=True, gamma=0.05,
             class_gain=class_gain)
    margins = y * np.mean(np.clip(X @ est.hypothesis_coefs_.T, -1.0, 1.0), axis=1)
    expected = float(np.mean(margins <= 0.05))
    assert est.diagnostics_["fraction_margin_at_most_gamma"] == pytest.approx(expected,
                                                                              abs=1.5 / 2000)
