"""The online Perceptron (Rosenblatt 1958) on the online-classifier protocol.

Predict ``sign(<w, x>)`` (ties to ``+1``); when ``y <w, x> <= 0`` update ``w <- w + y x``.  It is
online gradient descent on the round-wise hinge surrogate
``f_t(w) = 1[y_t <w_t, x_t> <= 0] * max(0, 1 - y_t <w, x_t>)`` with any step size (SSBD
Section 21.4).

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.4,
   Theorem 21.16: with ``R = max_t ||x_t||`` and ``y_t <w*, x_t> >= 1`` for all ``t``, the
   Perceptron updates at most ``(R ||w*||)^2`` times.
.. [2] Rosenblatt, "The perceptron: a probabilistic model for information storage and
   organization in the brain", Psychological Review 65(6), 1958.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dpboost.online.base import OnlineClassifier, check_features, check_label, check_weight

__all__ = ["Perceptron", "perceptron_mistake_bound"]


def perceptron_mistake_bound(X: ArrayLike, y: ArrayLike, w_star: ArrayLike) -> float:
    """The bound of SSBD Theorem 21.16 for a given comparator ``w_star``.

    ``sum_t f_t + R ||w*|| sqrt(sum_t f_t) + (R ||w*||)^2`` with ``f_t`` the hinge loss
    ``max(0, 1 - y_t <w*, x_t>)`` summed over *all* rounds (an upper bound of the theorem's sum
    over mistake rounds).  On data separable with margin 1 by ``w_star`` it is
    ``(R ||w_star||)^2``.

    Examples
    --------
    >>> round(perceptron_mistake_bound([[1.0, 0.0], [0.0, 2.0]], [1, -1], [1.0, -0.5]), 9)
    5.0
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.asarray(w_star, dtype=float)
    r = float(np.max(np.linalg.norm(X, axis=1))) if len(X) else 0.0
    hinge = float(np.maximum(0.0, 1.0 - y * (X @ w)).sum())
    b = r * float(np.linalg.norm(w))
    return float(hinge + b * np.sqrt(hinge) + b * b)


class Perceptron(OnlineClassifier):
    """The online Perceptron for homogeneous halfspaces.

    ``learn_one(x, y, weight)`` adds ``weight * y * x`` when ``y <w, x> <= 0`` (``weight = 1`` is
    the classical algorithm; ``weight = 0`` skips the example).  The dimension is taken from the
    first example of positive weight; add a constant feature for a bias.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or None
        The weight vector ``w_t`` (``None`` before the first example).
    n_updates_ : int
        Number of rounds with ``y <w, x> <= 0`` and positive weight (the set ``M`` of
        Theorem 21.16; it contains every mistake).

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Theorem 21.16.

    Examples
    --------
    >>> p = Perceptron()
    >>> p.learn_one(np.array([1.0, 1.0]), -1.0)
    >>> p.predict_one(np.array([2.0, 1.0]))
    -1.0
    >>> p.coef_, p.n_updates_
    (array([-1., -1.]), 1)
    """

    def __init__(self) -> None:
        self.coef_: np.ndarray | None = None
        self.n_updates_ = 0

    def _n_features(self) -> int | None:
        return None if self.coef_ is None else self.coef_.shape[0]

    def predict_one(self, x: ArrayLike) -> float:
        x = check_features(x, self._n_features(), "Perceptron.predict_one")
        if self.coef_ is None:
            return 1.0
        return 1.0 if float(self.coef_ @ x) >= 0 else -1.0

    def learn_one(self, x: ArrayLike, y: float, weight: float = 1.0) -> None:
        x = check_features(x, self._n_features(), "Perceptron.learn_one")
        y = check_label(y, "Perceptron.learn_one")
        weight = check_weight(weight, "Perceptron.learn_one")
        if weight == 0:  # an absent example: not even the dimension is fixed by it
            return
        if self.coef_ is None:
            self.coef_ = np.zeros(x.shape[0])
        if y * float(self.coef_ @ x) <= 0:
            self.coef_ = self.coef_ + weight * y * x
            self.n_updates_ += 1
