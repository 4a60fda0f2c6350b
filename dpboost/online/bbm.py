"""Online boost-by-majority (Online BBM), Beygelzimer, Kale & Luo (2015), Algorithm 1.

For weak learner ``i`` (of ``N``) on example ``t`` with ``s = s_t^{i-1} = sum_{j<i} y_t WL^j(x_t)``
the booster computes

    k = floor((N - i - s + 1) / 2),
    w = C(N - i, k) (1/2 + gamma/2)^k (1/2 - gamma/2)^(N - i - k)        (Eq. 5, Alg. 1 line 8)

i.e. the probability of exactly ``k`` heads in ``N - i`` flips of a coin with heads probability
``1/2 + gamma/2`` (zero when ``k`` is outside ``[0, N - i]``), and passes the example to
``WL^i`` with probability (or importance weight) ``p = w / ||w^i||_inf``.  We use the tightest
data-free bound ``||w^i||_inf <= max_k C(N-i, k) q^k (1-q)^(N-i-k)`` (the mode of the binomial),
so ``p`` lies in ``[0, 1]`` and equals 1 at the mode.  All terms are computed in log space from
a table of ``log k!``, so ``N`` in the thousands is fine (Vowpal Wabbit's 64-bit binomials
overflow from ``N = 63``).

Note on ``gamma``: this is the paper's ``gamma``; Vowpal Wabbit's ``--gamma`` is half of it
(VW uses ``1/2 +- gamma``), so VW's default ``--gamma 0.1`` is ``gamma=0.2`` here.

References
----------
.. [1] Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting", ICML 2015,
   Section 3.1: potentials Phi_i (Eq. 4), weights (Eq. 5), Algorithm 1, Lemma 3, Lemma 4,
   Theorem 2 (mistakes <= exp(-N gamma^2 / 2) T + O~(sqrt(N)(S + 1/gamma))).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from dpboost._validation import check_choice, check_random_state, check_scalar
from dpboost.online.base import OnlineClassifier, check_label, check_weight
from dpboost.online.learners import make_bank

__all__ = ["OnlineBBM", "bbm_log_weights", "bbm_potential", "bbm_weights"]


_LOG2 = math.log(2.0)


def _log_binom_pmf(n, k, gamma: float):
    """``log[C(n, k) q^k (1 - q)^(n - k)]`` with ``q = 1/2 + gamma/2``, for ``0 <= k <= n``."""
    # log q and log(1 - q) from gamma: 1 - (1/2 + gamma/2) rounds to 0 for gamma > 1 - 1e-16
    log_q, log_1mq = math.log1p(gamma) - _LOG2, math.log1p(-gamma) - _LOG2
    return (gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)
            + k * log_q + (n - k) * log_1mq)


def bbm_log_weights(n_learners: int, s_prev, gamma: float) -> np.ndarray:
    """``log w_t^i`` of Eq. (5) without its factor 1/2 (Algorithm 1, line 8), for ``i = 1..N``.

    Parameters
    ----------
    n_learners : int
        ``N``.
    s_prev : array of shape (N,)
        ``s_t^{i-1}`` for ``i = 1..N`` (integers: ``s_t^0 = 0`` and each step adds +-1).
    gamma : float in (0, 1)
        The paper's edge.

    Returns
    -------
    ndarray of shape (N,)
        ``log w``; ``-inf`` where ``k`` lies outside ``[0, N - i]``.

    Examples
    --------
    >>> round(float(np.exp(bbm_log_weights(3, [0.0, 1.0, 2.0], 0.2))[0]), 6)  # C(2,1)*.6*.4
    0.48
    """
    s_prev = np.asarray(s_prev, dtype=float)
    n = n_learners - np.arange(1, n_learners + 1)  # N - i
    k = np.floor((n - s_prev + 1.0) / 2.0)
    valid = (k >= 0) & (k <= n)
    return np.where(valid, _log_binom_pmf(n, np.clip(k, 0, n), gamma), -np.inf)


def _log_mode_pmf(n: np.ndarray, gamma: float) -> np.ndarray:
    """``log max_k Binomial(n, 1/2 + gamma/2).pmf(k)`` for each ``n``.

    The bound on ``||w||_inf``."""
    n = np.asarray(n, dtype=float)
    best = np.full(n.shape, -np.inf)
    mode = np.floor((n + 1.0) * (0.5 + 0.5 * gamma))
    for k in (mode - 1.0, mode, mode + 1.0):
        best = np.maximum(best, _log_binom_pmf(n, np.clip(k, 0, n), gamma))
    return best


def bbm_weights(n_learners: int, s_prev, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """Weights ``w`` (Algorithm 1, line 8) and sampling probabilities ``p = w / ||w^i||_inf``.

    Returns ``(w, p)``, both of shape ``(N,)`` with ``0 <= w <= p <= 1``.
    """
    logw = bbm_log_weights(n_learners, s_prev, gamma)
    n = n_learners - np.arange(1, n_learners + 1)
    logp = np.minimum(logw - _log_mode_pmf(n, gamma), 0.0)
    return np.exp(logw), np.exp(logp)


def bbm_potential(n_learners: int, i: int, s: float, gamma: float) -> float:
    """BBM potential ``Phi_i(s)``: P[at most floor((N - i - s)/2) heads in N - i flips].

    Satisfies ``Phi_N(s) = 1{s <= 0}`` and ``Phi_{i-1}(s) = (1/2 - gamma/2) Phi_i(s-1) +
    (1/2 + gamma/2) Phi_i(s+1)`` (Eq. 4 with equality); ``w_t^i = (Phi_i(s-1) - Phi_i(s+1))/2``.
    """
    from scipy.stats import binom  # here: the CLI's parser imports this module

    n = n_learners - i
    return float(binom.cdf(math.floor((n - s) / 2.0), n, 0.5 + 0.5 * gamma))


#: Largest N for which the table of probabilities (about N x N floats) is precomputed.
_TABLE_MAX_N = 2048


def _probability_table(n_learners: int, gamma: float):
    """Table of ``p`` indexed by ``(i - 1, col)`` with ``col = (base_i - c_i + z_i) >> 1``.

    Here ``c_i = sum_{j<=i} z_j`` and ``s^{i-1} = c_i - z_i``, so with ``base_i = N - i + 3 +
    2 off`` the column is ``k + 1 + off`` where ``k = floor((N - i - s^{i-1} + 1)/2)``; ``off``
    keeps columns non-negative.  Returns ``(table, base)`` or ``None`` when ``N`` is too large.
    """
    if n_learners > _TABLE_MAX_N:
        return None
    off = n_learners // 2 + 2
    width = off + n_learners + 3
    n = (n_learners - np.arange(1, n_learners + 1)).astype(float)[:, None]
    k = np.arange(width, dtype=float)[None, :] - off - 1.0
    valid = (k >= 0) & (k <= n)
    logp = np.minimum(_log_binom_pmf(n, np.clip(k, 0, n), gamma) - _log_mode_pmf(n, gamma), 0.0)
    table = np.where(valid, np.exp(logp), 0.0)
    base = (n_learners - np.arange(1, n_learners + 1) + 3 + 2 * off).astype(np.int64)
    return table, base


class OnlineBBM(OnlineClassifier):
    """Online boost-by-majority over ``N`` weak online learners (BKL15, Algorithm 1).

    Prediction: the unweighted majority vote ``sign(sum_i WL^i(x))`` (``predict_one`` returns the
    mean vote in ``[-1, 1]``).  Update: each weak learner ``i`` receives ``(x, y)`` with
    importance weight ``p_t^i`` (``mode="weight"``, what BKL15 used in experiments) or, with
    probability ``p_t^i``, with weight 1 (``mode="sample"``, the analysed algorithm).

    **Not differentially private**: the weak learners see every example in the clear.

    The defaults need no tuning (they are ``dpboost online``'s): on the 80/20 splits of
    ``benchmarks/bench_online.py`` (seed 0) they give test errors 0.1536 on a9a, 0.2387 on
    covtype and 0.2825 on letter (A-M vs N-Z), against 0.1508, 0.2356 and 0.3018 for settings
    tuned by progressive validation; over splits 0-5 (a9a) and 0-3 (covtype), against the settings
    tuned on split 0, the default-minus-tuned difference averaged +0.0017 and -0.0001, within
    split-to-split noise.

    Parameters
    ----------
    n_learners : int, default=100
        ``N``.
    gamma : float in (0, 1), default=0.2
        The paper's edge (twice VW's ``--gamma``).
    weak_learner : {"linear", "perceptron", "stump"} or online learner, default="linear"
    learning_rate : float, default=0.5
        Step of the ``"linear"`` weak learners.
    mode : {"weight", "sample"}, default="weight"
    random_state : int, Generator or None
        Used only for sampling (``mode="sample"``); predictions never draw.

    References
    ----------
    .. [1] Beygelzimer, Kale & Luo (2015), Algorithm 1 and Theorem 2; Section 2.1 for importance
       weights.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2)); y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    >>> model = OnlineBBM(n_learners=5, random_state=0).partial_fit(X, y)
    >>> float(np.mean(model.predict(X) == y)) > 0.9
    True
    """

    def __init__(self, n_learners: int = 100, gamma: float = 0.2, *, weak_learner="linear",
                 learning_rate: float = 0.5, mode: str = "weight", random_state=None):
        owner = "OnlineBBM"
        self.n_learners = check_scalar(n_learners, "n_learners", owner, kind="int", low=1,
                                       closed="left")
        self.gamma = check_scalar(gamma, "gamma", owner, low=0.0, high=1.0)
        self.learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0.0,
                                          high=math.inf)
        self.mode = check_choice(mode, "mode", owner, ("weight", "sample"))
        self.weak_learner = weak_learner
        self.random_state = random_state
        self._rng = check_random_state(random_state, owner=owner)
        self.bank_ = make_bank(weak_learner, self.n_learners, learning_rate=self.learning_rate,
                               owner=owner)
        self._n_minus_i = (self.n_learners - np.arange(1, self.n_learners + 1)).astype(float)
        self._table = _probability_table(self.n_learners, self.gamma)
        self._rows = np.arange(self.n_learners)

    def predict_one(self, x: np.ndarray) -> float:
        """Mean vote ``(1/N) sum_i WL^i(x)`` in ``[-1, 1]``.

        Its sign is Algorithm 1's prediction."""
        return float(np.count_nonzero(self.bank_.scores(x) >= 0.0) * 2 - self.n_learners) / (
            self.n_learners)

    def _probabilities(self, z: np.ndarray) -> np.ndarray:
        """``p^1..p^N`` from ``z_i = y WL^i(x)`` (integers +-1)."""
        c = np.cumsum(z)
        if self._table is not None:
            table, base = self._table
            return table[self._rows, (base - c + z) >> 1]
        _, p = bbm_weights(self.n_learners, c - z, self.gamma)
        return p

    def sampling_probabilities(self, x: np.ndarray, y: float) -> np.ndarray:
        """``p_t^i`` for ``i = 1..N`` on ``(x, y)`` given the current weak learners."""
        scores = self.bank_.scores(x)
        return self._probabilities(np.where(scores >= 0.0, 1, -1) * (1 if y > 0 else -1))

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:
        """Algorithm 1, lines 4-10: compute ``p_t^i`` and pass ``(x, y)`` to every ``WL^i``."""
        y = check_label(y, "OnlineBBM.learn_one")
        weight = check_weight(weight, "OnlineBBM.learn_one")
        bank = self.bank_
        if weight == 0:  # an absent example: no draw, and the feature scale stays
            bank.validate(x)
            return
        ctx = bank.prepare(x)
        scores = bank.scores_prepared(ctx)
        yi = 1 if y > 0 else -1
        p = self._probabilities(np.where(scores >= 0.0, yi, -yi))
        if self.mode == "sample":
            p = (self._rng.random(self.n_learners) < p).astype(float)
        bank.learn_prepared(ctx, y, p if weight == 1.0 else weight * p, scores)
