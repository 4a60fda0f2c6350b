r"""The private temperature of the multiclass softmax: one exponential mechanism over a public grid.

A multiclass fit predicts the class of the largest score ``s_k(x) = w_k . x``; its
``predict_proba`` is the softmax of the scores.  The scores of the boosted halfspaces are small
(``|s_k| <= R ||w_k||`` and the rows rarely reach ``R``), so the raw softmax is almost uniform:
on digits, letter and a synthetic ten-class task its Brier score was 0.89-0.96 whatever the
accuracy (uniform probabilities over ``K`` classes score ``1 - 1/K``).  A temperature ``tau``
scales the scores before the softmax; it changes no prediction (the argmax is unchanged) and
makes the probabilities calibrated.  It is drawn privately:

1. the training rows' scores are ``u_i = s(x_i) / B`` with the public bound
   ``B = R max_k ||w_k||`` (``w`` is released), so ``u_i`` lies in ``[-1, 1]^K``;
2. the candidate temperatures are public: ``2^(j/2)``, ``j = 0 .. 2 J`` (``J = 16``: 33
   candidates from 1 to 65,536);
3. the utility of ``tau`` is the multiclass Brier score turned into a gain,
   ``sum_i 1 - |softmax(tau u_i) - e_(y_i)|^2 / 2``: each term lies in ``[0, 1]`` and depends on
   its row alone, so replacing one row moves the sum by at most 1.  It is counted in integer
   steps of ``2^-10`` (``floor(2^10 fsum(...))``, correctly rounded), so its sensitivity is
   ``2^10 + 2`` steps, as for the binary slope of :mod:`dpboost.private_threshold`;
4. one temperature is drawn with probability proportional to ``mu(tau) exp(eta U(tau))`` by the
   exact sampler of :func:`dpboost.private_threshold.sample_exponential`, with the public base
   measure ``mu(2^(j/2)) ~ 2^(-j/4)`` (:func:`temperature_weights`): the exponential mechanism
   (McSherry & Talwar 2007, who define it with a base measure), ``epsilon_0 = 2 eta
   Delta``-bounded range (a data-independent base measure leaves the range as it is), hence
   ``epsilon_0^2 / 8``-zCDP (Cesar & Rogers 2021, Lemma 3.2):
   :class:`accounting.ExponentialMechanismEvent`.  With ``eta = sqrt(2 rho) / Delta`` rounded
   down to a multiple of ``2^-52`` the draw costs at most ``rho``.

The Brier score is a proper scoring rule, so the draw favours the calibrated temperature.
``tau / B`` is folded into ``coef_`` and ``intercept_``, so ``decision_function`` gives the
calibrated log-odds, and a saved model's ``predict_proba`` is calibrated too.

**Why a base measure favouring cool temperatures.** With a flat base measure a small fit's draw
was nearly uniform over the grid (``n epsilon_0`` of 6-30: iris, wine, 300 digits rows at
epsilon <= 1), and most of the grid is hot: the 20-odd temperatures above 2^6, which only 4
nearly separable wine fits out of 320 measured here preferred, make near one-hot probabilities,
so a fit at chance scored worse than uniform probabilities (held-out Brier 1.03 against 0.90 for
300 digits rows at epsilon = 0.5). A weight halving every two octaves of ``tau`` costs a
candidate ``(j / 4) ln 2`` nats, worth ``j ln 2 / (2 epsilon_0)`` rows of Brier gain: nothing
where the data decide (letter, 16,000 rows) and the difference between a near-uniform and a
confidently wrong draw where they cannot. It is data-independent, so the privacy argument is
unchanged (the log-ratio of the draw's probabilities between neighbours still spans at most ``2
eta Delta``). Replayed exactly (expected held-out Brier over the draw, 10 seeds each, same fits,
80/20 stratified splits; the scores unchanged, so accuracy too): digits with 300 rows 1.032 /
0.924 / 0.565 -> 0.935 / 0.905 / 0.561 at epsilon = 0.5 / 1 / 5; iris 1.040 / 0.794 / 0.564 ->
0.812 / 0.680 / 0.555; wine 0.970 / 0.724 / 0.203 -> 0.774 / 0.624 / 0.200; letter with 500 rows
1.007 / 0.979 -> 0.981 / 0.971 at epsilon = 0.5 / 1; full digits (1,437 rows) 0.814 / 0.480 /
0.158 -> 0.821 / 0.477 / 0.157 (the one cost: +0.007 +- 0.001 at epsilon = 0.5); letter (16,000
rows) 0.690 / 0.569 / 0.486 unchanged to 3 decimals. Halving every 1.5 octaves (or every octave)
gained 0.01 (0.02) more on the smallest sets and cost full digits 0.011 (0.021) at epsilon =
0.5. Fits at chance stay a little above uniform Brier (0.935 against 0.900): with no signal the
scores of test rows still spread, and the coolest candidate, ``tau = 1``, is not uniform.

Measured with the flat base measure (benchmarks/bench_multiclass.py splits, 2 seeds, held-out
Brier score, raw softmax -> private temperature with 3% of rho; the non-private best temperature
on the training rows gave the same figures to 3 decimals): digits 0.895 / 0.896 / 0.895 -> 0.766
/ 0.524 / 0.156 at epsilon = 0.5 / 1 / 5; letter 0.961 -> 0.685 / 0.561 / 0.484; margin-10 0.898
-> 0.344 / 0.311 / 0.311.

References
----------
F. McSherry, K. Talwar. "Mechanism design via differential privacy." FOCS 2007.
M. Cesar, R. Rogers. "Bounding, concentrating, and truncating: unifying privacy loss composition
for data analytics." ALT 2021.
G. Brier. "Verification of forecasts expressed in terms of probability." Monthly Weather
Review 78, 1950.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from accounting import ExponentialMechanismEvent
from dpboost.private_threshold import (
    BRIER_GRID,
    BRIER_SENSITIVITY,
    epsilon_up,
    floor_eta,
    sample_exponential,
)
from dpboost.round_ops import is_dask_array

__all__ = ["ScoreFamily", "TemperatureFit", "brier_gains", "candidate_temperatures",
           "pair_utilities", "private_temperature", "private_temperature_families",
           "temperature_eta", "temperature_event", "temperature_weights"]

#: The grid's largest temperature is 2^TOP_EXPONENT.
TOP_EXPONENT = 16
#: The base measure halves every BASE_HALVING grid steps (half-octaves of ``tau``).
BASE_HALVING = 4
#: The first score family's base weight against each other family's (see
#: :func:`private_temperature_families`).
FIRST_FAMILY_WEIGHT = 8

@dataclass(frozen=True)
class TemperatureFit:
    """The drawn temperature and what it was drawn from (all public once released)."""

    temperature: float  # tau, applied to the scores divided by ``bound``
    bound: float  # B = R max_k ||w_k||
    n_candidates: int
    epsilon_0: float
    family: int = 0  # the score family drawn with it (private_temperature_families)

    @property
    def factor(self) -> float:
        """``tau / B``: what the raw scores (and ``coef_``, ``intercept_``) are multiplied by."""
        return self.temperature / self.bound


@dataclass(frozen=True)
class ScoreFamily:
    """One candidate score function for :func:`private_temperature_families`: the training
    rows' scores (a function of the row and of released values only), their public bound
    ``B`` (``|scores| <= B``) and public logit offsets (None for 0)."""

    scores: object  # (n, K), numpy or row-chunked dask
    bound: float
    offsets: np.ndarray | None = None


def candidate_temperatures() -> np.ndarray:
    """The public grid ``2^(j/2)``, ``j = 0 .. 2 TOP_EXPONENT``.

    Examples
    --------
    >>> t = candidate_temperatures(); t.size, float(t[0]), float(t[-1])
    (33, 1.0, 65536.0)
    """
    return 2.0 ** (np.arange(2 * TOP_EXPONENT + 1) / 2.0)


def temperature_weights() -> np.ndarray:
    """The public base measure of the draw: integer weights ``round(2^(40 - j / 4))``, one per
    candidate ``2^(j/2)`` (the weight halves every :data:`BASE_HALVING` candidates).

    Examples
    --------
    >>> w = temperature_weights(); w.size, int(w[0]) == 2 ** 40, int(w[0]) // int(w[4])
    (33, True, 2)
    """
    j = np.arange(2 * TOP_EXPONENT + 1)
    return np.array([round(2.0 ** (40 - k / BASE_HALVING)) for k in j], dtype=np.int64)


def temperature_eta(rho: float) -> Fraction:
    """``eta = sqrt(2 rho) / Delta`` per Brier step, rounded down to a multiple of ``2^-52``."""
    return floor_eta(math.sqrt(2.0 * rho) / BRIER_SENSITIVITY)


def temperature_event(rho: float) -> ExponentialMechanismEvent:
    """The draw's event: ``epsilon_0 = 2 eta Delta``, so ``epsilon_0^2 / 8 <= rho``.

    Examples
    --------
    >>> from accounting import ZCDPAccountant
    >>> ZCDPAccountant().compose(temperature_event(0.001)).rho <= 0.001
    True
    """
    return ExponentialMechanismEvent(epsilon=epsilon_up(2 * temperature_eta(rho)
                                                        * BRIER_SENSITIVITY))


def _row_sums(u: np.ndarray, y: np.ndarray, temperatures: np.ndarray, offsets=None,
              count: bool = False) -> np.ndarray:
    """``(2, J)``: per temperature, ``fsum_i`` of the rows' Brier gains
    ``1 - |softmax(tau u_i + b) - e_(y_i)|^2 / 2 = 1/2 - |p_i|^2 / 2 + p_(i, y_i)``, each clipped
    to ``[0, 1]`` against rounding (``b`` the public logit offsets, 0 when None); and, with
    ``count``, the rows whose largest of ``tau u_i + b`` is their class (ties to the first
    largest, as ``argmax``), else 0."""
    u = np.asarray(u, dtype=np.float64)
    y = np.asarray(y)
    b = 0.0 if offsets is None else np.asarray(offsets, dtype=np.float64)
    rows = np.arange(u.shape[0])
    out = np.zeros((2, len(temperatures)))
    for j, tau in enumerate(temperatures):
        z = tau * u + b
        top = np.argmax(z, axis=1)
        if count:
            out[1, j] = np.count_nonzero(top == y)
        z -= z[rows, top][:, None]
        np.exp(z, out=z)
        total = z.sum(axis=1)
        square = np.einsum("ik,ik->i", z, z) / (total * total)
        out[0, j] = math.fsum(np.clip(0.5 - 0.5 * square + z[rows, y] / total, 0.0, 1.0))
    return out


def _sums(u, y, temperatures: np.ndarray, offsets, count: bool):
    """``(brier, correct)``: :func:`_row_sums` over all rows, numpy or row-chunked dask (each
    chunk's sums correctly rounded, then summed with ``fsum``: the total's error stays far
    below one step of ``2^-10`` for fewer than ``2^40`` rows, as the sensitivity assumes)."""
    temperatures = np.asarray(temperatures, dtype=np.float64)
    if is_dask_array(u):
        def chunk(block, yb):
            return _row_sums(block, yb.ravel(), temperatures, offsets, count)[None]

        parts = u.map_blocks(chunk, y[:, None], dtype=np.float64, new_axis=2,
                             chunks=((1,) * u.numblocks[0], (2,), (temperatures.size,)))
        sums = np.asarray(parts.compute())
        return ([math.fsum(sums[:, 0, j]) for j in range(temperatures.size)],
                sums[:, 1, :].sum(axis=0))
    sums = _row_sums(u, y, temperatures, offsets, count)
    return sums[0].tolist(), sums[1]


def _steps(brier: list[float]) -> np.ndarray:
    return np.array([math.floor(BRIER_GRID * t) for t in brier], dtype=np.int64)


def brier_gains(u, y, temperatures: np.ndarray, offsets=None) -> np.ndarray:
    """``floor(2^10 sum_i (1 - |softmax(tau u_i + b) - e_(y_i)|^2 / 2))`` per temperature
    (int64): the utility of :func:`private_temperature`, sensitivity ``2^10 + 2`` steps (each
    row's term lies in ``[0, 1]``; 2 steps for the floors of two correctly rounded sums).

    ``u`` (n, K) and ``y`` (class indices) may be numpy or row-chunked dask arrays.

    Examples
    --------
    >>> u = np.array([[1.0, -1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> brier_gains(u, np.array([0, 2]), np.array([1.0, 8.0])).tolist()
    [1817, 2047]
    """
    return _steps(_sums(u, y, temperatures, offsets, count=False)[0])


def pair_utilities(u, y, temperatures: np.ndarray, offsets=None) -> np.ndarray:
    """Per temperature, :func:`brier_gains` plus ``(2^10 + 2)`` steps per correctly classified
    row (int64): the utility of :func:`private_temperature_families`, whose sensitivity is
    ``2 (2^10 + 2)`` steps (one row moves the count by at most 1).

    Examples
    --------
    >>> u = np.array([[1.0, -1.0, 0.0], [0.0, 0.3, 0.1]])
    >>> pair_utilities(u, np.array([0, 2]), np.array([1.0, 8.0]), np.array([0.0, 0.0, 1.0]))
    array([3691, 2655])
    """
    brier, correct = _sums(u, y, temperatures, offsets, count=True)
    return _steps(brier) + BRIER_SENSITIVITY * np.round(correct).astype(np.int64)


def private_temperature(scores, y, rho: float, bound: float, *, rng: np.random.Generator,
                        offsets=None) -> TemperatureFit:
    """Draw the softmax temperature of a multiclass fit by the exponential mechanism (with the
    public base measure :func:`temperature_weights`).

    Parameters
    ----------
    scores : array of shape (n, K)
        The training rows' class scores (a function of the row and of released values only).
    y : array of shape (n,)
        Class indices in ``[0, K)``.
    rho : float > 0
        The zCDP budget (:func:`temperature_event`).
    bound : float > 0
        The public ``B = R max_k ||w_k||`` with ``|scores| <= B``; the scores are divided by it.
    rng : numpy.random.Generator
    offsets : array of shape (K,) or None
        Public logit offsets ``b`` (a class prior from released counts,
        :mod:`dpboost.multiclass_prior`): the utility is that of ``softmax(tau u + b)``.  Each
        row's term still depends on that row and on public values only (sensitivity unchanged).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 3000)
    >>> s = 0.02 * np.eye(3)[y] + rng.normal(0, 0.01, (3000, 3))
    >>> fit = private_temperature(s, y, 0.01, 0.05, rng=rng)
    >>> 8.0 <= fit.temperature <= 64.0, fit.n_candidates
    (True, 33)
    """
    temperatures = candidate_temperatures()
    eta = temperature_eta(rho)
    gains = brier_gains(scores / bound, y, temperatures, offsets)
    k = sample_exponential(gains, eta, rng=rng, weights=temperature_weights())
    return TemperatureFit(float(temperatures[k]), float(bound), temperatures.size,
                          float(2 * eta * BRIER_SENSITIVITY))


def private_temperature_families(families: list[ScoreFamily], y, rho: float, *,
                                 rng: np.random.Generator) -> tuple[int, TemperatureFit]:
    """Draw a score family and its temperature together: ``(family index, TemperatureFit)``.

    One family is :func:`private_temperature` itself (the same draw from the same stream).
    With several, one exponential mechanism draws a pair ``(f, tau)`` from all
    ``len(families) x 33`` candidates, each family's scores divided by its own public bound.
    The utility of a pair is its Brier gain (:func:`brier_gains`, sensitivity ``2^10 + 2``
    steps) plus ``2^10 + 2`` steps per training row the pair classifies correctly
    (:func:`pair_utilities`; one row moves the count by at most 1): Brier alone chose, on a
    five-class imbalanced task, a family 0.5-2 points less accurate with better-calibrated
    probabilities.  Each row's term still depends on that row and on released values only,
    so replacing one row moves a pair's utility by at most ``Delta = 2 (2^10 + 2)``; with
    ``eta`` half of :func:`temperature_eta`'s (exactly: a rational), ``2 eta Delta`` is the
    single-family ``epsilon_0`` and the draw costs the same
    :func:`temperature_event` (McSherry & Talwar 2007; Cesar & Rogers 2021, Lemma 3.2).  The
    base measure is :func:`temperature_weights` within each family, the first family (the
    fit's former scores) weighted :data:`FIRST_FAMILY_WEIGHT` = 8 times each other (public,
    so the event is unchanged): another family is drawn only when it beats the first by about
    ``ln 8 / (epsilon_0 / 4)`` correct training rows (each is worth ``eta (2^10 + 2) =
    epsilon_0 / 4`` nats): 162 / 85 / 46 / 21 rows at epsilon = 0.5 / 1 / 2 / 5 with the
    default shares.  With equal weights a 746-row table at 93/5.5/1.5% (every family
    predicting the majority class) drew among them nearly at random, and the centres without
    the class prior raised its held-out Brier score from 0.144 to 0.185 at epsilon = 1 (8
    seeds); with the weight it is 0.145, while the gains on thousands of rows stay (red team
    s38: hpc_data, 3,465 rows, 0.569 -> 0.653 at epsilon = 1).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 3000)
    >>> good = ScoreFamily(0.02 * np.eye(3)[y] + rng.normal(0, 0.01, (3000, 3)), 0.05)
    >>> noise = ScoreFamily(rng.normal(0, 0.01, (3000, 3)), 0.05)
    >>> private_temperature_families([noise, good], y, 0.01, rng=rng)[0]
    1
    """
    if len(families) == 1:
        f = families[0]
        return 0, private_temperature(f.scores, y, rho, f.bound, rng=rng, offsets=f.offsets)
    temperatures = candidate_temperatures()
    eta = temperature_eta(rho)
    utilities = [pair_utilities(f.scores / f.bound, y, temperatures, f.offsets)
                 for f in families]
    weights = np.concatenate([temperature_weights() * (FIRST_FAMILY_WEIGHT if f == 0 else 1)
                              for f in range(len(families))])
    k = sample_exponential(np.concatenate(utilities), eta / 2, rng=rng, weights=weights)
    f, j = divmod(k, temperatures.size)
    return f, TemperatureFit(float(temperatures[j]), float(families[f].bound),
                             temperatures.size * len(families),
                             float(2 * (eta / 2) * (2 * BRIER_SENSITIVITY)), f)
