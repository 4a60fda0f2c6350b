"""The docstring examples of the tabular modules run and hold."""

import doctest

import pytest

from dpboost import data, model_io, readers, schema, tabular


@pytest.mark.parametrize("module", [schema, tabular, readers, model_io, data],
                         ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
