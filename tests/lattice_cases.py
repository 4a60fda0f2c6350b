"""The discrete Gaussian's exact pmf and a chi-square statistic of draws against it."""

from __future__ import annotations

import numpy as np
from scipy import stats


def dgauss_pmf(s2: float, support: np.ndarray) -> np.ndarray:
    """``P[Y = y]`` of ``N_Z(0, s2)`` on ``support`` (normalised over [-4000, 4000])."""
    k = np.arange(-4000, 4001)
    norm = np.exp(-(k.astype(float) ** 2) / (2 * s2)).sum()
    return np.exp(-(support.astype(float) ** 2) / (2 * s2)) / norm


def chi_square_passes(draws: np.ndarray, s2: float, level: float = 1e-4) -> bool:
    """Whether ``draws`` pass a chi-square test against ``N_Z(0, s2)`` at ``level``, the tails
    pooled so that every cell expects at least 5."""
    lo = int(draws.min())
    support = np.arange(lo, int(draws.max()) + 1)
    expected = dgauss_pmf(s2, support) * draws.size
    observed = np.bincount(draws - lo, minlength=support.size)
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], draws.size - expected[keep].sum())
    stat = float(((obs - exp) ** 2 / np.maximum(exp, 1e-12)).sum())
    return stat < stats.chi2.isf(level, obs.size - 1)
