"""LazyBregBoost's measure producer LB-NxM (Algorithm 4).

Lazy multiplicative weights + one projection.

For hypotheses ``h_1..h_t`` the unprojected measure is
``mu~(i) = kappa * exp(-lambda * sum_j l_j(x_i))`` with the per-round gain
``l_j(x_i) = 1 - |h_j(x_i) - y_i| / 2`` (equal to ``(1 + y_i h_j(x_i)) / 2`` for ``y_i = +-1``),
and the measure handed to the weak learner is its single Bregman projection onto the
kappa-dense measures (capped scaling, :func:`dpboost.projection.capped_scaling`).

Hypotheses enter clipped to ``[-1, 1]``, so every ``l_j`` lies in ``[0, 1]``, ``mu~ <= kappa`` and
``|mu~| <= kappa n``: the projection scales up (``c >= 1``) and the result has total exactly
``kappa n``, entries in ``[0, 1]`` and normalised entries at most ``1 / (kappa n)`` (smoothness,
Theorem 24).  The projection happens once per round, after all multiplicative updates ("lazy");
this is what makes the producer ``1/(kappa n)``-slick (Lemma 25).

**A class-balancing prior (practical defaults).**  ``class_gain = (g_pos, g_neg) >= 0`` starts
the cumulative gain at ``L_0(i) = g_pos`` or ``g_neg`` by label, as if a public constant
hypothesis had been played before round 1.  The defaults set the majority class's entry to
``ln(r) / lambda`` with ``r`` the private majority/minority ratio
(:func:`dpboost.defaults.class_balancing_gain`), so the first measure puts equal mass on the
two classes.  Without it, on data with a minority rate ``p`` and ``kappa`` near ``p``, the
first measures are nearly uniform (every entry near ``kappa``, far below the cap 1): the centre
carries the class contrast with weight ``2p(1 - p)`` while its noise is calibrated for a measure
that may put the cap on single rows, ``1 / kappa`` times larger than the uniform measure's
influence.  Measured (a9a with positives subsampled to 5% / 2% of 26,000 rows, epsilon = 1,
3 seeds, ``kappa = p_hat``): held-out ROC AUC 0.77 / 0.57 without the prior, 0.86 / 0.78 with it
(non-private logistic regression 0.90).
``L_0`` depends only on the row's own label and on public quantities, so the sensitivity proof of
:class:`~dpboost.weak_learners.GaussianCenteringHalfspace` (gains agree off the replaced row,
capped scaling) holds unchanged; ``L_0 >= 0`` keeps ``mu~ <= kappa``.

Everything is computed in log space (``log mu~ = log kappa - lambda * L``), so even a million
rounds of cumulative loss neither underflow to an all-zero measure nor produce NaN.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Algorithm 4, Theorem 24, Lemma 25.
"""

from __future__ import annotations

import numpy as np

from dpboost._validation import check_scalar
from dpboost.round_ops import add_gain, as_float64, project_gain, zero_gain

__all__ = ["LazyBregBoost", "round_gain"]


def round_gain(h_values: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``l(x_i) = 1 - |clip(h(x_i), -1, 1) - y_i| / 2`` in float64, for labels ``y`` in {-1, +1}.

    Elementwise, so a dask array stays lazy (chunk by chunk on the workers).
    """
    h = np.clip(as_float64(h_values), -1.0, 1.0)
    return 1.0 - 0.5 * np.abs(h - y)


class LazyBregBoost:
    """LB-NxM(kappa, lambda): lazy-Bregman next measure (Algorithm 4).

    Parameters
    ----------
    kappa : float in (0, 1)
        Density of the produced measures (the boosted hypothesis errs on at most about a
        ``kappa`` fraction of the sample, Theorem 24).
    learning_rate : float > 0
        ``lambda``, the multiplicative-weights rate (Theorem 24 uses ``gamma / 4``).
    class_gain : (float, float), default (0.0, 0.0)
        ``(g_pos, g_neg) >= 0``: the cumulative gain of the +1 / -1 rows before the first
        hypothesis (a public class prior; see the module docstring).  Zeros: Algorithm 4.

    Notes
    -----
    :meth:`measure` caches the cumulative gain ``L(i) = sum_j l_j(x_i)`` so that a boosting round
    evaluates only the newest hypothesis (one matrix-vector product) and never re-evaluates the
    earlier ones.  The cache is keyed on the identity of ``X`` and ``y`` and on the list of
    hypotheses growing by appending (its length and its last cached element); anything else
    triggers a full recomputation.  :meth:`recompute` is the pure, cache-free definition, and
    the tests assert that both agree.  Do not modify ``X`` or ``y`` in place between calls.

    ``X`` and ``y`` may be row-chunked dask arrays: the gain is then a dask array persisted on
    the workers (never gathered), the projection is found with a few reductions over it
    (:mod:`dpboost.distributed_projection`) and the returned measure is lazy.  The operations
    are those of :mod:`dpboost.round_ops`, so both backends run this same code.

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Algorithm 4, Theorem 24, Lemma 25.

    Examples
    --------
    >>> import numpy as np
    >>> from dpboost.weak_learners import HalfspaceHypothesis
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> y = np.array([1, 1, -1, -1])
    >>> nxm = LazyBregBoost(kappa=0.5, learning_rate=1.0)
    >>> mu = nxm.measure(X, y, [HalfspaceHypothesis(np.array([1.0, 0.0]))])
    >>> round(float(mu.sum()), 12), bool(mu.max() <= 1.0)
    (2.0, True)
    """

    def __init__(self, kappa: float, learning_rate: float,
                 class_gain: tuple[float, float] = (0.0, 0.0)) -> None:
        self.kappa = check_scalar(kappa, "kappa", "LazyBregBoost", low=0, high=1)
        self.learning_rate = check_scalar(
            learning_rate, "learning_rate", "LazyBregBoost", low=0, high=None
        )
        if len(class_gain) != 2:
            raise ValueError(f"class_gain must be a pair (g_pos, g_neg); got {class_gain!r}")
        self.class_gain = tuple(
            check_scalar(g, "class_gain", "LazyBregBoost", low=0, high=None, closed="left")
            for g in class_gain)
        self._reset(None, None)

    def _reset(self, X, y) -> None:
        self._X = X
        self._y = y
        self._n_seen = 0
        self._last = None
        self._gain = None if y is None else zero_gain(X, y, self.class_gain)

    def _project(self, gain, n_hypotheses: int | None = None):
        return project_gain(gain, self.kappa, self.learning_rate, n_hypotheses,
                            prior_max=max(self.class_gain))

    def gain(self, h, X, y):
        """One hypothesis's per-row gain in ``[0, 1]`` (:func:`round_gain`; the multiclass
        booster overrides it with the multiclass margin)."""
        return round_gain(h(X), y)

    def measure(self, X: np.ndarray, y: np.ndarray, hypotheses: list) -> np.ndarray:
        """Return ``mu = Proj(mu~)`` for ``(X, y, hypotheses)``.

        Reuses the cumulative-gain cache."""
        t = len(hypotheses)
        fresh = (
            X is not self._X
            or y is not self._y
            or t < self._n_seen
            or (self._n_seen > 0 and hypotheses[self._n_seen - 1] is not self._last)
        )
        if fresh:
            self._reset(X, y)
        for h in hypotheses[self._n_seen:]:
            self._gain = add_gain(self._gain, self.gain(h, X, y))
        self._n_seen = t
        self._last = hypotheses[-1] if t else None
        return self._project(self._gain, t)

    def recompute(self, X: np.ndarray, y: np.ndarray, hypotheses: list) -> np.ndarray:
        """The same measure computed from ``(X, y, hypotheses)`` alone (no cache; pure)."""
        gain = zero_gain(X, y, self.class_gain)
        for h in hypotheses:
            gain = add_gain(gain, self.gain(h, X, y))
        return self._project(gain, len(hypotheses))

    @property
    def cumulative_gain(self) -> np.ndarray | None:
        """A copy of the cached ``L(i) = sum_j l_j(x_i)`` (``None`` before the first call).

        For dask input this is the persisted dask array itself (dask arrays are immutable).
        """
        if self._gain is None or not isinstance(self._gain, np.ndarray):
            return self._gain
        return self._gain.copy()

    @property
    def n_hypotheses_seen(self) -> int:
        """How many hypotheses the cache holds."""
        return self._n_seen
