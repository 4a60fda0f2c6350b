"""Every docstring example in ``dpboost`` and ``accounting`` runs and holds.

Walking the packages (rather than listing modules) keeps a new module's examples, and a stale
figure in an old one, from escaping the suite.
"""

import doctest
import importlib
import pkgutil

import pytest

import accounting
import dpboost


def _modules():
    for pkg in (dpboost, accounting):
        yield pkg.__name__
        for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."):
            if not info.name.endswith("__main__"):
                yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
