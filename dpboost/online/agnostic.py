"""Boosting with online convex optimisation (Brukhim, Chen, Hazan & Moran 2020).

* :class:`OnlineAgnosticBoost` -- Algorithm 1, online agnostic boosting: the OCO player is
  projected online gradient descent on ``K = [-1, 1]`` run *across the weak learners* of each
  example; weak learner ``i`` gets ``(x, y^i)`` with ``P[y^i = y] = (1 + p^i)/2``.
* :class:`OnlineRealizableBoost` -- Algorithm 4, online realizable boosting: ``K = [0, 1]``,
  ``p^1 = 1/2``, and ``(x, y)`` passed to ``W_i`` with probability (or importance weight) ``p^i``.
* :func:`boost_with_oco` -- Algorithm 2, statistical boosting (agnostic or realizable) with OGD
  on ``[-1, 1]^m`` or ``[0, 1]^m`` and a batch weak learner (default: exact weighted stumps).
* :func:`randomized_projection` -- the randomised majority vote ``Pi`` of Eq. (2), with
  ``E[Pi(z)] = clip(z, -1, 1)``.

In all of them the prediction is ``Pi(sum_i W_i(x) / (gamma N))``.  OGD steps: the losses
``l^i(p) = p (W_i(x) y / gamma - 1)`` have gradients bounded by ``G = 1 + 1/gamma`` and ``K`` has
diameter ``D``, so step ``i`` is ``c D / (G sqrt(i))`` (``c = ogd_learning_rate``), giving regret
``O(G D sqrt(N))`` (Hazan, "Introduction to OCO", Theorem 3.1).

References
----------
.. [1] Brukhim, Chen, Hazan & Moran, "Online Agnostic Boosting via Regret Minimization",
   NeurIPS 2020: Algorithm 1 with Eq. (2), Proposition 3 and Theorem 2 (regret
   R_W(T)/gamma + O(T/(gamma sqrt(N)))); Algorithm 2 (Theorems 8 and 10); Algorithm 4
   (Theorem 12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dpboost._validation import check_choice, check_random_state, check_scalar
from dpboost.online.base import OnlineClassifier, check_label, check_weight, prediction_stream
from dpboost.online.learners import make_bank

__all__ = [
    "OnlineAgnosticBoost",
    "OnlineRealizableBoost",
    "RandomizedMajorityVote",
    "StumpHypothesis",
    "boost_with_oco",
    "fit_stump",
    "randomized_projection",
]


def randomized_projection(z, *, rng: np.random.Generator) -> np.ndarray:
    """``Pi(z)`` of Eq. (2): ``sign(z)`` if ``|z| >= 1``, else ``+1`` w.p. ``(1 + z)/2``.

    Vectorised over ``z``; ``E[Pi(z)] = clip(z, -1, 1)``.

    Examples
    --------
    >>> randomized_projection([-3.0, 2.0], rng=np.random.default_rng(0)).tolist()
    [-1.0, 1.0]
    """
    z = np.asarray(z, dtype=float)
    u = rng.random(z.shape)
    return np.where(u < (1.0 + np.clip(z, -1.0, 1.0)) / 2.0, 1.0, -1.0)


def _ogd_path(z: list, p1: float, lo: float, hi: float, gamma: float, c: float) -> list:
    """``p^1..p^N`` of projected OGD on ``[lo, hi]`` against ``l^i(p) = p (z_i/gamma - 1)``."""
    # step (zi/gamma - 1) / (1 + 1/gamma) written as (zi - gamma) / (1 + gamma): for a subnormal
    # gamma, 1/gamma is inf and the first form gave 0 * inf = NaN
    step = c * (hi - lo) / (1.0 + gamma)
    p = p1
    out = []
    for i, zi in enumerate(z, start=1):
        out.append(p)
        p -= step / math.sqrt(i) * (zi - gamma)
        p = min(max(p, lo), hi)
    return out


class _OCOBooster(OnlineClassifier):
    _owner = "OnlineAgnosticBoost"

    def __init__(self, n_learners: int = 100, gamma: float = 0.2, *, weak_learner="linear",
                 learning_rate: float = 0.5, ogd_learning_rate: float = 1.0,
                 prediction: str = "sample", random_state=None):
        owner = self._owner
        self.n_learners = check_scalar(n_learners, "n_learners", owner, kind="int", low=1,
                                       closed="left")
        self.gamma = check_scalar(gamma, "gamma", owner, low=0.0, high=1.0, closed="right")
        self.learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0.0,
                                          high=math.inf)
        self.ogd_learning_rate = check_scalar(ogd_learning_rate, "ogd_learning_rate", owner,
                                              low=0.0, high=math.inf)
        self.prediction = check_choice(prediction, "prediction", owner, ("sample", "mean"))
        self.weak_learner = weak_learner
        self.random_state = random_state
        self._rng = check_random_state(random_state, owner=owner)
        self._predict_rng = prediction_stream(self._rng)
        self.bank_ = make_bank(weak_learner, self.n_learners, learning_rate=self.learning_rate,
                               owner=owner)

    def vote(self, x: np.ndarray) -> float:
        """``sum_i W_i(x) / (gamma N)``, the argument of ``Pi`` (line 2)."""
        votes = 2 * np.count_nonzero(self.bank_.scores(x) >= 0.0) - self.n_learners
        return float(votes) / (self.gamma * self.n_learners)

    def predict_one(self, x: np.ndarray) -> float:
        """``Pi(vote)`` (``"sample"``, line 2) or its mean ``clip(vote, -1, 1)`` (``"mean"``)."""
        z = self.vote(x)
        if self.prediction == "mean":
            return float(np.clip(z, -1.0, 1.0))
        return float(randomized_projection(z, rng=self._predict_rng))

    def booster_weights(self, x: np.ndarray, y: float) -> np.ndarray:
        """The OCO player's ``p_t^1..p_t^N`` on ``(x, y)`` (lines 3-5)."""
        return self._weights_from_scores(self.bank_.scores(x), float(y))

    def _weights_from_scores(self, scores: np.ndarray, y: float) -> np.ndarray:
        z = np.where(scores >= 0.0, y, -y).tolist()
        return np.array(_ogd_path(z, self._p1, self._lo, self._hi, self.gamma,
                                  self.ogd_learning_rate))


class OnlineAgnosticBoost(_OCOBooster):
    """Online agnostic boosting with OGD as the OCO player (BCHM20, Algorithm 1).

    Parameters
    ----------
    n_learners : int, default=100
    gamma : float in (0, 1], default=1.0
        The weak learners' advantage ``gamma`` of Definition 1.  Any online learner with
        sublinear regret for the class is a ``(1, T)``-AWOL, and the bound of Theorem 2,
        ``R_W(T)/(gamma T) + O(1/(gamma sqrt(N)))``, is smallest for the largest valid ``gamma``;
        so the default is ``1`` for the default ``"linear"`` learner (online logistic regression,
        itself a strong learner).  Use a smaller value only for genuinely weak learners.
    weak_learner : {"linear", "perceptron", "stump"} or online learner, default="linear"
    learning_rate : float, default=0.5
        Step of the ``"linear"`` weak learners.
    ogd_learning_rate : float, default=1.0
        ``c`` in the OGD step ``c D / (G sqrt(i))``.
    prediction : {"sample", "mean"}, default="sample"
        ``Pi(z)`` drawn (line 2) or its expectation ``clip(z, -1, 1)``.
    random_state : int, Generator or None
        Seeds the relabelling draws (learning) and, through an independent child stream spawned
        at construction (:func:`~dpboost.online.base.prediction_stream`), the draws of ``Pi``
        in ``prediction="sample"``: learning is the same whether or not the model predicts in
        between, but two ``predict`` calls on the same rows may differ.  An example of weight 0
        is skipped (no draw, no update).

    Notes
    -----
    What to expect.  Algorithm 1 is implemented as written (``p^1 = 0``, OGD on ``[-1, 1]``,
    ``W_i(x)`` the learner's label), and at practical sizes its guarantee is vacuous: the OCO term
    of Proposition 3 is ``1.5 G D / sqrt(N)`` with ``G = 1 + 1/gamma``, ``D = 2``, i.e. 1.8 in
    correlation (0.9 in 0-1 error) at ``N = 100, gamma = 0.2``.  With a *strong* weak learner and
    a small ``gamma`` it then does worse than its own weak learner: one correct vote already moves
    OGD from ``p^1 = 0`` to ``p^2 = -1`` (step ``D/G = 1/3``, gradient ``1/gamma - 1 = 4``), so
    later learners are trained on *flipped* labels of the examples the ensemble gets right
    (measured on 8,000 a9a rows, N = 10, gamma = 0.2: 33% of the ``p^i`` negative, 13% at -1, the
    learners' labels agree with ``y`` only 57% of the time).  Learner 1 always trains on coin
    flips (``p^1 = 0``), and with ``prediction="sample"`` the vote is randomised whenever
    ``|z| < 1``.  Measured held-out 0-1 error on a9a (``dpboost online ... --algorithm agnostic
    --seed 1``; majority class 0.24, the linear learner alone 0.149): gamma = 0.2 gives 0.30 for
    N in {10, 40} (``"sample"``) and 0.31-0.45 (``"mean"``); gamma = 1 gives 0.17-0.18 for N in
    {10, 40, 100} (both predictions).  With ``gamma = 1`` the gradients ``W_i(x) y - 1`` are
    ``<= 0``, so ``p^i`` only grows, on mistakes, and never leaves ``[0, 1]``.  With genuinely
    weak learners a smaller ``gamma`` is what boosts: stumps on a rotated noisy halfspace
    (N = 50, mean vote, progressive error) give 0.30 alone, 0.21 at gamma = 0.6 and 0.31 at
    gamma = 1.

    References
    ----------
    .. [1] Brukhim, Chen, Hazan & Moran (2020), Algorithm 1, Eq. (2), Definition 1,
       Proposition 3, Theorem 2.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 2)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    >>> m = OnlineAgnosticBoost(10, 0.5, prediction="mean", random_state=0).partial_fit(X, y)
    >>> float(np.mean(m.predict(X) == y)) > 0.9
    True
    """

    _owner = "OnlineAgnosticBoost"
    _p1, _lo, _hi = 0.0, -1.0, 1.0

    def __init__(self, n_learners: int = 100, gamma: float = 1.0, *, weak_learner="linear",
                 learning_rate: float = 0.5, ogd_learning_rate: float = 1.0,
                 prediction: str = "sample", random_state=None):
        super().__init__(n_learners, gamma, weak_learner=weak_learner,
                         learning_rate=learning_rate, ogd_learning_rate=ogd_learning_rate,
                         prediction=prediction, random_state=random_state)

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:
        """Lines 3-7: OGD over the learners, relabel ``y^i`` with ``P[y^i = y] = (1 + p^i)/2``."""
        y = check_label(y, f"{self._owner}.learn_one")
        weight = check_weight(weight, f"{self._owner}.learn_one")
        if weight == 0:  # an absent example: no draw, no update
            self.bank_.validate(x)
            return
        ctx = self.bank_.prepare(x)
        scores = self.bank_.scores_prepared(ctx)
        p = self._weights_from_scores(scores, y)
        keep = self._rng.random(self.n_learners) < (1.0 + p) / 2.0
        self.bank_.learn_prepared(ctx, np.where(keep, y, -y), weight, scores)


class OnlineRealizableBoost(_OCOBooster):
    """Online realizable boosting with OGD on ``[0, 1]`` (BCHM20, Algorithm 4).

    Same parameters as :class:`OnlineAgnosticBoost` (but ``gamma`` defaults to 0.2), plus
    ``mode``: ``"sample"`` passes ``(x, y)`` to ``W_i`` with probability ``p^i`` (line 6),
    ``"weight"`` passes it with importance weight ``p^i``.

    References
    ----------
    .. [1] Brukhim, Chen, Hazan & Moran (2020), Algorithm 4 and Theorem 12.
    """

    _owner = "OnlineRealizableBoost"
    _p1, _lo, _hi = 0.5, 0.0, 1.0

    def __init__(self, n_learners: int = 100, gamma: float = 0.2, *, weak_learner="linear",
                 learning_rate: float = 0.5, ogd_learning_rate: float = 1.0,
                 prediction: str = "sample", mode: str = "sample", random_state=None):
        super().__init__(n_learners, gamma, weak_learner=weak_learner,
                         learning_rate=learning_rate, ogd_learning_rate=ogd_learning_rate,
                         prediction=prediction, random_state=random_state)
        self.mode = check_choice(mode, "mode", self._owner, ("weight", "sample"))

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:
        """Lines 3-7: OGD over the learners; pass ``(x, y)`` w.p. (or with weight) ``p^i``."""
        y = check_label(y, f"{self._owner}.learn_one")
        weight = check_weight(weight, f"{self._owner}.learn_one")
        if weight == 0:  # an absent example: no draw, no update
            self.bank_.validate(x)
            return
        ctx = self.bank_.prepare(x)
        scores = self.bank_.scores_prepared(ctx)
        p = self._weights_from_scores(scores, y)
        if self.mode == "sample":
            p = (self._rng.random(self.n_learners) < p).astype(float)
        self.bank_.learn_prepared(ctx, y, weight * p, scores)


# ----------------------------------------------------------------------------- Algorithm 2


@dataclass(frozen=True)
class StumpHypothesis:
    """``h(x) = sign * (+1 if x[feature] > threshold else -1)``."""

    feature: int
    threshold: float
    sign: float

    def __call__(self, X) -> np.ndarray:
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return self.sign * np.where(X[:, self.feature] > self.threshold, 1.0, -1.0)


def fit_stump(X, y, sample_weight=None) -> StumpHypothesis:
    """The stump maximising the weighted correlation ``sum_i w_i y_i h(x_i)``.

    Exact, by sorting."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    wy = w * y
    total = wy.sum()
    best = (abs(total), 0, -np.inf, 1.0 if total >= 0 else -1.0)
    for j in range(X.shape[1]):
        order = np.argsort(X[:, j], kind="stable")
        xs = X[order, j]
        left = np.cumsum(wy[order])  # left sum after putting the first r+1 points on the left
        cut = np.flatnonzero(xs[:-1] < xs[1:])  # split only between distinct values
        if cut.size == 0:
            continue
        corr = total - 2.0 * left[cut]
        r = int(np.argmax(np.abs(corr)))
        if abs(corr[r]) > best[0]:
            c = cut[r]
            best = (abs(corr[r]), j, 0.5 * (xs[c] + xs[c + 1]), 1.0 if corr[r] >= 0 else -1.0)
    return StumpHypothesis(int(best[1]), float(best[2]), float(best[3]))


def _fit_stump_learner(X, y, *, rng):
    return fit_stump(X, y)


@dataclass
class RandomizedMajorityVote:
    """``hbar(x) = Pi(sum_t h_t(x) / (gamma T))`` returned by :func:`boost_with_oco`.

    ``decision_function`` is ``E[hbar(x)] = clip(sum_t h_t(x)/(gamma T), -1, 1)``; ``predict``
    is its sign (ties to +1) unless an ``rng`` is given, in which case ``Pi`` is sampled.
    """

    hypotheses: list
    gamma: float
    weights_: np.ndarray = field(default=None, repr=False)

    def vote(self, X) -> np.ndarray:
        X = np.atleast_2d(np.asarray(X, dtype=float))
        total = np.zeros(X.shape[0])
        for h in self.hypotheses:
            total += np.asarray(h(X), dtype=float)
        return total / (self.gamma * len(self.hypotheses))

    def decision_function(self, X) -> np.ndarray:
        return np.clip(self.vote(X), -1.0, 1.0)

    def predict(self, X, *, rng: np.random.Generator | None = None) -> np.ndarray:
        if rng is None:
            return np.where(self.vote(X) >= 0.0, 1.0, -1.0)
        return randomized_projection(self.vote(X), rng=rng)


def boost_with_oco(X, y, *, n_rounds: int, gamma: float, setting: str = "agnostic",
                   sample_size: int | None = None, weak_learner=None,
                   ogd_learning_rate: float = 1.0, random_state=None) -> RandomizedMajorityVote:
    """Boosting with OCO in the statistical setting (BCHM20, Algorithm 2).

    Each round passes ``sample_size`` examples to the weak learner: in the agnostic setting drawn
    uniformly and relabelled with ``P[label = y_i] = (1 + p_t(i))/2``, ``p_t in [-1, 1]^m``; in
    the realizable setting drawn with probability proportional to ``p_t(i) in [0, 1]`` (if
    ``p_t = 0`` the previous hypothesis is repeated, footnote 3).  The OCO player is OGD on the
    linear losses ``l_t(p) = sum_i p(i) (h_t(x_i) y_i / gamma - 1)``, started at ``p_1 = 1`` (the
    paper leaves ``p_1`` open; 1 means "the true labels, uniformly weighted").

    Parameters
    ----------
    X : array (m, d); y : array (m,) in {-1, +1}
    n_rounds : int
        ``T``.
    gamma : float in (0, 1]
    setting : {"agnostic", "realizable"}
    sample_size : int or None
        ``m_0`` (default ``m``).
    weak_learner : callable ``(X, y, *, rng) -> hypothesis`` or None
        ``None`` = :func:`fit_stump` (exact weighted stump on the drawn sample).
    ogd_learning_rate : float, default=1.0
        ``c`` in the OGD step ``c D / (G sqrt(t))``.
    random_state : int, Generator or None

    Returns
    -------
    RandomizedMajorityVote

    References
    ----------
    .. [1] Brukhim, Chen, Hazan & Moran (2020), Algorithm 2, Theorem 8 (agnostic) and Theorem 10
       (realizable).
    """
    owner = "boost_with_oco"
    n_rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    gamma = check_scalar(gamma, "gamma", owner, low=0.0, high=1.0, closed="right")
    setting = check_choice(setting, "setting", owner, ("agnostic", "realizable"))
    c = check_scalar(ogd_learning_rate, "ogd_learning_rate", owner, low=0.0, high=math.inf)
    rng = check_random_state(random_state, owner=owner)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] == 0:
        raise ValueError(f"{owner} needs X of shape (m, d) and y of shape (m,) with m >= 1; "
                         f"got {X.shape} and {y.shape}.")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"{owner} needs labels in {{-1, +1}}.")
    m = X.shape[0]
    m0 = m if sample_size is None else check_scalar(sample_size, "sample_size", owner,
                                                    kind="int", low=1, closed="left")
    learner = _fit_stump_learner if weak_learner is None else weak_learner
    lo = -1.0 if setting == "agnostic" else 0.0
    step = c * (1.0 - lo) / (1.0 + gamma)  # times (h y - gamma): see _ogd_path
    p = np.ones(m)
    hypotheses: list = []
    for t in range(1, n_rounds + 1):
        if setting == "agnostic":
            idx = rng.integers(0, m, size=m0)
            keep = rng.random(m0) < (1.0 + p[idx]) / 2.0
            h = learner(X[idx], np.where(keep, y[idx], -y[idx]), rng=rng)
        elif p.sum() > 0:
            idx = rng.choice(m, size=m0, p=p / p.sum())
            h = learner(X[idx], y[idx], rng=rng)
        else:
            h = hypotheses[-1]
        hypotheses.append(h)
        grad = np.asarray(h(X), dtype=float) * y - gamma  # gamma times the loss gradient
        p = np.clip(p - step / math.sqrt(t) * grad, lo, 1.0)
    return RandomizedMajorityVote(hypotheses, gamma, p)
