"""Shared data for the utility tests."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_digits


@pytest.fixture(scope="session")
def digits8():
    """Digit 8 against the rest (10% positive), pixels to [-1, 1], constant, unit ball."""
    d = load_digits()
    Z = np.hstack([d.data / 8.0 - 1.0, np.ones((len(d.target), 1))]) / np.sqrt(65.0)
    y = (d.target == 8).astype(int)
    idx = np.random.default_rng(0).permutation(len(y))
    tr, te = idx[:1350], idx[1350:]
    return Z[tr], y[tr], Z[te], y[te]
