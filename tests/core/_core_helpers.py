"""Small local helpers for the core tests (independent of dpboost.data)."""

from __future__ import annotations

import numpy as np


def margin_data(n: int, d: int, margin: float, seed: int = 0):
    """Points in the unit ball with |u.x| >= margin, labelled by sign(u.x) (rejection sampling)."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    rows = []
    have = 0
    while have < n:
        g = rng.normal(size=(2 * n, d))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        r = rng.uniform(size=(2 * n, 1)) ** (1.0 / d)
        x = g * r
        x = x[np.abs(x @ u) >= margin]
        rows.append(x)
        have += len(x)
    X = np.concatenate(rows)[:n]
    y = np.where(X @ u >= 0, 1, -1)
    return X, y, u


def reference_capped_scaling(mu_tilde: np.ndarray, kappa: float) -> np.ndarray:
    """Sort-based reference for Lemma 9 (independent of dpboost.projection), mu_tilde > 0."""
    n = mu_tilde.size
    target = kappa * n
    order = np.argsort(-mu_tilde)
    v = mu_tilde[order]
    tail = np.concatenate([np.cumsum(v[::-1])[::-1], [0.0]])  # tail[k] = sum(v[k:])
    for k in range(n):
        c = (target - k) / tail[k]
        if c * v[k] <= 1.0 + 1e-12 and (k == 0 or c * v[k - 1] >= 1.0 - 1e-12):
            mu = np.minimum(1.0, c * mu_tilde)
            return mu
    raise AssertionError("no consistent k")
