"""Privacy accounting for dpboost: events, a zCDP/GDP accountant, calibration, a budget ledger.

Pure and deterministic; never imports :mod:`dpboost`. The neighbouring relation is replace-one.

>>> from accounting import GaussianEvent, SelfComposedEvent, ZCDPAccountant
>>> acc = ZCDPAccountant().compose(SelfComposedEvent(GaussianEvent(42.25), 100))
>>> {k: round(v, 4) for k, v in acc.epsilons(1e-6).items()}
{'paper': 1.2722, 'cks': 1.0778, 'exact': 0.9999}
"""

from accounting.calibration import CalibrationResult, calibrate_noise
from accounting.conversions import (
    cks_delta,
    cks_epsilon,
    gdp_delta,
    gdp_epsilon,
    gdp_log_delta,
    zcdp_to_delta_paper,
    zcdp_to_epsilon_paper,
)
from accounting.events import (
    ComposedEvent,
    DiscreteGaussianEvent,
    DPEvent,
    ExponentialMechanismEvent,
    GaussianEvent,
    NonPrivateEvent,
    NoOpEvent,
    PureDPEvent,
    SelfComposedEvent,
    ZCDPEvent,
    event_from_dict,
)
from accounting.exceptions import BudgetExceededError, ConvergenceError, UnsupportedEventError
from accounting.ledger import BudgetLedger
from accounting.selection import TNBSelectionEvent
from accounting.zcdp import ZCDPAccountant

__all__ = [
    "BudgetExceededError",
    "BudgetLedger",
    "CalibrationResult",
    "ComposedEvent",
    "ConvergenceError",
    "DPEvent",
    "DiscreteGaussianEvent",
    "ExponentialMechanismEvent",
    "GaussianEvent",
    "NoOpEvent",
    "NonPrivateEvent",
    "PureDPEvent",
    "SelfComposedEvent",
    "TNBSelectionEvent",
    "UnsupportedEventError",
    "ZCDPAccountant",
    "ZCDPEvent",
    "calibrate_noise",
    "cks_delta",
    "cks_epsilon",
    "event_from_dict",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_log_delta",
    "zcdp_to_delta_paper",
    "zcdp_to_epsilon_paper",
]
