"""Conversions against closed forms and 60-digit mpmath references, over the whole range."""

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting import (
    cks_delta,
    cks_epsilon,
    gdp_delta,
    gdp_epsilon,
    gdp_log_delta,
    zcdp_to_delta_paper,
    zcdp_to_epsilon_paper,
)

mp.mp.dps = 60


def mp_log_delta(mu, eps):
    """Balle & Wang (2018), Thm 8, at 60 digits."""
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.log(mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2))


def mp_cks_epsilon(rho, delta):
    rho, delta = mp.mpf(rho), mp.mpf(delta)
    f = lambda a: a * rho + mp.log(1 - 1 / a) - (mp.log(delta) + mp.log(a)) / (a - 1)
    # stationary point: (a-1)^2 rho + log a = log(1/delta)
    a = mp.findroot(
        lambda a: (a - 1) ** 2 * rho + mp.log(a) + mp.log(delta),
        (mp.mpf(1) + mp.mpf("1e-30"), 1 + mp.sqrt(-mp.log(delta) / rho)),
        solver="anderson",
    )
    return max(f(a), 0)


def test_reference_values_field_notes():
    mu = 10 / 42.25
    rho = mu**2 / 2
    assert gdp_epsilon(mu, 1e-6) == pytest.approx(0.999918, abs=5e-7)
    assert zcdp_to_epsilon_paper(rho, 1e-6) == pytest.approx(1.272157, abs=5e-7)
    assert cks_epsilon(rho, 1e-6) == pytest.approx(1.0777695, abs=5e-7)
    assert gdp_epsilon(50.0, 1e-5) == pytest.approx(1462.285, abs=1e-3)
    # where the naive formula gives 37.547 (Phi(b) loses its digits near 1e-300)
    assert gdp_epsilon(1.0, 1e-300) == pytest.approx(37.449, abs=1e-3)


@pytest.mark.parametrize("log_mu, log_eps", [((-6, math.log10(50)), (-8, 2)), ((-6, 3), (-8, 6))])
def test_exact_log_delta_matches_mpmath(log_mu, log_eps):
    """Relative error of delta (= absolute error of log delta, scaled by |log delta| when large)."""
    rng = np.random.default_rng(20240601)
    worst = 0.0
    for _ in range(200):
        mu = 10 ** rng.uniform(*log_mu)
        eps = 0.0 if rng.random() < 0.05 else 10 ** rng.uniform(*log_eps)
        ref = float(mp_log_delta(mu, eps))
        got = gdp_log_delta(mu, eps)
        worst = max(worst, abs(got - ref) / max(1.0, abs(ref)))
    assert worst < 1e-13


@pytest.mark.parametrize("mu", [1e-12, 1e-9, 1e-6, 1e-3])
def test_tiny_mu_does_not_cancel(mu):
    # dp-accounting's log_ndtr + log1p(-exp) form returns delta = 0 at mu = 1e-12
    for eps in [0.0, mu / 10, mu, 5 * mu, 30 * mu]:
        ref = float(mp_log_delta(mu, eps))
        assert gdp_log_delta(mu, eps) == pytest.approx(ref, rel=1e-12)
    assert gdp_delta(mu, 0.0) > 0.0


def test_exact_epsilon_matches_mpmath_inverse():
    for mu, delta in [
        (1e-6, 1e-300),
        (1e-3, 1e-9),
        (0.5, 1e-6),
        (1.0, 1e-300),
        (50.0, 1e-5),
        (50.0, 1e-300),
        (3.0, 0.3),
    ]:
        eps = gdp_epsilon(mu, delta)
        assert math.isfinite(eps) and eps > 0
        # conservative and tight: delta(eps) <= delta < delta(eps * (1 - 1e-12))
        assert float(mp_log_delta(mu, eps)) <= math.log(delta) * (1 - 1e-14)
        assert float(mp_log_delta(mu, eps * (1 - 1e-12))) > math.log(delta)


def test_range_never_nan_inf_or_raises():
    for mu in np.geomspace(1e-6, 50, 25):
        for eps in [0.0, 1e-6, 0.1, 1.0, 10.0, 50.0, 100.0]:
            ld = gdp_log_delta(float(mu), eps)
            assert not math.isnan(ld) and ld <= 0.0 and ld > -math.inf
            assert not math.isnan(gdp_delta(float(mu), eps))
        for delta in [0.5, 1e-5, 1e-20, 1e-100, 1e-300]:
            eps = gdp_epsilon(float(mu), delta)
            assert math.isfinite(eps) and eps >= 0.0


def test_exact_zero_epsilon_when_delta_is_loose():
    mu = 1e-6
    assert gdp_epsilon(mu, 0.5) == 0.0  # delta(0) = 2 Phi(mu/2) - 1 ~ 4e-7 < 0.5


def test_paper_closed_form():
    for rho in [1e-8, 0.01, 1.0, 30.0]:
        for delta in [0.5, 1e-6, 1e-300]:
            eps = zcdp_to_epsilon_paper(rho, delta)
            assert eps == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1 / delta)), rel=1e-15)
            assert zcdp_to_delta_paper(rho, eps) == pytest.approx(delta, rel=1e-9)
    assert zcdp_to_epsilon_paper(0.0, 1e-6) == 0.0
    assert zcdp_to_delta_paper(1.0, 0.5) == 1.0


@pytest.mark.parametrize(
    "rho, delta",
    [(1e-6, 1e-6), (0.0028, 1e-6), (0.5, 1e-5), (3.0, 1e-9), (100.0, 1e-300), (1e-9, 1e-300)],
)
def test_cks_matches_mpmath(rho, delta):
    assert cks_epsilon(rho, delta) == pytest.approx(float(mp_cks_epsilon(rho, delta)), rel=1e-12)


@given(st.floats(1e-8, 100), st.floats(1e-12, 0.5))
def test_cks_delta_inverts_cks_epsilon(rho, delta):
    eps = cks_epsilon(rho, delta)
    if eps > 0:
        assert cks_delta(rho, eps) == pytest.approx(delta, rel=1e-7)


@given(st.floats(1e-6, 50), st.floats(1e-300, 0.9))
def test_exact_le_cks_le_paper(mu, delta):
    rho = mu * mu / 2
    exact, cks, paper = (
        gdp_epsilon(mu, delta),
        cks_epsilon(rho, delta),
        zcdp_to_epsilon_paper(rho, delta),
    )
    assert exact <= cks * (1 + 1e-12) + 1e-300
    assert cks <= paper * (1 + 1e-12)


@given(st.floats(1e-6, 50), st.floats(1e-6, 100))
def test_exact_delta_le_cks_delta_le_paper_delta(mu, eps):
    rho = mu * mu / 2
    exact, cks, paper = gdp_delta(mu, eps), cks_delta(rho, eps), zcdp_to_delta_paper(rho, eps)
    assert exact <= cks * (1 + 1e-9) + 1e-300
    assert cks <= paper * (1 + 1e-9) + 1e-300


@pytest.mark.parametrize(
    "func, args",
    [
        (gdp_epsilon, (1.0, 0.0)),
        (gdp_epsilon, (1.0, 1.0)),
        (gdp_epsilon, (-1.0, 1e-5)),
        (gdp_epsilon, (float("nan"), 1e-5)),
        (gdp_log_delta, (1.0, -0.5)),
        (cks_epsilon, (-1.0, 1e-5)),
        (cks_delta, (1.0, float("nan"))),
        (zcdp_to_epsilon_paper, (1.0, 1.5)),
    ],
)
def test_invalid_inputs_raise_value_error(func, args):
    with pytest.raises(ValueError, match=r"parameter of .* must be a float in"):
        func(*args)


def test_beyond_supported_epsilon_is_a_clear_error():
    assert gdp_epsilon(1e5, 1e-300) == pytest.approx(
        float(mp.findroot(lambda e: mp_log_delta(1e5, e) - mp.log(mp.mpf(1e-300)), 5.0037e9)),
        rel=1e-9,
    )
    with pytest.raises(ValueError, match="does not support"):
        gdp_epsilon(1e7, 1e-300)


@pytest.mark.parametrize(
    "func, args",
    [
        (zcdp_to_delta_paper, (0.125, 1e308)),
        (cks_delta, (0.125, 1e308)),
        (cks_delta, (1e-300, 1e308)),
        (cks_delta, (1e300, 1.0)),
        (gdp_delta, (0.5, 1e308)),
        (gdp_delta, (1e300, 1e308)),
        (cks_epsilon, (1e300, 1e-300)),
        (cks_epsilon, (1e-300, 1e-300)),
        (zcdp_to_epsilon_paper, (1e300, 1e-300)),
        (gdp_epsilon, (1e-300, 1e-300)),
    ],
)
def test_extreme_inputs_give_numbers(func, args):
    value = func(*args)
    assert not math.isnan(value) and value >= 0.0


def test_extreme_events_through_the_accountant():
    from accounting import GaussianEvent, ZCDPAccountant

    assert ZCDPAccountant().compose(GaussianEvent(2.0)).get_delta(1e308) == 0.0
    assert ZCDPAccountant().compose(GaussianEvent(1e300)).get_epsilon(1e-6) == 0.0
    tiny = ZCDPAccountant().compose(GaussianEvent(1e-300))  # rho overflows: no privacy
    assert tiny.rho == math.inf and tiny.get_epsilon(1e-6) == math.inf
    # "exact" is out of its range (eps > 1e12): "best" falls back to the other bounds
    big = ZCDPAccountant().compose(GaussianEvent(1e-7))
    with pytest.raises(ValueError, match="does not support"):
        big.get_epsilon(0.5, method="exact")
    assert big.get_epsilon(0.5) == big.get_epsilon(0.5, method="cks")


@pytest.mark.parametrize("mu", [3e4, 3.3e4, 4e4, 5e4, 7e4, 1e5, 1.2e5, 2e5])
@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-7, 1e-9, 1e-12])
def test_gdp_epsilon_is_never_optimistic_at_huge_mu(mu, delta):
    # The issue: for mu >= 3e4 the root could come back one ulp too small.  Check the returned
    # epsilon against the exact profile in 60-digit arithmetic: its delta must not exceed the
    # target.  (Two ulps lower, as before the fix, fails in 6 of these 40 cases.)
    import mpmath

    from accounting.conversions import gdp_epsilon

    eps = gdp_epsilon(mu, delta)
    mpmath.mp.dps = 60
    m, e = mpmath.mpf(mu), mpmath.mpf(eps)
    phi = lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2
    exact = phi(-e / m + m / 2) - mpmath.exp(e) * phi(-e / m - m / 2)
    assert exact <= delta
