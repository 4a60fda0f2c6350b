r"""Capped-scaling projection of a gain vector persisted on dask workers, by a few reductions.

The measure of LB-NxM after ``t`` rounds is ``mu~(i) = kappa exp(-lambda L_i)`` with cumulative
gains ``0 <= L_i <= t``; its Bregman projection onto the kappa-dense measures is the capped
scaling ``mu(i) = min(1, c mu~(i))`` (Lemma 9).  In gain units a point is capped iff
``L_i <= theta`` and ``mu(i) = min(1, exp(-lambda (L_i - theta)))``, where ``theta`` is the
unique root of the continuous non-decreasing

.. math:: g(\theta) = \#\{L_i \le \theta\} + \sum_{L_i > \theta} e^{-\lambda (L_i - \theta)}
          = \kappa n.

The in-memory projection (:mod:`dpboost.projection`) selects with ``np.partition``; here the
``n``-vector stays on the workers and the client sees only ``O(B)`` numbers per pass:

1. The bracket ``[lo, hi] = [-log(1/kappa)/lambda, t + 1]`` is public and holds the root
   (``g(lo) <= kappa n`` since every ``L_i >= 0``; ``g(hi) = n > kappa n``).
2. One reduction per pass: with ``B`` edges ``e_k`` across the bracket, every chunk returns the
   number of points ``<= lo``, per bin ``(e_j, e_{j+1}]`` its count and
   ``sum exp(-lambda (L - e_j))`` (each term in ``(0, 1]``: no overflow), and
   ``sum exp(-lambda (L - hi))`` above ``hi``; these are added over chunks.  From them the
   client evaluates ``g(e_k)`` exactly for every edge (each bin's sum rescaled by
   ``exp(-lambda (e_j - e_k)) <= 1``) and keeps the bin holding the root.
3. Once that bin holds at most :data:`GATHER_MAX` points (or after :data:`MAX_PASSES` passes,
   when its width is below the float spacing and only ties remain), one more reduction returns
   its distinct values with their multiplicities, and the client solves the equation exactly:
   the number of capped points is found by a scan over those values, and then ``theta`` in log
   space from ``lambda theta = log(kappa n - k) - log(uncapped mass)``.

Bin membership is decided by comparisons with the same float edges on every chunk
(``np.searchsorted``), so the capped set is exactly that of the exact equation, as in the
in-memory projection; the two results differ only by the rounding of the sums and of ``theta``
(about 1e-13 relative, tested).  No pass depends on how the rows are chunked except through
float summation order.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Lemma 9.
B. Barak, M. Hardt, S. Kale. "The uniform hardcore lemma via approximate Bregman projections."
SODA 2009.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["GATHER_MAX", "N_BINS", "CappedScaling", "dask_capped_scaling", "solve_threshold"]

#: Bins per histogram pass.
N_BINS = 1024
#: The final bin is gathered (as distinct values and counts) once it holds at most this many.
GATHER_MAX = 1024
#: Histogram passes before the final bin is gathered whatever its count (ties only by then).
MAX_PASSES = 8


@dataclass(frozen=True)
class CappedScaling:
    """The solved projection: ``mu_i = min(1, exp(-learning_rate (L_i - theta)))``.

    ``n_capped`` points have ``mu = 1``; ``passes`` reductions were run over the gains.
    """

    theta: float
    learning_rate: float
    n_capped: int
    passes: int


# ---------------------------------------------------------------------------------------------
# per-chunk reductions (run on the workers)
# ---------------------------------------------------------------------------------------------
def _bin_index(L: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """``np.searchsorted(edges, L, side="left")`` for the evenly spaced ``edges`` of a pass.

    An arithmetic guess, then corrected by comparisons with the same float edges until
    ``edges[j - 1] < L <= edges[j]`` holds exactly (one step at most unless the bins are a few
    ulps wide, when the binary search is used): the same index, 5-10x faster.
    """
    B = edges.size - 1
    lo, hi = float(edges[0]), float(edges[B])
    with np.errstate(invalid="ignore", over="ignore"):
        guess = np.ceil((L - lo) * (B / (hi - lo))) if hi > lo else np.zeros_like(L)
    j = np.clip(guess, 0, B + 1).astype(np.intp)
    padded = np.concatenate([[-np.inf], edges, [np.inf]])  # padded[j] = edges[j - 1]
    for _ in range(2):
        down = L <= padded[j]  # L <= edges[j - 1]: too high
        up = L > padded[j + 1]  # L > edges[j]: too low
        if not (down.any() or up.any()):
            return j
        j = j - down + up
    return np.searchsorted(edges, L, side="left")


def _chunk_histogram(L: np.ndarray, edges: np.ndarray, lr: float) -> np.ndarray:
    """``[n_below, counts (B), sums (B), sum_above]`` for one chunk, as one float64 vector."""
    B = edges.size - 1
    j = _bin_index(L, edges)  # L in (e_{j-1}, e_j]; 0: L <= lo; B+1: L > hi
    # every point's term is taken from its bin's left edge (e_B for the points above hi);
    # the points below lo get a dummy term that is never used
    with np.errstate(over="ignore"):
        terms = np.exp(-lr * (L - edges[np.maximum(j - 1, 0)]))
    counts = np.bincount(j, minlength=B + 2)
    sums = np.bincount(j, weights=terms, minlength=B + 2)
    out = np.empty(2 * B + 2, dtype=np.float64)
    out[0] = counts[0]
    out[1:B + 1] = counts[1:B + 1]
    out[B + 1:2 * B + 1] = sums[1:B + 1]
    out[2 * B + 1] = sums[B + 1]
    return out


def _chunk_interior(L: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of ``L`` in ``(lo, hi]`` and their counts, for one chunk."""
    return np.unique(L[(L > lo) & (L <= hi)], return_counts=True)


def _merge_interior(parts: list) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and total counts over every chunk's ``(values, counts)``."""
    values = np.concatenate([p[0] for p in parts])
    counts = np.concatenate([p[1] for p in parts])
    u, inv = np.unique(values, return_inverse=True)
    return u, np.bincount(inv, weights=counts, minlength=u.size).astype(np.int64)


def _add_all(parts: list) -> np.ndarray:
    """The chunks' histograms added left to right."""
    total = parts[0].copy()
    for p in parts[1:]:
        total += p
    return total


# ---------------------------------------------------------------------------------------------
# the client's side: exact arithmetic on O(B) numbers
# ---------------------------------------------------------------------------------------------
def _edge_totals(hist: np.ndarray, edges: np.ndarray, lr: float) -> np.ndarray:
    """``g(e_k)`` for every edge from one pass's summed histogram (see the module docstring)."""
    B = edges.size - 1
    below, counts = hist[0], hist[1:B + 1]
    sums, above = hist[B + 1:2 * B + 1], hist[2 * B + 1]
    capped = below + np.concatenate([[0.0], np.cumsum(counts)])
    # uncapped mass at e_k: sum_{j >= k} sums_j exp(-lr (e_j - e_k)) + above exp(-lr (hi - e_k))
    k = np.arange(B + 1)[:, None]
    jj = np.arange(B)[None, :]
    factor = np.where(jj >= k, np.exp(-lr * np.maximum(edges[:-1][None, :] - edges[:, None], 0.0)),
                      0.0)
    mass = factor @ sums + above * np.exp(-lr * (edges[B] - edges))
    return capped + mass


def _narrow(hist: np.ndarray, edges: np.ndarray, lr: float, target: float):
    """The bin holding the root: ``(lo, hi, n_below, above_at_hi, count_inside)``."""
    B = edges.size - 1
    g = _edge_totals(hist, edges, lr)
    ok = np.flatnonzero(g <= target)
    k = int(ok[-1]) if ok.size else 0
    k = min(k, B - 1)
    counts, sums = hist[1:B + 1], hist[B + 1:2 * B + 1]
    n_below = float(hist[0] + counts[:k].sum())
    hi = float(edges[k + 1])
    above = float(np.sum(sums[k + 1:] * np.exp(-lr * (edges[k + 1:B] - hi)))
                  + hist[2 * B + 1] * math.exp(-lr * (edges[B] - hi)))
    return float(edges[k]), hi, n_below, above, int(counts[k])


def solve_threshold(values: np.ndarray, counts: np.ndarray, *, lo: float, hi: float,
                    n_below: float, above: float, learning_rate: float,
                    target: float) -> tuple[float, int]:
    """Exact root ``theta`` in ``[lo, hi]`` given the distinct gains inside ``(lo, hi]``.

    ``n_below`` points are ``<= lo`` (capped), ``above = sum exp(-lambda (L - hi))`` over the
    points ``> hi``, and ``values`` (sorted, distinct) with ``counts`` are the points inside.
    Returns ``(theta, number of capped points)``.

    Examples
    --------
    >>> theta, k = solve_threshold(np.array([0.0]), np.array([4]), lo=-1.0, hi=1.0, n_below=0,
    ...                            above=0.0, learning_rate=math.log(2), target=2.0)
    >>> round(theta, 12), k      # mu = min(1, 2**theta) = 1/2 on four equal points
    (-1.0, 0)
    """
    lr = learning_rate
    log_m = np.log(counts.astype(np.float64)) - lr * values
    log_above = math.log(above) - lr * hi if above > 0 else -math.inf
    # suffix log-masses: tail[j] = log sum_{i >= j} m_i exp(-lr u_i), tail[p] = -inf
    tail = np.append(np.logaddexp.accumulate(log_m[::-1])[::-1], -np.inf)
    tail = np.logaddexp(tail, log_above)
    capped = n_below + np.concatenate([[0], np.cumsum(counts)])
    # g at theta = u_j (values <= u_j capped): capped[j+1] + exp(lr u_j + tail[j+1])
    with np.errstate(under="ignore"):
        g_at = capped[1:] + np.exp(lr * values + tail[1:])
    ok = np.flatnonzero(g_at <= target)
    j = int(ok[-1]) + 1 if ok.size else 0  # the j smallest distinct values are capped
    k = int(capped[j])
    if target - k <= 0 or tail[j] == -math.inf:  # degenerate: everything at or below theta
        return float(values[j - 1] if j else lo), k
    theta = (math.log(target - k) - float(tail[j])) / lr
    upper = float(values[j]) if j < values.size else hi
    lower = float(values[j - 1]) if j else lo
    return min(max(theta, lower), upper), k


# ---------------------------------------------------------------------------------------------
# the driver
# ---------------------------------------------------------------------------------------------
def _fan_in(items: list, combine):
    """One task on the workers that combines the delayed ``items`` (a few KiB each).

    One task rather than a pairwise tree: each pass then costs the scheduler ``chunks + 1``
    tasks, not ``2 chunks - 1``, and its result still needs one round trip.
    """
    import dask

    return dask.delayed(combine, pure=True)(items)


def find_threshold(gain, kappa: float, learning_rate: float, *, upper: float) -> CappedScaling:
    """Solve the capped scaling of the persisted dask gain vector (module docstring)."""
    import dask

    from dpboost.distributed import gather

    n = gain.shape[0]
    target = kappa * n
    lr = float(learning_rate)
    lo, hi = -math.log(1.0 / kappa) / lr, float(upper)
    n_below, above = 0.0, 0.0
    blocks = gain.to_delayed().ravel().tolist()
    count, passes = n, 0
    hist_fn = dask.delayed(_chunk_histogram, pure=True)
    while count > GATHER_MAX and passes < MAX_PASSES:
        edges = np.linspace(lo, hi, N_BINS + 1)
        edges[0], edges[-1] = lo, hi
        parts = [hist_fn(b, edges, lr) for b in blocks]
        hist = gather(_fan_in(parts, _add_all))
        passes += 1
        lo, hi, n_below, above, count = _narrow(hist, edges, lr, target)
    interior_fn = dask.delayed(_chunk_interior, pure=True)
    values, counts = gather(_fan_in([interior_fn(b, lo, hi) for b in blocks],
                                     _merge_interior))
    passes += 1
    theta, k = solve_threshold(values, counts, lo=lo, hi=hi, n_below=n_below, above=above,
                               learning_rate=lr, target=target)
    return CappedScaling(theta=theta, learning_rate=lr, n_capped=k, passes=passes)


def _measure_chunk(L: np.ndarray, theta: float, lr: float) -> np.ndarray:
    with np.errstate(under="ignore"):
        return np.exp(np.minimum(-lr * (L - theta), 0.0))


def dask_capped_scaling(gain, kappa: float, learning_rate: float, *, upper: float):
    """The projected measure ``min(1, exp(-lambda (L - theta)))``, persisted on the workers.

    Parameters
    ----------
    gain : dask array of shape (n,)
        The cumulative gains, persisted on the workers.
    kappa, learning_rate : float
        LB-NxM's density and rate.
    upper : float
        A public upper bound on the gains (``t + 1`` after ``t`` hypotheses).
    """
    sol = find_threshold(gain, kappa, learning_rate, upper=upper)
    # persisted (8 bytes a row, like the gains): the round reads mu twice (its total, then the
    # weights), and a persisted mu lets dask fuse the weights into the centre's chunk tasks
    return gain.map_blocks(_measure_chunk, sol.theta, sol.learning_rate,
                           dtype=np.float64).persist()
