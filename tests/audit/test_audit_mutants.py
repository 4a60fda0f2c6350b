"""Each bug the mutation review found surviving the suite is killed by a named test here.

* an optimistic accountant (noise calibrated as if mu were sqrt(T)/(2z)) that certifies itself:
  the audit must compare with the user's target, not with the accountant's report;
* a noiseless last coordinate: the audit pairs are rotated so every coordinate is tested;
* bugs in ``PrivateHalfspaceClassifier.fit`` itself (no clipping, the calibration count):
  the end-to-end audit trains the estimator on a worst-case pair.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import dpboost.audit as audit_module
import dpboost.estimator as estimator_module
from accounting import calibrate_noise
from dpboost.audit import audit_estimator, audit_round, rotation, run_audit_pair
from dpboost.mechanisms import LatticeGaussian


def _optimistic_calibration(*args, **kwargs):
    """The mutant: an accountant whose conversion halves the noise it needs (mu = sqrt(T)/(2z))."""
    result = calibrate_noise(*args, **kwargs)
    return dataclasses.replace(result, noise_multiplier=result.noise_multiplier / 2.0)


@pytest.mark.slow
def test_audit_fails_an_optimistic_accountant_even_when_its_report_agrees(monkeypatch):
    monkeypatch.setattr(audit_module, "calibrate_noise", _optimistic_calibration)
    result = audit_round(random_state=1)
    assert result.epsilon_claimed == audit_module.DEFAULT_EPSILON  # the target, not 4.71
    assert not result.passed


@pytest.mark.slow
def test_audit_catches_a_noiseless_last_coordinate(monkeypatch):
    real = LatticeGaussian.release

    def leaky(self, value, *, rng):
        out = real(self, value, rng=rng)
        out[-1] = self.granularity * np.rint(np.asarray(value)[-1] / self.granularity)
        return out

    monkeypatch.setattr(LatticeGaussian, "release", leaky)
    result = audit_round(runs=4000, random_state=2)
    assert not result.passed and result.epsilon_lower > result.epsilon_claimed


def test_audit_pairs_cover_every_coordinate():
    X, _, _ = run_audit_pair(10, 1.0)
    assert np.all(np.abs(X[0]) == pytest.approx(0.5))
    assert np.allclose(rotation(8) @ rotation(8).T, np.eye(8))
    with pytest.raises(ValueError, match="power of two"):
        rotation(3)


@pytest.mark.slow
def test_end_to_end_audit_passes_the_real_estimator():
    result = audit_estimator(runs=4000, n_rounds=8, random_state=1)
    assert result.passed and result.setting == "estimator"
    assert 0.85 < result.distance_over_sensitivity <= 1.0


@pytest.mark.slow
def test_end_to_end_audit_catches_missing_clipping(monkeypatch):
    monkeypatch.setattr(estimator_module, "clip_rows", lambda X, R: X)
    assert not audit_estimator(runs=4000, n_rounds=8, random_state=1).passed


@pytest.mark.slow
def test_end_to_end_audit_catches_the_wrong_calibration_count(monkeypatch):
    real = estimator_module.calibrate_noise

    def one_round(eps, delta, count=1, method="best", **kwargs):
        return real(eps, delta, 1, method, **kwargs)

    monkeypatch.setattr(estimator_module, "calibrate_noise", one_round)
    assert not audit_estimator(runs=4000, n_rounds=8, random_state=1).passed
