"""Every name a module lists in ``__all__`` exists, so ``from module import *`` works.

``dpboost.experiments`` kept five names in ``__all__`` after they moved to
``dpboost.curve_slopes``: ``from dpboost.experiments import *`` raised AttributeError.
"""

import importlib

import pytest
from package_modules import package_modules

import dpboost


@pytest.mark.parametrize("name", package_modules())
def test_all_names_exist(name):
    module = importlib.import_module(name)
    listed = getattr(module, "__all__", ())
    assert len(set(listed)) == len(listed), f"{name}.__all__ repeats a name"
    missing = [n for n in listed if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ lists names it does not define: {missing}"


def test_the_accounting_commands_start_without_scikit_learn():
    """``import dpboost`` loads the estimators on first use, so ``dpboost privacy`` and
    ``dpboost budget`` do not pay scikit-learn's import (about 1 s of 1.7)."""
    import subprocess
    import sys

    code = ("import sys, dpboost, dpboost.cli.budget, dpboost.cli.privacy; "
            "print('sklearn' in sys.modules); "
            "from dpboost import PrivateHalfspaceClassifier, make_margin_data; "
            "print('sklearn' in sys.modules, 'PrivateHalfspaceClassifier' in dir(dpboost))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True", "True"]
    code = "import dpboost; print(dpboost.estimator.PrivateHalfspaceClassifier.__name__)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "PrivateHalfspaceClassifier"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        dpboost.nope  # noqa: B018
