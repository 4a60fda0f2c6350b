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
   the number of capped points is found by a bisection over those values, and then the scale
   relative to ``r``, the smallest uncapped value: ``s = log(kappa n - k) - log(sum of
   exp(-lambda (L - r)) over the uncapped points)``, and
   ``mu = min(1, exp(s - lambda (L - r)))``.
   Every exponent is relative to a gain next to the root, as in the in-memory projection, so
   the result is as accurate at ``lambda = 10^6`` and gains of ``10^5`` as at the defaults.

Bin membership is decided by comparisons with the same float edges on every chunk
(``np.searchsorted``), so the capped set is exactly that of the exact equation, as in the
in-memory projection; the two results differ only by the rounding of the sums (about 1e-13
relative, tested, and within :data:`~dpboost.mechanisms.MEASURE_L1_ERROR` of a 50-digit
projection at any rate and gain, tested).  No pass depends on how the rows are chunked except
through float summation order.

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
    """The solved projection: ``mu_i = min(1, exp(log_scale - learning_rate (L_i -
    reference)))``, with ``reference`` a gain of the data next to the root (see
    :func:`solve_threshold` for why not ``exp(-learning_rate (L_i - theta))``).

    ``n_capped`` points have ``mu = 1``; ``passes`` reductions were run over the gains.
    """

    reference: float
    log_scale: float
    learning_rate: float
    n_capped: int
    passes: int

    @property
    def theta(self) -> float:
        """The root in gain units, ``reference + log_scale / learning_rate`` (for reading;
        the measure is computed from ``reference`` and ``log_scale``)."""
        return self.reference + self.log_scale / self.learning_rate


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


def _g_at(i: int, values: np.ndarray, counts: np.ndarray, capped: np.ndarray, *,
          above: float, hi: float, lr: float) -> float:
    """``g(theta)`` at ``theta = values[i]``: the points ``<= values[i]`` capped, every other
    point's weight taken relative to ``values[i]`` itself, so no large exponent cancels."""
    with np.errstate(under="ignore"):
        mass = float(counts[i + 1:] @ np.exp(-lr * (values[i + 1:] - values[i])))
        if above > 0:
            mass += above * math.exp(-lr * (hi - values[i]))
    return float(capped[i + 1]) + mass


def solve_threshold(values: np.ndarray, counts: np.ndarray, *, lo: float, hi: float,
                    n_below: float, above: float, learning_rate: float,
                    target: float) -> tuple[float, float, int]:
    """The root of ``g`` in ``[lo, hi]`` given the distinct gains inside ``(lo, hi]``.

    ``n_below`` points are ``<= lo`` (capped), ``above = sum exp(-lambda (L - hi))`` over the
    points ``> hi``, and ``values`` (sorted, distinct) with ``counts`` are the points inside.
    Returns ``(reference, log_scale, number of capped points)``: the measure is
    ``mu = min(1, exp(log_scale - lambda (L - reference)))``, i.e. ``theta = reference +
    log_scale / lambda``.

    The reference is a gain of the data next to the root (the smallest uncapped value), as
    in the in-memory projection (:mod:`dpboost.projection`, ``d = a - r``): ``log_scale`` is
    then computed from exponents ``-lambda (u - reference) <= 0`` only.  Until session 33 the
    root was returned as ``theta`` itself, from ``lambda theta = log(kappa n - k) - log(sum
    m_i exp(-lambda u_i))``: the absolute ``lambda u_i`` cancelled, and ``theta`` carried an
    error of about ``lambda |theta| 2^-53`` in every uncapped weight (4e-8 relative at
    ``lambda = 10^6`` and gains near 1,000, 10^4 times :data:`~dpboost.mechanisms.
    MEASURE_L1_ERROR`), which the public error bound of the release did not cover (red team
    s33 R2, finding 1).

    Examples
    --------
    >>> ref, s, k = solve_threshold(np.array([0.0]), np.array([4]), lo=-1.0, hi=1.0,
    ...                             n_below=0, above=0.0, learning_rate=math.log(2), target=2.0)
    >>> ref, round(math.exp(s), 12), k      # mu = exp(s) = 1/2 on four equal points
    (0.0, 0.5, 0)
    """
    lr = learning_rate
    p = values.size
    capped = n_below + np.concatenate([[0], np.cumsum(counts)])
    # g is non-decreasing: bisect for the last distinct value at which g <= target
    # (invariant: g(values[a]) <= target, g(values[b]) > target, with virtual ends -1 and p)
    a, b = -1, p
    while b - a > 1:
        m = (a + b) // 2
        if _g_at(m, values, counts, capped, above=above, hi=hi, lr=lr) <= target:
            a = m
        else:
            b = m
    j = a + 1  # the j smallest distinct values are capped
    k = int(capped[j])
    lower = float(values[j - 1]) if j else lo
    if j < p:
        ref = float(values[j])
        with np.errstate(under="ignore"):
            mass = float(counts[j:] @ np.exp(-lr * (values[j:] - ref)))
            if above > 0:
                mass += above * math.exp(-lr * (hi - ref))
    else:
        ref, mass = hi, above
    if target - k <= 0 or mass <= 0:  # degenerate: everything at or below theta
        return lower, 0.0, k
    log_scale = math.log(target - k) - math.log(mass)
    # theta in [lower, ref]: the reference (or hi) is not capped, the values below it are
    return ref, min(max(log_scale, -lr * (ref - lower)), 0.0), k


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
    ref, log_scale, k = solve_threshold(values, counts, lo=lo, hi=hi, n_below=n_below,
                                        above=above, learning_rate=lr, target=target)
    return CappedScaling(reference=ref, log_scale=log_scale, learning_rate=lr, n_capped=k,
                         passes=passes)


def _measure_chunk(L: np.ndarray, reference: float, log_scale: float, lr: float) -> np.ndarray:
    """``min(1, exp(log_scale - lr (L - reference)))`` (:class:`CappedScaling`)."""
    with np.errstate(under="ignore"):
        return np.exp(np.minimum(log_scale - lr * (L - reference), 0.0))


def dask_capped_scaling(gain, kappa: float, learning_rate: float, *, upper: float):
    """The projected measure ``min(1, exp(-lambda (L - theta)))`` (computed relative to a gain
    next to ``theta``: :class:`CappedScaling`), persisted on the workers.

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
    return gain.map_blocks(_measure_chunk, sol.reference, sol.log_scale, sol.learning_rate,
                           dtype=np.float64).persist()
