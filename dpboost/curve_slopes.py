"""Slopes of measured sample complexity: ``log n*`` against ``log(1/x)`` along each grid axis.

The privacy term of Bun, Carmosino & Sorrell (2020) Theorem 30 (Claim 1) grows as
``1/(eps alpha tau^2)`` up to logarithms, so along the margin axis the theory's slope of
``log n*`` on ``log(1/tau)`` is 2 and along the privacy and accuracy axes it is 1 (``_AXES``).
These functions fit those slopes by least squares, with a two-sided t-interval, on the rows of a
``dpboost curves`` CSV (:func:`dpboost.experiments.read_results`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dpboost.experiments import Cell, _cell_of

__all__ = ["SlopeFit", "axis_rows", "center_cell", "fit_slope", "fit_slopes"]


@dataclass(frozen=True)
class SlopeFit:
    """OLS fit of ``log n*`` on ``log(1/x)`` with a two-sided t-interval for the slope."""

    axis: str
    slope: float
    low: float
    high: float
    intercept: float
    n_points: int
    theory: float
    x: tuple = field(default=(), repr=False)
    y: tuple = field(default=(), repr=False)


_AXES = {"margin": ("margin", 2.0), "epsilon": ("epsilon", 1.0), "accuracy": ("accuracy", 1.0)}


def fit_slope(x, n_star, axis: str = "", theory_slope: float = float("nan"),
              confidence: float = 0.95) -> SlopeFit:
    """Slope of ``log n*`` against ``log(1/x)`` (OLS) with its ``confidence`` t-interval.

    With two points the interval is infinite; with fewer a ValueError is raised.

    Examples
    --------
    >>> f = fit_slope([0.1, 0.2, 0.4], [400.0, 100.0, 25.0])
    >>> round(f.slope, 9), round(f.high - f.low, 4)
    (2.0, 0.0)
    """
    from scipy import stats

    lx = np.log(1.0 / np.asarray(x, dtype=float))
    ly = np.log(np.asarray(n_star, dtype=float))
    keep = np.isfinite(lx) & np.isfinite(ly)
    lx, ly = lx[keep], ly[keep]
    m = lx.size
    if m < 2 or np.ptp(lx) == 0:
        raise ValueError(f"Need at least two distinct finite points to fit the {axis or 'x'} "
                         f"slope. Got {m} instead.")
    res = stats.linregress(lx, ly)
    half = (stats.t.ppf(0.5 + confidence / 2.0, m - 2) * res.stderr) if m > 2 else math.inf
    return SlopeFit(axis, float(res.slope), float(res.slope - half), float(res.slope + half),
                    float(res.intercept), int(m), float(theory_slope), tuple(lx), tuple(ly))


def center_cell(rows: list[dict]) -> Cell:
    """The noise-free cell sharing most coordinates with the others (a star design's centre)."""
    cells = [_cell_of(r) for r in rows if r["noise_rate"] == 0.0]
    if not cells:
        raise ValueError("The results hold no noise-free cell; cannot fit slopes.")
    axes = ("margin", "epsilon", "accuracy")
    counts = {c: sum(getattr(c, a) == getattr(o, a) for o in cells for a in axes) for c in cells}
    return max(counts, key=lambda c: (counts[c], c))


def axis_rows(rows: list[dict], axis: str, center: Cell | None = None) -> list[dict]:
    """Noise-free rows that vary ``axis`` with the other two held at the centre cell's values."""
    center = center or center_cell(rows)
    others = [a for a in ("margin", "epsilon", "accuracy") if a != axis]
    out = [r for r in rows if r["noise_rate"] == 0.0
           and all(r[a] == getattr(center, a) for a in others)]
    return sorted(out, key=lambda r: r[axis])


def fit_slopes(rows: list[dict], center: Cell | None = None) -> dict[str, SlopeFit]:
    """Slope fits along ``margin``, ``epsilon`` and ``accuracy`` (censored cells left out)."""
    fits = {}
    for axis, (_, slope) in _AXES.items():
        sel = [r for r in axis_rows(rows, axis, center) if r["censored"] == ""]
        if len({r[axis] for r in sel}) >= 2:
            fits[axis] = fit_slope([r[axis] for r in sel], [r["n_star"] for r in sel], axis, slope)
    return fits
