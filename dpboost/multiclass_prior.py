r"""The class prior of a practical joint multiclass fit: a private class histogram, used once.

**The defect it fixes.**  In practical mode the rows are centred on a private mean and get a
constant coordinate ``c`` (:mod:`dpboost.input_map`).  The joint booster's class centre
``z_k = sum_{i: y_i = k} mu(i) x_i`` then carries ``c m_k`` in that coordinate, with ``m_k`` the
measure's mass on class ``k``, so every class's score holds the offset ``c^2 m_k / R^2``.  With
``kappa = 0.5`` the measure cannot move mass off a 90% class, and this offset (3.4 / 0.75 /
0.20 on a 90/8/2% task, against per-class score spreads of 0.005-0.02) decided every
prediction: the fit predicted the majority class only, at every epsilon and noise-free.  The
direction part ``z_k`` is scaled by ``m_k`` too.

**The rule (post-processing of released values).**  Each class's released mean centre is divided
by its own released measure mass, ``w_k <- w_k mbar / m_k`` with ``m_k`` the released constant
coordinate of ``w_k`` (clamped below by a public floor, a few noise standard deviations of it),
which removes the mass from the ranking (a rare class's direction that the noise dominates is
first shrunk by its James-Stein factor toward the mean direction of the other classes,
:func:`direction_reliability` and :func:`shrink_directions`, so the division does not amplify
noise); the class prior then enters as a logit offset
``log pi_k`` added after the private softmax temperature (:mod:`dpboost.private_temperature`,
which draws ``tau`` for ``softmax(tau s / B + log pi)``: the utility of a row still depends on
that row and on public values only, so its sensitivity is unchanged).  ``pi`` comes from a
**private histogram of the class counts**: replacing one row moves one unit between two bins, L2
sensitivity ``sqrt 2``; discrete Gaussian noise of variance ``2 t m`` per bin, where ``t m >=
1 / (2 rho_count)`` is the binary positive count's variance (:func:`dpboost.defaults.
private_count`), is ``2 / (2 * 2 t m) = 1 / (2 t m)``-zCDP (CKS20 Theorem 14): exactly the
binary count's event ``DiscreteGaussianEvent(sqrt(t m))``, so the plan's count share
(``SHARE_COUNT``, :func:`dpboost.budget_plan.plan_run` with ``learn_kappa``) prices it with no
new event class.  The counts are integers: no floating-point value of the data is released.

References
----------
C. Canonne, G. Kamath, T. Steinke. "The Discrete Gaussian for Differential Privacy." NeurIPS
2020, Theorem 14.  M. Bun, T. Steinke. "Concentrated Differential Privacy." TCC 2016,
Lemma 2.3 (composition).
"""

from __future__ import annotations

import math

import numpy as np

from dpboost.mechanisms import lattice_variance, sample_discrete_gaussian
from dpboost.round_ops import is_dask_array

__all__ = ["COUNT_MECHANISM_NAME", "IMBALANCE_RATIO", "RELIABLE", "balance_centres",
           "clamped_masses", "class_log_prior", "direction_reliability", "fit_prior",
           "histogram_variance", "imbalanced", "mass_factors", "private_class_counts",
           "shrink_directions"]

#: How the report names the class histogram (it takes the plan's count share and event).
COUNT_MECHANISM_NAME = "histogram of class counts for the class prior (sensitivity sqrt 2)"


def histogram_variance(rho: float) -> int:
    """``2 t m`` with ``(t, m) = lattice_variance(sqrt(1 / (2 rho)))``: the histogram's integer
    variance, whose event is the binary count's ``DiscreteGaussianEvent(sqrt(t m))``.

    Examples
    --------
    >>> histogram_variance(0.5)
    4
    """
    t, m = lattice_variance(math.sqrt(0.5 / rho))
    return 2 * t * m


def private_class_counts(y_idx, n_classes: int, rho: float, *,
                         rng: np.random.Generator) -> np.ndarray:
    """The class counts plus discrete Gaussian noise of variance :func:`histogram_variance`.

    ``y_idx`` holds class indices in ``[0, K)`` (numpy or dask).  Returns int64 noisy counts.

    Examples
    --------
    >>> c = private_class_counts(np.array([0, 0, 1, 2]), 3, 10.0, rng=np.random.default_rng(0))
    >>> c.dtype.name, c.shape
    ('int64', (3,))
    """
    if is_dask_array(y_idx):
        import dask.array as da

        exact = np.asarray(da.bincount(y_idx, minlength=n_classes).compute())
    else:
        exact = np.bincount(np.asarray(y_idx), minlength=n_classes)
    noise = sample_discrete_gaussian(histogram_variance(rho), n_classes, rng=rng)
    return exact.astype(np.int64) + np.asarray(noise, dtype=np.int64)


def class_log_prior(noisy_counts: np.ndarray, n: int) -> np.ndarray:
    """``log pi_k`` from the noisy counts, each clipped to ``[1, n]`` (post-processing).

    Examples
    --------
    >>> np.round(class_log_prior(np.array([900, 80, -3]), 1000), 3).tolist()
    [-0.086, -2.507, -6.889]
    """
    c = np.clip(np.asarray(noisy_counts, dtype=np.float64), 1.0, float(n))
    return np.log(c / c.sum())


def balance_centres(W: np.ndarray, noise_sd: float) -> np.ndarray:
    """``w_k mbar / m_k``: each class's centre divided by its released measure mass.

    ``W`` (K, d+1) holds the mean released centres on the mapped rows, whose last coordinate is
    the input map's constant: ``W[k, -1]`` is ``c m_k / R^2`` plus noise.  ``m_k`` is clamped
    below by ``max(3 noise_sd, 1e-3 max_k W[k, -1])`` (``noise_sd``: the public standard
    deviation of one entry of ``W``); ``mbar`` is the mean of the clamped masses, so the
    centres keep their overall scale.  Post-processing of releases only.

    Examples
    --------
    >>> W = np.array([[0.9, 0.6], [0.1, 0.1], [-0.02, 0.02]])
    >>> np.round(balance_centres(W, 0.0), 3).tolist()
    [[0.36, 0.24], [0.24, 0.24], [-0.24, 0.24]]
    """
    W = np.asarray(W, dtype=np.float64)
    return W * mass_factors(W, noise_sd)[:, None]


def mass_factors(W: np.ndarray, noise_sd: float) -> np.ndarray:
    """``mbar / m_k`` per class, the factors :func:`balance_centres` applies to the centres.

    Examples
    --------
    >>> mass_factors(np.array([[0.9, 0.6], [0.1, 0.1], [-0.02, 0.02]]), 0.0).tolist()
    [0.4, 2.4, 12.0]
    """
    m = clamped_masses(W, noise_sd)
    return float(m.mean()) / m


def clamped_masses(W: np.ndarray, noise_sd: float) -> np.ndarray:
    """The released masses ``W[:, -1]`` clamped below by ``max(3 noise_sd, 1e-3 max_k
    W[k, -1])``, so a noisy mass never divides by about 0.

    Examples
    --------
    >>> clamped_masses(np.array([[0.9, 0.6], [-0.02, 0.02], [0.5, -0.1]]), 0.01).tolist()
    [0.6, 0.03, 0.03]
    """
    mass = np.asarray(W, dtype=np.float64)[:, -1]
    top = float(mass.max()) if mass.size else 0.0
    return np.maximum(mass, max(3.0 * float(noise_sd), 1e-3 * top, 1e-300))


#: A class direction whose James-Stein factor is below this is mostly noise and is shrunk by it.
RELIABLE = 0.5


def direction_reliability(W: np.ndarray, noise_sd: float) -> np.ndarray:
    """Per class, ``r_k = 1 - D s^2 / |w_k|^2`` clipped to [0, 1] where below ``RELIABLE``, else 1.

    ``w_k`` is ``W[k, :-1]`` (the direction, without the constant coordinate), ``D`` its length
    and ``s = noise_sd`` the public noise standard deviation of one entry, so ``|w_k|^2 - D s^2``
    estimates the squared norm of the noise-free direction without bias and ``r_k`` is the
    positive-part James-Stein factor (James & Stein 1961; Efron & Morris 1973).  A rare class's
    centre is mostly noise; :func:`balance_centres`' factor ``mbar / m_k`` then *amplifies*
    that noise, and its score wins on rows it has no claim to: letter5u (5 classes, 992 rows,
    57/24/11/5.4/2.7%), epsilon = 1, seed 0 predicted "D" (2.4% of the test rows) for 73 of
    248 of them, with ``r_D = 0.41``.  Classes whose direction the noise does not dominate
    (``r_k >= RELIABLE``) get 1: shrinking every class changed the balance between
    well-fitted classes (one seed of the same task 0.851 -> 0.601).  Post-processing of
    released values (``W``) and a public constant; :func:`shrink_directions` applies it.

    Examples
    --------
    >>> W = np.array([[0.3, 0.4, 0.2], [0.05, 0.0, 0.02], [0.0, 0.0, 0.01]])
    >>> direction_reliability(W, 0.03).round(3).tolist()    # r = 0.99, 0.28, 0
    [1.0, 0.28, 0.0]
    """
    W = np.asarray(W, dtype=np.float64)
    norm2 = np.sum(W[:, :-1] ** 2, axis=1)
    noise2 = (W.shape[1] - 1) * float(noise_sd) ** 2
    r = np.clip(1.0 - noise2 / np.maximum(norm2, 1e-300), 0.0, 1.0)
    return np.where(r < RELIABLE, r, 1.0)


def shrink_directions(coefs: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Each class's direction ``r_k d_k + (1 - r_k) dbar``, ``dbar`` the mean direction of the
    classes with ``r_k = 1`` (0 if none); the constant coordinate is kept.

    ``coefs`` is (T, K, d+1) (or (K, d+1)); the map is linear in each round's block, so the
    staged scores stay the running means of the hypotheses.  Toward ``dbar``, not toward 0:
    a zero direction scores every row at the shared constant, and wins wherever every
    informative class scores below it (letter5u at epsilon = 0.5, 24 seeds: shrinking toward 0
    cost 3.6 accuracy points on average and one seed fell 0.617 -> 0.327; toward ``dbar`` the
    rare classes were over-predicted by at most 5 rows instead of 28).  Post-processing.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [4.0, 4.0, 0.5]])
    >>> shrink_directions(W, np.array([1.0, 1.0, 0.25])).tolist()
    [[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [1.375, 1.375, 0.5]]
    """
    out = np.array(coefs, dtype=np.float64, copy=True)
    r = np.asarray(r, dtype=np.float64)
    good = r >= 1.0
    directions = out[..., :-1]
    dbar = (directions[..., good, :].mean(axis=-2, keepdims=True) if good.any()
            else np.zeros_like(directions[..., :1, :]))
    out[..., :-1] = r[:, None] * directions + (1.0 - r)[:, None] * dbar
    return out


#: The prior is applied when the noisy class counts (clipped to [1, n]) differ by this factor.
#: On balanced classes the measure's class masses carry which classes are hard, and dividing
#: them out cost 3-5 accuracy points on a balanced 5-class task (make_classification, 3 seeds,
#: epsilon 0.5-5); the classes of wine (40/33/27%) stay below it.
IMBALANCE_RATIO = 2.0


def imbalanced(noisy_counts: np.ndarray, n: int, noise_sd: float = 0.0) -> bool:
    """Whether the classes are imbalanced beyond the noise (post-processing of the release).

    True when ``max - 2 s >= IMBALANCE_RATIO * max(min + 2 s, 1)`` with ``s`` the public noise
    standard deviation of a count: on small data (wine, iris, digits) the noise of the 2%
    share alone made balanced counts look imbalanced (digits at epsilon 2: 0.761 -> 0.591).

    Examples
    --------
    >>> imbalanced(np.array([900, 80, 20]), 1000), imbalanced(np.array([340, 330, 330]), 1000)
    (True, False)
    >>> imbalanced(np.array([60, 40, 25]), 125, noise_sd=10.0)   # within the noise
    False
    """
    c = np.clip(np.asarray(noisy_counts, dtype=np.float64), 1.0, float(max(n, 1)))
    return bool(c.max() - 2.0 * noise_sd >= IMBALANCE_RATIO * max(c.min() + 2.0 * noise_sd, 1.0))


def fit_prior(coefs: np.ndarray, y_idx, n_classes: int, rho: float, noise_sd: float, *,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(coefs', log_prior, noisy_counts)`` for a joint fit on mapped rows (``coefs`` as given
    and ``log_prior`` None when the noisy counts are not :func:`imbalanced`).

    ``coefs`` (T, K, d+1) are the released centres; every round's class ``k`` block is scaled by
    the factor :func:`balance_centres` gives the mean centre, then a noise-dominated class's
    direction (all but the constant coordinate) is shrunk by :func:`direction_reliability` of
    the mean centre (:func:`shrink_directions`; the staged scores stay the running means of
    the hypotheses).  The counts cost ``rho`` (the plan's
    count share); the rest is post-processing.
    """
    counts = private_class_counts(y_idx, n_classes, rho, rng=rng)
    # balanced within the noise: the fit as without a prior (the share is spent all the same)
    if not imbalanced(counts, len(y_idx), math.sqrt(histogram_variance(rho))):
        return coefs, None, counts
    W = coefs.mean(axis=0)
    scaled = coefs * mass_factors(W, noise_sd)[None, :, None]
    scaled = shrink_directions(scaled, direction_reliability(W, noise_sd))
    return scaled, class_log_prior(counts, len(y_idx)), counts


def rename_count(mechanisms: list[dict]) -> list[dict]:
    """The plan's mechanism list with its count entry named as the class histogram."""
    return [dict(m, name=COUNT_MECHANISM_NAME) if m["name"].startswith("count of positive")
            else m for m in mechanisms]


def class_prior_entry(counts, log_prior, drawn: bool) -> dict | None:
    """The report's ``class_prior`` entry (None when no histogram was released).  Its fields
    are the same whatever the data (``log_prior`` is given even where it is not applied).

    ``log_prior``: the prior's offsets (None when the counts were balanced within their
    noise); ``drawn``: whether the fit's scores are the boosted centres with the prior (a
    temperature was drawn and the draw kept the first family).  ``applied`` is both: a drawn
    discriminant carries its own ``log pi`` from the same counts, and the centres without the
    prior carry none (a red team found ``applied`` true on balanced counts when a
    discriminant was drawn, session 39)."""
    if counts is None:
        return None
    return {"noisy_label_histogram": [int(c) for c in counts],
            "log_prior": [float(v) for v in (log_prior if log_prior is not None else
                                             class_log_prior(counts, max(int(sum(counts)), 1)))],
            "applied": log_prior is not None and bool(drawn),
            "imbalance_ratio": IMBALANCE_RATIO,
            "rule": "centres divided by their released measure mass (constant coordinate); "
                    "predict = argmax tau s(x) / B + log pi, pi from the noisy class counts "
                    "(dpboost.multiclass_prior); applied when the counts are imbalanced and "
                    "the temperature's draw kept these scores (a drawn discriminant adds its "
                    "own log pi from the same counts)"}
