"""TNBSelectionEvent (Papernot & Steinke 2022, Theorem 2): an independent check by enumeration.

A base mechanism with a small totally ordered output set has an exactly computable Renyi
divergence, and so does "best of K runs": its CDF is ``E[F(y)^K] = G(F(y))`` with ``G`` the
probability generating function of ``K``, written here in closed form (independent of
``accounting.selection.tnb_pmf``).  The theorem's bound must hold for every pair, order and
distribution tried.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from accounting import TNBSelectionEvent, ZCDPAccountant, ZCDPEvent, event_from_dict
from accounting.selection import rdp_delta, rdp_epsilon, selection_rdp, tnb_pmf


def pgf(s: np.ndarray, eta: float, gamma: float) -> np.ndarray:
    """``E[s^K]`` for ``K ~ D_{eta, gamma}`` (PS22, Section 2), closed form."""
    if eta == 0:
        return np.log1p(-(1 - gamma) * s) / math.log(gamma)
    return ((1 - (1 - gamma) * s) ** (-eta) - 1) / (gamma**-eta - 1)


def renyi(p: np.ndarray, q: np.ndarray, alpha: float) -> float:
    t = alpha * np.log(p) + (1 - alpha) * np.log(q)
    m = t.max()
    return float((m + np.log(np.sum(np.exp(t - m)))) / (alpha - 1))


def best_of_k(p: np.ndarray, eta: float, gamma: float) -> np.ndarray:
    cdf = np.concatenate([[0.0], np.cumsum(p)])
    cdf[-1] = 1.0
    return np.diff(pgf(cdf, eta, gamma))


def base_rdp(p, q, alpha):
    return max(renyi(p, q, alpha), renyi(q, p, alpha))


PAIRS = []
_rng = np.random.default_rng(0)
for _ in range(12):
    m = int(_rng.integers(2, 7))
    a = _rng.normal(size=m)
    b = a + _rng.normal(scale=_rng.choice([0.05, 0.3, 1.0]), size=m)
    PAIRS.append((np.exp(a) / np.exp(a).sum(), np.exp(b) / np.exp(b).sum()))


@pytest.mark.parametrize("eta, gamma", [(0.0, 0.05), (0.0, 0.3), (1.0, 0.1), (0.5, 0.2),
                                        (-0.5, 0.1)])
def test_pmf_matches_the_generating_function(eta, gamma):
    ks = np.arange(1, 4000)
    pmf = np.array([tnb_pmf(int(k), eta, gamma) for k in ks])
    assert pmf.sum() == pytest.approx(1.0, abs=1e-9)
    s = 0.7
    assert np.sum(pmf * s**ks) == pytest.approx(pgf(np.array(s), eta, gamma), rel=1e-9)
    assert np.sum(pmf * ks) == pytest.approx(TNBSelectionEvent(1.0, eta, gamma).expected_runs,
                                            rel=1e-6)


@pytest.mark.parametrize("eta, gamma", [(0.0, 0.05), (1.0, 0.1), (0.5, 0.3)])
def test_theorem_2_bounds_the_exact_divergence(eta, gamma):
    runs = TNBSelectionEvent(1.0, eta, gamma).expected_runs
    checked = 0
    for p, q in PAIRS:
        A, B = best_of_k(p, eta, gamma), best_of_k(q, eta, gamma)
        for alpha in (1.5, 2.0, 4.0, 8.0):
            exact = max(renyi(A, B, alpha), renyi(B, A, alpha))
            bound = min(
                base_rdp(p, q, alpha) + (1 + eta) * (1 - 1 / lh) * base_rdp(p, q, lh)
                + (1 + eta) * math.log(1 / gamma) / lh + math.log(runs) / (alpha - 1)
                for lh in (1.0001, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0))
            assert exact <= bound + 1e-12
            checked += 1
    assert checked == 4 * len(PAIRS)


@pytest.mark.parametrize("eta, gamma", [(0.0, 0.04), (1.0, 0.2)])
def test_the_zcdp_specialisation_bounds_the_exact_divergence(eta, gamma):
    alphas = np.exp(np.linspace(np.log(1.001), np.log(2000.0), 400))
    for p, q in PAIRS:
        rho = 1.01 * max(base_rdp(p, q, a) / a for a in alphas)  # the base is rho-zCDP
        ev = TNBSelectionEvent(rho, eta, gamma)
        A, B = best_of_k(p, eta, gamma), best_of_k(q, eta, gamma)
        for alpha in (1.2, 2.0, 5.0, 20.0):
            exact = max(renyi(A, B, alpha), renyi(B, A, alpha))
            assert exact <= selection_rdp(ev, alpha) + 1e-12


def test_accountant_composes_selection_as_an_rdp_curve():
    sel = TNBSelectionEvent(0.01, 0.0, 0.04)
    acc = ZCDPAccountant().compose(sel).compose(ZCDPEvent(0.005))
    # brute force: CKS20 Prop. 12 on a fine grid of orders, written out independently
    alphas = np.exp(np.linspace(np.log(1.0001), np.log(1e4), 200_000))
    curve = np.array([selection_rdp(sel, a) for a in alphas[::50]]) + 0.005 * alphas[::50]
    a = alphas[::50]
    eps_grid = np.min(curve + np.log1p(-1 / a) - (np.log(1e-6) + np.log(a)) / (a - 1))
    eps = acc.get_epsilon(1e-6, "cks")
    assert eps <= eps_grid + 1e-9 and eps == pytest.approx(eps_grid, rel=1e-3)
    assert acc.get_epsilon(1e-6) == min(acc.epsilons(1e-6).values())
    assert "exact" not in acc.epsilons(1e-6)
    # delta and epsilon are inverse conversions
    assert acc.get_delta(eps, "cks") == pytest.approx(1e-6, rel=1e-3)
    # more rho in the base, more epsilon
    assert ZCDPAccountant().compose(TNBSelectionEvent(0.02, 0.0, 0.04)).get_epsilon(1e-6) > (
        ZCDPAccountant().compose(sel).get_epsilon(1e-6))


def test_event_round_trip_and_validation():
    ev = TNBSelectionEvent(0.01, 1.0, 0.2)
    assert event_from_dict(json.loads(json.dumps(ev.to_dict()))) == ev
    with pytest.raises(ValueError, match="'gamma' parameter of TNBSelectionEvent"):
        TNBSelectionEvent(0.01, 1.0, 1.5)
    assert rdp_epsilon(lambda a: selection_rdp(ev, a), 1e-6) > 0
    assert 0 < rdp_delta(lambda a: selection_rdp(ev, a), 2.0) < 1e-6
