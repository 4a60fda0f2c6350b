"""The audit of the small-data cut (dpboost.audit_threshold): the real exponential mechanisms
(cut, then slope) stay below their claim, and a cut returned without noise is flagged.
Measured with these seeds (epsilon = 2, delta = 1e-3): 0.659 for the real release on 20,000
runs (the cut's epsilon_0 is 1.5; a test on it reaches about half of that on this pair),
5.38 for the best cut on 2,000 runs."""

from unittest import mock

import numpy as np
import pytest

from dpboost import private_threshold as pt
from dpboost.audit_threshold import audit_threshold, threshold_audit_pair
from dpboost.cli import main


@pytest.mark.slow
def test_the_real_mechanism_passes_below_half_its_claim_on_this_pair():
    result = audit_threshold(epsilon=2.0, delta=1e-3, runs=20_000, random_state=0)
    assert result.passed and 0.5 < result.epsilon_lower <= 1.0
    details = result.details
    assert details["epsilon_0"] + details["slope_epsilon_0"] <= 2.0
    assert details["n_candidates"] == 51


def test_the_best_cut_without_noise_is_flagged():
    def best(u, y_pm, rho, d, *, rng):
        cuts = pt.candidate_cuts(d)
        k = int(np.argmax(pt.cut_utilities(u, y_pm, cuts)))
        return pt.ThresholdFit(float(cuts[k]), 1.0, cuts.size, 1, 1.0, 0.0)

    with mock.patch.object(pt, "private_threshold", best):
        result = audit_threshold(epsilon=2.0, delta=1e-3, runs=2_000, random_state=0)
    assert not result.passed and result.epsilon_lower > 4.0


def test_every_utility_moves_by_one_in_opposite_directions_across_zero():
    u, y, y2 = threshold_audit_pair(20)
    cuts = pt.candidate_cuts(31)
    gap = pt.cut_utilities(u, y, cuts) - pt.cut_utilities(u, y2, cuts)
    assert set(gap[(cuts >= -0.5) & (cuts < 0)]) == {1}
    assert set(gap[(cuts >= 0) & (cuts < 0.5)]) == {-1}


def test_cli_threshold_setting(capsys):
    assert main(["audit", "--setting", "threshold", "--runs", "2000", "--seed", "0"]) == 0
    assert "audit (threshold, 2000 runs" in capsys.readouterr().out
