"""Mironov's floating-point attack on a released noisy value, and its answer for the safe grid.

References
----------
I. Mironov, "On significance of the least significant bits for differential privacy", CCS 2012.
C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["continuous_output_possible", "grid_output_possible"]


# --------------------------------------------------------------------------------------------
# Floating-point attack (Mironov 2012)
# --------------------------------------------------------------------------------------------


def grid_output_possible(value: np.ndarray, granularity: float) -> np.ndarray:
    """Whether each released value can come out of :class:`~dpboost.mechanisms.LatticeGaussian`.

    The discrete Gaussian has every integer in its support, so a value is possible under *any*
    dataset iff it lies on the public grid ``g Z``: the release itself says nothing about which
    neighbour produced it beyond its (accounted) probability.
    """
    q = np.asarray(value, dtype=np.float64) / granularity
    return np.isfinite(q) & (q == np.round(q))


def continuous_output_possible(value: float, centre: float, sigma: float,
                               max_steps: int = 64) -> bool:
    """Mironov's test: could ``fl(centre + fl(sigma * x))`` equal ``value`` for some double x?

    The naive release ``centre + numpy normal(0, sigma)`` can only produce the doubles
    ``fl(c + fl(sigma x))``.  This enumerates the doubles ``s`` with ``fl(centre + s) == value``
    (at most ``max_steps`` each way; beyond that it answers True, conservatively) and checks
    whether one of them is ``fl(sigma x)`` for a double ``x`` near ``s / sigma``.  A False for
    the centre of D' on a value released under D rules D' out with certainty.

    References
    ----------
    I. Mironov, "On significance of the least significant bits for differential privacy",
    CCS 2012.
    """
    s0 = value - centre
    candidates = []
    for direction in (-math.inf, math.inf):
        s = s0 if direction > 0 else math.nextafter(s0, direction)
        for _ in range(max_steps):
            if centre + s != value:
                break
            candidates.append(s)
            s = math.nextafter(s, direction)
        else:
            return True
    for s in candidates:
        x = s / sigma
        for _ in range(3):
            x = math.nextafter(x, -math.inf)
        for _ in range(7):
            if sigma * x == s:
                return True
            x = math.nextafter(x, math.inf)
    return False
