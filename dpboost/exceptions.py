"""Warnings and errors that dpboost raises where the caller can act on them.

Accounting errors (``BudgetExceededError``, ``UnsupportedEventError``, ``ConvergenceError``)
live in :mod:`accounting.exceptions` and are re-exported here for convenience.
"""

from __future__ import annotations

from accounting.exceptions import BudgetExceededError, ConvergenceError, UnsupportedEventError

__all__ = [
    "BudgetExceededError",
    "ConvergenceError",
    "ModelFileError",
    "PrivacyLeakWarning",
    "UnsupportedEventError",
]


class PrivacyLeakWarning(UserWarning):
    """Something about the data was used without privacy (e.g. labels inferred from y).

    The message says what leaked and how to avoid it (e.g. pass ``classes=``).
    """


class ModelFileError(ValueError):
    """A model file is unreadable, truncated, or written by an incompatible version."""
