"""The plan cannot know whether a multiclass fit pre-scales: that choice reads ``n``.

``planned_privacy_event()`` lists one row-norm histogram at the whole share; a fit whose
whitening is released (:func:`dpboost.whitening.worthwhile`, a rule on ``n``, ``d``, ``R`` and
the share) spends it as two histograms of half the share (``RunPlan.with_prescale``).  The same
parameters give the same plan for 300 rows and for 20,000 rows, and the two fits differ in
structure but not in total (:mod:`dpboost.budget_plan`).
"""

from __future__ import annotations

import numpy as np
import pytest

from accounting import SelfComposedEvent, ZCDPAccountant, event_from_dict
from dpboost import PrivateHalfspaceClassifier
from dpboost.multiclass import multiclass_plan
from dpboost.whitening import worthwhile


def _rho(event):
    return ZCDPAccountant().compose(event).rho


def _blobs(n, seed=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.hstack([0.3 * np.eye(10)[y] + rng.normal(0, 0.1, (n, 10)), np.full((n, 1), 0.2)])
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None], y


def _norms(est):
    (entry,) = [m for m in est.privacy_report_["mechanisms"]
                if m["name"].startswith("row-norm histogram")]
    return event_from_dict(entry["event"])


def test_the_decision_needs_n():
    est = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2])
    plan = multiclass_plan(est, est._settings(), 3)
    assert plan.rho_whitening > 0 and not plan.norms_twice
    assert not worthwhile(300, 11, 1.0, plan.rho_whitening)
    assert worthwhile(20_000, 11, 1.0, plan.rho_whitening)


def test_one_plan_two_structures_one_total():
    fits = {}
    for n in (300, 20_000):
        X, y = _blobs(n)
        est = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2], random_state=1)
        planned = est.planned_privacy_event()  # before any data
        fits[n] = est.fit(X, y)
        assert est.planned_privacy_event() == planned
        assert _rho(est.privacy_event_) == pytest.approx(_rho(planned), rel=1e-9)
        assert _rho(est.privacy_event_) <= _rho(planned) * (1 + 1e-11)
    assert fits[300].planned_privacy_event() == fits[20_000].planned_privacy_event()
    small, large = _norms(fits[300]), _norms(fits[20_000])
    assert not isinstance(small, SelfComposedEvent)
    assert isinstance(large, SelfComposedEvent) and large.count == 2
    # the planned histogram (whole share) costs what the two halves cost, up to the grid's
    # rounding of each variance (the difference went to the rounds)
    planned_norms = [e for e in fits[300].planned_privacy_event().events
                     if e == small]
    assert planned_norms and _rho(large) == pytest.approx(_rho(small), rel=0.05)
