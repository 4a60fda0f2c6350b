"""The docstring examples of dpboost.theory and dpboost.experiments run and hold."""

import doctest

import pytest

from dpboost import experiments, theory


@pytest.mark.parametrize("module", [theory, experiments], ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
