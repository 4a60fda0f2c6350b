"""dpboost: differentially private boosting (LazyBregBoost) and online boosting.

See README.md for the Quickstart. Privacy accounting lives in the sibling package
:mod:`accounting`, which never imports dpboost; online learning lives in :mod:`dpboost.online`.
"""

__version__ = "0.1.0"

from dpboost.exceptions import (
    ClippedRowsWarning,
    LargeDeltaWarning,
    NoiseDominatesWarning,
    PrivacyLeakWarning,
)

#: Where the top-level names live; loaded on first use (PEP 562), so that the accounting
#: commands (``dpboost privacy``, ``dpboost budget``) start without scikit-learn (~1 s).
_LAZY = {"BoostedHalfspaceClassifier": "dpboost.estimator",
         "PrivateHalfspaceClassifier": "dpboost.estimator",
         "make_margin_data": "dpboost.data"}


def __getattr__(name: str):
    import importlib

    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in ("data", "estimator"):  # ``dpboost.estimator`` worked after ``import dpboost``
        return importlib.import_module(f"dpboost.{name}")
    raise AttributeError(f"module 'dpboost' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "BoostedHalfspaceClassifier",
    "ClippedRowsWarning",
    "LargeDeltaWarning",
    "NoiseDominatesWarning",
    "PrivacyLeakWarning",
    "PrivateHalfspaceClassifier",
    "__version__",
    "make_margin_data",
]
