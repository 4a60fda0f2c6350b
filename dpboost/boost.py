"""The Boost skeleton (Algorithms 1-2 of Bun, Carmosino & Sorrell 2020) and its protocols.

A boosting run is a loop of ``Iter``::

    mu <- NxM(S, H)          # measure producer: a function of the sample and the hypotheses
    h  <- WkL(S, mu_hat)     # weak learner on the normalised measure
    H  <- H + [h]

The only state carried from one round to the next is the list of hypotheses ``H``.  This is what
makes the privacy analysis modular (Section 3.2 of the paper): a round is a function of
``(S, H)`` alone, so the run is the adaptive composition of ``T`` rounds, each as private as the
weak learner is on the (slick) measures the producer hands it.  A measure producer may cache work
between rounds for speed, but what it returns must equal what it would recompute from
``(S, H)`` alone (see :class:`dpboost.lazy_breg.LazyBregBoost` and its tests).

The same loop runs on a row-chunked dask array (data bigger than memory or than one machine):
the producer and the learner use the few operations of :mod:`dpboost.round_ops`, whose dask
versions (:mod:`dpboost.distributed`) keep the ``n``-vectors on the workers, so what a round
releases is defined once, by the learner's mechanism, for both backends.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Algorithms 1 (Boost) and 2 (Iter), Section 3.2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Hypothesis", "MeasureProducer", "WeakLearner", "boost"]


@runtime_checkable
class Hypothesis(Protocol):
    """A real-valued hypothesis: ``h(X)`` returns one value in ``[-1, 1]`` per row of ``X``."""

    def __call__(self, X: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class MeasureProducer(Protocol):
    """NxM: maps the sample and the hypotheses so far to a measure.

    ``measure(X, y, hypotheses)`` returns ``mu`` in ``[0, 1]^n`` whose total is ``kappa * n``.
    It must be a function of its arguments only (caching allowed, hidden state is not).
    """

    def measure(self, X: np.ndarray, y: np.ndarray, hypotheses: list) -> np.ndarray: ...


@runtime_checkable
class WeakLearner(Protocol):
    """WkL: fits one hypothesis to the sample weighted by a distribution ``mu_hat``.

    ``privacy_event(n)`` states the privacy cost of one call on ``n`` examples from the
    learner's parameters and ``n`` alone, before any data is seen.
    """

    def fit(
        self, X: np.ndarray, y: np.ndarray, mu_hat: np.ndarray, *, rng: np.random.Generator
    ) -> Hypothesis: ...

    def privacy_event(self, n: int) -> Any: ...


def boost(
    X: np.ndarray,
    y: np.ndarray,
    *,
    measure_producer: MeasureProducer,
    weak_learner: WeakLearner,
    n_rounds: int,
    rng: np.random.Generator,
    callback: Callable[[int, np.ndarray, Hypothesis], None] | None = None,
) -> list:
    """Run Boost (Algorithm 1) for exactly ``n_rounds`` rounds and return the hypotheses.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        The sample (already validated and clipped by the caller).
    y : ndarray of shape (n,)
        Labels in ``{-1, +1}``.
    measure_producer : MeasureProducer
        NxM, e.g. :class:`dpboost.lazy_breg.LazyBregBoost`.
    weak_learner : WeakLearner
        WkL, e.g. :class:`dpboost.weak_learners.GaussianCenteringHalfspace`.
    n_rounds : int
        ``T``, fixed before training (there is no data-dependent early stopping).
    rng : numpy.random.Generator
        Source of all randomness (passed to the weak learner each round).
    callback : callable, optional
        ``callback(t, mu, h)`` after round ``t`` (0-based) with the measure used in that round
        and the new hypothesis.  Its return value is ignored: it cannot stop the run.

    Returns
    -------
    list
        The hypotheses ``[h_1, ..., h_T]``.

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Algorithms 1 and 2.

    Examples
    --------
    >>> import numpy as np
    >>> from dpboost.lazy_breg import LazyBregBoost
    >>> from dpboost.weak_learners import CenteringHalfspace
    >>> X = np.array([[0.5, 0.1], [-0.4, 0.2], [0.3, -0.3], [-0.6, 0.0]])
    >>> y = np.array([1, -1, 1, -1])
    >>> H = boost(X, y, measure_producer=LazyBregBoost(0.5, 1.0),
    ...           weak_learner=CenteringHalfspace(), n_rounds=3, rng=np.random.default_rng(0))
    >>> len(H)
    3
    """
    hypotheses: list = []
    for t in range(int(n_rounds)):
        mu = measure_producer.measure(X, y, hypotheses)
        mu_hat = mu / mu.sum()
        h = weak_learner.fit(X, y, mu_hat, rng=rng)
        hypotheses.append(h)
        if callback is not None:
            callback(t, mu, h)
    return hypotheses
