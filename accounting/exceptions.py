"""Exceptions of the accounting package; the caller can act on each of them."""

from __future__ import annotations

__all__ = ["BudgetExceededError", "ConvergenceError", "UnsupportedEventError"]


class BudgetExceededError(RuntimeError):
    """A spend would take the ledger past its (epsilon, delta) budget.

    The message states what was spent, what was requested and the limit.
    """

    def __init__(self, message: str, *, spent: float, requested: float, limit: float):
        super().__init__(message)
        self.spent = spent
        self.requested = requested
        self.limit = limit


class UnsupportedEventError(ValueError):
    """An accountant or a conversion method cannot interpret this event (names the sub-event)."""


class ConvergenceError(RuntimeError):
    """A root-finder did not converge; the message gives the bracket that was tried."""

    def __init__(self, message: str, *, bracket: tuple[float, float] | None = None):
        super().__init__(message)
        self.bracket = bracket
