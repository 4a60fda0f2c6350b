"""Progressive validation: predict each example before learning from it.

The progressive-validation loss of an online learner on ``(x_1, y_1), ..., (x_T, y_T)`` is
``(1/T) sum_t loss(predict_one(x_t), y_t)`` where the prediction for ``x_t`` is made by the model
that has learned from ``x_1..x_{t-1}`` only; it estimates the generalisation error as well as a
held-out set of the same size (Blum, Kalai & Langford 1999).  It is what BKL15 tuned on.

References
----------
.. [1] Blum, Kalai & Langford, "Beating the hold-out: bounds for k-fold and progressive
   cross-validation", COLT 1999.
.. [2] Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting", ICML 2015,
   Section 5 (tuning by progressive validation 0-1 loss on the training set).
"""

from __future__ import annotations

import numpy as np

from dpboost._validation import check_choice, check_finite_rows

__all__ = ["log_loss", "progressive_val_score", "zero_one_loss"]


def zero_one_loss(prediction: float, y: float) -> float:
    """``1`` if the sign of ``prediction`` (ties to ``+1``) differs from ``y``, else ``0``."""
    return float((1.0 if prediction >= 0 else -1.0) != y)


def log_loss(prediction: float, y: float, eps: float = 1e-15) -> float:
    """Log loss of ``P(y=+1) = (1 + prediction)/2``, clipped to ``[eps, 1 - eps]``."""
    prob = min(max((1.0 + prediction) / 2.0, eps), 1.0 - eps)
    return float(-np.log(prob if y > 0 else 1.0 - prob))


_METRICS = {"zero_one": zero_one_loss, "log_loss": log_loss}


def progressive_val_score(model, X, y, *, metric: str = "zero_one", progress=None) -> float:
    """Mean progressive-validation loss: for each row, ``predict_one`` then ``learn_one``.

    Parameters
    ----------
    model : online learner
        Anything with ``predict_one(x) -> float in [-1, 1]`` and ``learn_one(x, y)``; it is
        trained in place.
    X : array of shape (T, d)
    y : array of shape (T,) with labels in {-1, +1}
    metric : {"zero_one", "log_loss"}
        ``log_loss`` reads ``predict_one`` as ``2 P(y = +1) - 1``.
    progress : callable, optional
        Called with no argument after each example is learnt (a progress bar's ``update``).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from dpboost.online.learners import OnlinePerceptronLearner
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([-1.0, -1.0, -1.0])
    >>> progressive_val_score(OnlinePerceptronLearner(), X, y)  # first guess +1, then right
    0.3333333333333333
    """
    metric = check_choice(metric, "metric", "progressive_val_score", tuple(_METRICS))
    loss = _METRICS[metric]
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(
            f"progressive_val_score needs X of shape (T, d) and y of shape (T,); got {X.shape} "
            f"and {y.shape}."
        )
    if X.shape[0] == 0:
        raise ValueError("progressive_val_score needs at least one example; got 0.")
    check_finite_rows(X)
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("progressive_val_score needs labels in {-1, +1}; map them first.")
    total = 0.0
    for xi, yi in zip(X, y.tolist()):
        total += loss(float(model.predict_one(xi)), yi)
        model.learn_one(xi, yi)
        if progress is not None:
            progress()
    return total / X.shape[0]
