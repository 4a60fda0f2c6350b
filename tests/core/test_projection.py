"""Capped scaling (Lemma 9): exact density, caps, smallest c, log-space robustness."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _core_helpers import reference_capped_scaling
from hypothesis import given
from hypothesis import strategies as st

from dpboost.projection import capped_scaling, capped_scaling_log_scale


def _check_measure(mu, kappa):
    n = mu.size
    assert np.all(np.isfinite(mu))
    assert np.all(mu >= 0.0) and np.all(mu <= 1.0)
    assert abs(mu.sum() - kappa * n) <= 1e-9 * kappa * n


@given(
    st.lists(st.floats(-30.0, 0.0), min_size=1, max_size=60),
    st.floats(0.01, 0.99),
)
def test_matches_sort_reference_and_is_exactly_dense(losses, kappa):
    a = math.log(kappa) + np.array(losses)  # mu~ <= kappa, total <= kappa n
    mu = capped_scaling(a, kappa)
    _check_measure(mu, kappa)
    ref = reference_capped_scaling(np.exp(a), kappa)
    np.testing.assert_allclose(mu, ref, rtol=1e-9, atol=1e-12)


@given(st.lists(st.floats(-1e7, 0.0), min_size=2, max_size=50), st.floats(0.05, 0.95))
def test_huge_losses_never_underflow(losses, kappa):
    # lambda * cumulative loss up to 1e7 (a million rounds at lambda = 10)
    mu = capped_scaling(math.log(kappa) + np.array(losses), kappa)
    _check_measure(mu, kappa)
    assert mu.max() > 0


def test_structure_is_capped_scaling_with_smallest_c():
    rng = np.random.default_rng(3)
    n, kappa = 5000, 0.2
    a = math.log(kappa) - 5.0 * rng.uniform(0, 40, n)
    s = capped_scaling_log_scale(a, kappa)
    mu = capped_scaling(a, kappa)
    c = math.exp(s)
    assert c >= 1.0
    np.testing.assert_allclose(mu, np.minimum(1.0, c * np.exp(a)), rtol=1e-12, atol=0)
    _check_measure(mu, kappa)
    # any smaller c falls short of density kappa
    assert np.minimum(1.0, c * (1 - 1e-9) * np.exp(a)).sum() < kappa * n
    assert (mu == 1.0).sum() > 0  # the test exercises capping


def test_uniform_start_is_kappa_everywhere():
    mu = capped_scaling(np.full(10, math.log(0.3)), 0.3)
    np.testing.assert_allclose(mu, 0.3, rtol=1e-12)


def test_ties_and_large_n():
    rng = np.random.default_rng(0)
    a = math.log(0.25) - rng.integers(0, 5, 200_001).astype(float)
    mu = capped_scaling(a, 0.25)
    _check_measure(mu, 0.25)
    ref = reference_capped_scaling(np.exp(a[:2001]), 0.25)
    np.testing.assert_allclose(capped_scaling(a[:2001], 0.25), ref, rtol=1e-9)


def test_one_dominant_point_far_above_the_rest():
    a = math.log(0.5) - np.array([0.0, 5e6, 5e6 + 3.0, 1e7])
    mu = capped_scaling(a, 0.5)
    _check_measure(mu, 0.5)
    assert mu[0] == 1.0
    # the rest: the two near 5e6 share the remaining unit in ratio e^3
    assert mu[1] == pytest.approx(1 / (1 + math.exp(-3.0)), rel=1e-12)


@pytest.mark.parametrize(
    "a, kappa, exc",
    [
        ([0.0, np.nan], 0.5, ValueError),
        ([0.0, np.inf], 0.5, ValueError),
        ([], 0.5, ValueError),
        ([0.0], 1.5, ValueError),
        ([0.0], "x", TypeError),
    ],
)
def test_bad_input(a, kappa, exc):
    with pytest.raises(exc):
        capped_scaling(np.array(a, dtype=float), kappa)


@given(st.lists(st.floats(-50.0, 0.0), min_size=2, max_size=60), st.floats(0.05, 0.95))
def test_log_space_fallback_matches_reference(losses, kappa):
    from dpboost.projection import _project_log

    a = math.log(kappa) + np.array(losses)
    n = a.size
    j = min(n, max(1, math.ceil(kappa * n)))
    r = float(np.sort(a)[n - j])
    d = a - r
    mu, _ = _project_log(d, d > 0, kappa * n)
    _check_measure(mu, kappa)
    np.testing.assert_allclose(mu, reference_capped_scaling(np.exp(a), kappa), rtol=1e-9,
                               atol=1e-12)
