"""Time padding of a private selection: ``K_pad`` and ``P[K > K_pad]`` against independent sums.

``PrivateSelection(time_padding_share=s)`` runs ``max(K, K_pad)`` times so that its wall time
does not reveal ``K`` except with probability ``P[K > K_pad]``, which it charges as
``(1 + e^eps) P[K > K_pad]`` of ``delta``.  The tail must be right (an optimistic tail would
under-charge delta) and ``K_pad`` the smallest such count (a larger one costs time for
nothing).  References: scipy's negative binomial and logarithmic distributions (``D_{eta,
gamma}`` is the negative binomial ``NB(eta, gamma)`` conditioned on ``K >= 1``; ``eta = 0`` is
the logarithmic distribution with ``p = 1 - gamma``), and an mpmath sum for ``eta < 0``.
"""

from __future__ import annotations

import math

import mpmath
import pytest
from scipy import stats

from accounting.selection import TNBSelectionEvent, padding_runs, rdp_epsilon, selection_rdp
from dpboost.selection import PrivateSelection

CASES = [(0.0, 0.0397), (0.0, 0.2), (1.0, 0.133), (0.5, 0.05), (3.0, 0.3), (2.0, 0.01)]
BOUNDS = [0.3, 1e-3, 2.6e-8, 1e-12]


def _scipy_tail(k: int, eta: float, gamma: float) -> float:
    """``P[K > k]`` for ``K ~ D_{eta, gamma}`` from scipy (an independent implementation)."""
    if eta == 0:
        return float(stats.logser(1.0 - gamma).sf(k))
    return float(stats.nbinom(eta, gamma).sf(k) / -math.expm1(eta * math.log(gamma)))


def _mp_tail(k: int, eta: float, gamma: float) -> float:
    """``P[K > k]`` by summing the pmf in 50-digit arithmetic (``eta`` in (-1, 0) too)."""
    mpmath.mp.dps = 50
    eta, g = mpmath.mpf(eta), mpmath.mpf(gamma)
    norm = g ** (-eta) - 1

    def pmf(j):
        if eta == 0:  # the logarithmic distribution (the limit eta -> 0)
            return (1 - g) ** j / (j * mpmath.log(1 / g))
        return (mpmath.rf(eta, j) / mpmath.factorial(j)) * (1 - g) ** j / norm

    return float(1 - mpmath.fsum(pmf(j) for j in range(1, k + 1)))


@pytest.mark.parametrize("eta, gamma", CASES)
@pytest.mark.parametrize("bound", BOUNDS)
def test_padding_tail_matches_scipy_and_k_pad_is_the_smallest(eta, gamma, bound):
    k, tail = padding_runs(eta, gamma, bound)
    ref = _scipy_tail(k, eta, gamma)
    assert tail <= bound
    # never optimistic (the returned tail is an upper bound), and tight to 1e-6
    assert ref * (1 - 1e-12) <= tail <= ref * (1 + 1e-6)
    assert ref <= bound
    if k > 1:  # one run fewer would not do
        assert _scipy_tail(k - 1, eta, gamma) > bound


@pytest.mark.parametrize("eta, gamma", [(-0.5, 0.02), (-0.9, 0.1), (0.0, 0.0397), (1.0, 0.133)])
def test_padding_tail_matches_a_50_digit_sum(eta, gamma):
    k, tail = padding_runs(eta, gamma, 1e-7)
    ref = _mp_tail(k, eta, gamma)
    assert ref * (1 - 1e-12) <= tail <= ref * (1 + 1e-6)
    assert _mp_tail(k - 1, eta, gamma) > 1e-7


def test_geometric_padding_in_closed_form():
    """``eta = 1``: ``P[K > k] = (1 - gamma)^k``, so ``K_pad = ceil(log b / log(1 - gamma))``."""
    for gamma in (0.5, 0.133, 0.01):
        for b in (1e-3, 1e-9):
            k, tail = padding_runs(1.0, gamma, b)
            expected = math.ceil(math.log(b) / math.log1p(-gamma) - 1e-9)
            assert k == expected
            assert tail == pytest.approx((1 - gamma) ** k, rel=1e-6)


def test_a_walk_past_the_limit_is_refused():
    with pytest.raises(ValueError, match="past k = 1,000"):
        padding_runs(1.0, 1e-6, 1e-8, limit=1000)


@pytest.mark.parametrize("eps, delta, share, eta", [(1.0, 1e-6, 0.1, 0.0), (1.0, 1e-6, 0.5, 1.0),
                                                    (2.0, 1e-5, 0.3, 0.0)])
def test_the_padded_search_meets_the_whole_budget(eps, delta, share, eta):
    """``delta_s + (1 + e^eps) P[K > K_pad] <= delta`` and the search is calibrated at
    ``delta_s`` (its RDP curve converts to at most ``eps`` there, independently recomputed)."""
    sel = PrivateSelection(eps, delta, eta=eta, time_padding_share=share)
    _, delta_s, eta_, gamma, rho, _, _ = sel._plan()
    pad = sel._time_padding(eps, delta, eta_, gamma)
    k, tail = padding_runs(eta_, gamma, share * delta / (1 + math.exp(eps)))
    assert (pad["runs"], pad["tail_probability"]) == (k, tail)
    assert delta_s == pytest.approx((1 - share) * delta, rel=1e-12)
    assert delta_s + (1 + math.exp(eps)) * _scipy_tail(k, eta_, gamma) <= delta
    ev = TNBSelectionEvent(rho, eta_, gamma)
    assert rdp_epsilon(lambda a: selection_rdp(ev, a), delta_s, "cks") <= eps
    assert sel.planned_privacy_event() == ev


def test_padding_cost_at_the_default_plan():
    """The price, in runs, at the default plan (epsilon 1, delta 1e-6, five candidates,
    ``eta = 0``, ``E[K] = 7.5``) with a tenth of delta: ``K_pad = 336``, and
    ``E[max(K, K_pad)] = 336 + E[(K - K_pad)+]``, under 336.001 (45 times ``E[K]``)."""
    sel = PrivateSelection(1.0, 1e-6, time_padding_share=0.1)
    _, _, eta, gamma, _, _, _ = sel._plan()
    k = sel._time_padding(1.0, 1e-6, eta, gamma)["runs"]
    assert k == 336
    # E[(K - k)+] = sum_{j >= k} P[K > j], summed with scipy
    excess = sum(_scipy_tail(j, eta, gamma) for j in range(k, k + 2000))
    assert excess < 1e-3
    assert TNBSelectionEvent(1.0, eta, gamma).expected_runs == pytest.approx(7.5, rel=1e-6)
