"""An audit whose runs cannot exceed the claim says INCONCLUSIVE, never PASSED.

A trial found ``dpboost audit`` passing a mechanism with a thousandth of its noise: at a claim
of 8 on 20,000 runs the best possible test on the 8,000 evaluation runs per side gives 7.68
(Clopper-Pearson, 95%), so no mechanism could fail.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost import audit
from dpboost.audit_statistics import epsilon_detectable, epsilon_lower_bound, runs_to_detect
from dpboost.cli import main


@settings(max_examples=200, deadline=None)
@given(n0=st.integers(1, 5000), n1=st.integers(1, 5000), f0=st.floats(0, 1), f1=st.floats(0, 1),
       delta=st.sampled_from([0.0, 1e-9, 1e-5, 1e-3, 0.1]))
def test_no_error_counts_exceed_the_ceiling(n0, n1, f0, f1, delta):
    ceiling = epsilon_detectable(n0, n1, delta=delta)
    got = epsilon_lower_bound(int(f0 * n0), n0, int(f1 * n1), n1, delta=delta)
    assert got <= ceiling


@pytest.mark.parametrize("epsilon,delta", [(0.5, 1e-3), (2.0, 1e-3), (8.0, 1e-5), (12.0, 1e-9)])
def test_runs_to_detect_is_the_fewest_even_count(epsilon, delta):
    def ceiling(runs):
        m = runs // 2 - int(runs // 2 * 0.2)
        return epsilon_detectable(m, m, delta=delta)

    runs = runs_to_detect(epsilon, delta)
    assert runs % 2 == 0 and ceiling(runs) > epsilon >= ceiling(runs - 2)


def test_the_trials_case_is_inconclusive_not_passed(monkeypatch):
    """A thousandth of the noise, claim 8, 2,000 runs: the lower bound reaches the ceiling."""
    real = audit._learner

    def weak(noise_multiplier, *args, **kwargs):
        return real(noise_multiplier / 1000, *args, **kwargs)

    monkeypatch.setattr(audit, "_learner", weak)
    result = audit.audit_round(epsilon=8.0, delta=1e-5, runs=2000, random_state=0)
    assert result.passed and not result.conclusive and result.verdict == "INCONCLUSIVE"
    assert 0.99 * result.epsilon_detectable < result.epsilon_lower <= result.epsilon_detectable
    assert result.runs_needed == runs_to_detect(8.0, 1e-5) > 2000
    assert result.to_dict()["verdict"] == "INCONCLUSIVE"


def test_a_conclusive_pass_and_the_cli_exit_codes(capsys):
    ok = audit.audit_round(epsilon=2.0, delta=1e-3, runs=2000, random_state=0)
    assert ok.verdict == "PASSED" and ok.conclusive and ok.epsilon_detectable > 2.0
    assert main(["audit", "--target-epsilon", "8", "--runs", "200", "--seed", "0"]) == 3
    out = capsys.readouterr().out
    assert "INCONCLUSIVE" in out and f"--runs {runs_to_detect(8.0, 1e-3)} or more" in out
    assert main(["audit", "--target-epsilon", "8", "--runs", "200", "--seed", "0",
                 "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["conclusive"] is False
