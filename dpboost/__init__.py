"""dpboost: differentially private boosting (LazyBregBoost) and online boosting.

See README.md for the Quickstart. Privacy accounting lives in the sibling package
:mod:`accounting`, which never imports dpboost.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
