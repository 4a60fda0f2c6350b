"""Online (projected sub)gradient descent for online convex optimisation, and a linear classifier.

:class:`OnlineGradientDescent` is the OCO learner of SSBD Section 21.3: it predicts
``w_t``, receives a subgradient ``v_t`` of the round's convex loss at ``w_t`` (a vector, or a
callable ``w -> v`` acting as gradient oracle), and steps to
``w_{t+1} = Proj_H(w_t - eta v_t)``.  :class:`L2Ball` and :class:`Box` are projections onto
convex sets with known radius ``B = max_{w in H} ||w||``.
:class:`OnlineGradientDescentClassifier` composes it with a convex surrogate (hinge or
logistic) of a linear model under the online-classifier protocol.

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.3,
   Theorem 21.15: ``Regret(w*, T) <= ||w*||^2/(2 eta) + (eta/2) sum_t ||v_t||^2``; with a
   B-bounded set, rho-Lipschitz losses and ``eta = B/(rho sqrt(T))``, ``Regret(H, T) <=
   B rho sqrt(T)``.
.. [2] Zinkevich, "Online Convex Programming and Generalized Infinitesimal Gradient Ascent",
   ICML 2003.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from dpboost._validation import check_choice, check_scalar
from dpboost.online.base import OnlineClassifier, check_features, check_label, check_weight

__all__ = [
    "Box",
    "L2Ball",
    "OnlineGradientDescent",
    "OnlineGradientDescentClassifier",
    "ogd_learning_rate",
    "ogd_regret_bound",
]


def ogd_learning_rate(*, radius: float, lipschitz: float, n_rounds: int) -> float:
    """``eta = B / (rho sqrt(T))`` (SSBD Theorem 21.15).

    Examples
    --------
    >>> ogd_learning_rate(radius=1.0, lipschitz=2.0, n_rounds=100)
    0.05
    """
    b = check_scalar(radius, "radius", "ogd_learning_rate", low=0, high=math.inf)
    rho = check_scalar(lipschitz, "lipschitz", "ogd_learning_rate", low=0, high=math.inf)
    t = check_scalar(n_rounds, "n_rounds", "ogd_learning_rate", kind="int", low=1, closed="left")
    return b / (rho * math.sqrt(t))


def ogd_regret_bound(*, radius: float, lipschitz: float, n_rounds: int) -> float:
    """``B rho sqrt(T)`` (SSBD Theorem 21.15, B-bounded set and rho-Lipschitz losses).

    Examples
    --------
    >>> ogd_regret_bound(radius=1.0, lipschitz=2.0, n_rounds=100)
    20.0
    """
    b = check_scalar(radius, "radius", "ogd_regret_bound", low=0, high=math.inf, closed="left")
    rho = check_scalar(
        lipschitz, "lipschitz", "ogd_regret_bound", low=0, high=math.inf, closed="left"
    )
    t = check_scalar(n_rounds, "n_rounds", "ogd_regret_bound", kind="int", low=0, closed="left")
    return b * rho * math.sqrt(t)


class L2Ball:
    """Euclidean projection onto ``{w : ||w||_2 <= radius}`` (``radius`` is the B of 21.15).

    Examples
    --------
    >>> L2Ball(1.0)(np.array([3.0, 4.0]))
    array([0.6, 0.8])
    """

    def __init__(self, radius: float) -> None:
        self.radius = check_scalar(radius, "radius", "L2Ball", low=0, high=math.inf, closed="left")

    def __call__(self, w: np.ndarray) -> np.ndarray:
        norm = _norm(w)
        return w * (self.radius / norm) if norm > self.radius else w


def _norm(w: np.ndarray) -> float:
    """``||w||_2`` without overflow: ``np.linalg.norm`` squares, so it is inf from 1.4e154."""
    with np.errstate(over="ignore"):
        norm = float(np.linalg.norm(w))
    if norm == math.inf and np.all(np.isfinite(w)):
        top = float(np.max(np.abs(w)))
        norm = top * float(np.linalg.norm(w / top))
    return norm


class Box:
    """Euclidean projection onto the box ``{w : low <= w <= high}`` (coordinate-wise clip).

    ``low`` and ``high`` are scalars or arrays (a scalar pair on 1-D ``w`` is an interval).
    ``radius`` is the norm of the farthest corner, ``||max(|low|, |high|)||_2``, which needs the
    dimension for scalar bounds: pass ``dim`` then (default 1).

    Examples
    --------
    >>> Box(-1.0, 2.0)(np.array([-3.0, 0.5, 5.0]))
    array([-1. ,  0.5,  2. ])
    """

    def __init__(self, low: ArrayLike, high: ArrayLike, *, dim: int = 1) -> None:
        lo = np.asarray(low, dtype=float)
        hi = np.asarray(high, dtype=float)
        if (
            lo.shape != hi.shape
            or not np.all(np.isfinite(lo))
            or not np.all(np.isfinite(hi))
            or not np.all(lo <= hi)
        ):
            raise ValueError(
                f"The 'low' and 'high' parameters of Box must be finite, of one shape, with "
                f"low <= high. Got low={low!r}, high={high!r} instead."
            )
        self.low, self.high = lo, hi
        corner = np.maximum(np.abs(lo), np.abs(hi))
        if corner.ndim == 0:
            d = check_scalar(dim, "dim", "Box", kind="int", low=1, closed="left")
            self.radius = float(corner) * math.sqrt(d)
        else:
            self.radius = float(np.linalg.norm(corner))

    def __call__(self, w: np.ndarray) -> np.ndarray:
        return np.clip(w, self.low, self.high)


class OnlineGradientDescent:
    """Online projected subgradient descent (SSBD Section 21.3).

    Parameters
    ----------
    dim : int
        Dimension of the decision ``w``.
    learning_rate : float
        ``eta > 0``; :func:`ogd_learning_rate` gives ``B/(rho sqrt(T))``.
    projection : callable, optional
        Euclidean projection onto the convex decision set (e.g. :class:`L2Ball`,
        :class:`Box`); ``None`` means unconstrained.  The first iterate is the projection of
        the origin (``w_1 = 0`` in the theorem, which assumes ``0`` in the set).

    Attributes
    ----------
    w_ : ndarray of shape (dim,)
        The current decision ``w_t``.
    n_rounds_ : int
        Number of :meth:`update` calls.

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Theorem 21.15.

    Examples
    --------
    >>> ogd = OnlineGradientDescent(1, learning_rate=0.25, projection=Box(-1.0, 1.0))
    >>> for z in [0.8, 0.8, 0.8]:
    ...     ogd.update(lambda w: 2 * (w - z))      # squared loss (w - z)^2
    >>> ogd.predict()
    array([0.7])
    """

    def __init__(
        self,
        dim: int,
        *,
        learning_rate: float,
        projection: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self.dim = check_scalar(
            dim, "dim", "OnlineGradientDescent", kind="int", low=1, closed="left"
        )
        self.learning_rate = check_scalar(
            learning_rate, "learning_rate", "OnlineGradientDescent", low=0, high=math.inf
        )
        if projection is not None and not callable(projection):
            raise TypeError(
                f"The 'projection' parameter of OnlineGradientDescent must be a callable or "
                f"None. Got {projection!r} instead."
            )
        self.projection = projection
        self.w_ = self._project(np.zeros(self.dim))
        self.n_rounds_ = 0

    def _project(self, w: np.ndarray) -> np.ndarray:
        if self.projection is None:
            return w
        out = np.asarray(self.projection(w), dtype=float)
        if out.shape != (self.dim,) or not np.all(np.isfinite(out)):
            raise ValueError(
                f"The 'projection' parameter of OnlineGradientDescent must map a vector of "
                f"shape ({self.dim},) to a finite vector of that shape. Got {out!r} instead."
            )
        return out

    def predict(self) -> np.ndarray:
        """The current decision ``w_t`` (a copy)."""
        return self.w_.copy()

    def update(self, gradient: ArrayLike | Callable[[np.ndarray], ArrayLike]) -> None:
        """Step ``w <- Proj(w - eta * v)`` with ``v`` a subgradient at the current ``w``.

        Parameters
        ----------
        gradient : array-like of shape (dim,) or callable
            The subgradient ``v_t``, or a gradient oracle called as ``gradient(w_t)``.
        """
        v = gradient(self.w_.copy()) if callable(gradient) else gradient
        v = np.asarray(v, dtype=float).reshape(-1)
        if v.shape != (self.dim,) or not np.all(np.isfinite(v)):
            raise ValueError(
                f"The 'gradient' parameter of OnlineGradientDescent.update must be a finite "
                f"vector of shape ({self.dim},). Got {v!r} instead."
            )
        with np.errstate(over="ignore"):
            step = self.w_ - self.learning_rate * v
        if not np.all(np.isfinite(step)):
            raise ValueError(
                f"The step of OnlineGradientDescent.update overflows float64: learning_rate "
                f"{self.learning_rate!r} times the gradient {v!r} is too large; rescale the "
                f"losses or lower the learning rate."
            )
        self.w_ = self._project(step)
        self.n_rounds_ += 1


def _hinge_gradient(margin: float) -> float:
    """d/dm of max(0, 1 - m)."""
    return -1.0 if margin < 1.0 else 0.0


def _logistic_gradient(margin: float) -> float:
    """d/dm of log(1 + exp(-m)) = -1/(1 + exp(m)), computed without overflow."""
    if margin >= 0:
        e = math.exp(-margin)
        return -e / (1.0 + e)
    return -1.0 / (1.0 + math.exp(margin))


_LOSS_GRADIENTS = {"hinge": _hinge_gradient, "logistic": _logistic_gradient}


class OnlineGradientDescentClassifier(OnlineClassifier):
    """A homogeneous linear classifier trained by :class:`OnlineGradientDescent`.

    Round ``t`` feeds OGD the subgradient of ``weight * loss(y <w, x>)`` at ``w_t``; with
    ``radius`` set, iterates are projected onto the L2 ball of that radius.  The dimension is
    taken from the first example.  Add a constant feature for an intercept.

    Parameters
    ----------
    learning_rate : float, default=0.1
        OGD step ``eta > 0``.
    loss : {"hinge", "logistic"}, default="hinge"
        Convex surrogate of the 0-1 loss (both 1-Lipschitz in the margin, so ``||x||``-Lipschitz
        in ``w``).
    radius : float or None, default=None
        Radius ``B`` of the L2 ball that constrains ``w`` (``None``: unconstrained).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or None
        The current weight vector (``None`` before the first example).

    Notes
    -----
    ``predict_one`` returns ``<w, x>`` clipped to ``[-1, 1]``.

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Theorem 21.15
       and Section 21.4 (linear models with convex surrogate losses).

    Examples
    --------
    >>> clf = OnlineGradientDescentClassifier(learning_rate=0.5)
    >>> clf.learn_one(np.array([1.0, 0.0]), 1.0)
    >>> clf.predict_one(np.array([1.0, 0.0]))
    0.5
    """

    def __init__(
        self, *, learning_rate: float = 0.1, loss: str = "hinge", radius: float | None = None
    ) -> None:
        owner = "OnlineGradientDescentClassifier"
        self.learning_rate = check_scalar(
            learning_rate, "learning_rate", owner, low=0, high=math.inf
        )
        self.loss = check_choice(loss, "loss", owner, tuple(_LOSS_GRADIENTS))
        if radius is not None:
            radius = check_scalar(radius, "radius", owner, low=0, high=math.inf)
        self.radius = radius
        self.ogd_: OnlineGradientDescent | None = None

    @property
    def coef_(self) -> np.ndarray | None:
        return None if self.ogd_ is None else self.ogd_.w_

    @coef_.setter
    def coef_(self, value: np.ndarray) -> None:
        value = np.asarray(value, dtype=float)
        if self.ogd_ is None:
            self._start(value.shape[0])
        self.ogd_.w_ = value.copy()

    def _start(self, dim: int) -> None:
        projection = None if self.radius is None else L2Ball(self.radius)
        self.ogd_ = OnlineGradientDescent(
            dim, learning_rate=self.learning_rate, projection=projection
        )

    def _n_features(self) -> int | None:
        return None if self.ogd_ is None else self.ogd_.dim

    def predict_one(self, x: ArrayLike) -> float:
        owner = "OnlineGradientDescentClassifier.predict_one"
        x = check_features(x, self._n_features(), owner)
        if self.ogd_ is None:
            return 0.0
        return float(np.clip(self.ogd_.w_ @ x, -1.0, 1.0))

    def learn_one(self, x: ArrayLike, y: float, weight: float = 1.0) -> None:
        owner = "OnlineGradientDescentClassifier.learn_one"
        x = check_features(x, self._n_features(), owner)
        y = check_label(y, owner)
        weight = check_weight(weight, owner)
        if weight == 0:  # an absent example: OGD takes no (zero) step and counts no round
            return
        if self.ogd_ is None:
            self._start(x.shape[0])
        margin = y * float(self.ogd_.w_ @ x)
        scale = weight * _LOSS_GRADIENTS[self.loss](margin)
        self.ogd_.update(scale * y * x)
