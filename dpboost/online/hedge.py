"""Hedge: randomized Weighted Majority for prediction with expert advice.

On each round the learner holds a distribution ``w`` over ``d`` experts, receives a loss vector
``v`` in ``[0, 1]^d`` and pays the expected loss ``<w, v>``; every expert's weight is then
multiplied by ``exp(-eta * v_i)``.  Weights are kept in log space (the log-weight of expert ``i``
is ``-eta`` times its cumulative loss, shifted so the largest is 0), so arbitrarily long runs
never underflow to ``0/0``.

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.2.1
   (Weighted-Majority, randomized) and Theorem 21.11.
.. [2] Freund & Schapire, "A decision-theoretic generalization of on-line learning and an
   application to boosting", JCSS 1997 (Hedge).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from dpboost._validation import check_scalar

__all__ = ["Hedge", "hedge_learning_rate", "hedge_regret_bound"]


def hedge_learning_rate(n_experts: int, n_rounds: int) -> float:
    """The tuned rate ``eta = sqrt(2 log(d) / T)`` of SSBD Theorem 21.11.

    Examples
    --------
    >>> round(hedge_learning_rate(4, 100), 6)
    0.166511
    """
    d = check_scalar(
        n_experts, "n_experts", "hedge_learning_rate", kind="int", low=1, closed="left"
    )
    t = check_scalar(n_rounds, "n_rounds", "hedge_learning_rate", kind="int", low=1, closed="left")
    return math.sqrt(2.0 * math.log(d) / t)


def hedge_regret_bound(n_experts: int, n_rounds: int) -> float:
    """The regret bound ``sqrt(2 T log d)`` of SSBD Theorem 21.11.

    With losses in ``[0, 1]`` and ``eta = sqrt(2 log(d)/T)`` the expected regret of :class:`Hedge`
    against the best expert is at most this value (the proof gives
    ``log(d)/eta + eta*T/2`` for every ``eta > 0``; the theorem's ``T > 2 log d`` is only
    needed for the bound to be below the trivial ``T``).

    Examples
    --------
    >>> round(hedge_regret_bound(4, 100), 6)
    16.651092
    """
    d = check_scalar(n_experts, "n_experts", "hedge_regret_bound", kind="int", low=1, closed="left")
    t = check_scalar(n_rounds, "n_rounds", "hedge_regret_bound", kind="int", low=0, closed="left")
    return math.sqrt(2.0 * t * math.log(d))


class Hedge:
    """Randomized Weighted Majority (Hedge) over ``n_experts`` experts.

    Parameters
    ----------
    n_experts : int
        Number of experts ``d >= 1``.
    learning_rate : float
        ``eta >= 0``.  :func:`hedge_learning_rate` gives the horizon-tuned value of
        Theorem 21.11; wrap in :class:`dpboost.online.doubling.DoublingTrick` when the
        horizon is unknown.
    rng : numpy.random.Generator, optional
        Only needed by :meth:`sample_expert` (Hedge used as a randomized predictor).  The
        expected-loss bookkeeping never draws.

    Attributes
    ----------
    log_weights_ : ndarray of shape (n_experts,)
        Unnormalised log-weights ``-eta * cumulative_losses_`` shifted so that the maximum is 0.
    cumulative_losses_ : ndarray of shape (n_experts,)
        Each expert's total loss so far.
    cumulative_loss_ : float
        The learner's total expected loss ``sum_t <w_t, v_t>``.
    n_rounds_ : int
        Number of :meth:`update` calls.

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.2.1,
       Theorem 21.11: with ``eta = sqrt(2 log(d)/T)``,
       ``sum_t <w_t, v_t> - min_i sum_t v_{t,i} <= sqrt(2 log(d) T)``.

    Examples
    --------
    >>> h = Hedge(2, learning_rate=hedge_learning_rate(2, 10))
    >>> h.update([1.0, 0.0])
    0.5
    >>> h.weights().round(3)
    array([0.408, 0.592])
    """

    def __init__(
        self, n_experts: int, *, learning_rate: float, rng: np.random.Generator | None = None
    ) -> None:
        self.n_experts = check_scalar(
            n_experts, "n_experts", "Hedge", kind="int", low=1, closed="left"
        )
        self.learning_rate = check_scalar(
            learning_rate, "learning_rate", "Hedge", low=0, high=math.inf, closed="left"
        )
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise TypeError(
                f"The 'rng' parameter of Hedge must be a numpy.random.Generator or None. "
                f"Got {rng!r} instead."
            )
        self.rng = rng
        self.log_weights_ = np.zeros(self.n_experts)
        self.cumulative_losses_ = np.zeros(self.n_experts)
        self.cumulative_loss_ = 0.0
        self.n_rounds_ = 0
        self._weights: np.ndarray | None = None

    def weights(self) -> np.ndarray:
        """The current distribution ``w_t`` over experts (sums to 1)."""
        if self._weights is None:
            # log_weights_ has maximum 0, so the sum lies in [1, d]: no overflow or 0/0.
            w = np.exp(self.log_weights_)
            self._weights = w / w.sum()
        return self._weights.copy()

    def predict(self) -> np.ndarray:
        """The learner's decision for this round: the distribution :meth:`weights`."""
        return self.weights()

    predict_distribution = weights

    def sample_expert(self) -> int:
        """Draw an expert index from :meth:`weights` with the ``rng`` given at construction."""
        if self.rng is None:
            raise ValueError(
                "Hedge.sample_expert needs a random generator: pass rng=np.random.default_rng(...)"
                " when constructing Hedge."
            )
        self.weights()
        cdf = np.cumsum(self._weights)
        i = int(np.searchsorted(cdf, self.rng.random() * cdf[-1], side="right"))
        return min(i, self.n_experts - 1)

    def update(self, losses: ArrayLike) -> float:
        """Pay ``<w_t, losses>``, then multiply each weight by ``exp(-eta * loss_i)``.

        Parameters
        ----------
        losses : array-like of shape (n_experts,)
            Losses in ``[0, 1]``.

        Returns
        -------
        float
            The expected loss paid this round.
        """
        try:
            v = np.asarray(losses, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"The 'losses' parameter of Hedge.update must be an array of "
                            f"numbers. Got {losses!r} instead.") from None
        if v.shape != (self.n_experts,) or not (v.min() >= 0 and v.max() <= 1):
            raise ValueError(
                f"The 'losses' parameter of Hedge.update must be an array of shape "
                f"({self.n_experts},) with values in [0, 1]. Got {losses!r} instead."
            )
        self.weights()
        paid = float(self._weights @ v)
        log_w = self.log_weights_ - self.learning_rate * v
        self.log_weights_ = log_w - log_w.max()
        self._weights = None
        self.cumulative_losses_ += v
        self.cumulative_loss_ += paid
        self.n_rounds_ += 1
        return paid

    def regret(self) -> float:
        """Expected regret so far: ``cumulative_loss_ - min_i cumulative_losses_[i]``."""
        return self.cumulative_loss_ - float(self.cumulative_losses_.min())
