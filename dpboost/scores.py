"""A fitted halfspace's scores and probabilities, computed once for every holder of a model.

The estimators (:mod:`dpboost.halfspace_base`, :mod:`dpboost.estimator`) and a model loaded
from a file (:mod:`dpboost.model_io`) score rows here, so a model says the same about a row
whichever object holds it.  Both functions are post-processing of released weights.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, softmax

__all__ = ["linear_scores", "probabilities"]


def linear_scores(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``X @ w`` (``w`` of shape (d,) or (d, K)), finite for every finite row.

    A finite row near the float limit can overflow the product (``inf - inf`` is NaN, the
    wrong class); such rows are scored as ``m ((x / m) @ w)`` with ``m = max |x_j|``, which
    keeps the sign (an overflowing score becomes ``+-inf``, never NaN).

    Examples
    --------
    >>> linear_scores(np.array([[1.2e308, 1.2e308, -1.2e308]]), np.ones(3)).tolist()
    [1.2e+308]
    """
    with np.errstate(over="ignore", invalid="ignore"):
        scores = X @ w
    bad = ~np.isfinite(scores).reshape(len(X), -1).all(axis=1)  # rows (any class)
    if bad.any():
        m = np.abs(X[bad]).max(axis=1)
        with np.errstate(over="ignore"):
            part = (X[bad] / m[:, None]) @ w
            scores[bad] = part * (m[:, None] if part.ndim == 2 else m)
    return scores


def probabilities(scores: np.ndarray) -> np.ndarray:
    """``[1 - p, p]`` with ``p = sigmoid(scores)`` for (n,) scores; the softmax of (n, K).

    An infinite class score gives a one-hot row, not NaN (``inf - inf``): the scores are
    clipped to the largest float first.

    Examples
    --------
    >>> probabilities(np.array([0.0])).tolist()
    [[0.5, 0.5]]
    >>> probabilities(np.array([[np.inf, 0.0, -np.inf]])).tolist()
    [[1.0, 0.0, 0.0]]
    """
    if scores.ndim == 2:  # multiclass (uncalibrated)
        big = np.finfo(np.float64).max
        with np.errstate(over="ignore"):  # exp(-big - big) is 0, as it should be
            return softmax(np.clip(scores.astype(np.float64), -big, big), axis=1)
    p = expit(scores)
    return np.column_stack([1.0 - p, p])
