"""The docstring examples of the modules below run and hold."""

import doctest

import pytest

from dpboost import (
    audit,
    audit_statistics,
    experiments,
    mechanisms,
    multiclass,
    theory,
    weak_learners,
)


@pytest.mark.parametrize("module", [theory, experiments, mechanisms, multiclass, audit,
                                    audit_statistics, weak_learners], ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
