"""Breast cancer as the small-data tests use it: public per-column ranges (the data's range
widened by 10%, rounded out), a constant feature, rows divided by sqrt(31); 427 training rows."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import load_breast_cancer


def breast_split():
    """``(Z_train, y_train, Z_test, y_test)``: malignant is 1; a fixed permutation (seed 0)."""
    d = load_breast_cancer()
    lo, hi = np.floor(d.data.min(axis=0) * 0.9), np.ceil(d.data.max(axis=0) * 1.1)
    Z = np.hstack([2 * (d.data - lo) / (hi - lo) - 1, np.ones((len(d.target), 1))]) / np.sqrt(31)
    y = (d.target == 0).astype(int)
    idx = np.random.default_rng(0).permutation(len(y))
    tr, te = idx[:427], idx[427:]
    return Z[tr], y[tr], Z[te], y[te]
