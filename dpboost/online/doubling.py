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

from dpboost.online.base import OnlineClassifier, check_weight

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
    and ``predict_one(x)`` / ``learn_one(x, y, weight)`` for online classifiers, with the batch
    verbs ``partial_fit(X, y)``, ``decision_function(X)`` and ``predict(X)`` as their loops.
    An example of weight 0 is not a round (the epoch does not advance).

    ``predict`` dispatches on its argument, so a wrapped learner is called exactly as it would be
    unwrapped: ``predict()`` is the OCO / expert decision of the current epoch's learner and
    ``predict(X)`` the labels of a classifier on the rows of ``X``.  One class with both
    signatures keeps the doubling trick a single wrapper (the epoch logic is the same for both
    kinds of learner) and makes a wrapped classifier usable wherever an unwrapped one is
    (``online_to_batch``, progressive validation); calling the form the current learner lacks
    raises a ``TypeError`` naming the other form.

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
    >>> import numpy as np
    >>> from dpboost.online.perceptron import Perceptron
    >>> X = np.array([[1.0, 0.5], [-1.0, 0.2], [0.8, -0.1]]); y = np.array([1.0, -1.0, 1.0])
    >>> d = DoublingTrick(lambda n: Perceptron()).partial_fit(X[:2], y[:2])
    >>> d.epoch_, d.predict(X)         # epoch 1's fresh learner has learned row 2 only
    (1, array([ 1., -1.,  1.]))
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

    def predict(self, X=None) -> Any:
        """``predict()``: the current epoch learner's OCO / expert decision; ``predict(X)``:
        labels in ``{-1, +1}`` of the rows of ``X`` (the loop of :meth:`predict_one`)."""
        learner = self.learner
        if X is not None:
            if not callable(getattr(learner, "predict_one", None)):
                raise TypeError(
                    f"DoublingTrick.predict(X) needs an online classifier (predict_one); the "
                    f"wrapped {type(learner).__name__} is an OCO or expert learner: call "
                    f"predict() without rows."
                )
            return super().predict(X)
        if callable(getattr(learner, "update", None)):
            return learner.predict()
        raise TypeError(
            f"DoublingTrick.predict() without rows is the decision of an OCO or expert learner "
            f"(predict() / update()); the wrapped {type(learner).__name__} is an online "
            f"classifier: call predict(X) with a 2-D array of rows."
        )

    def update(self, feedback) -> Any:
        """Forward ``update(feedback)`` to the current epoch's learner and count one round."""
        out = self.learner.update(feedback)
        self._advance()
        return out

    def predict_one(self, x) -> float:
        return self.learner.predict_one(x)

    def learn_one(self, x, y: float, weight: float = 1.0) -> None:
        """Forward to the current epoch's learner; a round unless ``weight`` is 0."""
        weight = check_weight(weight, "DoublingTrick.learn_one")
        self.learner.learn_one(x, y, weight)
        if weight > 0:
            self._advance()
