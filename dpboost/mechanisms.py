r"""The safe Gaussian release: a discrete Gaussian on a public power-of-two grid.

Adding ``numpy``'s floating-point Gaussian to a floating-point value is not differentially
private as implemented: the set of doubles that ``fl(z + fl(sigma * N))`` can take depends on
``z``, so the low-order bits of one release can rule a neighbouring dataset out (Mironov 2012).
Every noisy value dpboost releases goes through :class:`LatticeGaussian` instead:

1. the value ``f`` (computed in floating point, within a *public* error bound ``E`` of its
   exact-arithmetic value ``f*``) is rounded to the public grid ``g Z^d``, ``g`` a power of two;
2. integer noise ``Y ~ N_Z(0, s^2)^d`` from the **discrete Gaussian** is added in exact integer
   arithmetic by the sampler of Canonne, Kamath & Steinke (2020, Algorithm 3);
3. the output ``g (round(f / g) + Y)`` is an exact double (``|round(f/g) + Y| < 2^53``).

Every output lies on the same public grid whatever the data and whatever order the sums were
added up in, and its distribution is known exactly.

**Privacy (the theorem the claim rests on).**  Let ``f*`` have L2 sensitivity ``Delta`` and
``||f(S) - f*(S)|| <= E`` for every dataset.  With ``e = round(f/g) - f/g`` (``|e_j| <= 1/2``),
neighbours give ``||round(f/g) - round(f'/g)||_2 <= (Delta + 2E)/g + sqrt(d)``, an integer-valued
query of L2 sensitivity at most ``Delta' / g`` with ``Delta' = Delta + 2E + g sqrt(d)``.  Adding
``N_Z(0, s^2)`` independently to each coordinate is ``rho``-zCDP with
``rho = (Delta'/g)^2 / (2 s^2)`` (Canonne, Kamath & Steinke 2020, Theorem 14: the multivariate
discrete Gaussian satisfies the same concentrated-DP bound as the continuous one).  We choose
``s^2 >= (z Delta' / g)^2``, so one release is ``1/(2 z^2)``-zCDP: the event
:class:`accounting.DiscreteGaussianEvent` ``(z)``.  The discrete Gaussian's privacy profile is
not exactly the continuous one, so the exact GDP conversion is *not* used for it; (epsilon,
delta) comes from zCDP through CKS20 Prop. 12 / Cor. 13 (or Lemma 15).  The cost against the
continuous Gaussian with exact GDP accounting is the ratio of the CKS and exact noise
multipliers (1.0725 at epsilon = 1, delta = 1e-6, T = 100) times ``Delta'/Delta``
(the grid adds at most 1/1024, the floating-point bound ``2E/Delta`` is below 1e-5 for
``n <= 10^8``).

The grid is ``g = 2^floor(log2(Delta / (1024 sqrt(d))))``, so ``g sqrt(d) <= Delta / 1024``;
if the noise would then exceed ``2^25`` grid steps, ``g`` is doubled until it does not (the
sampler's integers stay in int64).  ``g``, ``Delta'``, the noise and the error bound are
functions of public quantities only (``n``, ``kappa``, ``R``, ``d``, ``z``).

References
----------
C. Canonne, G. Kamath, T. Steinke. "The Discrete Gaussian for Differential Privacy."
NeurIPS 2020 (arXiv:2004.00010): Algorithm 1 (Bernoulli(exp(-gamma))), Algorithm 3 (discrete
Gaussian sampler), Theorem 14 (multivariate zCDP), Prop. 12 / Cor. 13 (zCDP to (epsilon, delta)).
I. Mironov. "On significance of the least significant bits for differential privacy." CCS 2012.
N. Higham. *Accuracy and Stability of Numerical Algorithms*, 2nd ed., 2002, Section 4.2
(summation error in any order: ``|fl(sum a) - sum a| <= gamma_{m} sum |a|`` for ``m`` levels).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dpboost._validation import check_scalar

__all__ = [
    "CENTRE_BLOCK_ROWS",
    "LatticeGaussian",
    "LatticeNoise",
    "NoiseBeyondSamplerError",
    "bernoulli_exp_neg",
    "block_partials",
    "blocked_centre",
    "centre_error_bound",
    "drawable",
    "lattice_variance",
    "pairwise_sum",
    "sample_discrete_gaussian",
]

#: Unit roundoff of float64.
UNIT_ROUNDOFF = 2.0**-53
#: Rows per block of :func:`blocked_centre` (each block is one BLAS product in float64).
CENTRE_BLOCK_ROWS = 1 << 14
#: Rows upcast at a time for a non-float64 ``X`` in :func:`blocked_centre` (fits in L2 cache).
_UPCAST_ROWS = 1 << 11
#: Relative L1 error allowed for the computed normalised measure (see :func:`centre_error_bound`).
MEASURE_L1_ERROR = 2.0**-38
#: The grid makes ``g sqrt(d) <= Delta / GRID_FRACTION``.
GRID_FRACTION = 1024
#: Largest noise, in grid steps, that the vectorised sampler takes (int64 headroom).
MAX_GRID_SIGMA = float(1 << 25)
#: Geometric draws above this go through exact Python integers (``(t V)^2`` would overflow).
_MAX_FAST_V = 60


# ---------------------------------------------------------------------------------------------
# exact Bernoulli and discrete Gaussian samplers (CKS20)
# ---------------------------------------------------------------------------------------------
def _uniform_below(q: int, rng: np.random.Generator) -> int:
    """A uniform integer in ``[0, q)`` for any Python int ``q >= 1`` (rejection on 64-bit words)."""
    if q <= (1 << 62):
        return int(rng.integers(0, q))
    bits = q.bit_length()
    words = -(-bits // 63)  # each word below carries 63 random bits
    while True:
        value = 0
        for w in rng.integers(0, 1 << 63, size=words, dtype=np.int64).tolist():
            value = (value << 63) | w
        value >>= words * 63 - bits
        if value < q:
            return value


def _bernoulli_exp_neg_fraction_scalar(r: int, den: int, rng: np.random.Generator) -> bool:
    """Exact ``Bernoulli(exp(-r/den))`` for ``0 <= r <= den`` (CKS20 Algorithm 1, Python ints)."""
    k = 1
    while _uniform_below(den * k, rng) < r:  # A_k ~ Bernoulli(r / (den k))
        k += 1
    return k % 2 == 1


def _bernoulli_exp_neg_scalar(num: int, den: int, rng: np.random.Generator) -> bool:
    """Exact ``Bernoulli(exp(-num/den))`` for any ``num >= 0``, ``den >= 1`` (Python ints)."""
    q, r = divmod(num, den)
    for _ in range(q):  # exp(-q) as q independent Bernoulli(exp(-1)) successes
        if not _bernoulli_exp_neg_fraction_scalar(1, 1, rng):
            return False
    return _bernoulli_exp_neg_fraction_scalar(r, den, rng)


def bernoulli_exp_neg(num: np.ndarray, den: np.ndarray | int, *,
                      rng: np.random.Generator) -> np.ndarray:
    """Exact independent ``Bernoulli(exp(-num/den))`` draws for int64 ``num >= 0``, ``den >= 1``.

    CKS20 Algorithm 1, vectorised: ``exp(-gamma)`` for ``gamma = q + r/den`` is ``q`` independent
    ``Bernoulli(exp(-1))`` successes and one ``Bernoulli(exp(-r/den))``; for ``gamma`` in
    ``[0, 1]``, ``K`` = the first ``k`` with ``A_k = 0``, ``A_k ~ Bernoulli(gamma / k)``, is odd
    with probability ``exp(-gamma)``.  Every comparison is between integers, so the draws are
    exact.  ``den * k`` must stay below ``2^62`` (the caller guarantees ``den <= 2^52``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> draws = bernoulli_exp_neg(np.full(20000, 1), 2, rng=rng)
    >>> bool(abs(draws.mean() - np.exp(-0.5)) < 0.02)
    True
    """
    num = np.asarray(num, dtype=np.int64)
    den = np.broadcast_to(np.asarray(den, dtype=np.int64), num.shape)
    q, r = np.divmod(num, den)
    out = np.ones(num.shape, dtype=bool)
    # integer part: q independent Bernoulli(exp(-1)), all must succeed
    remaining = q.copy()
    active = np.flatnonzero(remaining > 0)
    while active.size:
        ok = _bernoulli_exp_neg_unit(active.size, rng)
        out[active[~ok]] = False
        remaining[active] -= 1
        active = active[ok & (remaining[active] > 0)]
    # fractional part: Bernoulli(exp(-r/den)) where still alive
    alive = np.flatnonzero(out)
    if alive.size:
        out[alive] = _bernoulli_exp_neg_fraction(r[alive], den[alive], rng)
    return out


def _bernoulli_exp_neg_unit(size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` exact ``Bernoulli(exp(-1))`` draws (CKS20 Algorithm 1 with gamma = 1)."""
    k = np.ones(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:
        cont = rng.integers(0, k[active]) < 1  # Bernoulli(1/k)
        k[active[cont]] += 1
        active = active[cont]
    return k % 2 == 1


def _bernoulli_exp_neg_fraction(r: np.ndarray, den: np.ndarray,
                                rng: np.random.Generator) -> np.ndarray:
    """Exact ``Bernoulli(exp(-r/den))`` for ``0 <= r < den`` (CKS20 Algorithm 1)."""
    k = np.ones(r.shape, dtype=np.int64)
    active = np.arange(r.size)
    while active.size:
        cont = rng.integers(0, den[active] * k[active]) < r[active]  # Bernoulli(r / (den k))
        k[active[cont]] += 1
        active = active[cont]
    return k % 2 == 1


class NoiseBeyondSamplerError(ValueError):
    """A release whose noise the exact sampler cannot draw: the target epsilon is too small.

    Raised before any data is read, or before the first release of a fit (red team, session
    29: at epsilon = 1e-6 a fit stopped after its first releases with "the 'sigma' parameter of
    lattice_variance ... got nan", and the ledger kept the charge of a run that released
    nothing).
    """

    @classmethod
    def of(cls, noise_multiplier: float, dimension: int = 1,
           limit: float = MAX_GRID_SIGMA / 2) -> NoiseBeyondSamplerError:
        return cls(f"The target epsilon is too small for this release: its noise, a noise "
                   f"multiplier z = {noise_multiplier:.3g} on D = {dimension} coordinate(s) "
                   f"(z sqrt(D) = {noise_multiplier * math.sqrt(dimension):.3g}), is beyond "
                   f"what dpboost draws exactly (z sqrt(D) at most {limit:.3g}); raise "
                   "target_epsilon (or target_delta), use fewer features, or fix fewer rounds "
                   "(n_rounds).")


def drawable(noise_multiplier: float, dimension: int = 1) -> bool:
    """Whether a :class:`LatticeGaussian` release of ``dimension`` coordinates with this noise
    multiplier can be drawn: ``z sqrt(D) <= MAX_GRID_SIGMA / 2``.

    The noise in grid steps is ``z (Delta + 2E) / g + z sqrt(D)``, so no grid ``g`` brings it
    below ``z sqrt(D)``; at half the sampler's limit a coarse enough grid (``z (Delta + 2E) / g
    <= MAX_GRID_SIGMA / 2``) always exists.  A public figure of the plan (``z`` from rho, ``D``
    from d); only an absurdly small epsilon fails it (below about 5e-7 for d = 40 at n = 1,000).

    >>> drawable(1e3, 100), drawable(6.06e6, 66)
    (True, False)
    """
    return noise_multiplier * math.sqrt(dimension) <= MAX_GRID_SIGMA / 2


def lattice_variance(sigma: float) -> tuple[int, int]:
    """Integers ``(t, m)`` with ``t = floor(sigma') + 1`` and ``t m >= sigma^2`` (smallest such m).

    ``s^2 = t m`` is the variance parameter actually used: at least ``sigma^2``, larger by less
    than ``t`` (relative ``< 1/sigma``), and ``s^2 / t = m`` is an integer, which keeps every
    number of Algorithm 3 with Laplace scale ``t`` an int64 (the algorithm is exact for any
    scale ``t > 0``; ``t`` near ``sigma`` only makes it efficient).  ``sigma'`` is
    ``sigma`` nudged up by a few ulps so that float rounding never lowers the variance.

    Examples
    --------
    >>> lattice_variance(3.0)
    (4, 3)
    """
    if math.isfinite(sigma) and sigma > MAX_GRID_SIGMA:
        raise NoiseBeyondSamplerError.of(sigma, limit=MAX_GRID_SIGMA)
    sigma = check_scalar(sigma, "sigma", "lattice_variance", low=0, high=MAX_GRID_SIGMA,
                         closed="right")
    sigma_up = math.nextafter(math.nextafter(sigma, math.inf), math.inf)
    target = Fraction(sigma_up) ** 2
    t = math.floor(sigma_up) + 1
    m = math.ceil(target / t)
    return t, max(m, 1)


def sample_discrete_gaussian(sigma_squared, size: int | None = None, *,
                             rng: np.random.Generator):
    r"""Exact samples from the discrete Gaussian ``N_Z(0, sigma_squared)`` (CKS20 Algorithm 3).

    ``P[Y = y]`` is proportional to ``exp(-y^2 / (2 sigma_squared))`` on the integers.  Candidates
    ``Y = (1 - 2B)(U + t V)`` come from a discrete Laplace of scale ``t = floor(sigma) + 1`` and
    are accepted with probability ``exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))``; every step is an
    exact integer comparison, so the output distribution is exactly the discrete Gaussian (given
    ideal uniform integers from ``rng``).

    Parameters
    ----------
    sigma_squared : int, Fraction or float > 0
        The variance parameter, taken as an exact rational (a float is converted exactly).
        When ``sigma_squared = t m`` with ``t = floor(sqrt(sigma_squared)) + 1`` (see
        :func:`lattice_variance`) and ``t <= 2^25 + 1`` the draws are vectorised in int64;
        otherwise they use exact Python integers (slower; fine for a few draws).
    size : int or None
        Number of draws; ``None`` returns one Python int.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64 (or int when ``size`` is None)

    References
    ----------
    Canonne, Kamath & Steinke (NeurIPS 2020), Algorithms 1 and 3.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = sample_discrete_gaussian(12, 40000, rng=rng)   # 12 = t m with t = 4, m = 3
    >>> abs(float(y.var()) - 12.0) < 0.5, y.dtype == np.int64
    (True, True)
    """
    s2 = Fraction(sigma_squared)
    if not s2 > 0:
        raise ValueError("The 'sigma_squared' parameter of sample_discrete_gaussian must be "
                         f"a number > 0. Got {sigma_squared!r} instead.")
    n = 1 if size is None else int(size)
    t = math.isqrt(math.floor(s2)) + 1
    m = s2 / t
    if m.denominator == 1 and t <= (1 << 25) + 1:
        out = _sample_lattice(t, int(m), n, rng)
    else:
        out = np.array([_sample_scalar(s2, t, rng) for _ in range(n)], dtype=object)
        if all(abs(v) < (1 << 62) for v in out):
            out = out.astype(np.int64)
    return int(out[0]) if size is None else out


def _sample_scalar(s2: Fraction, t: int, rng: np.random.Generator) -> int:
    """One exact draw from ``N_Z(0, s2)`` with Python integers (CKS20 Algorithm 3)."""
    while True:
        u = int(rng.integers(0, t))
        if not _bernoulli_exp_neg_scalar(u, t, rng):
            continue
        v = 0
        while _bernoulli_exp_neg_scalar(1, 1, rng):
            v += 1
        x = u + t * v
        b = int(rng.integers(0, 2))
        if b == 1 and x == 0:
            continue
        gamma = (x - s2 / t) ** 2 / (2 * s2)
        if _bernoulli_exp_neg_scalar(gamma.numerator, gamma.denominator, rng):
            return -x if b else x


def _sample_lattice(t: int, m: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` draws from ``N_Z(0, t m)``, vectorised in int64 (CKS20 Algorithm 3)."""
    out = np.empty(0, dtype=np.int64)
    den5 = 2 * t * m  # <= 2^52: den5 * k stays in int64 for k < 2^10 (P[K >= 2^10] ~ 1/1023!)
    while out.size < n:
        batch = max(16, 2 * (n - out.size))
        u = rng.integers(0, t, size=batch, dtype=np.int64)
        keep = bernoulli_exp_neg(u, t, rng=rng)
        u = u[keep]
        v = np.zeros(u.size, dtype=np.int64)  # V ~ Geometric: successes of Bernoulli(exp(-1))
        active = np.arange(u.size)
        while active.size:
            ok = _bernoulli_exp_neg_unit(active.size, rng)
            v[active[ok]] += 1
            active = active[ok]
        x = u + t * v
        b = rng.integers(0, 2, size=x.size, dtype=np.int64)
        keep = ~((b == 1) & (x == 0))
        x, b, v = x[keep], b[keep], v[keep]
        fast = v <= _MAX_FAST_V
        accept = np.zeros(x.size, dtype=bool)
        accept[fast] = bernoulli_exp_neg((x[fast] - m) ** 2, den5, rng=rng)
        for j in np.flatnonzero(~fast):  # astronomically rare: exact Python integers
            accept[j] = _bernoulli_exp_neg_scalar((int(x[j]) - m) ** 2, den5, rng)
        y = np.where(b == 1, -x, x)[accept]
        out = np.concatenate([out, y])
    return out[:n]


# ---------------------------------------------------------------------------------------------
# the centre and its floating-point error bound
# ---------------------------------------------------------------------------------------------
def block_partials(X: np.ndarray, weights: np.ndarray, first_row: int = 0
                   ) -> tuple[int, np.ndarray]:
    """Per-block partial products of :func:`blocked_centre` for rows ``first_row ..`` of a sample.

    ``X`` and ``weights`` are the rows ``[first_row, first_row + len(X))`` of a larger sample
    (a dask chunk, say).  The rows are cut at the *global* block boundaries (multiples of
    :data:`CENTRE_BLOCK_ROWS`) and each piece is reduced exactly as :func:`blocked_centre`
    reduces a block.  Returns ``(b0, P)``: ``P[k]`` is the piece of global block ``b0 + k``.
    Adding the pieces of one block in any order keeps every term within ``CENTRE_BLOCK_ROWS + 1``
    roundings (a block of ``B`` rows cut into ``p`` pieces has pieces of at most ``B - p + 1``
    rows, and the ``p - 1`` additions make up the rest), so the bound of
    :func:`centre_error_bound` holds for any row chunking.

    Examples
    --------
    >>> b0, P = block_partials(np.eye(2), np.array([0.5, -0.5]), first_row=3)
    >>> b0, P.tolist()
    (0, [[0.5, -0.5]])
    """
    n, d = X.shape
    w = np.asarray(weights, dtype=np.float64)
    b0 = first_row // CENTRE_BLOCK_ROWS
    n_blocks = 0 if n == 0 else (first_row + n - 1) // CENTRE_BLOCK_ROWS - b0 + 1
    P = np.zeros((n_blocks, d), dtype=np.float64)
    # float32 and others: upcast in cache-sized pieces into ONE reused buffer (a fresh
    # temporary per piece is a fresh mmap under dask's MALLOC_TRIM_THRESHOLD_: 10x slower),
    # and add the pieces in sequence within the block: each term still passes through at
    # most CENTRE_BLOCK_ROWS roundings
    buf = None if X.dtype == np.float64 else np.empty((min(n, _UPCAST_ROWS), d), np.float64)
    start = 0
    for k in range(n_blocks):
        stop = min(n, (b0 + k + 1) * CENTRE_BLOCK_ROWS - first_row)
        if buf is None:
            np.matmul(X[start:stop].T, w[start:stop], out=P[k])
        else:
            for lo in range(start, stop, _UPCAST_ROWS):
                hi = min(stop, lo + _UPCAST_ROWS)
                piece = buf[:hi - lo]
                np.copyto(piece, X[lo:hi], casting="unsafe")
                P[k] += piece.T @ w[lo:hi]
        start = stop
    return b0, P


def pairwise_sum(parts) -> np.ndarray:
    """Add block results pairwise (the tree of :func:`blocked_centre`); ``parts`` is non-empty."""
    parts = list(parts)
    while len(parts) > 1:  # pairwise tree over the block results
        parts = [parts[i] + parts[i + 1] if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return np.asarray(parts[0], dtype=np.float64)


def blocked_centre(X: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``X^T weights`` in float64: BLAS products over blocks of rows, block results added pairwise.

    Each block of at most :data:`CENTRE_BLOCK_ROWS` rows is one float64 matrix-vector product
    (a float32 ``X`` is upcast block by block, so no float32 accumulation ever happens); the
    block results are then summed pairwise.  Whatever order BLAS uses inside a block, every
    product ``x_ij w_i`` passes through at most ``CENTRE_BLOCK_ROWS + ceil(log2(#blocks)) + 1``
    roundings, which is what :func:`centre_error_bound` charges.  The dask backend
    (:func:`dpboost.distributed.dask_centre`) computes the same blocks with
    :func:`block_partials` chunk by chunk and adds them with the same :func:`pairwise_sum`.

    Examples
    --------
    >>> blocked_centre(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([0.5, -0.5]))
    array([ 0.5, -0.5])
    """
    if X.shape[0] == 0:
        return np.zeros(X.shape[1], dtype=np.float64)
    return pairwise_sum(block_partials(X, weights)[1])


def centre_error_bound(n: int, norm_bound: float) -> float:
    r"""Public bound ``E`` on ``||z_computed - z*||_2`` for a centre ``z* = sum_i w_i y_i x_i``.

    ``z*`` is the centre in exact arithmetic for the exact normalised measure of the round
    (``w >= 0``, ``sum w = 1``, ``||x_i|| <= R``).  Two sources of error:

    * the computed normalised measure ``w~`` is within relative L1 distance
      :data:`MEASURE_L1_ERROR` ``= 2^-38`` of ``w`` (the projection's sums are pairwise, with
      error ``O(log n)`` ulps, ~1e-14; the tests check the bound against an exact rational
      projection), which moves the centre by at most ``R 2^-38``;
    * the summation in :func:`blocked_centre`: each term passes through at most
      ``m = B + ceil(log2(n / B)) + 2`` roundings, so coordinate ``j`` errs by at most
      ``gamma_m sum_i |w~_i x_ij|`` with ``gamma_m = m u / (1 - m u)`` (Higham 2002, Sec. 4.2,
      for any order of the additions), and in L2 by at most ``gamma_m sum_i w~_i ||x_i||
      <= gamma_m (1 + 2^-38) R`` (triangle inequality).

    Examples
    --------
    >>> centre_error_bound(10**6, 1.0) < 1e-11
    True
    """
    blocks = max(1, -(-int(n) // CENTRE_BLOCK_ROWS))
    m = min(int(n), CENTRE_BLOCK_ROWS) + math.ceil(math.log2(blocks)) + 2
    gamma = m * UNIT_ROUNDOFF / (1.0 - m * UNIT_ROUNDOFF)
    return float(norm_bound) * (MEASURE_L1_ERROR + gamma * (1.0 + MEASURE_L1_ERROR)) * (1 + 1e-9)


# ---------------------------------------------------------------------------------------------
# the release
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LatticeGaussian:
    r"""The discrete Gaussian mechanism on a public grid, from public quantities only.

    Parameters
    ----------
    sensitivity : float > 0
        ``Delta``: L2 sensitivity of the released value in exact arithmetic.
    noise_multiplier : float > 0
        ``z``; one release is ``DiscreteGaussianEvent(z)`` = ``1/(2 z^2)``-zCDP.
    dimension : int >= 1
        ``d``.
    error_bound : float >= 0
        ``E``: public bound on the floating-point error of the value handed to :meth:`release`.

    Attributes (properties)
    -----------------------
    granularity : ``g``, a power of two.
    effective_sensitivity : ``Delta' = Delta + 2E + g sqrt(d)`` (the integer query's
        sensitivity times ``g``; see the module docstring for the proof).
    grid_variance : ``(t, m)``; the noise is ``N_Z(0, t m)`` grid steps, ``t m >= (z Delta'/g)^2``.
    sigma : the standard deviation scale ``g sqrt(t m)`` of the released noise.

    Examples
    --------
    >>> mech = LatticeGaussian(sensitivity=0.008, noise_multiplier=2.0, dimension=4)
    >>> out = mech.release(np.array([0.1, 0.2, 0.3, 0.4]), rng=np.random.default_rng(0))
    >>> bool(np.all(out / mech.granularity == np.round(out / mech.granularity)))
    True
    """

    sensitivity: float
    noise_multiplier: float
    dimension: int
    error_bound: float = 0.0

    def __post_init__(self) -> None:
        owner = "LatticeGaussian"
        object.__setattr__(self, "sensitivity", check_scalar(
            self.sensitivity, "sensitivity", owner, low=0, high=math.inf))
        object.__setattr__(self, "noise_multiplier", check_scalar(
            self.noise_multiplier, "noise_multiplier", owner, low=0, high=math.inf))
        object.__setattr__(self, "dimension", check_scalar(
            self.dimension, "dimension", owner, kind="int", low=1, closed="left"))
        object.__setattr__(self, "error_bound", check_scalar(
            self.error_bound, "error_bound", owner, low=0, high=math.inf, closed="left"))

    @property
    def drawable(self) -> bool:
        """Whether the exact sampler draws this noise (:func:`drawable`)."""
        return drawable(self.noise_multiplier, self.dimension)

    @property
    def granularity(self) -> float:
        if not self.drawable:  # the grid would coarsen to infinity (nan noise)
            raise NoiseBeyondSamplerError.of(self.noise_multiplier, self.dimension)
        root_d = math.sqrt(self.dimension)
        g = 2.0 ** math.floor(math.log2(self.sensitivity / (GRID_FRACTION * root_d)))
        while self.noise_multiplier * self._effective(g) / g > MAX_GRID_SIGMA:
            g *= 2.0
        return g

    def _effective(self, g: float) -> float:
        return self.sensitivity + 2.0 * self.error_bound + g * math.sqrt(self.dimension)

    @property
    def effective_sensitivity(self) -> float:
        return self._effective(self.granularity)

    @property
    def grid_variance(self) -> tuple[int, int]:
        g = self.granularity
        return lattice_variance(self.noise_multiplier * self._effective(g) / g)

    @property
    def sigma(self) -> float:
        t, m = self.grid_variance
        return self.granularity * math.sqrt(t * m)

    def release(self, value: np.ndarray, *,
                rng: np.random.Generator | LatticeNoise) -> np.ndarray:
        """Return ``g (round(value / g) + Y)``, ``Y ~ N_Z(0, t m)^d``.

        Exact doubles on ``g Z^d``.  ``rng`` is a Generator, or a :class:`LatticeNoise` over
        one, which hands out draws taken ahead in blocks (the same distribution, fewer sampler
        calls over a run of releases)."""
        value = np.asarray(value, dtype=np.float64)
        if value.shape != (self.dimension,):
            raise ValueError(f"LatticeGaussian.release expects a vector of length "
                             f"{self.dimension}. Got shape {value.shape} instead.")
        g = self.granularity
        steps = np.rint(value / g)  # value / g is exact: g is a power of two
        if not np.all(np.abs(steps) < 2.0**62):  # NaN, inf, or past int64: never cast silently
            raise RuntimeError("LatticeGaussian.release got a non-finite or out-of-range value "
                               "(an internal error: the statistic of clipped rows is bounded)")
        k = steps.astype(np.int64)
        t, m = self.grid_variance
        if isinstance(rng, LatticeNoise):
            noise = rng.draw(t, m, self.dimension)
        else:
            noise = _sample_lattice(t, m, self.dimension, rng)  # N_Z(0, t m), Laplace scale t
        noisy = k + noise
        return noisy.astype(np.float64) * g


class LatticeNoise:
    r"""Draws of ``N_Z(0, t m)^d`` for a run of releases, taken from ``rng`` ahead in blocks.

    A boosting run makes ``T`` releases of the same mechanism; drawing each ``d``-vector alone
    costs one call of the vectorised sampler per round (about 2 ms at ``d = 101``, a tenth of a
    default fit at ``n = 50,000``), while a block of ``block`` rounds costs about as much as
    two.  The noise is independent of the data, so drawing it earlier changes nothing in the
    joint distribution of the releases: every vector handed out is a fresh
    ``N_Z(0, t m)^d`` draw, independent of all others and used once (CKS20 Theorem 14 applies
    to each release unchanged).  Draws left over when a run ends are discarded, never reused;
    a change of ``(t, m, d)`` starts a new block.

    Only the order in which ``rng``'s stream is consumed differs from one sampler call per
    release, so a fixed seed gives other (equally distributed) releases than without it.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> pool = LatticeNoise(rng, block=4)
    >>> [pool.draw(4, 3, 2).shape for _ in range(5)]
    [(2,), (2,), (2,), (2,), (2,)]
    """

    def __init__(self, rng: np.random.Generator, block: int = 16) -> None:
        self.rng = rng
        self.block = check_scalar(block, "block", "LatticeNoise", kind="int", low=1,
                                  closed="left")
        self._key: tuple[int, int, int] | None = None
        self._rows = np.empty((0, 0), dtype=np.int64)
        self._next = 0

    def draw(self, t: int, m: int, size: int) -> np.ndarray:
        """``size`` fresh draws from ``N_Z(0, t m)`` (grid variance as in ``lattice_variance``)."""
        key = (int(t), int(m), int(size))
        if key != self._key or self._next == self._rows.shape[0]:
            flat = _sample_lattice(key[0], key[1], key[2] * self.block, self.rng)
            self._key, self._rows, self._next = key, flat.reshape(self.block, key[2]), 0
        row = self._rows[self._next]
        self._next += 1
        return row
