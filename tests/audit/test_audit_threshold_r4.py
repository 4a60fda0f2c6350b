"""Round-4 mutation gap in dpboost/audit_threshold.py: a leak in either direction is caught.

The audit's distinguisher says "D'" when a statistic is above a threshold; a release that
leaks by being *lower* on D' than on D is only caught through the negated statistics.  The
broken release below returns the cut -1/4 on D' and +1/4 on D, without noise (a perfect
distinguisher: every epsilon claim is false), and must be flagged whatever the direction.
"""

from __future__ import annotations

from unittest import mock

import pytest

from dpboost import private_threshold as pt
from dpboost.audit_threshold import audit_threshold


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_noiseless_leak_is_flagged_in_either_direction(sign):
    def leaky(u, y_pm, rho, d, *, rng):
        cut = sign * (0.25 if y_pm[0] == -1 else -0.25)  # row 0 is -1 only in D'
        return pt.ThresholdFit(cut, 1.0, 51, 1, 1.0, 0.0)

    with mock.patch.object(pt, "private_threshold", leaky):
        result = audit_threshold(epsilon=2.0, delta=1e-3, runs=2_000, random_state=0)
    assert not result.passed and result.epsilon_lower > 4.0


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_the_mechanism_runs_at_the_full_claimed_budget(epsilon):
    """The audit must run the real mechanism at the rho whose two draws' epsilon_0 add up to
    the claim (module docstring), not less: a quieter run always passes.  The rho passed to
    private_threshold is observed and its own event (threshold_event) is summed."""
    seen = []
    real = pt.private_threshold

    def recording(u, y_pm, rho, d, *, rng):
        seen.append(rho)
        return real(u, y_pm, rho, d, rng=rng)

    with mock.patch.object(pt, "private_threshold", recording):
        audit_threshold(epsilon=epsilon, delta=1e-3, runs=100, random_state=0)
    assert len(set(seen)) == 1
    total = sum(ev.epsilon for ev in pt.threshold_event(seen[0]).events)
    assert epsilon * (1 - 1e-6) <= total <= epsilon * (1 + 1e-12)
