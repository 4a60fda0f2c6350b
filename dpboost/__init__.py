"""dpboost: differentially private boosting (LazyBregBoost) and online boosting.

See README.md for the Quickstart. Privacy accounting lives in the sibling package
:mod:`accounting`, which never imports dpboost; online learning lives in :mod:`dpboost.online`.
"""

__version__ = "0.1.0"

from dpboost.data import make_margin_data
from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier
from dpboost.exceptions import ClippedRowsWarning, PrivacyLeakWarning

__all__ = [
    "BoostedHalfspaceClassifier",
    "ClippedRowsWarning",
    "PrivacyLeakWarning",
    "PrivateHalfspaceClassifier",
    "__version__",
    "make_margin_data",
]
