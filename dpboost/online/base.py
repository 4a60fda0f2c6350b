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

from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["OnlineClassifier", "OnlineLearner"]


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
        for xi, yi, wi in zip(X, y, w):
            self.learn_one(xi, float(yi), float(wi))
        return self

    def decision_function(self, X) -> np.ndarray:
        """``predict_one`` on every row (no learning)."""
        return np.array([self.predict_one(xi) for xi in np.asarray(X, dtype=float)], dtype=float)

    def predict(self, X) -> np.ndarray:
        """Labels in ``{-1, +1}`` (ties go to ``+1``)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)
