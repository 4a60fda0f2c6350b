"""Warnings and errors that dpboost raises where the caller can act on them.

Accounting errors (``BudgetExceededError``, ``UnsupportedEventError``, ``ConvergenceError``)
live in :mod:`accounting.exceptions` and are re-exported here for convenience.
"""

from __future__ import annotations

from accounting.exceptions import BudgetExceededError, ConvergenceError, UnsupportedEventError

__all__ = [
    "BudgetExceededError",
    "ClippedRowsWarning",
    "ConvergenceError",
    "LargeDeltaWarning",
    "ModelFileError",
    "PrivacyLeakWarning",
    "SeededCloneWarning",
    "UnsupportedEventError",
]


class PrivacyLeakWarning(UserWarning):
    """Something about the data was used without privacy (e.g. labels inferred from y).

    The message says what leaked and how to avoid it (e.g. pass ``classes=``).
    """


class ClippedRowsWarning(UserWarning):
    """Training rows had norm above ``norm_bound`` and were clipped onto the sphere.

    Clipping is what keeps the privacy guarantee true, so it is never an error.  The model is
    fitted to the clipped rows and predicts on rows clipped the same way
    (:func:`dpboost.clipping.clip_for_scoring`), so it sees a long row's direction, not its
    length: features on their raw scale keep the threshold but lose what the rows' lengths
    carried.  Measured on a9a with rows of norm 3.9 given to ``norm_bound=1`` (epsilon = 1,
    seed 0): accuracy 0.848 and 19% predicted positive (24% true), against 0.849 with the rows
    divided by the public constant sqrt(15) first (0.788 and 39% when rows were scored as
    given, before session 21).  Divide the features by a public bound (or use ``dpboost
    schema``) so that rows fit in the ball.  Whether it fires is a noise-free bit of the data:
    private fits raise it only with ``diagnostics=True``, and the message states no count.
    """


class NoiseDominatesWarning(UserWarning):
    """The released halfspace's noise is large against the largest signal it can carry.

    Raised by :func:`dpboost.privacy_report.warn_if_noise_dominates`, from public and
    released values only, when ``noise_ratio`` (``sigma sqrt(d/T) / R``) reaches 1, or when
    ``signal_ratio`` (the mean released centre's norm over its noise level
    ``sigma sqrt(d/T)``) is within pure noise's chi range and the released Platt slope over
    ``sqrt(d)`` is below 0.5.  Measured (session 22, breast cancer at epsilon = 1): at a
    noise ratio of 3.7 (20 rows) the held-out ROC AUC was 0.01-0.99 over 12 seeds, the ranking
    inverted in 8; over 4 seeds each, at 1.2 (60 rows) its mean was 0.45, at 0.37 (200 rows)
    0.76, at 0.20 (427) 0.98.  Session 23: that slope ratio was at most 0.31 where held-out
    AUC was below 0.6, at least 0.77 where it was 0.6 or more.
    """


class LargeDeltaWarning(UserWarning):
    """``target_delta`` is at least ``1 / n``: the (epsilon, delta) guarantee says little.

    (epsilon, delta)-DP with ``delta >= 1 / n`` is met by a mechanism that publishes each row
    in full with probability ``delta``, which on ``n`` rows publishes about ``delta n >= 1`` of
    them (Dwork & Roth 2014, Section 2.3: ``delta`` should be "less than the inverse of any
    polynomial in the size of the database").  dpboost's mechanisms are not of that kind (a
    Gaussian's privacy loss is spread over every ``delta``, see ``privacy_report_["epsilon"]``),
    but the stated pair no longer rules them out.  Choose ``delta`` well below ``1 / n`` (the
    benchmarks use 1e-6).  Raised at fit from the public ``n`` and ``delta`` only.
    """


class SeededCloneWarning(UserWarning):
    """A private estimator with an int ``random_state`` was cloned (``sklearn.clone``).

    Every clone re-seeds from the same int, so clones draw identical noise: fits of two clones
    on overlapping or neighbouring data (``cross_validate`` folds, ``GridSearchCV`` candidates)
    are not independent private releases, and their difference can cancel the noise.  A seed is
    for reproducibility only; pass a ``numpy.random.Generator`` (each clone then gets an
    independent child stream, ``Generator.spawn``) or ``None`` (fresh OS entropy per fit).
    Raised once per process.
    """


class ModelFileError(ValueError):
    """A model file is unreadable, truncated, or written by an incompatible version."""
