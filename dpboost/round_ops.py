"""The few array operations a boosting round needs, for numpy and for dask arrays.

A round of :func:`dpboost.boost.boost` with :class:`~dpboost.lazy_breg.LazyBregBoost` and
:class:`~dpboost.weak_learners.GaussianCenteringHalfspace` is written once, against these
operations; only their implementations differ between an in-memory numpy array and a
row-chunked dask array (:mod:`dpboost.distributed`).  What a round releases is defined in one
place, the learner's :meth:`~dpboost.weak_learners.GaussianCenteringHalfspace.mechanism`, and
the noise is drawn once per round on the client by that mechanism whatever the backend.

====================  =========================================  ==================================
operation             numpy                                      dask (n-vectors persisted)
====================  =========================================  ==================================
:func:`zero_gain`     ``np.zeros(n)`` (+ a class prior)          ``da.zeros`` on X's chunks
                                                                 (+ prior)
:func:`add_gain`      ``gain += l`` in place                     ``(gain + l).persist()``
:func:`project_gain`  :func:`dpboost.projection._project`        histogram reductions, mu persisted
:func:`centre`        :func:`dpboost.mechanisms.blocked_centre`  same blocks, per chunk
====================  =========================================  ==================================

Both :func:`centre` implementations add the same global blocks of
:data:`~dpboost.mechanisms.CENTRE_BLOCK_ROWS` rows with the same pairwise tree, so both stay
within the one public :func:`~dpboost.mechanisms.centre_error_bound`; both projections solve
the same capped-scaling equation exactly (equal to about 1e-13 relative).
"""

from __future__ import annotations

import math

import numpy as np

from dpboost.mechanisms import blocked_centre
from dpboost.projection import _project

__all__ = ["add_gain", "as_float64", "centre", "is_dask_array", "project_gain", "zero_gain"]


def is_dask_array(a) -> bool:
    """Whether ``a`` is a dask array (checked without importing dask).

    Examples
    --------
    >>> is_dask_array(np.zeros(3))
    False
    """
    return type(a).__module__.split(".")[0] == "dask" and hasattr(a, "chunks")


def as_float64(a):
    """``a`` as float64 (no copy if it already is); a dask array stays lazy."""
    if is_dask_array(a):
        return a.astype(np.float64)
    return np.asarray(a, dtype=np.float64)


def zero_gain(X, y, class_gain: tuple[float, float] = (0.0, 0.0)):
    """The cumulative gain before any hypothesis, on the rows of ``X``.

    Zeros, plus ``class_gain = (g_pos, g_neg)`` on the rows labelled +1 / -1 (a public,
    label-only prior: :class:`~dpboost.lazy_breg.LazyBregBoost`).
    """
    g_pos, g_neg = (float(g) for g in class_gain)
    if is_dask_array(X):
        from dpboost.distributed import dask_zero_gain

        gain = dask_zero_gain(X)
        if g_pos or g_neg:
            import dask.array as da

            gain = (gain + da.where(y > 0, g_pos, g_neg)).persist()
        return gain
    if g_pos or g_neg:
        return np.where(np.asarray(y) > 0, g_pos, g_neg).astype(np.float64)
    return np.zeros(len(y), dtype=np.float64)


def add_gain(gain, new):
    """``gain + new``: in place for numpy; for dask a new array, persisted on the workers."""
    if is_dask_array(gain):
        return (gain + new).persist()
    gain += new
    return gain


def project_gain(gain, kappa: float, learning_rate: float, n_hypotheses: int | None = None,
                 prior_max: float = 0.0):
    """The capped-scaling projection of ``mu~ = kappa exp(-lambda L)`` (Lemma 9).

    ``n_hypotheses`` and ``prior_max`` bound the gains (``0 <= L <= t + prior_max``: each
    hypothesis's gain is in ``[0, 1]``, the class prior at most ``prior_max``); the dask
    projection uses the bound as the public initial bracket (``None``: one more reduction finds
    the largest gain).
    """
    if is_dask_array(gain):
        from dpboost.distributed import gather
        from dpboost.distributed_projection import dask_capped_scaling

        upper = (float(gather(gain.max())) if n_hypotheses is None
                 else n_hypotheses + prior_max) + 1.0
        return dask_capped_scaling(gain, kappa, learning_rate, upper=upper)
    log_weights = math.log(kappa) - learning_rate * gain
    return _project(log_weights, kappa)[0]


def centre(X, weights) -> np.ndarray:
    """``X^T weights`` in float64 within :func:`~dpboost.mechanisms.centre_error_bound`."""
    if is_dask_array(X):
        from dpboost.distributed import dask_centre

        return dask_centre(X, weights)
    return blocked_centre(X, np.asarray(weights, dtype=np.float64))
