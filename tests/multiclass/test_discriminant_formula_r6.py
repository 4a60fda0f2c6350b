"""Round-6 mutation gaps of :mod:`dpboost.multiclass_discriminant` (session 39).

The candidates are checked against the module docstring's formula computed independently:
masses clamped below (``clamped_masses``), noisy counts floored at 1 before ``pi``, and
eigenvalues of the within-class covariance floored at ``f`` times the largest."""

from __future__ import annotations

import numpy as np

from dpboost.multiclass_discriminant import discriminant


def _case():
    """Two classes, masses 1 (ratio 1), centres +-(1, 0.5): a within-class covariance
    diag(4, 0.01) plus the between-class spread gives the total covariance."""
    W = np.array([[1.0, 0.5, 1.0], [-1.0, -0.5, 1.0]])
    counts = np.array([30, 70])
    pi = counts / counts.sum()
    m = W[:, :-1]
    centred = m - pi @ m
    cov = np.diag([4.0, 0.01]) + (centred.T * pi) @ centred
    return W, counts, m, cov


def test_the_eigenvalue_floor_is_relative_to_the_largest_eigenvalue():
    W, counts, m, cov = _case()
    H, log_prior = discriminant(W[None], 1.0, cov, counts, 0.5, 0.0)
    P = np.diag([1 / 4.0, 1 / (0.5 * 4.0)])  # eigenvalues 4 and max(0.01, 0.5 * 4)
    np.testing.assert_allclose(H[0, :, :-1], m @ P, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(H[0, :, -1], -0.5 * np.einsum("kd,de,ke->k", m, P, m),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(log_prior, np.log([0.3, 0.7]), rtol=1e-12)


def test_the_floor_is_scale_free():
    """Scaling the covariance (and so its eigenvalues) by ``a`` scales ``P`` by ``1 / a``:
    the floor ``f * top`` moves with it (an absolute floor would not)."""
    W, counts, m, cov = _case()
    a = 1e-3
    H1, _ = discriminant(W[None], 1.0, cov, counts, 0.2, 0.0)
    m_small = np.sqrt(a) * m
    W_small = np.hstack([m_small, np.ones((2, 1))])
    H2, _ = discriminant(W_small[None], 1.0, a * cov, counts, 0.2, 0.0)
    # x . P_a m_a = x . (P / a) sqrt(a) m: directions scale by 1 / sqrt(a)
    np.testing.assert_allclose(H2[0, :, :-1], H1[0, :, :-1] / np.sqrt(a), rtol=1e-9)
    np.testing.assert_allclose(H2[0, :, -1], H1[0, :, -1], rtol=1e-9)


def test_a_noisy_count_below_one_counts_as_one():
    W, _, _, cov = _case()
    for counts in (np.array([-3, 50]), np.array([0, 50])):
        _, log_prior = discriminant(W[None], 1.0, cov, counts, 0.5, 0.0)
        np.testing.assert_allclose(log_prior, np.log(np.array([1.0, 50.0]) / 51.0), rtol=1e-12)


def test_a_noisy_mass_is_clamped_below_so_a_direction_never_flips():
    """Class 1's released mass is -0.01 (noise around a tiny class); with noise_sd 0.01 it is
    clamped to 3 noise_sd = 0.03, so its centre is ``c W[1, :-1] / 0.03``, the same way as
    the released direction, not flipped by a negative mass nor blown up by a tiny one."""
    W = np.array([[0.5, 0.1, 1.0], [0.02, 0.0, -0.01], [-0.3, 0.2, 0.8]])
    cov = np.eye(2)
    H, _ = discriminant(W[None], 2.0, cov, np.array([40, 5, 30]), 0.5, 0.01)
    masses = np.array([1.0, 0.03, 0.8])
    m = 2.0 * W[:, :-1] / masses[:, None]
    pi = np.array([40, 5, 30]) / 75
    centred = m - pi @ m
    within = cov - (centred.T * pi) @ centred
    eig, V = np.linalg.eigh(within)
    P = (V / np.maximum(eig, 0.5 * eig.max())) @ V.T
    np.testing.assert_allclose(H[0, :, :-1], m @ P, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(H[0, :, -1], -0.25 * np.einsum("kd,de,ke->k", m, P, m),
                               rtol=1e-9, atol=1e-12)
