"""AdaBoost.OL and AdaBoost.OL.S: adaptive online boosting with the logistic loss.

Beygelzimer, Kale & Luo (2015), Algorithm 2.  Expert ``i`` predicts ``sign(sum_{j<=i} alpha^j
WL^j(x))``; the weight of ``WL^i`` is the negative logistic-loss derivative at the previous
expert's margin, ``w^i = 1 / (1 + exp(s^{i-1}))`` in ``[0, 1]``; each ``alpha^i`` follows
projected online gradient descent on ``[-2, 2]`` with step ``eta_t = 4 / sqrt(t)``; the final
prediction follows an expert drawn by Hedge on the experts' 0-1 losses.  AdaBoost.OL passes
``w^i`` as an importance weight; AdaBoost.OL.S passes the example with probability ``w^i``.

References
----------
.. [1] Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting", ICML 2015,
   Section 4: Algorithm 2, Theorem 4 (mistakes <= 2T / sum_i gamma_i^2 + O~(N^2 / sum_i
   gamma_i^2)), Theorem 5; Section 5 for AdaBoost.OL.S.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from dpboost._validation import check_choice, check_random_state, check_scalar
from dpboost.online.base import OnlineClassifier, check_label, check_weight, prediction_stream
from dpboost.online.learners import make_bank

__all__ = ["AdaBoostOL", "AdaBoostOLS"]


class AdaBoostOL(OnlineClassifier):
    """AdaBoost.OL (BKL15, Algorithm 2), optionally with sampling (AdaBoost.OL.S).

    Parameters
    ----------
    n_learners : int, default=100
        ``N``.
    weak_learner : {"linear", "perceptron", "stump"} or online learner, default="linear"
    learning_rate : float, default=0.5
        Step of the ``"linear"`` weak learners.
    alpha_learning_rate : float, default=4.0
        ``c`` in the OGD step ``eta_t = c / sqrt(t)`` for the ``alpha``'s (the paper's ``c = 4``).
    sampling : bool, default=False
        ``True`` gives AdaBoost.OL.S (pass ``(x, y)`` to ``WL^i`` with probability ``w^i``).
    prediction : {"sample", "mean"}, default="sample"
        ``"sample"`` follows an expert drawn with probability ``v^i / sum v`` (Algorithm 2, line 7);
        ``"mean"`` returns the Hedge-weighted mean of the experts' labels (deterministic; its sign
        is the weighted majority of the experts).
    random_state : int, Generator or None
        Seeds the sampling of AdaBoost.OL.S (learning) and, through an independent child stream
        spawned at construction (:func:`~dpboost.online.base.prediction_stream`), the drawn
        expert of ``prediction="sample"``: learning is the same whether or not the model
        predicts in between, but two ``predict`` calls on the same rows may differ.

    Notes
    -----
    ``learn_one(x, y, weight)``: an example of ``weight = 0`` is skipped (``t_``, ``alpha_``, the
    Hedge weights and the streams stay as they were); any positive weight counts the example once
    in ``t_``, ``alpha_`` and Hedge, and multiplies the importance weights ``w^i`` the weak
    learners receive (BKL15, Section 2.1).

    Attributes
    ----------
    alpha_ : ndarray (N,)
        Current ``alpha_t^i``.
    log_hedge_weights_ : ndarray (N,)
        ``log v_t^i`` = minus the number of mistakes of expert ``i`` so far.
    expert_mistakes_ : ndarray (N,)
        ``M_i``: mistakes of each expert so far (for Theorem 4's bound).
    weight_sums_ : ndarray (N,)
        ``||w^i||_1`` so far; ``edges_`` gives the weighted edges ``gamma_i``.

    References
    ----------
    .. [1] Beygelzimer, Kale & Luo (2015), Algorithm 2 and Theorem 4.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2)); y = np.where(X[:, 0] - X[:, 1] > 0, 1.0, -1.0)
    >>> model = AdaBoostOL(n_learners=5, prediction="mean", random_state=0).partial_fit(X, y)
    >>> float(np.mean(model.predict(X) == y)) > 0.9
    True
    """

    _owner = "AdaBoostOL"

    def __init__(self, n_learners: int = 100, *, weak_learner="linear",
                 learning_rate: float = 0.5, alpha_learning_rate: float = 4.0,
                 sampling: bool = False, prediction: str = "sample", random_state=None):
        owner = self._owner
        self.n_learners = check_scalar(n_learners, "n_learners", owner, kind="int", low=1,
                                       closed="left")
        self.learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=0.0,
                                          high=math.inf)
        self.alpha_learning_rate = check_scalar(alpha_learning_rate, "alpha_learning_rate",
                                                owner, low=0.0, high=math.inf)
        if not isinstance(sampling, (bool, np.bool_)):
            raise TypeError(f"The 'sampling' parameter of {owner} must be a bool. "
                            f"Got {sampling!r} instead.")
        self.sampling = bool(sampling)
        self.prediction = check_choice(prediction, "prediction", owner, ("sample", "mean"))
        self.weak_learner = weak_learner
        self.random_state = random_state
        self._rng = check_random_state(random_state, owner=owner)
        self._predict_rng = prediction_stream(self._rng)
        self.bank_ = make_bank(weak_learner, self.n_learners, learning_rate=self.learning_rate,
                               owner=owner)
        self.alpha_ = np.zeros(self.n_learners)
        self.log_hedge_weights_ = np.zeros(self.n_learners)
        self.expert_mistakes_ = np.zeros(self.n_learners)
        self.weight_sums_ = np.zeros(self.n_learners)
        self._weighted_z = np.zeros(self.n_learners)
        self.t_ = 0

    @property
    def edges_(self) -> np.ndarray:
        """``gamma_i = (w^i . z^i) / (2 ||w^i||_1)``, the weighted edges of Theorem 4."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.weight_sums_ > 0,
                            self._weighted_z / (2.0 * self.weight_sums_), 0.0)

    def expert_predictions(self, x: np.ndarray) -> np.ndarray:
        """``yhat_t^i = sign(sum_{j<=i} alpha_t^j WL^j(x))`` for ``i = 1..N`` (ties to +1)."""
        partial = np.cumsum(self.alpha_ * self.bank_.votes(x))
        return np.where(partial >= 0.0, 1.0, -1.0)

    def hedge_probabilities(self) -> np.ndarray:
        """``v_t^i / sum_j v_t^j`` (computed from log-weights, so never 0/0)."""
        lv = self.log_hedge_weights_
        v = np.exp(lv - lv.max())
        return v / v.sum()

    def predict_one(self, x: np.ndarray) -> float:
        """Label of a Hedge-drawn expert (``"sample"``) or the Hedge mean of labels (``"mean"``)."""
        experts = self.expert_predictions(x)
        probs = self.hedge_probabilities()
        if self.prediction == "mean":
            return float(np.clip(probs @ experts, -1.0, 1.0))
        u = self._predict_rng.random() * probs.sum()
        i = int(np.searchsorted(np.cumsum(probs), u, side="right"))
        return float(experts[min(i, self.n_learners - 1)])

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:
        """Algorithm 2, lines 9-16 (``weight`` scales what the weak learners receive)."""
        y = check_label(y, f"{self._owner}.learn_one")
        weight = check_weight(weight, f"{self._owner}.learn_one")
        bank = self.bank_
        if weight == 0:  # an absent example (BKL15, Section 2.1): nothing moves
            bank.validate(x)
            return
        ctx = bank.prepare(x)  # validates x before any state changes
        self.t_ += 1
        scores = bank.scores_prepared(ctx)
        z = np.where(scores >= 0.0, y, -y)  # z_t^i = y WL^i(x)
        s = np.cumsum(self.alpha_ * z)  # s_t^i, i = 1..N, all with alpha_t
        s_prev = np.concatenate(([0.0], s[:-1]))
        # Hedge loss: expert i errs iff sign(sum_{j<=i} alpha^j WL^j) != y (ties predict +1)
        mistakes = (s < 0.0) if y > 0 else (s <= 0.0)
        mistakes = mistakes.astype(float)
        self.expert_mistakes_ += mistakes
        self.log_hedge_weights_ -= mistakes
        eta = self.alpha_learning_rate / math.sqrt(self.t_)
        self.alpha_ = np.clip(self.alpha_ + eta * z * expit(-s), -2.0, 2.0)
        w = expit(-s_prev)  # 1 / (1 + exp(s^{i-1}))
        self.weight_sums_ += w
        self._weighted_z += w * z
        if self.sampling:
            w = (self._rng.random(self.n_learners) < w).astype(float)
        bank.learn_prepared(ctx, y, weight * w, scores)


class AdaBoostOLS(AdaBoostOL):
    """AdaBoost.OL.S: :class:`AdaBoostOL` passing examples by sampling (BKL15, Section 5).

    Same parameters as :class:`AdaBoostOL` except ``sampling``, which is always ``True``.

    References
    ----------
    .. [1] Beygelzimer, Kale & Luo (2015), Algorithm 2 (line 14 read as a sampling probability)
       and Section 5.
    """

    _owner = "AdaBoostOLS"

    def __init__(self, n_learners: int = 100, *, weak_learner="linear",
                 learning_rate: float = 0.5, alpha_learning_rate: float = 4.0,
                 prediction: str = "sample", random_state=None):
        super().__init__(n_learners, weak_learner=weak_learner, learning_rate=learning_rate,
                         alpha_learning_rate=alpha_learning_rate, sampling=True,
                         prediction=prediction, random_state=random_state)
