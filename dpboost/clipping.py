"""Rows into the public ball: each row longer than the norm bound is scaled onto its sphere.

Clipping row by row is what keeps every sensitivity of a fit (``2R/(kappa n)`` for a round,
``2R/n`` for the mean) a function of the public bound ``R`` alone: a row is never rescaled by
anything computed from the other rows (Bun, Carmosino & Sorrell 2020, Theorem 24 needs
``||x|| <= 1``).  The numpy version is here; the dask backend applies it chunk by chunk
(:func:`dpboost.distributed.clip_rows_dask`).

A fitted model scores rows the way it was trained: clipped to its norm bound
(:func:`clip_for_scoring`, used by every scoring path: the estimators in memory and on dask,
a model loaded from a file, ``dpboost predict``).
"""

from __future__ import annotations

import numpy as np

from dpboost.round_ops import is_dask_array

__all__ = ["FLOAT32_MAX_BOUND", "FLOAT32_MIN_BOUND", "clip_any", "clip_for_scoring", "clip_rows",
           "clipped_fraction", "scoring_norm_bound", "working_dtype"]

#: The largest norm bound under which a fit keeps float32 rows in float32: float32's largest
#: value over 2^16.  A fit's intermediates reach about 1,100 R (the centred rows ``x - m_hat``,
#: up to 2R; the private input scale, up to 2^10, on mapped rows of norm up to 1.12 R), which
#: must not overflow to inf.
FLOAT32_MAX_BOUND = float(np.finfo(np.float32).max) / 2.0**16

#: The smallest norm bound under which a fit keeps float32 rows in float32: 2^-60 (about
#: 8.7e-19).  A hypothesis's coefficients are ``z / R^2``, of order ``1/R`` times the noise
#: multiplier, and must not overflow when cast to float32 (R = 3e-39 gave inf, and a row
#: holding an exact 0 then scored 0 * inf = NaN); 2^60 leaves float32 a margin of 2^68.
FLOAT32_MIN_BOUND = 2.0**-60


def working_dtype(dtype, norm_bound: float) -> np.dtype:
    """The precision a fit works in: the rows' own, except float64 for float32 rows whose
    public bound lies outside [:data:`FLOAT32_MIN_BOUND`, :data:`FLOAT32_MAX_BOUND`]
    (about [8.7e-19, 5.2e33]).

    The choice reads only the container's dtype and the public bound, never the values.
    Outside that range float32 arithmetic could overflow in the fit (above it, a row of norm
    0.999 R centred or scaled past 3.4e38 becomes inf, then NaN after clipping; below it, the
    coefficients ``z / R^2`` cast to float32 become inf, and a zero cell scores NaN), and a
    non-finite value would reach a release.  In float64 every intermediate is far from the
    limits for any accepted bound (``1e-100 <= R <= 1e100``).

    >>> [working_dtype(np.float32, r).name for r in (1.0, 3e38, 3e-39)]
    ['float32', 'float64', 'float64']
    """
    dtype = np.dtype(dtype)
    if dtype == np.float32 and not FLOAT32_MIN_BOUND <= norm_bound <= FLOAT32_MAX_BOUND:
        return np.dtype(np.float64)
    return dtype


def clip_rows(X: np.ndarray, norm_bound: float) -> np.ndarray:
    """Scale every row with ``||x|| > norm_bound`` down onto the sphere of radius ``norm_bound``.

    Rows inside the ball are untouched; the input is never modified (a copy is made only if some
    row needs clipping, or to work in float64, :func:`working_dtype`).  Every returned row has
    an *exact* norm (of its stored values, in real arithmetic) of at most ``norm_bound``, which
    is what the sensitivities assume:

    * the norm is computed in float64 from squares that are exact for float64 and float32
      rows, with a relative error below ``(d + 1) u`` (``u = 2^-53``: ``d`` rounded additions
      and a square root), so a row is clipped when its computed norm exceeds
      ``norm_bound (1 - (d + 2) eps)``, ``eps = 2u``: one within ulps of the bound is scaled
      by ``1 - O(d eps)`` (nothing a model can see), the rest are untouched;
    * a clipped row is scaled to that radius times ``1 - 8 eps_X``, which absorbs the rounding
      of the factor and of the scaled values in ``X``'s precision.

    >>> clip_rows(np.array([[3.0, 4.0], [0.3, 0.4], [1e308, 1e308]]), 1.0).round(6).tolist()
    [[0.6, 0.8], [0.3, 0.4], [0.707107, 0.707107]]
    """
    dtype = working_dtype(X.dtype, norm_bound)
    if X.dtype != dtype:  # float32 under a bound near its limits (see working_dtype)
        X = X.astype(dtype)
    with np.errstate(over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64))
    radius = norm_bound * (1.0 - (X.shape[1] + 2) * np.finfo(np.float64).eps)
    over = norms > radius
    if not over.any():
        return X
    shrink = 1.0 - 8.0 * np.finfo(X.dtype).eps
    factor = np.ones(X.shape[0], dtype=np.float64)
    factor[over] = radius / norms[over] * shrink  # 0 where ||x||^2 overflowed, replaced below
    out = X * factor.astype(X.dtype)[:, None]
    huge = np.flatnonzero(np.isinf(norms))  # (float64 only) x / m, m the largest |x_j|, is finite
    if huge.size:
        unit = X[huge] / np.abs(X[huge]).max(axis=1, keepdims=True)
        out[huge] = unit * (radius / np.linalg.norm(unit, axis=1) * shrink)[:, None]
    return out


def clip_any(X, norm_bound: float):
    """:func:`clip_rows` for numpy, its chunk-wise twin for a dask array."""
    if is_dask_array(X):
        from dpboost import distributed

        return distributed.clip_rows_dask(X, norm_bound)
    return clip_rows(X, norm_bound)


def scoring_norm_bound(model) -> float | None:
    """The norm bound a fitted ``model`` clips rows to before scoring them, or None.

    ``model.norm_bound_``: the bound its fit clipped the training rows to (the halfspace
    estimators), or the one its model file records
    (:class:`~dpboost.model_io.HalfspaceModel`; None for a file of format version 1 or 2,
    which does not record it, and for an estimator without one, e.g. scikit-learn's).
    """
    bound = getattr(model, "norm_bound_", None)
    return None if bound is None else float(bound)


def clip_for_scoring(X, norm_bound: float | None):
    """The rows as a model with norm bound ``norm_bound`` scores them: clipped row by row as
    its training rows were (:func:`clip_any`: numpy or dask), or as given when it is None.

    A fit clips every training row to ``R`` (:func:`clip_rows`), so its weights, and the
    private calibration of its scores (Platt scaling, the cut, the softmax temperature, all
    fitted on the scores of the clipped training rows), describe rows in the ball; a row
    scored as given would put the threshold in the wrong place (session 20: per-column
    ranges without the division by sqrt(d) clip most rows, and scoring them unclipped
    predicted 2% positives of 30%).  Clipping at prediction is a fixed public function of
    each row and of the public ``R`` applied to released weights: post-processing, at no
    privacy cost (Dwork & Roth 2014, Proposition 2.1; Bun, Carmosino & Sorrell 2020,
    Theorem 24).  Rows inside the ball are scored exactly as given (:func:`clip_rows`
    returns them untouched), and scaling a row outside it by any factor >= 1 leaves its score
    unchanged.

    Practical mode clips twice more at training (after the private centring and after the
    private input scale, :mod:`dpboost.input_map`); the folded ``coef_`` and ``intercept_``
    cannot repeat those clips (they act on the mapped rows, not on ``x``), so prediction
    clips only the first time.  Measured (docs/utility-measurements.md, session 21; 33 fits
    at epsilon = 1 on a customer-like table, shoppers, german, a9a and letter-A, with rows
    inside the ball and with most rows clipped): the clip after the centring touched no
    training row in any fit (a centred row ``[(x - m)/2, c_0]`` exceeds ``R`` only when
    ``x`` is nearly opposite a mean of norm near ``R``); the clip after the input scale
    (which maps a private 75th percentile of the norms to ``R``) touched 1% to 21% of them,
    and such rows score above what the weights and the calibration saw at training.

    Examples
    --------
    >>> clip_for_scoring(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0).round(6).tolist()
    [[0.6, 0.8], [0.3, 0.4]]
    >>> clip_for_scoring(np.array([[3.0, 4.0]]), None).tolist()
    [[3.0, 4.0]]
    """
    return X if norm_bound is None else clip_any(X, norm_bound)


def clipped_fraction(X, norm_bound: float = 1.0) -> float:
    """The fraction of rows of ``X`` longer than ``norm_bound``: the rows a fit clips.

    NOT PRIVATE: a figure of the data without noise, for the data owner to check a public
    scaling before a private fit (a model trained mostly on clipped rows ranks rows by their
    direction alone, since prediction clips them too: a public scaling that fits the rows in
    the ball keeps their lengths); never publish it.  A private fit does not warn
    about clipped rows unless ``diagnostics=True``: whether it warned would be a noise-free
    bit of the data.

    Examples
    --------
    >>> clipped_fraction(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0)
    0.5
    """
    rows = np.asarray(X, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[0] == 0:
        raise ValueError(f"Expected a non-empty 2-D array of rows. Got shape {rows.shape}.")
    bound = float(norm_bound)
    if not (bound > 0 and np.isfinite(bound)):
        raise ValueError(f"norm_bound must be a positive finite number. Got {norm_bound!r}.")
    with np.errstate(over="ignore", invalid="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    return float(np.count_nonzero(~(norms <= bound))) / rows.shape[0]
