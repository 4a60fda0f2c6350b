"""Deterministic Weighted Majority: a weighted vote of experts' labels.

The input ``x`` of :meth:`WeightedMajority.predict_one` is the vector of the experts' advice in
``{-1, +1}^d``; the learner predicts the sign of the weighted vote and, once the label is known,
multiplies the weight of every expert that was wrong by ``beta``.  If the best expert makes
``m`` mistakes, the learner makes at most

    ``M <= (log d + m log(1/beta)) / log(2 / (1 + beta))``

mistakes (each learner mistake puts at least half of the weight on wrong experts, so the total
weight shrinks by ``(1 + beta)/2``; it stays above the best expert's ``beta^m``).  With
``beta = 1/2`` this is ``M <= 2.41 (m + log2 d)``.  Log-space weights keep long runs exact.

References
----------
.. [1] Littlestone & Warmuth, "The Weighted Majority Algorithm", Information and Computation
   108(2), 1994, Section 2 (algorithm WM and its mistake bound).
.. [2] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.2.1
   (the randomized version, :class:`dpboost.online.hedge.Hedge`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from dpboost._validation import check_scalar
from dpboost.online.base import OnlineClassifier, check_label, check_weight

__all__ = ["WeightedMajority", "weighted_majority_mistake_bound"]


def weighted_majority_mistake_bound(n_experts: int, best_mistakes: float, beta: float) -> float:
    """``(log d + m log(1/beta)) / log(2/(1+beta))`` (Littlestone & Warmuth 1994, Section 2).

    Examples
    --------
    >>> round(weighted_majority_mistake_bound(8, 0, 0.5), 4)
    7.2283
    """
    d = check_scalar(
        n_experts, "n_experts", "weighted_majority_mistake_bound", kind="int", low=1, closed="left"
    )
    m = check_scalar(
        best_mistakes,
        "best_mistakes",
        "weighted_majority_mistake_bound",
        low=0,
        high=math.inf,
        closed="left",
    )
    b = check_scalar(
        beta, "beta", "weighted_majority_mistake_bound", low=0, high=1, closed="neither"
    )
    return (math.log(d) + m * math.log(1.0 / b)) / math.log(2.0 / (1.0 + b))


class WeightedMajority(OnlineClassifier):
    """Deterministic Weighted Majority over the advice vector ``x`` in ``{-1, +1}^d``.

    Parameters
    ----------
    n_experts : int
        Number of experts ``d >= 1`` (the length of every advice vector).
    beta : float, default=0.5
        Multiplicative penalty in ``(0, 1)`` for an expert that errs.

    Attributes
    ----------
    log_weights_ : ndarray of shape (n_experts,)
        ``log(beta)`` times each expert's (importance-weighted) mistakes, shifted to max 0.
    expert_mistakes_ : ndarray of shape (n_experts,)
        Importance-weighted mistakes of each expert so far.

    Notes
    -----
    ``predict_one`` returns the weighted vote ``sum_i w_i x_i / sum_i w_i`` in ``[-1, 1]``; its
    sign (ties to ``+1``) is WM's prediction.  ``learn_one(x, y, weight)`` multiplies the weight
    of each wrong expert by ``beta ** weight`` (``weight = 1`` is the classical algorithm).

    References
    ----------
    .. [1] Littlestone & Warmuth, "The Weighted Majority Algorithm", Information and
       Computation 108(2), 1994, Section 2.

    Examples
    --------
    >>> wm = WeightedMajority(3)
    >>> advice = np.array([1.0, -1.0, -1.0])
    >>> wm.predict_one(advice) < 0
    True
    >>> wm.learn_one(advice, 1.0)
    >>> float(wm.predict_one(advice))
    0.0
    """

    def __init__(self, n_experts: int, *, beta: float = 0.5) -> None:
        self.n_experts = check_scalar(
            n_experts, "n_experts", "WeightedMajority", kind="int", low=1, closed="left"
        )
        self.beta = check_scalar(beta, "beta", "WeightedMajority", low=0, high=1)
        self.log_weights_ = np.zeros(self.n_experts)
        self.expert_mistakes_ = np.zeros(self.n_experts)

    def _advice(self, x) -> np.ndarray:
        a = np.asarray(x, dtype=float)
        if a.shape != (self.n_experts,) or not np.array_equal(np.abs(a), np.ones(self.n_experts)):
            raise ValueError(
                f"The 'x' parameter of WeightedMajority must be an advice vector of shape "
                f"({self.n_experts},) with entries in {{-1, +1}}. Got {x!r} instead."
            )
        return a

    def weights(self) -> np.ndarray:
        """The normalised expert weights."""
        w = np.exp(self.log_weights_)  # max log-weight is 0: the sum lies in [1, d]
        return w / w.sum()

    def predict_one(self, x: ArrayLike) -> float:
        """The weighted vote of the advice, in ``[-1, 1]`` (its sign is the prediction)."""
        return float(np.clip(self.weights() @ self._advice(x), -1.0, 1.0))

    def learn_one(self, x: ArrayLike, y: float, weight: float = 1.0) -> None:
        """Multiply the weight of every expert whose advice differs from ``y`` by ``beta``."""
        a = self._advice(x)
        y = check_label(y, "WeightedMajority.learn_one")
        weight = check_weight(weight, "WeightedMajority.learn_one")
        wrong = (a != y).astype(float) * weight
        self.expert_mistakes_ += wrong
        with np.errstate(over="ignore"):  # weight * log(beta) may pass -1.8e308
            step = np.maximum(wrong * math.log(self.beta), -np.finfo(float).max)
            # the expert at log-weight 0 stays finite, so the max is too (no -inf + inf = NaN)
            log_w = self.log_weights_ + step
        self.log_weights_ = log_w - log_w.max()
