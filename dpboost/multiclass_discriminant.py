r"""The discriminant candidates of a joint multiclass fit, and the private choice among them.

**The defect it fixes (measured).**  The joint booster predicts the class of the largest score
``s_k(x) = x . w_k`` with ``w_k`` the mean of the released class sums
``z_k = sum_{i: y_i = k} mu(i) x_i``: a centroid of class ``k`` scaled by its measure mass.
Two things separate that from Fisher's linear discriminant (LDA), the model family's noise-free
ceiling that the binary fit reaches:

1. *no intercept*: the centroid rule needs ``x . m_k - |m_k|^2 / 2``; the booster's sums only
   add class ``k``'s rows, so no round can give a class a negative offset;
2. *the wrong covariance*: the input whitening (:mod:`dpboost.whitening`) whitens the rows'
   *total* covariance.  For two classes that is Fisher's direction (the total covariance is the
   within-class one plus a rank-one term along ``m_+ - m_-``, Sherman-Morrison), but with
   ``K`` classes the between-class spread has rank ``K - 1`` and the whitened centroids are no
   longer LDA's.

On UCI letter (26 classes, 16,000 rows, split 80/20 seed 0) the noise-free fit (epsilon =
10^4) reached 0.645, the centroid rule with its intercept 0.661, and LDA on the same whitened
centroids 0.708 (scikit-learn's LDA 0.700, logistic regression 0.743).  On CPS1988's region
(4 classes, 28,155 rows) the default reached 0.78 at epsilon = 1 against LDA's 0.95 and
logistic regression's 0.97.

**The candidates (post-processing of releases only).**  From the released mean centres ``W``
(``(K, d + 1)`` over the mapped rows, the last coordinate the input map's constant ``c``, so
``W[k, -1] = c m_k / R^2`` plus noise with ``m_k`` the class's measure mass), the released
covariance ``C_hat`` of the whitening, the input scale ``s`` and the released class counts:

* class centroids ``mhat_k = c W[k, :-1] / W[k, -1]`` (masses clamped below by
  :func:`dpboost.multiclass_prior.clamped_masses`, as the prior's balancing clamps them);
* the mapped rows' covariance ``s^2 M C_hat M`` (``M`` the whitening) minus the between-class
  spread ``sum_k pi_k (mhat_k - mbar)(mhat_k - mbar)^T``, ``pi`` from the noisy counts;
* its eigenvalues floored at ``f`` times the largest, for each ``f`` in :data:`FLOORS`
  (a smaller ``f`` trusts the noisy covariance more; ``f = 1`` would be the centroid rule with
  its intercept, which was never more accurate than both others and cost a quarter more
  time), inverted to ``P_f``;
* scores ``x . P_f mhat_k - mhat_k^T P_f mhat_k / 2 + log pi_k``.

Each round's hypothesis is mapped the same way (the masses and ``P_f`` taken from the mean),
so the staged scores stay running means whose last stage is the model.

**The choice (no extra budget).**  The softmax temperature of :mod:`dpboost.private_temperature`
already draws, with its share of rho, from public candidates by an exponential mechanism over
the training rows; with the candidates here it draws a pair (score family, temperature) instead
(:func:`dpboost.private_temperature.private_temperature_families`), at the same
``epsilon_0``.  The families exist only when the whitening was released *and* used and the
class counts were released (a practical joint fit with its calibration, on ``n`` large enough
for the whitening); otherwise the draw is exactly the former one.

Measured (private, two splits, held-out accuracy, before -> after, epsilon = 1 and 5): letter
0.538 -> 0.574 and 0.660 -> 0.680; CPS1988 region 0.776 -> 0.877 and 0.825 -> 0.904; ratdat
plot type (5 classes) 0.420 -> 0.445 and 0.408 -> 0.453; a five-class synthetic task at
60/20/10/7/3% 0.709 -> 0.756 and 0.694 -> 0.725; ten isotropic classes 0.773 -> 0.773 and
0.783 -> 0.789.  Through hand-written schemas (3 seeds): diamonds' cut 0.439 -> 0.592 at
epsilon = 1 (logistic regression 0.591), DoctorContacts 0.562 -> 0.609 at epsilon = 2 (the
centres without the prior drawn), gss work status 0.659 -> 0.686, hpc_data (3,465 rows)
0.569 -> 0.653 at epsilon = 1.  The former scores keep 8 times the base weight of each other
candidate (:func:`dpboost.private_temperature.private_temperature_families`), so a small fit
whose draw cannot tell them apart mostly keeps them.  Details in
``docs/utility-measurements.md`` (session 38).

References
----------
R. A. Fisher (1936); T. Hastie, R. Tibshirani, J. Friedman, *The Elements of Statistical
Learning*, 2nd ed., Section 4.3 (LDA, regularised by shrinking the covariance's spectrum).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpboost.multiclass_prior import clamped_masses
from dpboost.private_temperature import ScoreFamily, private_temperature_families
from dpboost.round_ops import is_dask_array

__all__ = ["FLOORS", "Calibrated", "calibrate_scores", "discriminant", "mapped_covariance"]

#: Eigenvalue floors of the within-class covariance, as fractions of its largest eigenvalue.
FLOORS = (0.2, 0.5)


def mapped_covariance(white, scale: float) -> np.ndarray | None:
    """``s^2 M C_hat M``: the covariance of the mapped rows (before the constant coordinate),
    from the whitening's release; None when the whitening is absent or unused.

    Examples
    --------
    >>> from dpboost.whitening import Whitening
    >>> w = Whitening(np.eye(2) / 2, 0.1, 0.5, True, np.diag([4.0, 1.0]))
    >>> mapped_covariance(w, 2.0).tolist()
    [[4.0, 0.0], [0.0, 1.0]]
    """
    if white is None or not white.applied or white.covariance is None:
        return None
    s = max(float(scale), 1.0)
    return s * s * (white.matrix @ white.covariance @ white.matrix)


def discriminant(coefs: np.ndarray, constant: float, covariance: np.ndarray,
                 counts: np.ndarray, floor: float, noise_sd: float):
    """``(H, log_prior)``: the rounds' hypotheses (T, K, d + 1) mapped to the regularised
    discriminant with eigenvalue floor ``floor``, and ``log pi`` from the noisy counts; None
    when the within-class covariance has no positive eigenvalue.

    ``x . mean_t H_t[k] = x . P mhat_k - mhat_k^T P mhat_k / 2`` on rows whose constant
    coordinate is ``constant``.

    Examples
    --------
    >>> coefs = np.array([[[1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]]])   # one round, two classes
    >>> H, lp = discriminant(coefs, 1.0, np.diag([2.0, 1.0]), np.array([50, 50]), 1.0, 0.0)
    >>> H[0].tolist(), lp.round(3).tolist()   # within: diag(1, 1); P = I
    ([[1.0, 0.0, -0.5], [-1.0, 0.0, -0.5]], [-0.693, -0.693])
    """
    coefs = np.asarray(coefs, dtype=np.float64)
    W = coefs.mean(axis=0)
    ratio = constant / clamped_masses(W, noise_sd)  # per class: mhat_k = ratio_k W[k, :-1]
    m = ratio[:, None] * W[:, :-1]
    c = np.maximum(np.asarray(counts, dtype=np.float64), 1.0)
    pi = c / c.sum()
    centred = m - pi @ m
    within = covariance - (centred.T * pi) @ centred
    eig, V = np.linalg.eigh(0.5 * (within + within.T))
    top = float(eig.max())
    if not top > 0.0 or not np.isfinite(top):
        return None
    P = (V / np.maximum(eig, floor * top)) @ V.T
    H = np.empty_like(coefs)
    H[..., :-1] = (ratio[None, :, None] * coefs[..., :-1]) @ P
    H[..., -1] = -0.5 * np.einsum("kd,de,ke->k", m, P, m) / constant
    return H, np.log(pi)


@dataclass(frozen=True)
class Calibrated:
    """The chosen scores: hypotheses, logit offsets, temperature, and the report's entry."""

    coefs: np.ndarray
    offsets: np.ndarray | None
    temperature: object  # TemperatureFit or None
    scores: str


def _family(X, coefs, R: float, offsets) -> ScoreFamily | None:
    """The training rows' scores under the mean of ``coefs`` (released centres, or a
    discriminant built from releases) with their bound; None when every centre is zero."""
    W = coefs.mean(axis=0)
    # W is post-processing of the releases and R the public norm bound, so the scale
    # B = R max_k ||w_k|| is not read from the rows (rows of norm <= R: |x . w_k| <= B)
    bound = R * float(np.linalg.norm(W, axis=1).max())
    if not (bound > 0.0 and np.isfinite(bound)):
        return None
    scores = X @ W.T
    if is_dask_array(scores):
        scores = scores.rechunk({1: -1})
    return ScoreFamily(scores, bound, offsets)


def calibrate_scores(X, y_idx, coefs: np.ndarray, prior, counts, *, released: np.ndarray,
                     white, scale: float, constant: float, noise_sd: float, R: float,
                     rho: float, rng: np.random.Generator) -> Calibrated:
    """Draw the temperature, and the score family when there are several (module docstring).

    ``coefs`` are the hypotheses as the class prior left them (with ``prior`` their offsets),
    ``released`` the centres as released (the discriminants are built from these), ``counts``
    the noisy class counts (None without the prior's histogram), ``white`` the fit's
    :class:`~dpboost.whitening.Whitening` or None, ``scale`` the input scale after the map,
    ``constant`` the map's constant coordinate and ``noise_sd`` the public standard deviation
    of one entry of the mean centre.  The temperature is None when every centre is zero (the
    budget is spent all the same).
    """
    raw = _family(X, coefs, R, prior)
    if raw is None:
        return Calibrated(coefs, prior, None, "boosted centres")
    options = [(coefs, raw, "boosted centres")]
    if prior is not None:  # the prior's balanced centres, or the centres as released
        plain = _family(X, released, R, None)
        if plain is not None:
            options.append((released, plain, "boosted centres without the class prior"))
    cov = mapped_covariance(white, scale) if counts is not None else None
    if cov is not None and constant > 0.0:  # (the whitening comes with the centred map)
        c_eff = constant * max(float(scale), 1.0)
        for f in FLOORS:
            found = discriminant(released, c_eff, cov, counts, f, noise_sd)
            fam = None if found is None else _family(X, found[0], R, found[1])
            if fam is not None:
                options.append((found[0], fam, f"discriminant, eigenvalue floor {f}"))
    k, temperature = private_temperature_families([o[1] for o in options], y_idx, rho, rng=rng)
    chosen, fam, name = options[k]
    return Calibrated(chosen, fam.offsets, temperature, name)
