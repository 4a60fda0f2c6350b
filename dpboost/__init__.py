"""dpboost: differentially private boosting (LazyBregBoost) and online boosting.

See README.md for the Quickstart. Privacy accounting lives in the sibling package
:mod:`accounting`, which never imports dpboost; online learning lives in :mod:`dpboost.online`.
"""

__version__ = "0.1.0"

from dpboost.data import make_margin_data  # noqa: E402
from dpboost.estimator import BoostedHalfspaceClassifier, PrivateHalfspaceClassifier  # noqa: E402
from dpboost.exceptions import PrivacyLeakWarning  # noqa: E402

__all__ = [
    "__version__",
    "BoostedHalfspaceClassifier",
    "PrivateHalfspaceClassifier",
    "PrivacyLeakWarning",
    "make_margin_data",
]
