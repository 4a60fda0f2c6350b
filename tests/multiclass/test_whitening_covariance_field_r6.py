"""Round-6 mutation gaps of :class:`dpboost.whitening.Whitening`'s ``covariance`` field.

The field is ``C_hat`` clamped to be positive semi-definite, the covariance ``M`` was built
from: ``M`` is ``(C_hat + lambda I)^(-1/2)`` scaled to largest eigenvalue 1/2, so the field
and ``M`` must agree by that formula, and with a large budget the field is the rows' exact
covariance about the released mean."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost.whitening import private_whitening


def _m_from(cov, ridge):
    eig, V = np.linalg.eigh(cov)
    inv_root = 1.0 / np.sqrt(eig + ridge)
    return (V * (0.5 * inv_root / inv_root.max())) @ V.T


@pytest.mark.parametrize("seed,n,rho", [(0, 200, 0.002), (1, 300, 0.001), (2, 5000, 1.0)])
def test_the_field_is_psd_and_m_is_its_ridge_whitening(seed, n, rho):
    """Small n and rho: the noisy ``C`` has negative eigenvalues; the field is clamped."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)) * [0.3, 0.1, 0.02, 0.01]
    w = private_whitening(X, np.zeros(4), 1.0, rho, rng=rng)
    cov = w.covariance
    np.testing.assert_allclose(cov, cov.T, atol=1e-15)
    assert np.linalg.eigvalsh(cov).min() >= -1e-12
    np.testing.assert_allclose(w.matrix, _m_from(cov, w.ridge), rtol=1e-7, atol=1e-12)


def test_a_large_budget_releases_the_exact_covariance():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20_000, 3)) * [0.3, 0.1, 0.05] + 0.1
    mean = X.mean(axis=0)
    w = private_whitening(X, mean, 1.0, 1e6, rng=rng)
    np.testing.assert_allclose(w.covariance, np.cov(X.T, bias=True), rtol=1e-3, atol=1e-7)
