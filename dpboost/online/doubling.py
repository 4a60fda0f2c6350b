"""The doubling trick: make a horizon-dependent online learner anytime.

Epoch ``m = 0, 1, 2, ...`` covers rounds ``2^m, ..., 2^{m+1} - 1`` (1-indexed), i.e. ``2^m``
rounds, and runs a fresh learner built for horizon ``2^m``.  If the learner's regret on ``n``
rounds is at most ``alpha sqrt(n)`` when tuned for ``n``, the regret after any ``T`` rounds is
at most ``sqrt(2)/(sqrt(2) - 1) * alpha * sqrt(T)`` (about ``3.41 alpha sqrt(T)``): the epoch
regrets sum to ``alpha (sqrt(2)^{L+1} - 1)/(sqrt(2) - 1)`` with ``2^L <= T``, and the sum of
the epochs' best losses is at most the best loss over all rounds.

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Chapter 21,
   Exercise 4 (the doubling trick).
.. [2] Lecture notes "Ch 21 Online Learning, part 2" (2020), "Aside: the Doubling Trick".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from dpboost.online.base import OnlineClassifier

__all__ = ["DoublingTrick", "doubling_regret_bound"]

DOUBLING_FACTOR = math.sqrt(2.0) / (math.sqrt(2.0) - 1.0)


def doubling_regret_bound(alpha: float, n_rounds: int) -> float:
    """``sqrt(2)/(sqrt(2)-1) * alpha * sqrt(T)`` (SSBD Chapter 21, Exercise 4).

    Examples
    --------
    >>> round(doubling_regret_bound(1.0, 16), 4)
    13.6569
    """
    return DOUBLING_FACTOR * float(alpha) * math.sqrt(n_rounds)


class DoublingTrick(OnlineClassifier):
    """Restart ``make_learner(2**m)`` at the start of epoch ``m`` (rounds ``2^m .. 2^{m+1}-1``).

    The wrapper forwards the verbs of the wrapped learner and counts a round at every learning
    verb: ``predict()`` / ``update(feedback)`` for OCO and expert learners
    (:class:`~dpboost.online.hedge.Hedge`, :class:`~dpboost.online.ogd.OnlineGradientDescent`),
    and ``predict_one(x)`` / ``learn_one(x, y, weight)`` for online classifiers.

    Parameters
    ----------
    make_learner : callable
        ``make_learner(horizon) -> learner`` builds a learner tuned for ``horizon`` rounds.

    Attributes
    ----------
    learner : object
        The learner of the current epoch (built lazily).
    epoch_ : int
        Index ``m`` of the current epoch.
    n_rounds_ : int
        Number of rounds learned so far.

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Chapter 21,
       Exercise 4; lecture notes "Ch 21 Online Learning, part 2", doubling trick.

    Examples
    --------
    >>> from dpboost.online.hedge import Hedge, hedge_learning_rate
    >>> hedge = DoublingTrick(lambda n: Hedge(3, learning_rate=hedge_learning_rate(3, n)))
    >>> for _ in range(5):
    ...     _ = hedge.update([1.0, 0.0, 0.5])
    >>> hedge.epoch_, hedge.learner.n_rounds_     # rounds 4..7 form epoch 2
    (2, 2)
    """

    def __init__(self, make_learner: Callable[[int], Any]) -> None:
        if not callable(make_learner):
            raise TypeError(
                f"The 'make_learner' parameter of DoublingTrick must be a callable "
                f"horizon -> learner. Got {make_learner!r} instead."
            )
        self.make_learner = make_learner
        self.n_rounds_ = 0
        self._learner = None
        self._learner_epoch = -1

    @property
    def epoch_(self) -> int:
        """Epoch ``floor(log2(n_rounds_ + 1))`` of the next round, ``n_rounds_ + 1``."""
        return (self.n_rounds_ + 1).bit_length() - 1

    @property
    def learner(self) -> Any:
        epoch = self.epoch_
        if epoch != self._learner_epoch:
            learner = self.make_learner(2**epoch)
            if learner is None:
                raise TypeError("The 'make_learner' parameter of DoublingTrick must return a "
                                f"learner. Got None for horizon {2**epoch} instead.")
            self._learner_epoch, self._learner = epoch, learner
        return self._learner

    def _advance(self) -> None:
        self.n_rounds_ += 1

    def predict(self) -> Any:
        """The current epoch learner's decision (``predict()``)."""
        return self.learner.predict()

    def update(self, feedback) -> Any:
        """Forward ``update(feedback)`` to the current epoch's learner and count one round."""
        out = self.learner.update(feedback)
        self._advance()
        return out

    def predict_one(self, x) -> float:
        return self.learner.predict_one(x)

    def learn_one(self, x, y: float, weight: float = 1.0) -> None:
        self.learner.learn_one(x, y, weight)
        self._advance()
