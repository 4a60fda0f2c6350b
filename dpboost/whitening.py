r"""Private shrinkage whitening of the input map: a released second-moment matrix.

Practical mode boosts on rows ``x' = [M (x - m_hat), c_0]`` (:mod:`dpboost.input_map`).  Without
this module ``M = I / 2``.  With it, when ``n`` is large enough for the release to be worth its
share (:func:`worthwhile`), ``M`` is a shrinkage whitening of the rows' covariance:

.. math::  M = \tfrac12 \sqrt{\lambda_{\min}(\hat C) + \lambda}\,(\hat C + \lambda I)^{-1/2},
           \qquad \hat C = \hat S / n - \hat m \hat m^\top \ (\text{clamped to } \succeq 0),

``S_hat`` the released second-moment matrix ``sum_i x_i x_i^T`` of the clipped rows and ``lambda``
a ridge set from the release's *public* noise level (below).  The factor in front makes the
largest eigenvalue of ``M`` exactly 1/2, so ``||M (x - m_hat)|| <= R`` as before, and with
``C_hat`` a multiple of the identity the map is the old one.

**Why (root cause of covtype's gap, measured).**  The centering weak learner's hypothesis is a
weighted class centroid, and the final ``w`` the average of the rounds' centroids; boosting's
re-weighting moves the centroid, but a centroid classifier ignores how the features co-vary.
On covtype (60,000 rows, 55 features, numeric columns of very different spread and correlated
soil/wilderness indicators) the booster's noise-free fixed point was 0.754 against logistic
regression's 0.758.  Whitening the rows first turns the centroid into Fisher's discriminant
direction ``C^{-1} (mu_+ - mu_-)``: with the exact covariance (non-private diagnostic,
``lambda = 0.01 tr C / d``, 2 seeds) covtype went 0.7538 / 0.7513 -> 0.7585 / 0.7539 at
epsilon = 5 (logistic regression 0.7584 / 0.7550) and letter "A" ROC AUC 0.9752 / 0.9686 ->
0.9839 / 0.9765 at epsilon = 1 (logistic regression 0.981 / 0.975).  But whitening also
spreads the isotropic privacy noise over directions the data barely uses: a9a (one-hot
attributes, rare categories amplified) lost 0.6 point at epsilon = 1 with the exact covariance,
which is why the ridge grows with the noise and the release is skipped on small data.

**The ridge.**  The release adds to each entry of ``S_hat / n`` discrete Gaussian noise of
standard deviation ``sigma_e = sigma / n`` (``sigma`` the mechanism's public noise scale); a
symmetric ``d x d`` matrix of such noise has spectral norm about ``2 sigma_e sqrt(d)``.  The
ridge ``lambda = max(4 sigma_e sqrt(d), 0.01 tr(C_hat) / d)`` is twice that: the noise can
never invert the order of the regularised eigenvalues by much, and where the noise is large
``M`` tends to ``I / 2``.

**When it is released (public rule).**  Only when the expected spectral norm of the noise,
``2 sigma_e sqrt(d)``, is at most ``R^2 / d`` -- the largest average eigenvalue any rows in the
ball can have -- and ``d <= MAX_DIMENSION``; otherwise the share goes back to the boosting
rounds (the run still spends exactly the planned ``rho``).  It depends on ``n``, ``d``, ``R``
and the budget only.

**Measured (private, 3 seeds, 5% of rho, held-out accuracy / ROC AUC, change in points).**
Covtype: +0.28 / +0.25 at epsilon = 0.5, +0.27 / +0.20 at 1, +0.23 / +0.25 at 2, +0.15 / +0.28
at 5 (single seeds from -0.57 to +1.26 in accuracy at epsilon <= 1, all positive at 2 and 5).
a9a passes the rule only at epsilon = 5: -0.08 / +0.00; online-shoppers only at 5: +0.04 /
+0.11; letter "A" (every epsilon) within +-0.1 in accuracy, AUC -0.02 on average (one seed
-1.65 at epsilon = 0.5).  German credit, breast cancer and digits never pass the rule, so they
are unchanged.  A smaller ridge (1x or 2x instead of 4x ``sigma_e sqrt(d)``) gained less on
covtype (+0.10 / +0.14 at epsilon 5 / 2) and lost more on a9a (-0.14 at 5).  An earlier
prototype without the rule and with a data-blind ridge (10% of rho) had cost letter "A"
0.3 point at epsilon = 0.5 and, per feature, breast cancer 31 points at epsilon = 1: the rule
and the noise-scaled ridge are what make the release safe to leave on by default.

**Used only where the ridge does not swamp the spectrum (post-processing).**  The rule above
compares the noise with the largest mean eigenvalue rows in the ball *can* have; rows that fill
the ball thinly (features divided by ``4 sqrt(d)``, say) pass it with a ridge many times their
actual mean eigenvalue, where ``M`` is ``I / 2`` plus a noise-driven distortion.  So ``M`` is
used only when ``lambda <= 5 tr(C_hat) / d`` (:data:`MAX_RIDGE_RATIO`), read off the release;
otherwise the map keeps ``I / 2`` and the 5% is spent for nothing.  Measured: on
``make_classification`` with 500 rows and 5 features at epsilon = 4 (ratio 6.6-6.9) the
whitened map lost 1.1 +- 0.7 and 0.9 +- 1.0 points (30% / 50% positives, 12 seeds); letter "A"
at epsilon = 0.5 has ratio 6.1-7.2 (its AUC fell 0.5 point over 3 seeds); covtype's ratio is
4.7-4.8 at epsilon = 0.5 and 0.9-3.2 above, a9a's 1.9 and shoppers' 4.6 at epsilon = 5.
A joint multiclass fit therefore releases ``S_hat`` on privately pre-scaled rows
``clip(s_0 x, R)`` (:func:`dpboost.input_map.private_input_map`): the noise is fixed, the
signal grows as ``s_0^2``.  On UCI letter through ``dpboost.tabular.TabularEncoder`` (median
row norm 0.47) the ratio fell from 4.0 to 1.9 at epsilon = 1 and accuracy rose from 0.472
to 0.545 (session 24 of ``docs/utility-measurements.md``; binary fits measured, not adopted).

**Privacy.**  The released vector is the upper triangle (diagonal included) of
``S = sum_i x_i x_i^T``.  Replacing a row ``x`` by ``x'`` changes it by the upper triangle of
``x x^T - x' x'^T``, whose squared L2 norm is
``a + b - 2 c`` with ``a = sum_{j<=k} x_j^2 x_k^2 <= ||x||^4``, ``b`` the same for ``x'`` and
``c = sum_{j<=k} x_j x_k x'_j x'_k = ((x . x')^2 + sum_j x_j^2 x'^2_j) / 2 >= 0``; so the
sensitivity is at most ``sqrt 2 R^2``.  The floating-point error of the computed sum, in any
order of the additions and on any backend, is at most ``gamma_{n+1} sum_i |x_ij x_ik|`` per
entry (Higham 2002, Sec. 3.1), so at most ``gamma_{n+1} n R^2`` in L2 over the triangle (the
Minkowski inequality and ``||upper(x x^T)|| <= ||x||^2``): :func:`gram_error_bound`, handed
to the same floating-point-safe discrete Gaussian as every other release
(:class:`~dpboost.mechanisms.LatticeGaussian`), which is ``1/(2 z^2)``-zCDP (Canonne, Kamath &
Steinke 2020, Theorem 14).  ``M`` is post-processing of this release and of the private mean;
given both, ``x -> x'`` is a fixed per-row map with outputs of norm at most ``R``, so the
later mechanisms keep their guarantees (adaptive composition, Bun & Steinke 2016, Lemma 2.3).

References
----------
Canonne, Kamath & Steinke (NeurIPS 2020), Theorem 14; Bun & Steinke (TCC 2016), Lemma 2.3;
N. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (2002), Sec. 3.1;
R. A. Fisher (1936), the linear discriminant ``C^{-1} (mu_+ - mu_-)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from accounting import DiscreteGaussianEvent
from dpboost.mechanisms import UNIT_ROUNDOFF, LatticeGaussian
from dpboost.round_ops import is_dask_array

__all__ = ["MAX_DIMENSION", "MAX_RIDGE_RATIO", "Whitening", "gram_error_bound", "private_whitening",
           "second_moment_event", "worthwhile"]

MAX_DIMENSION = 1000  # eigh of a d x d matrix: about 1 s at d = 1000
RIDGE_NOISE_FACTOR = 4.0  # lambda >= 2 x the expected spectral norm 2 sigma_e sqrt(d)
RIDGE_FLOOR = 0.01  # lambda >= 0.01 tr(C_hat) / d
MAX_RIDGE_RATIO = 5.0  # M is used only if lambda <= 5 tr(C_hat) / d (post-processing)


def _noise_multiplier(rho: float) -> float:
    return math.sqrt(1.0 / (2.0 * rho))


def second_moment_event(rho: float) -> DiscreteGaussianEvent:
    """The release's event: one discrete Gaussian costing ``rho`` (public)."""
    return DiscreteGaussianEvent(noise_multiplier=_noise_multiplier(rho))


def gram_error_bound(n: int, norm_bound: float) -> float:
    """Public bound on the L2 error of the computed upper triangle of ``sum_i x_i x_i^T``.

    ``gamma_{n+1} n R^2`` with ``gamma_k = k u / (1 - k u)``: each entry is a sum of ``n``
    rounded products, any order (Higham 2002, Sec. 3.1), and ``||upper(x x^T)|| <= ||x||^2``.

    Examples
    --------
    >>> gram_error_bound(10**6, 1.0) < 1e-3
    True
    """
    k = int(n) + 1
    gamma = k * UNIT_ROUNDOFF / (1.0 - k * UNIT_ROUNDOFF)
    return gamma * int(n) * float(norm_bound) ** 2 * (1 + 1e-9)


def mechanism(n: int, d: int, norm_bound: float, rho: float) -> LatticeGaussian:
    """The release of the upper triangle of ``sum_i x_i x_i^T``: sensitivity ``sqrt 2 R^2``."""
    return LatticeGaussian(sensitivity=math.sqrt(2.0) * norm_bound**2,
                           noise_multiplier=_noise_multiplier(rho), dimension=d * (d + 1) // 2,
                           error_bound=gram_error_bound(n, norm_bound))


def _entry_sigma(n: int, d: int, norm_bound: float, rho: float) -> float:
    """``sigma_e``: the public noise scale of one entry of ``S_hat / n``."""
    return mechanism(n, d, norm_bound, rho).sigma / n


def worthwhile(n: int, d: int, norm_bound: float, rho: float) -> bool:
    """Release only if ``2 sigma_e sqrt(d) <= R^2 / d`` and ``d <= MAX_DIMENSION`` (public).

    Examples
    --------
    >>> worthwhile(60_000, 55, 1.0, 0.0012), worthwhile(750, 70, 1.0, 0.0012)
    (True, False)
    """
    if rho <= 0 or d > MAX_DIMENSION or not mechanism(n, d, norm_bound, rho).drawable:
        return False  # (not drawable: an epsilon so small that its noise swamps any entry)
    return 2.0 * _entry_sigma(n, d, norm_bound, rho) * math.sqrt(d) <= norm_bound**2 / d


def gram(X) -> np.ndarray:
    """``sum_i x_i x_i^T`` in float64 (numpy, or a row-chunked dask array)."""
    if is_dask_array(X):
        X64 = X.astype(np.float64)
        return np.asarray((X64.T @ X64).compute(), dtype=np.float64)
    from scipy.linalg.blas import dsyrk

    # BLAS syrk computes the upper triangle only (what mechanism() releases); the error bound
    # holds for any order.  It reads a Fortran-ordered matrix in place: X^T of C-ordered rows
    # (syrk on C-ordered X itself copied all n x d entries first, 10x slower)
    X64 = np.asarray(X, dtype=np.float64)
    upper = (dsyrk(1.0, X64.T, trans=0) if X64.flags.c_contiguous
             else dsyrk(1.0, X64, trans=1))
    return np.triu(upper) + np.triu(upper, 1).T


@dataclass(frozen=True)
class Whitening:
    """The released ``M`` and what it was built from (all private output or public).

    Attributes
    ----------
    matrix : ndarray of shape (d, d)
        ``M`` (symmetric, largest eigenvalue 1/2).
    ridge : float
        ``lambda``.
    ridge_over_mean_eigenvalue : float or None
        ``lambda / (tr(C_hat) / d)``: large means ``M`` is close to ``I / 2`` (None when
        ``C_hat`` is 0, e.g. identical rows; JSON has no infinity).
    applied : bool
        Whether the input map uses ``M``: only if the ratio above is at most
        :data:`MAX_RIDGE_RATIO` (else the map keeps ``I / 2``; the release was still spent).
    covariance : ndarray of shape (d, d) or None
        ``C_hat`` (clamped to be positive semi-definite), the released covariance ``M`` was
        built from: post-processing of the same release.  A joint multiclass fit reads it to
        build its discriminant candidates (:mod:`dpboost.multiclass_discriminant`).
    """

    matrix: np.ndarray
    ridge: float
    ridge_over_mean_eigenvalue: float | None
    applied: bool = True
    covariance: np.ndarray | None = field(default=None, repr=False, compare=False)


def private_whitening(X, mean: np.ndarray, norm_bound: float, rho: float, *,
                      rng: np.random.Generator) -> Whitening:
    """``rho``-zCDP shrinkage whitening of the rows of ``X`` (each of norm ``<= R``).

    ``mean`` is the already-released private mean (public here).  Only the upper triangle of
    ``sum_i x_i x_i^T`` touches the data (:func:`mechanism`); the rest is post-processing.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50_000, 3)) * [0.4, 0.1, 0.05]
    >>> W = private_whitening(X / 2, np.zeros(3), 1.0, 0.05, rng=rng)
    >>> np.round(np.diag(W.matrix) / W.matrix[0, 0], 1).tolist()  # exact whitening: 1, 4, 8
    [1.0, 3.6, 5.7]
    """
    n, d = X.shape
    mech = mechanism(n, d, norm_bound, rho)
    iu = np.triu_indices(d)
    released = mech.release(gram(X)[iu], rng=rng)
    S = np.zeros((d, d))
    S[iu] = released
    S = S + np.triu(S, 1).T
    m = np.asarray(mean, dtype=np.float64)
    C = S / n - np.outer(m, m)
    eig, V = np.linalg.eigh(C)
    eig = np.maximum(eig, 0.0)
    mean_eig = float(eig.sum()) / d
    ridge = max(RIDGE_NOISE_FACTOR * (mech.sigma / n) * math.sqrt(d), RIDGE_FLOOR * mean_eig,
                1e-300)
    inv_root = 1.0 / np.sqrt(eig + ridge)
    M = (V * (0.5 * inv_root / inv_root.max())) @ V.T
    M = 0.5 * (M + M.T)
    ratio = ridge / mean_eig if mean_eig > 0 else None
    return Whitening(M, ridge, ratio, ratio is not None and ratio <= MAX_RIDGE_RATIO,
                     (V * eig) @ V.T)
