"""Pins the noise on each run's validation score in PrivateSelection (PS22, base algorithm Q).

Kills mutants P02 (the score's share of rho doubled: ``rho_score = 2 SCORE_SHARE rho``) and
P03 (the score's sigma computed as ``sqrt(1/(4 rho_score))`` instead of ``sqrt(1/(2 rho_score))``).

Why this property: ``Q`` (train, then score the validation part with a count of correct
predictions, replace-one sensitivity 1) must be ``rho_Q``-zCDP, the ``rho`` of the
TNBSelectionEvent the search reports.  The training runs are checked against
``(1 - SCORE_SHARE) rho_Q`` elsewhere; here the discrete Gaussian's variance ``t m`` handed to the
runs must satisfy ``1 / (2 t m) <= SCORE_SHARE rho_Q`` (Bun & Steinke 2016, Prop. 1.6 /
CKS20 Thm 14: sensitivity 1, variance ``s^2`` is ``1/(2 s^2)``-zCDP), so that the training and the
score compose (Lemma 14 of BCS20) to at most ``rho_Q``, and ``t m`` exceeds the smallest such
variance by less than ``t`` (lattice_variance).  The fit is stopped at the variance's
computation, before any training, so the test is fast.
"""

import math

import numpy as np
import pytest

import dpboost.selection as selection
from dpboost.mechanisms import lattice_variance
from dpboost.selection import SCORE_SHARE, PrivateSelection


class _Stop(Exception):
    pass


@pytest.mark.parametrize("eps,delta,eta", [(1.0, 1e-6, 0.0), (2.0, 1e-5, 1.0), (0.5, 1e-7, 0.0)])
def test_score_noise_spends_only_the_score_share(monkeypatch, eps, delta, eta):
    seen = []

    def spy(sigma):
        seen.append(sigma)
        raise _Stop

    monkeypatch.setattr(selection, "lattice_variance", spy)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 3)) / 3
    y = np.where(X[:, 0] > 0, 1, -1)
    sel = PrivateSelection(eps, delta, eta=eta, classes=[-1, 1], random_state=0)
    rho_q = sel.planned_privacy_event().rho
    with pytest.raises(_Stop):
        sel.fit(X, y)
    (sigma,) = seen
    t, m = lattice_variance(sigma)
    variance = t * m
    rho_score = 0.5 / variance
    assert rho_score <= SCORE_SHARE * rho_q * (1 + 1e-12)
    # not needlessly large either: within one lattice step t of 1 / (2 SCORE_SHARE rho_Q)
    assert variance < 0.5 / (SCORE_SHARE * rho_q) + t
    # the whole base algorithm: training share plus score share is rho_Q
    assert (1 - SCORE_SHARE) * rho_q + rho_score <= rho_q * (1 + 1e-12)
    assert math.isclose(sigma * sigma, 0.5 / (SCORE_SHARE * rho_q), rel_tol=1e-12)
