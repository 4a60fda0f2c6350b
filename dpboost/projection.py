"""Bregman projection onto the kappa-dense measures: capped scaling (Lemma 9), in log space.

A measure on ``n`` points is ``mu in [0, 1]^n``; it is kappa-dense when ``sum(mu) = kappa * n``.
Barak, Hardt & Kale (2009) show that the KL (Bregman) projection of ``mu~`` with
``|mu~| < kappa n`` onto the kappa-dense measures is the *capped scaling*
``mu(i) = min(1, c * mu~(i))`` with the smallest ``c >= 1`` giving density ``kappa``.

Algorithm (O(n), no full sort)
------------------------------
Work with ``a = log mu~`` and ``s = log c``.  The total ``g(s) = sum_i min(1, exp(a_i + s))`` is
continuous, non-decreasing, and strictly increasing until every point is capped, so the
equation ``g(s) = kappa n`` has exactly one root ``s*``; a point is capped iff ``a_i >= -s*``.

1. Fewer than ``kappa n`` points are capped, so the point ``r`` of descending rank
   ``ceil(kappa n)`` is not: one ``np.partition`` (linear-time introselect) finds it.  Everything
   is then measured relative to it, ``d = a - r``, so no large magnitudes cancel.
2. The uncapped mass relative to ``r`` lies in ``[1, n]`` and ``kappa n - k`` is at least the
   fractional gap ``f = kappa n - ceil(kappa n) + 1``, so ``s* + r >= log f - log n``: points
   with ``d >= D = log n - log f`` are capped for sure.  A single exponential pass
   ``E = exp(clip(d, -708, D))`` therefore never overflows, and the uncapped total (which
   contains ``exp(0)`` for ``r``) never underflows, however large the cumulative losses.
3. Only the points with ``0 < d < D`` are undecided.  Partition them around their median ``p``
   and evaluate the total that capping exactly the points with ``E >= p`` would give.  If it
   reaches ``kappa n``, every point with ``E <= p`` is uncapped (add its mass and keep the
   upper half); otherwise every point with ``E >= p`` is capped (count it and keep the lower
   half).  Each step halves the set at linear cost, so the search is ``O(n)`` overall.
4. ``c = (kappa n - k) / S`` with ``k`` capped points and uncapped mass ``S``; ``mu = min(1, c E)``.

If ``D`` were beyond the exponent range, the same search runs in log space
(:func:`_project_log`).  Every exponential is taken of a number in ``[-708, D]``, so a million
rounds of cumulative loss neither produce NaN nor an all-zero measure.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Definition 7, Lemma 9.
B. Barak, M. Hardt, S. Kale. "The uniform hardcore lemma via approximate Bregman projections."
SODA 2009.
"""

from __future__ import annotations

import math

import numpy as np

from dpboost._validation import check_scalar

__all__ = ["capped_scaling", "capped_scaling_log_scale"]


def _logsumexp(a: np.ndarray) -> float:
    if a.size == 0:
        return -math.inf
    m = float(a.max())
    return m + math.log(float(np.exp(a - m).sum()))


_EXP_FLOOR = -708.0  # exp(-708) ~ 3e-308 is still a normal double; anything lower counts as 0


def _pivot_search(U: np.ndarray, target: float, log_S: float) -> tuple[int, float]:
    """Partition search over the undecided log-weights ``U`` (see the module docstring).

    Returns ``(k, log_S)``: the number of capped points among ``U`` and the log of the total
    ``exp`` mass of the uncapped points (including the ``log_S`` passed in).
    """
    k = 0
    while U.size:
        m = U.size // 2
        p = float(np.partition(U, m)[m])
        below = U < p
        n_at_or_above = U.size - int(np.count_nonzero(below))
        g = k + n_at_or_above + float(np.exp(U[below] - p).sum())
        if log_S > -math.inf:
            g += math.exp(log_S - p)
        if g >= target:
            keep = U > p
            log_S = float(np.logaddexp(log_S, _logsumexp(U[~keep])))
            U = U[keep]
        else:
            k += n_at_or_above
            U = U[below]
    return k, log_S


def _linear_pivot_search(U: np.ndarray, target: float, k: int, S: float) -> tuple[int, float]:
    """The partition search on plain weights ``U = exp(d)`` (no exponentials; see module doc)."""
    while U.size:
        m = U.size // 2
        p = float(np.partition(U, m)[m])
        below = U < p
        n_at_or_above = U.size - int(np.count_nonzero(below))
        sum_below = float(U[below].sum())
        if k + n_at_or_above + (S + sum_below) / p >= target:
            keep = U > p
            S += float(U[~keep].sum())
            U = U[keep]
        else:
            k += n_at_or_above
            U = U[below]
    return k, S


def _project_log(d: np.ndarray, upper: np.ndarray, target: float) -> tuple[np.ndarray, float]:
    """Fallback for extreme spreads: the whole search in log space (see module docstring)."""
    w = np.exp(np.maximum(np.minimum(d, 0.0), _EXP_FLOOR))
    w[upper] = 0.0
    d_upper = d[upper]
    k, log_S = _pivot_search(d_upper, target, math.log(float(w.sum())))
    s_rel = math.log(target - k) - log_S
    # d = 0 (the point r) is uncapped, so s_rel <= 0 up to rounding: clamp so that mu <= 1.
    w *= math.exp(min(s_rel, 0.0))
    w[upper] = np.exp(np.minimum(d_upper + s_rel, 0.0))
    return w, s_rel


def _project(a: np.ndarray, kappa: float) -> tuple[np.ndarray, float]:
    """Capped scaling of ``exp(a)`` to density ``kappa`` (0 < kappa < 1); returns ``(mu, s)``.

    One ``np.partition`` finds ``r``, the log-weight of descending rank ``ceil(kappa n)``: fewer
    than ``kappa n`` points are capped, so ``r`` and everything below it are uncapped, and with
    ``d = a - r`` the answer is ``mu = min(1, exp(d + s_rel))`` with ``s_rel <= 0``.  Since the
    uncapped mass relative to ``r`` is between 1 and ``n`` and ``kappa n - k >= f``, the
    fractional gap ``f = kappa n - ceil(kappa n) + 1``, we have ``s_rel >= log f - log n``: every
    point with ``d >= D = log n - log f`` is capped for sure.  So one exponential pass
    ``E = exp(clip(d, -708, D))`` never overflows, the sum of the uncapped ``E`` is at least 1
    (no underflow), and the search over the remaining ``0 < d < D`` needs only sums and counts.
    If ``D`` were beyond the exponent range the search runs in log space instead.
    """
    n = a.size
    target = kappa * n
    j = min(n, max(1, math.ceil(target)))
    idx = n - j
    r = float(np.partition(a, idx)[idx])
    # Work relative to r (d = a - r) so that no large magnitudes cancel later.
    d = a - r
    upper = d > 0.0
    f = target - (j - 1)
    D = math.log(n) - math.log(f) + 1.0
    if not D < 700.0:
        mu, s_rel = _project_log(d, upper, target)
        return mu, s_rel - r
    sure = d >= D
    k0 = int(np.count_nonzero(sure))
    np.clip(d, _EXP_FLOOR, D, out=d)
    E = np.exp(d, out=d)
    U = E[upper & ~sure]
    S_low = float(np.sum(E, where=~upper))
    k, S = _linear_pivot_search(U, target, k0, S_low)
    c = (target - k) / S
    np.multiply(E, c, out=E)
    np.minimum(E, 1.0, out=E)
    return E, math.log(c) - r


def capped_scaling_log_scale(log_weights: np.ndarray, kappa: float) -> float:
    """Return ``s = log c`` such that ``sum(min(1, exp(log_weights + s))) = kappa * n``.

    No validation (internal); ``0 < kappa < 1`` and finite ``log_weights`` are assumed.
    See the module docstring for the algorithm.
    """
    return _project(np.asarray(log_weights, dtype=np.float64).ravel(), kappa)[1]


def capped_scaling(log_weights: np.ndarray, kappa: float) -> np.ndarray:
    """Project ``mu~ = exp(log_weights)`` onto the kappa-dense measures by capped scaling.

    Parameters
    ----------
    log_weights : array-like of shape (n,)
        ``log mu~(i)``; finite.  Lemma 9 assumes ``sum(mu~) <= kappa n`` (then ``c >= 1``);
        for a larger total the same formula scales down to density exactly ``kappa``.
    kappa : float in (0, 1]
        Target density.

    Returns
    -------
    mu : ndarray of shape (n,)
        ``mu(i) = min(1, c * mu~(i))`` with ``sum(mu) = kappa * n`` (to rounding) and ``mu <= 1``.

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Lemma 9 (after Barak, Hardt & Kale 2009).

    Examples
    --------
    >>> import numpy as np
    >>> mu = capped_scaling(np.log([0.5, 0.1, 0.1, 0.1]), 0.5)
    >>> np.round(mu, 6).tolist(), round(float(mu.sum()), 12)
    ([1.0, 0.333333, 0.333333, 0.333333], 2.0)
    """
    kappa = check_scalar(kappa, "kappa", "capped_scaling", low=0, high=1, closed="right")
    a = np.asarray(log_weights, dtype=np.float64)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(
            "The 'log_weights' parameter of capped_scaling must be a non-empty 1-D array. "
            f"Got shape {a.shape} instead."
        )
    if not np.isfinite(a).all():
        raise ValueError(
            "The 'log_weights' parameter of capped_scaling must be finite. "
            f"Got a non-finite value at index {int(np.flatnonzero(~np.isfinite(a))[0])} instead."
        )
    if kappa == 1.0:
        return np.ones_like(a)
    return _project(a, kappa)[0]
