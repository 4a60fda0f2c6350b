"""The private input scale's histogram noise against its sensitivity and event (round 5).

Kills DF01 (``norm_scale_from_counts`` drawing its noise for ``sigma^2 = 1/(2 rho)`` instead
of ``1/rho``).  Replacing one row moves one row-norm bin count down by 1 and another up by 1:
L2 sensitivity ``sqrt 2``, so ``rho``-zCDP needs a discrete Gaussian of variance at least
``(sqrt 2)^2 / (2 rho) = 1/rho`` on each of the 41 counts (CKS20 Theorem 14), and the event
:func:`~dpboost.defaults.norm_histogram_event` the plan and the report name claims exactly
that draw.  The variance the sampler is actually called with is recorded here and checked
against both; a halved variance silently doubles the histogram's real cost.

Kills DF06 (``split_budget`` leaving the whitening share in the rounds' budget): the shares
must add up to the calibrated ``rho`` for every combination of the optional releases, or the
run spends ``rho`` plus the whitening's 5% and exceeds ``(target_epsilon, target_delta)``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import dpboost.defaults as defaults
from accounting import ZCDPAccountant
from dpboost.defaults import (NORM_BINS, norm_histogram_event, private_norm_scale,
                              split_budget)


@pytest.mark.parametrize("rho", [1e-4, 3e-3, 0.2])
def test_the_norm_histogram_noise_is_what_its_event_claims(monkeypatch, rho):
    seen = []
    real = defaults.sample_discrete_gaussian

    def recorder(sigma_squared, size=None, *, rng):
        seen.append((sigma_squared, size))
        return real(sigma_squared, size, rng=rng)

    monkeypatch.setattr(defaults, "sample_discrete_gaussian", recorder)
    X = np.random.default_rng(0).normal(size=(500, 4)) / 6
    private_norm_scale(X, 1.0, rho, rng=np.random.default_rng(1))
    ((variance, size),) = seen
    assert size == NORM_BINS
    assert variance >= 1.0 / rho  # sensitivity sqrt 2: (sqrt 2)^2 / (2 rho)
    spent = 2.0 / (2.0 * variance)  # rho of N_Z(0, variance) at L2 sensitivity sqrt 2
    event = norm_histogram_event(rho)
    assert ZCDPAccountant().compose(event).rho == pytest.approx(spent, rel=1e-12)
    assert spent <= rho * (1 + 1e-12)


@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=5)))
def test_the_budget_shares_add_up_to_the_calibrated_rho(flags):
    count, calibration, norms, mean, whitening = flags
    b = split_budget(1.0, 1e-6, count=count, calibration=calibration, norms=norms, mean=mean,
                     whitening=whitening)
    parts = (b.rho_count, b.rho_calibration, b.rho_rounds, b.rho_norms, b.rho_mean,
             b.rho_whitening)
    assert all(p >= 0 for p in parts)
    assert sum(parts) == pytest.approx(b.rho, rel=1e-12)
    assert (b.rho_whitening > 0) == whitening and (b.rho_mean > 0) == mean
