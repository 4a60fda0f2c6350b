"""Privacy accounting for dpboost: events, a zCDP/GDP accountant, calibration, a budget ledger.

Pure and deterministic; never imports :mod:`dpboost`.
"""

from accounting.exceptions import BudgetExceededError, ConvergenceError, UnsupportedEventError

__all__ = ["BudgetExceededError", "ConvergenceError", "UnsupportedEventError"]
