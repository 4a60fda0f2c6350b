"""The online-learner protocol shared by primitives, weak learners and boosters.

Labels are ``-1`` or ``+1``.  ``predict_one`` returns a real number in ``[-1, 1]`` whose sign is
the predicted label (a classifier that only outputs labels returns exactly ``-1.0`` or
``+1.0``).  ``learn_one`` takes an importance ``weight >= 0`` (Beygelzimer, Kale & Luo 2015,
Section 2.1).  The batch verbs are *defined* as loops of the single-example verbs; a subclass
may override them with a faster equivalent only if a test pins that the results agree.

References
----------
.. [1] Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting",
   ICML 2015, Section 2 (weak online learners with importance weights).
"""

from __future__ import annotations

import math
import numbers
from typing import Protocol, runtime_checkable

import numpy as np

from dpboost._validation import check_scalar

__all__ = ["OnlineClassifier", "OnlineLearner", "check_features", "check_label", "check_weight"]


def check_label(y: object, owner: str) -> float:
    """``y`` as a float if it is ``-1`` or ``+1``; ``TypeError`` for a non-number or a bool.

    Examples
    --------
    >>> check_label(-1, "Perceptron.learn_one")
    -1.0
    >>> check_label(0.0, "Perceptron.learn_one")
    Traceback (most recent call last):
    ...
    ValueError: The 'y' parameter of Perceptron.learn_one must be -1 or +1. Got 0.0 instead.
    """
    if type(y) is float and (y == 1.0 or y == -1.0):  # the hot path of partial_fit
        return y
    message = f"The 'y' parameter of {owner} must be -1 or +1. Got {y!r} instead."
    if isinstance(y, (bool, np.bool_)) or not isinstance(y, numbers.Real):
        raise TypeError(message)
    if y != 1 and y != -1:
        raise ValueError(message)
    return float(y)


def check_weight(weight: object, owner: str) -> float:
    """The importance ``weight`` as a float in ``[0, inf)`` (NaN and inf are refused).

    Examples
    --------
    >>> check_weight(2, "Perceptron.learn_one")
    2.0
    """
    if type(weight) is float and 0.0 <= weight < math.inf:  # the hot path
        return weight
    return check_scalar(weight, "weight", owner, low=0.0, high=math.inf, closed="left")


def check_features(x: object, n_features: int | None, owner: str) -> np.ndarray:
    """``x`` as a finite 1-D float array with ``n_features`` entries (any length if ``None``)."""
    try:
        x = np.asarray(x, dtype=float).ravel()
    except (TypeError, ValueError):
        raise TypeError(
            f"The 'x' parameter of {owner} must be a 1-D array of numbers. Got {x!r} instead."
        ) from None
    if n_features is not None and x.shape[0] != n_features:
        raise ValueError(
            f"x has {x.shape[0]} features, but this learner was started with "
            f"{n_features} features."
        )
    if not np.isfinite(x).all():
        raise ValueError(
            f"The 'x' parameter of {owner} must be finite (no NaN or infinity). Got {x!r} instead."
        )
    return x


@runtime_checkable
class OnlineLearner(Protocol):
    """Anything with ``predict_one`` and ``learn_one`` (structural type)."""

    def predict_one(self, x: np.ndarray) -> float: ...

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None: ...


class OnlineClassifier:
    """Base class giving the batch verbs as loops of ``predict_one`` / ``learn_one``."""

    def predict_one(self, x: np.ndarray) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:  # pragma: no cover
        raise NotImplementedError

    def partial_fit(self, X, y, sample_weight=None) -> OnlineClassifier:
        """Learn from the rows of ``X`` in order: exactly the loop of :meth:`learn_one`."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if X.ndim == 0 or y.ndim != 1 or len(X) != len(y) or w.shape != y.shape:
            # zip would silently stop at the shortest
            raise ValueError(
                f"The 'X', 'y' and 'sample_weight' parameters of {type(self).__name__}."
                f"partial_fit must have one row, label and weight per example. Got shapes "
                f"{X.shape}, {y.shape} and {w.shape} instead."
            )
        for xi, yi, wi in zip(X, y, w):
            self.learn_one(xi, float(yi), float(wi))
        return self

    def decision_function(self, X) -> np.ndarray:
        """``predict_one`` on every row (no learning)."""
        return np.array([self.predict_one(xi) for xi in np.asarray(X, dtype=float)], dtype=float)

    def predict(self, X) -> np.ndarray:
        """Labels in ``{-1, +1}`` (ties go to ``+1``)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)
