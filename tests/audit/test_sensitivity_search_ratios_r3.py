"""Pins ``dpboost.sensitivity_search``: the ratios it reports and its pass rule.

Kills mutants X01 (the distance ratio divided by ``4R`` instead of ``2R``) and X02 (``passed``
accepts a TV ratio up to 2).  The module had no test at all.

Why these properties.  The per-round centre bound is ``||z - z'|| <= 2R/(kappa n)`` and the
``capped`` strategy is built so that it is attained exactly (the replaced row capped at weight 1
in both samples, its flip moves the centre by ``2R/(kappa n)``; the docstring: "showing that bound
is tight").  So the capped strategy's ``max_distance_ratio`` must be 1 (to rounding), at any
``kappa``, ``n``, ``R``; a ratio formed against the wrong bound is 1/2.  It is also checked on
one capped pair built by hand, through ``neighbour_gap``, against ``2R/(kappa n)``.  Lemma 25
bounds the TV by ``1/(kappa n)``: ``passed`` must be False as soon as a pair's TV exceeds it
(here a pair with TV ratio 1.5, injected through ``neighbour_gap``).
"""

import numpy as np
import pytest

import dpboost.sensitivity_search as ss
from dpboost.sensitivity_search import neighbour_gap, search_sensitivity
from dpboost.weak_learners import HalfspaceHypothesis


@pytest.mark.parametrize("n,d,kappa,lr,R,seed", [(12, 3, 0.5, 1.0, 1.0, 0),
                                                 (20, 4, 0.3, 0.5, 2.5, 1)])
def test_capped_strategy_attains_the_centre_bound(n, d, kappa, lr, R, seed):
    res = search_sensitivity(pairs=40, n=n, d=d, kappa=kappa, learning_rate=lr, norm_bound=R,
                             random_state=seed)
    capped = res.by_strategy["capped"]["max_distance_ratio"]
    assert capped == pytest.approx(1.0, abs=1e-9)
    assert res.max_distance_ratio == pytest.approx(1.0, abs=1e-9)
    assert res.max_tv_ratio <= 1 + 1e-9 and res.passed


def test_hand_built_capped_pair_moves_the_centre_by_two_r_over_kappa_n():
    n, kappa, R = 10, 0.5, 2.0
    u = np.array([1.0, 0.0, 0.0])
    y = np.array([1.0, -1.0] * 5)
    X = R * np.outer(y, u)
    X[0] = np.array([0.0, R, 0.0])  # orthogonal to the history, on the sphere
    hyps = [HalfspaceHypothesis(2.0 * u / R)] * 30
    y2 = y.copy()
    y2[0] = -y[0]
    _, dist = neighbour_gap(X, y, X, y2, hyps, kappa=kappa, learning_rate=1.0)
    assert dist == pytest.approx(2 * R / (kappa * n), rel=1e-9)


def test_a_tv_above_lemma_25_fails_the_search(monkeypatch):
    def gap(X, y, X2, y2, hyps, *, kappa, learning_rate):
        return 1.5 / (kappa * len(y)), 0.0

    monkeypatch.setattr(ss, "neighbour_gap", gap)
    res = search_sensitivity(pairs=8, random_state=0)
    assert res.max_tv_ratio == pytest.approx(1.5)
    assert not res.passed
