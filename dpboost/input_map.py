r"""The private input map of practical mode: a private centre and a constant coordinate.

Practical mode (``PrivateHalfspaceClassifier`` with ``kappa`` or ``n_rounds`` learned) boosts on

.. math::  x' = \bigl[\, (x - \hat m)/2,\; c_0 \,\bigr], \qquad c_0 = R / (2\sqrt{d + 1}),

(or, on data large enough for it, ``[M (x - m_hat), c_0]`` with ``M`` the private shrinkage
whitening of :mod:`dpboost.whitening`, largest eigenvalue 1/2), clipped row by row to ``R``
(then scaled by the private input scale of
:func:`dpboost.defaults.private_norm_scale`), where ``m_hat`` is a private mean of the clipped
rows projected onto the ball of radius ``R``.

**Why centre (measured).**  The Gaussian centering weak learner's centre
``z = sum_i mu_hat(i) y_i x_i`` splits into the class contrast and ``(sum_i mu_hat(i) y_i) m``,
the measure's class imbalance times the common mean ``m`` of the rows.  Public-constant
preprocessing leaves ``m`` large (features on ``[-1, 1]`` from documented ranges rarely average
zero), so whenever the measure is not balanced the centre points along ``m``, a direction every
row shares: the hypotheses rank rows by their projection on the mean, not by class.  This is the
measured cause of the small-data failures of the previous defaults (3 seeds, epsilon = 1,
held-out ROC AUC): digits "8" against the rest 0.68 -> 0.91 and breast cancer 0.83 -> 0.94
with the centre and the density rule of :func:`dpboost.defaults.adaptive_kappa`.  The constant
coordinate ``c_0`` keeps an offset inside every weak hypothesis (centring alone zeroes a
constant feature the user supplied, and letter "A" then fell from AUC 0.97 to 0.78); with it,
letter "A" rises to 0.974 and shoppers stays at 0.904.

**Privacy.**  ``m_hat`` is the mean ``(1/n) sum_i x_i`` of the clipped rows released by the same
floating-point-safe discrete Gaussian as a boosting round
(:class:`~dpboost.mechanisms.LatticeGaussian`): replacing one row moves the mean by at most
``2R/n`` in L2, the sum is computed by :func:`dpboost.round_ops.centre` (any backend, within
:func:`~dpboost.mechanisms.centre_error_bound`), and the release is ``1/(2 z^2)``-zCDP
(Canonne, Kamath & Steinke 2020, Theorem 14).  Projecting ``m_hat`` onto the ball is
post-processing.  Given ``m_hat``, the map ``x -> x'`` is a fixed per-row function whose
outputs have norm at most ``R`` after clipping, so every later mechanism sees neighbouring
datasets of rows in the ball and keeps its own guarantee; the run is an adaptive composition
(Bun & Steinke 2016, Lemma 2.3).

**Prediction stays one halfspace.**  A score ``v . x' + b`` on the unclipped map equals
``(v_x / 2) . x + (v_c c_0 - v_x . m_hat / 2 + b)``: :meth:`InputMap.fold` turns the boosted
halfspace over ``x'`` into ``coef_`` and ``intercept_`` over the user's features.  Prediction
clips ``x`` to ``R`` first, as the fit did; it cannot repeat the later clips of ``x'``: after
the centring they touched no training row in 33 measured fits, after the private input scale
1-21% of them (``docs/utility-measurements.md``, session 21).

References
----------
Canonne, Kamath & Steinke (NeurIPS 2020), Theorem 14; Bun & Steinke (TCC 2016), Lemma 2.3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from accounting import DiscreteGaussianEvent
from dpboost.mechanisms import LatticeGaussian, centre_error_bound
from dpboost.round_ops import centre, is_dask_array, zero_gain

__all__ = ["InputMap", "mean_event", "mean_rho", "private_input_map", "private_mean"]

MEAN_NOISE_TARGET = 0.2  # the mean's expected noise norm, as a fraction of R
MAX_MEAN_SHARE = 0.10


def _noise_multiplier(rho: float) -> float:
    return math.sqrt(1.0 / (2.0 * rho))


def mean_event(rho: float) -> DiscreteGaussianEvent:
    """The private mean's event: one discrete Gaussian release costing ``rho`` (public)."""
    return DiscreteGaussianEvent(noise_multiplier=_noise_multiplier(rho))


def mean_rho(n: int, d: int, rho_total: float, declared: float) -> float:
    r"""The mean's budget: enough for an expected noise norm ``<= 0.2 R``, within [declared, 10%].

    The release adds ``N(0, s^2 I_d)`` with ``s = (2R/n) / sqrt(2 rho_m)`` (up to the grid's
    rounding), so ``sqrt(E ||m_hat - m||^2) = 2 R sqrt(d) / (n sqrt(2 rho_m))``, which is
    ``0.2 R`` at ``rho_m = 2 d / (0.2 n)^2``.  The rule reads only public quantities
    (``n``, ``d``, the total ``rho`` and the declared share), so moving budget from the rounds
    to the mean is fixed before the data is read, and the total is unchanged.

    **Why (measured).**  With 3% of ``rho`` the mean of a small sample is mostly noise: on
    digits "8" (1,348 rows, ``d = 64``) at epsilon = 0.5 its noise norm is about 0.64 R,
    larger than the spread of the rows.  That noise ``e`` reaches the halfspace twice: the
    centre of a measure that is not class-balanced carries ``(sum_i mu_i y_i) e / 2`` (on
    digits "8" the final ``w`` had cosine -0.85 to -0.90 with ``e``), and the shifted rows'
    norms are dominated by ``|e| / 2``, so the private input scale stays near 1.  Measured
    against the fixed 3% (paired seeds, held-out ROC AUC change +- its standard error; 30
    seeds, a9a, covtype and letter subsamples 20): digits "8" at epsilon 0.5 / 1 +0.085 +- 0.013
    / +0.030 +- 0.009; german credit at 0.5 / 1 / 2 +0.022 +- 0.007 / +0.009 +- 0.008 /
    -0.003 +- 0.007; breast cancer at 0.5 / 1 / 2 -0.016 +- 0.017 / +0.001 +- 0.003 /
    +0.003 +- 0.001; covtype with 3,000 rows at 0.5 +0.044 +- 0.014; a9a with 2,000 rows and
    letter "A" with 3,000 within 0.002; every case with an expected noise norm under 0.2 R
    unchanged by construction.  A target of 0.15 R, a cap of 15%, and James-Stein shrinkage
    of ``m_hat`` towards 0 (post-processing; digits "8" at 0.5: -0.035) measured no better.

    Examples
    --------
    >>> rho = 0.0066                        # epsilon = 0.5, delta = 1e-6
    >>> round(mean_rho(1348, 64, rho, 0.03 * rho) / rho, 3)      # digits: capped at 10%
    0.1
    >>> round(mean_rho(32561, 123, rho, 0.03 * rho) / rho, 3)    # a9a: the declared 3%
    0.03
    """
    need = 2.0 * d / (MEAN_NOISE_TARGET * n) ** 2
    return float(max(declared, min(MAX_MEAN_SHARE * rho_total, need)))


def mean_mechanism(n: int, d: int, norm_bound: float, rho: float) -> LatticeGaussian:
    """The release of the mean of ``n`` rows of norm ``<= R``: sensitivity ``2R/n``."""
    return LatticeGaussian(sensitivity=2.0 * norm_bound / n,
                           noise_multiplier=_noise_multiplier(rho), dimension=d,
                           error_bound=centre_error_bound(n, norm_bound))


def private_mean(X, norm_bound: float, rho: float, *, rng: np.random.Generator) -> np.ndarray:
    """``rho``-zCDP mean of the rows of ``X`` (each of norm ``<= R``), projected onto the ball.

    ``X`` is a numpy array or a row-chunked dask array; the sum is computed by
    :func:`dpboost.round_ops.centre` with weights ``1/n`` (the same blocks and error bound as a
    boosting round's centre) and released by :func:`mean_mechanism`.

    Examples
    --------
    >>> X = np.full((20000, 3), 0.5)
    >>> m = private_mean(X, 1.0, 0.5, rng=np.random.default_rng(0))
    >>> bool(np.all(np.abs(m - 0.5) < 0.01))
    True
    """
    n, d = X.shape
    weights = zero_gain(X, None) + 1.0 / n if is_dask_array(X) else np.full(n, 1.0 / n)
    m_hat = mean_mechanism(n, d, norm_bound, rho).release(centre(X, weights), rng=rng)
    norm = float(np.linalg.norm(m_hat))
    return m_hat * (norm_bound / norm) if norm > norm_bound else m_hat


@dataclass(frozen=True)
class InputMap:
    """``x -> [M (x - mean), constant]`` (all public once ``mean`` and ``M`` are released).

    Attributes
    ----------
    mean : ndarray of shape (d,)
        The private mean, of norm at most ``R``.
    constant : float
        ``c_0 = R / (2 sqrt(d + 1))``.
    matrix : ndarray of shape (d, d) or None
        ``M``: None for ``I / 2``, else the private shrinkage whitening of
        :mod:`dpboost.whitening` (symmetric, largest eigenvalue 1/2, so ``||x'|| <= R`` still
        holds up to rounding; the rows are clipped after).
    prescale : float
        ``s_0 >= 1``, the private pre-scale the rows were multiplied by (and clipped to ``R``)
        before ``mean`` and ``M`` were released: :meth:`transform` takes the pre-scaled rows,
        :meth:`fold` returns coefficients over the user's rows (1.0: no pre-scale).
    """

    mean: np.ndarray
    constant: float
    matrix: np.ndarray | None = None
    prescale: float = 1.0

    @classmethod
    def for_mean(cls, mean: np.ndarray, norm_bound: float,
                 matrix: np.ndarray | None = None, prescale: float = 1.0) -> InputMap:
        d = mean.shape[0]
        return cls(np.asarray(mean, dtype=np.float64), norm_bound / (2.0 * math.sqrt(d + 1)),
                   None if matrix is None else np.asarray(matrix, dtype=np.float64),
                   float(prescale))

    def _block(self, block: np.ndarray) -> np.ndarray:
        # float64 rows are laid out column-major: a round's two mat-vecs (X.T v and X w) ran
        # in 1.5 ms instead of 3.0 ms each at 50,000 x 101 with one OpenBLAS thread
        # (benchmarks/bench_fit_time.py); float32 stays row-major, whose upcast in
        # mechanisms.block_partials copies rows (5.1 ms column-major against 1.7 ms)
        order = "F" if block.dtype == np.float64 else "C"
        out = np.empty((block.shape[0], block.shape[1] + 1), dtype=block.dtype, order=order)
        np.subtract(block, self.mean.astype(block.dtype), out=out[:, :-1])
        if self.matrix is None:
            out[:, :-1] *= 0.5
        else:  # the private shrinkage whitening (dpboost.whitening): symmetric, norm 1/2
            out[:, :-1] = out[:, :-1] @ self.matrix.astype(block.dtype)
        out[:, -1] = self.constant
        return out

    def transform(self, X):
        """The mapped rows (norm ``<= R sqrt(1 + 1/(4(d+1)))``; clip them to ``R`` after)."""
        if is_dask_array(X):
            return X.map_blocks(self._block, chunks=(X.chunks[0], (X.shape[1] + 1,)),
                                dtype=X.dtype)
        return self._block(np.asarray(X))

    def fold(self, coef) -> tuple[np.ndarray, np.ndarray | float]:
        """``(w, b)`` with ``x . w + b = x' . coef`` for every ``x``; ``coef`` of shape (..., d+1).

        Examples
        --------
        >>> imap = InputMap.for_mean(np.array([0.2, -0.1]), 1.0)
        >>> x, v = np.array([0.3, 0.4]), np.array([1.0, 2.0, 3.0])
        >>> w, b = imap.fold(v)
        >>> bool(np.isclose(x @ w + b, imap.transform(x[None])[0] @ v))
        True
        """
        coef = np.asarray(coef, dtype=np.float64)
        w = 0.5 * coef[..., :-1] if self.matrix is None else coef[..., :-1] @ self.matrix
        b = coef[..., -1] * self.constant - w @ self.mean
        return (w if self.prescale == 1.0 else w * self.prescale), b


def _prescale(X, norm_bound: float, rho: float, rng: np.random.Generator):
    """``(s_0, clip(s_0 X, R))``: the private input scale of the rows as given (numpy or dask)."""
    if is_dask_array(X):
        from dpboost.distributed import clip_rows_dask, private_norm_scale_dask

        s0 = private_norm_scale_dask(X, norm_bound, rho, rng=rng)
        return s0, (clip_rows_dask(X * s0, norm_bound) if s0 > 1.0 else X)
    from dpboost.clipping import clip_rows
    from dpboost.defaults import private_norm_scale

    s0 = private_norm_scale(X, norm_bound, rho, rng=rng)
    return s0, (clip_rows(np.asarray(X) * s0, norm_bound) if s0 > 1.0 else X)


def private_input_map(X, norm_bound: float, plan, *, rng_mean: np.random.Generator,
                      rng_whitening: np.random.Generator,
                      rng_prescale: np.random.Generator | None = None):
    r"""The input map of one fit: the private mean, then the whitening if ``n`` allows it.

    ``plan`` is the fit's :class:`~dpboost.budget_plan.RunPlan`.  The mean first takes the
    budget :func:`mean_rho` asks for, from the rounds (``plan.with_mean_rho``).  When the plan
    has a whitening share but :func:`dpboost.whitening.worthwhile` says no (a public rule on
    ``n``, ``d``, ``R`` and the share), the share goes to the rounds
    (``plan.without_whitening()``).

    **The pre-scale (``rng_prescale`` given: multiclass fits).**  When the whitening is
    released and the plan has a row-norm share, half of that share buys a first private input
    scale ``s_0`` (:func:`dpboost.defaults.private_norm_scale`, its 75th percentile of the row
    norms mapped to ``R``) and the mean and the second-moment matrix are released on the rows
    ``clip(s_0 x, R)``; the other half buys the input scale after the map, as before
    (``plan.with_prescale()``).  Why: the second-moment release's noise is fixed by its
    sensitivity ``sqrt 2 R^2`` whatever the rows' size, so rows that fill the ball thinly
    (``dpboost.tabular.TabularEncoder`` divides a row by the square root of its number of
    blocks: median norm 0.47 on UCI letter) get a ridge several times their mean eigenvalue
    (4.0 on letter at epsilon = 1, 1.9 once pre-scaled) and the whitening is lost: letter
    (26 classes, raw-file path, 3 seeds) went from 0.472 / 0.633 to 0.545 / 0.664 held-out
    accuracy at epsilon = 1 / 5 (``docs/utility-measurements.md``, session 24).  Binary fits
    do not pre-scale: letter "A" lost 0.002-0.003 ROC AUC with it.

    *Privacy.*  ``s_0`` is the release of a row-norm histogram of half the norm share
    (sensitivity ``sqrt 2``, discrete Gaussian, Canonne, Kamath & Steinke 2020, Theorem 14),
    the input scale after the map another of the other half (``plan.norms_event()`` names
    both).  Given it, ``x -> clip(s_0 x, R)`` is a fixed per-row map into the ball
    of radius ``R``: neighbouring datasets stay neighbours (one row replaced) of rows of norm
    at most ``R``, so the mean (sensitivity ``2R/n``) and the second-moment matrix
    (``sqrt 2 R^2``) keep their public sensitivities; the later map and clip are per row too.
    Whether the pre-scale runs is decided from ``n``, ``d``, ``R`` and the plan only
    (:func:`~dpboost.whitening.worthwhile`), before the data is read, and its half is taken
    from the norm share (the rounding difference of the two halves from the rounds), so the
    run's total ``rho`` is the planned one (relative 1e-12) and every release is named in
    ``plan.event()``, ``plan.mechanisms()`` and so in ``privacy_event_`` and the privacy
    report (adaptive composition, Bun & Steinke 2016, Lemma 2.3); ``planned_privacy_event()``
    lists one histogram at the whole share, which the two halves cost.

    Returns ``(InputMap, plan, Whitening or None, X)`` with ``X`` the rows the map takes
    (pre-scaled and clipped, or ``X`` itself).
    """
    from dpboost.whitening import private_whitening, worthwhile

    n, d = X.shape
    plan = plan.with_mean_rho(mean_rho(n, d, plan.rho, plan.rho_mean))
    white_ok = bool(plan.rho_whitening) and worthwhile(n, d, norm_bound, plan.rho_whitening)
    s0 = 1.0
    if white_ok and rng_prescale is not None and plan.rho_norms:
        plan = plan.with_prescale()
        s0, X = _prescale(X, norm_bound, plan.rho_norms, rng_prescale)
    mean = private_mean(X, norm_bound, plan.rho_mean, rng=rng_mean)
    white = None
    if white_ok:
        white = private_whitening(X, mean, norm_bound, plan.rho_whitening, rng=rng_whitening)
    elif plan.rho_whitening:
        plan = plan.without_whitening()
    matrix = white.matrix if white is not None and white.applied else None
    return InputMap.for_mean(mean, norm_bound, matrix, s0), plan, white, X
