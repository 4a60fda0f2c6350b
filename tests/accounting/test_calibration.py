"""Calibration: reference values, conservative, tight to 1e-6, round trips."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import CalibrationResult, GaussianEvent, ZCDPAccountant, calibrate_noise
from accounting.calibration import gaussian_epsilon


@pytest.mark.parametrize(
    "method, expected",
    [("exact", 42.24679), ("cks", 45.3088), ("paper", 53.4998), ("best", 42.24679)],
)
def test_reference_values(method, expected):
    res = calibrate_noise(target_epsilon=1.0, target_delta=1e-6, count=100, method=method)
    assert isinstance(res, CalibrationResult)
    assert res.noise_multiplier == pytest.approx(expected, abs=1e-4)
    assert res.converged and res.iterations > 0
    assert res.epsilon <= 1.0
    assert res.method == ("exact" if method == "best" else method)


def test_paper_closed_form():
    # Lemma 15 inverted: sqrt(rho) = sqrt(L + eps) - sqrt(L)
    L = math.log(1e6)
    rho = (math.sqrt(L + 1.0) - math.sqrt(L)) ** 2
    smallest = math.sqrt(10_000 / (2 * rho))
    res = calibrate_noise(1.0, 1e-6, 10_000, method="paper")
    assert smallest * (1 - 1e-12) <= res.noise_multiplier <= smallest * (1 + 1e-6)


@settings(max_examples=40)
@given(
    eps=st.floats(0.01, 20),
    delta=st.floats(1e-12, 0.1),
    count=st.integers(1, 10_000),
    method=st.sampled_from(["paper", "cks", "exact", "best"]),
)
def test_conservative_and_tight(eps, delta, count, method):
    res = calibrate_noise(eps, delta, count, method=method)
    z = res.noise_multiplier
    m = res.method
    # meets the target (round trip through the accountant) ...
    acc = ZCDPAccountant().compose(GaussianEvent(z), count=count)
    assert acc.get_epsilon(delta, method=m) <= eps
    assert res.epsilon == gaussian_epsilon(z, count, delta, m) <= eps
    # ... and is within 1e-6 relative of the smallest noise that does
    assert gaussian_epsilon(z * (1 - 1e-6), count, delta, m) > eps


def test_best_is_smallest():
    res = {
        m: calibrate_noise(1.0, 1e-6, 10_000, method=m).noise_multiplier
        for m in ("paper", "cks", "exact", "best")
    }
    assert res["best"] == res["exact"] < res["cks"] < res["paper"]


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"target_epsilon": 0.0}, ValueError),
        ({"target_epsilon": float("nan")}, ValueError),
        ({"target_delta": 1.0}, ValueError),
        ({"target_delta": 0.0}, ValueError),
        ({"count": 0}, ValueError),
        ({"count": 2.5}, TypeError),
        ({"method": "rdp"}, ValueError),
    ],
)
def test_invalid_arguments(kwargs, exc):
    args = {"target_epsilon": 1.0, "target_delta": 1e-6, "count": 10} | kwargs
    with pytest.raises(exc, match=r"parameter of calibrate_noise must be"):
        calibrate_noise(**args)


@pytest.mark.parametrize("eps", [1e-9, 1e-3, 1e3, 1e6])
@pytest.mark.parametrize("delta", [1e-300, 0.999])
@pytest.mark.parametrize("count", [1, 10**15])
def test_whole_supported_range(eps, delta, count):
    for method in ("paper", "cks", "exact"):
        res = calibrate_noise(eps, delta, count, method=method)
        assert math.isfinite(res.noise_multiplier) and res.noise_multiplier > 0
        assert gaussian_epsilon(res.noise_multiplier, count, delta, method) <= eps


@pytest.mark.parametrize("eps", [1e308, 1e-300, 2e6])
def test_outside_supported_range_names_target_epsilon(eps):
    with pytest.raises(ValueError, match=r"^The 'target_epsilon' parameter of calibrate_noise"):
        calibrate_noise(eps, 1e-6, 100)


def test_convergence_error_reports_the_bracket(monkeypatch):
    import accounting.calibration as cal
    from accounting import ConvergenceError

    monkeypatch.setattr(cal, "gaussian_epsilon", lambda *args: 5.0)  # never meets eps=1
    cal._calibrate_one.cache_clear()  # results are cached (calibration is pure)
    with pytest.raises(ConvergenceError, match="No noise multiplier") as info:
        calibrate_noise(1.0, 1e-6, 100, method="exact")
    cal._calibrate_one.cache_clear()
    lo, hi = info.value.bracket
    assert 0 < lo < hi
