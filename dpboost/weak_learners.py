"""Weak halfspace learners: Servedio's centering learner and its Gaussian-noise private version.

The centering learner returns ``h(x) = clip(z . x, -1, 1)`` with ``z = sum_i mu_hat(i) y_i x_i``
(Servedio 2003, Theorem 26 of the paper); the private learner adds ``N(0, sigma^2 I)`` to ``z``
(Theorem 27), on a public grid with discrete Gaussian noise so that the release is private as
implemented in floating point (:mod:`dpboost.mechanisms`).  With a norm bound ``R`` other than 1
the hypothesis is the same one on the rescaled point ``x / R`` with the rescaled centre
``z / R``, i.e. ``clip(x . z / R^2, -1, 1)``.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Section 5.2, Theorems 26-27.
R. Servedio. "Smooth boosting and learning with malicious noise." JMLR 4, 2003.
"""

from __future__ import annotations

import numpy as np

from dpboost._validation import check_choice, check_scalar
from dpboost.mechanisms import LatticeGaussian, LatticeNoise, centre_error_bound
from dpboost.round_ops import as_float64, centre, is_dask_array

__all__ = [
    "CenteringHalfspace",
    "GaussianCenteringHalfspace",
    "HalfspaceHypothesis",
    "centering_sum",
]


def centering_sum(X: np.ndarray, y: np.ndarray, mu_hat: np.ndarray) -> np.ndarray:
    """Return ``z = sum_i mu_hat(i) y_i x_i`` as a float64 vector (one matrix-vector product).

    A float32 ``X`` is not upcast: the product runs in ``X``'s precision and only the
    ``d``-vector result is converted to float64.

    Examples
    --------
    >>> import numpy as np
    >>> centering_sum(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1]), np.array([0.5, 0.5]))
    array([ 0.5, -0.5])
    """
    v = as_float64(mu_hat) * y
    if is_dask_array(X):  # a tree reduction on the workers; only the d-vector comes back
        return np.asarray((X.T @ v.astype(X.dtype)).compute(), dtype=np.float64)
    return np.asarray(X.T @ v.astype(X.dtype, copy=False), dtype=np.float64)


class HalfspaceHypothesis:
    """The hypothesis ``x -> clip(x . w, -1, 1)``; ``w`` is stored as float64 in ``coef``.

    Examples
    --------
    >>> import numpy as np
    >>> HalfspaceHypothesis(np.array([2.0, 0.0]))(np.array([[0.25, 1.0], [1.0, 0.0]]))
    array([0.5, 1. ])
    """

    __slots__ = ("coef",)

    def __init__(self, w: np.ndarray) -> None:
        self.coef = np.asarray(w, dtype=np.float64)

    def __call__(self, X: np.ndarray) -> np.ndarray:
        dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.float64
        return np.clip(X @ self.coef.astype(dtype, copy=False), -1.0, 1.0)

    def __repr__(self) -> str:
        return f"HalfspaceHypothesis(w={self.coef!r})"


class CenteringHalfspace:
    """Servedio's (non-private) centering weak learner: ``z = sum_i mu_hat(i) y_i x_i``.

    Parameters
    ----------
    norm_bound : float > 0, default 1.0
        ``R``; the hypothesis is ``clip(x . z / R^2, -1, 1)``.

    References
    ----------
    Servedio (2003); Bun, Carmosino & Sorrell (COLT 2020), Theorem 26.
    """

    def __init__(self, norm_bound: float = 1.0) -> None:
        self.norm_bound = check_scalar(norm_bound, "norm_bound", "CenteringHalfspace", low=0)

    def fit(self, X, y, mu_hat, *, rng: np.random.Generator) -> HalfspaceHypothesis:
        """Return the centering hypothesis for the distribution ``mu_hat`` (``rng`` unused)."""
        return HalfspaceHypothesis(centering_sum(X, y, mu_hat) / self.norm_bound**2)

    def privacy_event(self, n: int):
        """``NonPrivateEvent()``: the centering sum is released without noise."""
        from accounting import NonPrivateEvent

        return NonPrivateEvent()


class GaussianCenteringHalfspace:
    r"""Private weak halfspace learner: ``z_hat = sum_i mu_hat(i) y_i x_i + N(0, sigma^2 I)``.

    Parameters
    ----------
    noise_multiplier : float > 0
        ``sigma / sensitivity(n)``; one call is the Gaussian mechanism
        ``GaussianEvent(noise_multiplier)`` (rho = 1 / (2 noise_multiplier^2) zCDP).
    kappa : float in (0, 1)
        Density of the measures the learner is called on (LB-NxM's ``kappa``).
    norm_bound : float > 0, default 1.0
        ``R``: every row must satisfy ``||x|| <= R`` (the estimator clips rows to it).
    sensitivity : {"tight", "paper"}, default "tight"
        ``"tight"``: L2 sensitivity ``2R / (kappa n)`` (proved below); ``"paper"``: the paper's
        ``4R / (kappa n)`` (Theorem 27 with slickness ``s = 1/(kappa n)``, Lemma 25).

    Notes
    -----
    **Per-round sensitivity 2R/(kappa n).**  The sensitivity that matters for one round of
    Boost is that of the composed map ``(S, H) -> z(S, NxM(S, H))`` for a fixed hypothesis list
    ``H``.  Let ``S, S'`` differ only in example ``i``.  The cumulative gains, hence the
    unprojected measures, agree off ``i``: ``mu~(j) = mu~'(j)`` for ``j != i``.  By capped scaling
    (Lemma 9) there are scalars ``c, c'`` with ``mu(j) = min(1, c mu~(j))`` and
    ``mu'(j) = min(1, c' mu~(j))`` for every ``j != i``.  Say ``c >= c'`` (the other case is
    symmetric); then ``mu(j) >= mu'(j)`` for every ``j != i``, and since both totals equal
    ``kappa n``,

    .. math:: \sum_{j \ne i} (\mu(j) - \mu'(j)) = \mu'(i) - \mu(i) \;(\ge 0).

    With ``z = (1/(kappa n)) sum_j mu(j) y_j x_j`` and ``||x_j|| <= R``,

    .. math::
        \kappa n \|z - z'\| \le R\,\mu(i) + R\,\mu'(i) + R \sum_{j \ne i} |\mu(j) - \mu'(j)|
        = R\,(\mu(i) + \mu'(i) + \mu'(i) - \mu(i)) = 2 R\,\mu'(i) \le 2R.

    So ``||z - z'|| <= 2R / (kappa n)``.  The bound is attained (all ``y_j x_j`` equal to one
    vector ``v`` with ``||v|| = R``, example ``i`` replaced by one with ``y'_i x'_i = -v`` that the
    current hypotheses misclassify, so that it is capped at ``mu'(i) = 1``).  The paper bounds the
    weak learner's sensitivity over all pairs of ``1/(kappa n)``-close smooth distributions,
    which gives ``2(1/(kappa n) + s) = 4/(kappa n)``; composing NxM and WkL directly halves the
    noise needed for the same (epsilon, delta).

    **Floating-point-safe release.**  ``z_hat`` is not ``z + numpy normal noise`` (whose low-order
    bits give the data away, Mironov 2012) but :class:`dpboost.mechanisms.LatticeGaussian`:
    ``z`` is computed by :func:`~dpboost.mechanisms.blocked_centre` (error at most the public
    :func:`~dpboost.mechanisms.centre_error_bound` ``E`` for *any* summation order inside a
    block, so partial sums from several workers are covered too), rounded to a public grid
    ``g Z^d`` and released with exact discrete Gaussian noise (Canonne, Kamath & Steinke 2020).
    The L2 sensitivity the noise is calibrated to is ``Delta' = 2R/(kappa n) + 2E + g sqrt(d)``
    (:meth:`effective_sensitivity`), and one call is ``DiscreteGaussianEvent(noise_multiplier)``:
    ``1/(2 z^2)``-zCDP (CKS20 Theorem 14).  Every output is an exact double on the grid, whatever
    the data.

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Theorem 27, Lemma 9, Lemma 25.
    Canonne, Kamath & Steinke (NeurIPS 2020), Algorithm 3, Theorem 14.

    Examples
    --------
    >>> wl = GaussianCenteringHalfspace(noise_multiplier=2.0, kappa=0.25)
    >>> wl.sensitivity(100), round(wl.effective_sensitivity(100, 2) / wl.sensitivity(100), 4)
    (0.08, 1.0005)
    """

    def __init__(
        self,
        noise_multiplier: float,
        kappa: float,
        norm_bound: float = 1.0,
        sensitivity: str = "tight",
    ) -> None:
        owner = "GaussianCenteringHalfspace"
        self.noise_multiplier = check_scalar(noise_multiplier, "noise_multiplier", owner, low=0)
        self.kappa = check_scalar(kappa, "kappa", owner, low=0, high=1)
        self.norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
        self.sensitivity_mode = check_choice(sensitivity, "sensitivity", owner, ("tight", "paper"))

    def sensitivity(self, n: int) -> float:
        """L2 sensitivity of one round's centre: ``2R/(kappa n)`` ("tight") or ``4R/(kappa n)``."""
        factor = 2.0 if self.sensitivity_mode == "tight" else 4.0
        return factor * self.norm_bound / (self.kappa * n)

    def mechanism(self, n: int, d: int) -> LatticeGaussian:
        """The release of one round on ``n`` examples in ``d`` dimensions (public quantities only).

        This is the one definition of what a boosting round releases: every backend computes
        the centre and hands it to this mechanism.
        """
        return LatticeGaussian(sensitivity=self.sensitivity(n),
                               noise_multiplier=self.noise_multiplier, dimension=d,
                               error_bound=centre_error_bound(n, self.norm_bound))

    def effective_sensitivity(self, n: int, d: int) -> float:
        """``Delta' = sensitivity(n) + 2E + g sqrt(d)``, what the noise is calibrated to."""
        return self.mechanism(n, d).effective_sensitivity

    def sigma(self, n: int, d: int = 1) -> float:
        """Noise scale per coordinate.

        ``g sqrt(t m) >= noise_multiplier * effective_sensitivity``."""
        return self.mechanism(n, d).sigma

    def privacy_event(self, n: int):
        """``DiscreteGaussianEvent(noise_multiplier)``.

        Known from the parameters before any data."""
        from accounting import DiscreteGaussianEvent

        return DiscreteGaussianEvent(noise_multiplier=self.noise_multiplier)

    def fit(self, X, y, mu_hat, *, rng: np.random.Generator) -> HalfspaceHypothesis:
        """Return ``clip(x . z_hat / R^2, -1, 1)`` with ``z_hat`` the noisy centre of ``mu_hat``.

        The noise comes from a :class:`~dpboost.mechanisms.LatticeNoise` over ``rng``, kept
        for the run of rounds that pass the same ``rng`` (draws taken ahead in blocks of 16
        rounds, each used once: the same distribution, a sixth of the sampler time)."""
        n, d = X.shape
        weights = as_float64(mu_hat) * y  # lazy for dask: computed chunk by chunk in centre()
        noise = getattr(self, "_noise", None)
        if noise is None or noise.rng is not rng:  # one block of noise per run of rounds
            noise = self._noise = LatticeNoise(rng)
        z_hat = self.mechanism(n, d).release(centre(X, weights), rng=noise)
        return HalfspaceHypothesis(z_hat / self.norm_bound**2)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_noise", None)  # draws not yet used stay with this process's run
        return state
