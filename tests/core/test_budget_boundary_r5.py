"""The estimator refuses a budget at the boundary in its own words (round 5).

``target_delta`` must lie in the open interval (0, 1): ``delta = 0`` is pure DP, which the
Gaussian releases cannot meet, and ``delta = 1`` is no guarantee at all.  ``target_epsilon``
must be a positive finite float.  Kills ES01 (the estimator's own check widened to the closed
interval [0, 1]): the values were still refused, but deep inside by ``calibrate_noise``, an
internal function the user never called, instead of by the estimator under the house template
that names the parameter and its owner (the message a ``dpboost train`` user and the CLI's
error mapping rely on).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier

X = np.random.default_rng(0).normal(size=(100, 3)) / 4
Y = np.arange(100) % 2


@pytest.mark.parametrize("delta", [0.0, 1.0, -1e-9, 1.5, math.nan, math.inf])
@pytest.mark.parametrize("call", ["fit", "planned_privacy_event"])
def test_delta_outside_the_open_unit_interval_is_refused_by_the_estimator(delta, call):
    est = PrivateHalfspaceClassifier(1.0, delta, classes=[0, 1])
    with pytest.raises(ValueError) as caught:
        est.fit(X, Y) if call == "fit" else est.planned_privacy_event()
    text = str(caught.value)
    assert "'target_delta' parameter of PrivateHalfspaceClassifier" in text, text
    assert "(0, 1)" in text


@pytest.mark.parametrize("eps", [0.0, -1.0, math.nan, math.inf])
def test_epsilon_not_positive_and_finite_is_refused_by_the_estimator(eps):
    with pytest.raises(ValueError, match="'target_epsilon' parameter of "
                                         "PrivateHalfspaceClassifier"):
        PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1]).planned_privacy_event()
