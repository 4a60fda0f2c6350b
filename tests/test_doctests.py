"""Every docstring example in ``dpboost`` and ``accounting`` runs and holds.

Walking the packages (rather than listing modules) keeps a new module's examples, and a stale
figure in an old one, from escaping the suite.
"""

import doctest
import importlib

import pytest
from package_modules import package_modules


@pytest.mark.parametrize("name", package_modules())
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
