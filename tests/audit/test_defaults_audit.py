"""The black-box audit of the practical defaults (dpboost.audit_defaults).

A correct pipeline: the lower bound stays far below the target.  A pipeline that computes
one setting from the exact data (the count behind kappa and the prior, or the input centre)
makes a released scalar a deterministic function of the changed row: flagged.
Measured with these seeds (epsilon = 2, delta = 1e-3): 0.0 for the real pipeline (600 runs),
3.76 for both broken ones (400 runs: the largest bound 320 evaluation runs can give; 4.17 with
600).
"""

import pytest

from dpboost.audit_defaults import _audit_defaults, audit_defaults, defaults_audit_pair
from dpboost.cli import main

KW = dict(epsilon=2.0, delta=1e-3, runs=600, n=1200, n_rounds=8, norm_bound=1.0)


@pytest.mark.slow
def test_the_real_defaults_pass_and_exercise_every_mechanism():
    result = audit_defaults(**KW, random_state=0)
    assert result.passed and result.epsilon_lower < 1.0
    assert result.details["calibrated"]  # the count, the prior and the calibration all ran


@pytest.mark.slow
@pytest.mark.parametrize("variant,statistic", [("exact-count", "noisy_positive_count"),
                                               ("exact-mean", "input_centre . u")])
def test_a_setting_computed_from_the_exact_data_is_flagged(variant, statistic):
    # 400 runs: a statistic that separates the pair deterministically gives 3.76, the largest
    # bound 320 evaluation runs can give (600 runs: 4.17); the threshold is 3
    result = _audit_defaults(**{**KW, "runs": 400}, random_state=0, _variant=variant)
    assert not result.passed and result.epsilon_lower > 3.0
    assert result.details["most_separating_statistic"] == statistic


def test_the_pair_differs_in_row_zero_only():
    X, y, X2, y2 = defaults_audit_pair(200)
    assert (X[1:] == X2[1:]).all() and (y[1:] == y2[1:]).all()
    assert y[0] == 1 and y2[0] == -1 and (X[0] == -X2[0]).all()
    assert abs(float((y > 0).mean()) - 0.15) < 0.02


@pytest.mark.slow
def test_cli_defaults_setting(capsys):
    assert main(["audit", "--setting", "defaults", "--runs", "200", "--seed", "0"]) == 0
    assert "audit (defaults, 200 runs, T=8)" in capsys.readouterr().out
