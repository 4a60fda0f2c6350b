"""Online-to-batch conversion: turn an online learner run over an i.i.d. sample into one hypothesis.

Run the learner once over the sample ``z_1, ..., z_T``; ``h_t`` (or ``w_t``) is the hypothesis it
*used* on round ``t``, which depends on ``z_1..z_{t-1}`` only.  Then

* ``method="random"``: return ``h_r`` with ``r`` uniform on ``{1..T}``.  Because ``z_t`` is
  fresh for ``h_t``, ``E[L_D(h_r)] = E[(1/T) sum_t loss(h_t, z_t)]``: at most ``M_A / T`` for a
  learner with mistake bound ``M_A`` (realizable case), and at most
  ``min_w L_D(w) + E[Regret_T]/T`` in general.
* ``method="average"``: for a convex loss in ``w``, return ``w_bar = (1/T) sum_t w_t``; by
  Jensen ``L_D(w_bar) <= (1/T) sum_t L_D(w_t)``, so the same bound holds *for that convex
  loss* (e.g. the hinge or logistic loss of
  :class:`~dpboost.online.ogd.OnlineGradientDescentClassifier`).  The Perceptron's mistake
  bound is a 0-1 loss, which is not convex in ``w``: averaging its iterates is the classical
  averaged Perceptron, often accurate, but the ``M_A / T`` bound is proved only for
  ``"random"`` (red team s34).

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Chapter 21,
   Exercise 5 (online-to-batch conversion).
.. [2] Lecture notes "Ch 21 Online Learning, part 2" (2020), "Aside: Online-to-batch
   Conversion", theorem and corollary (averaging for convex losses, by Jensen's inequality).
.. [3] Cesa-Bianchi, Conconi & Gentile, "On the generalization ability of on-line learning
   algorithms", IEEE Trans. Inf. Theory 50(9), 2004.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from dpboost._validation import check_choice
from dpboost.online.base import OnlineClassifier

__all__ = ["online_to_batch", "online_to_batch_oco"]


def _check_rng(rng, method: str, owner: str) -> None:
    if method == "random" and not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"The 'rng' parameter of {owner} must be a numpy.random.Generator when "
            f"method='random'. Got {rng!r} instead."
        )


def online_to_batch(
    learner: OnlineClassifier,
    X: ArrayLike,
    y: ArrayLike,
    *,
    method: str = "random",
    rng: np.random.Generator | None = None,
) -> OnlineClassifier:
    """Run ``learner`` over ``(X, y)`` once and return a batch hypothesis.

    Parameters
    ----------
    learner : OnlineClassifier
        Trained in place over the rows in order (it ends as the online learner after ``T``
        rounds).
    X : array-like of shape (T, n_features)
    y : array-like of shape (T,)
        Labels in ``{-1, +1}``, ideally an i.i.d. sample.
    method : {"random", "average"}
        ``"random"``: a deep copy of the learner as it was before learning row ``r``, ``r``
        uniform over the ``T`` rows: ``E[L_D(h_r)] <= M_A / T`` for a mistake bound ``M_A``.
        ``"average"``: for linear learners exposing ``coef_``
        (:class:`~dpboost.online.perceptron.Perceptron`,
        :class:`~dpboost.online.ogd.OnlineGradientDescentClassifier`), a copy of the final
        learner whose ``coef_`` is the mean of the iterates ``w_1..w_T`` used on the ``T``
        rounds (``w_1 = 0``); its bound holds for a convex loss only (the OGD classifier's),
        not for the Perceptron's 0-1 mistakes (the averaged Perceptron, a heuristic there).
    rng : numpy.random.Generator
        Required for ``method="random"``.

    Returns
    -------
    OnlineClassifier
        The batch hypothesis.

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Chapter 21,
       Exercise 5: ``E[L_D(h_r)] <= M_A(H) / T``.

    Examples
    --------
    >>> from dpboost.online.perceptron import Perceptron
    >>> X = np.array([[1.0, 0.2], [-1.0, 0.1], [0.9, -0.3], [-0.8, 0.0]])
    >>> y = np.array([1, -1, 1, -1])
    >>> h = online_to_batch(Perceptron(), X, y, method="average")
    >>> h.predict(X)
    array([ 1., -1.,  1., -1.])
    """
    method = check_choice(method, "method", "online_to_batch", ("random", "average"))
    _check_rng(rng, method, "online_to_batch")
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or len(X) != len(y) or len(y) == 0:
        raise ValueError(
            "The 'X' and 'y' parameters of online_to_batch must be a non-empty 2-D array and a "
            f"1-D array of the same length. Got shapes {X.shape} and {y.shape} instead."
        )
    T = len(y)
    if method == "random":
        r = int(rng.integers(T))
        snapshot = None
        for t, (xt, yt) in enumerate(zip(X, y)):
            if t == r:
                snapshot = copy.deepcopy(learner)
            learner.learn_one(xt, float(yt))
        return snapshot
    if not hasattr(learner, "coef_"):
        raise TypeError(
            "The 'learner' parameter of online_to_batch must expose 'coef_' (a linear model) "
            f"when method='average'. Got {type(learner).__name__} instead."
        )
    total = np.zeros(X.shape[1])
    for xt, yt in zip(X, y):
        if learner.coef_ is not None:
            total += learner.coef_
        learner.learn_one(xt, float(yt))
    averaged = copy.deepcopy(learner)
    averaged.coef_ = total / T
    return averaged


def online_to_batch_oco(
    learner: Any,
    sample: Iterable,
    gradient: Callable[[np.ndarray, Any], np.ndarray],
    *,
    method: str = "average",
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """Online-to-batch for an OCO learner (``predict()`` / ``update(v)``), e.g. OGD.

    Round ``t`` plays ``w_t = learner.predict()`` and feeds ``gradient(w_t, z_t)``.

    Parameters
    ----------
    learner : object with ``predict()`` and ``update(gradient)``
        E.g. :class:`~dpboost.online.ogd.OnlineGradientDescent`; updated in place.
    sample : iterable
        The i.i.d. sample ``z_1..z_T``.
    gradient : callable
        ``gradient(w, z)`` is a subgradient of ``loss(., z)`` at ``w``.
    method : {"average", "random"}
        Average of ``w_1..w_T``, or ``w_r`` with ``r`` uniform on ``{1..T}``.
    rng : numpy.random.Generator
        Required for ``method="random"``.

    Returns
    -------
    ndarray
        The batch decision; ``E[L_D(w)] <= min_{w*} L_D(w*) + E[Regret_T(w*)]/T``.

    References
    ----------
    .. [1] Lecture notes "Ch 21 Online Learning, part 2" (2020), online-to-batch corollary
       (averaging under convexity); Shalev-Shwartz & Ben-David 2014, Theorem 21.15 for the
       regret of OGD.

    Examples
    --------
    >>> from dpboost.online.ogd import OnlineGradientDescent, Box
    >>> ogd = OnlineGradientDescent(1, learning_rate=0.1, projection=Box(-1.0, 1.0))
    >>> w = online_to_batch_oco(ogd, [0.5] * 50, lambda w, z: 2 * (w - z))
    >>> bool(abs(w[0] - 0.5) < 0.1)
    True
    """
    method = check_choice(method, "method", "online_to_batch_oco", ("random", "average"))
    _check_rng(rng, method, "online_to_batch_oco")
    iterates = []
    for z in sample:
        w = np.asarray(learner.predict(), dtype=float)
        iterates.append(w)
        learner.update(gradient(w.copy(), z))
    if not iterates:
        raise ValueError(
            "The 'sample' parameter of online_to_batch_oco must be non-empty. "
            "Got an empty sample instead."
        )
    if method == "random":
        return iterates[int(rng.integers(len(iterates)))]
    return np.mean(iterates, axis=0)
