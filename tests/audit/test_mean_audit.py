"""The audit of the input map's private mean (dpboost.audit_input)."""

import pytest

from dpboost.audit import DEFAULT_DELTA, DEFAULT_EPSILON, DEFAULT_RUNS, _claim, expected_power
from dpboost.audit_input import _audit_mean, audit_mean
from dpboost.input_map import mean_mechanism


def test_the_pair_is_at_the_sensitivity_and_the_design_has_power():
    result = audit_mean(runs=2000, random_state=3)
    assert result.setting == "mean" and result.distance_over_sensitivity == pytest.approx(1.0)
    assert result.passed
    # The release's effective noise is within 0.1% of z * 2R/n (the grid and the error bound),
    # so the likelihood ratio shifts by mu ~ 1/z on D' and by 2/z when the noise is halved.
    z, eps = _claim(DEFAULT_EPSILON, DEFAULT_DELTA, 1)
    mech = mean_mechanism(20, 4, 1.0, 1 / (2 * z * z))
    assert mech.sigma == pytest.approx(z * 2 / 20, rel=2e-3)
    assert expected_power(2.0 / z, epsilon_claimed=eps, delta=DEFAULT_DELTA,
                          runs=DEFAULT_RUNS) > 0.9999
    assert expected_power(1.0 / z, epsilon_claimed=eps, delta=DEFAULT_DELTA,
                          runs=DEFAULT_RUNS) < 0.01


@pytest.mark.slow
def test_the_real_mean_passes_and_a_half_noise_mean_is_flagged():
    # measured at these seeds: epsilon_lower 1.19 (real) and 2.39 (half noise) against 2.0
    real = audit_mean(random_state=0)
    assert real.passed and real.epsilon_lower <= DEFAULT_EPSILON
    broken = _audit_mean(epsilon=DEFAULT_EPSILON, delta=DEFAULT_DELTA, runs=DEFAULT_RUNS, n=20,
                         norm_bound=1.0, random_state=1, _noise_factor=0.5)
    assert not broken.passed and broken.epsilon_lower > DEFAULT_EPSILON


def test_cli_audits_the_mean(capsys):
    import json

    from dpboost.cli import main

    code = main(["audit", "--setting", "mean", "--json", "--runs", "2000", "--seed", "0"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["setting"] == "mean" and out["passed"] and out["runs"] == 2000
