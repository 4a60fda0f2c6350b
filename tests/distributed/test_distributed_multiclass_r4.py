"""Round-4 mutation gap in dpboost/distributed_multiclass.py: the declared-classes guard."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.distributed_multiclass import prepare_fit_multiclass

da = pytest.importorskip("dask.array")


def test_dask_multiclass_preparation_refuses_undeclared_classes():
    """On dask the classes must be declared: reading them from y would release the set of
    labels present (module docstring, "Labels").  prepare_fit_multiclass is public, so its own
    guard must refuse classes=None with the documented message, whatever y holds."""
    X = da.from_array(np.zeros((6, 2)), chunks=(3, 2))
    y = da.from_array(np.array([0, 1, 2, 0, 1, 2]), chunks=3)
    est = PrivateHalfspaceClassifier(1.0, 1e-6)
    with pytest.raises(ValueError, match="needs declared classes"):
        prepare_fit_multiclass(est, X, y, 1.0)
