"""Pins PrivateSelection's refusal of a candidate whose run would spend more than a run's rho.

Kills mutant P07 (the check ``planned > rho_train * (1 + 1e-9)`` loosened to
``planned > rho_train * 2``).

Why this property: Theorem 2 of Papernot & Steinke (2022) needs every run ``Q`` to be
``rho_Q``-zCDP; the training part gets ``(1 - SCORE_SHARE) rho_Q``.  ``_check_candidates``
refuses, before any data is touched, a candidate whose planned event exceeds that share.  A
candidate is made to plan 1.5 times its calibrated rho (its planned event composed with a
``ZCDPEvent`` of half its rho): the search must refuse it, and it must accept the unaltered one.
"""

import numpy as np
import pytest

from accounting import ZCDPAccountant
from accounting.events import ComposedEvent, ZCDPEvent
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.selection import PrivateSelection

real_plan = PrivateHalfspaceClassifier.planned_privacy_event


def _inflated(self):
    ev = real_plan(self)
    rho = ZCDPAccountant().compose(ev).rho
    return ComposedEvent((ev, ZCDPEvent(0.5 * rho)))


def test_a_candidate_over_the_run_budget_is_refused(monkeypatch):
    sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0)
    sel.planned_privacy_event()  # the unaltered candidates fit
    monkeypatch.setattr(PrivateHalfspaceClassifier, "planned_privacy_event", _inflated)
    with pytest.raises(ValueError, match="more than a run's"):
        sel.planned_privacy_event()
    fits = []
    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", lambda *a: fits.append(1))
    X = np.random.default_rng(0).normal(size=(400, 3)) / 3
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match="more than a run's"):
        sel.fit(X, y)
    assert fits == []
