"""A multiclass task the input whitening matters for (shared by the multiclass tests)."""

import numpy as np


def nuisance_task(n: int, seed: int):
    """Three classes told apart by x_1 - x_3 and x_2 - x_4; every feature also carries one
    shared nuisance u of standard deviation 0.25, ten times the class contrast's noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    means = np.array([[0.08, 0.0], [-0.04, 0.07], [-0.04, -0.07]])
    u = rng.normal(0, 0.25, (n, 1))
    X = np.hstack([u + means[y] + rng.normal(0, 0.03, (n, 2)), u + rng.normal(0, 0.03, (n, 2)),
                   np.full((n, 1), 0.3)])
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None], y
