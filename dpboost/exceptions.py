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

    Clipping is what keeps the privacy guarantee true, so it is never an error.  But the model
    is fitted to the clipped rows while ``decision_function`` scores rows as given: if most rows
    are clipped (features on their raw scale), the learned centre and the calibrated intercept
    no longer match the rows scored at prediction.  Measured on a9a with rows of norm 3.9 given
    to ``norm_bound=1`` (epsilon = 1, seed 0): accuracy 0.821 and 31% predicted positive (24%
    true) against 0.848 with the rows divided by the public constant sqrt(15) first.  The
    message says how many rows; divide the features by a public bound (or use ``dpboost
    schema``) so that rows fit in the ball.  The count is shown to the data owner only; it is
    not released.
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
