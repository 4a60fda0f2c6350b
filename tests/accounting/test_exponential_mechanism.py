"""The exponential mechanism's event: ``epsilon^2 / 8``-zCDP (Cesar & Rogers 2021, Lemma 3.2).

Checked three ways: the Renyi divergences of the mechanism itself on neighbouring utilities
(any utilities, any order alpha), the tightness of the bound as epsilon -> 0, and dp-accounting's
Renyi curve of randomized response, which is the two-candidate mechanism exactly.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import logsumexp

from accounting import (
    ComposedEvent,
    DiscreteGaussianEvent,
    ExponentialMechanismEvent,
    ZCDPAccountant,
)


def _log_em(utility: np.ndarray, epsilon: float) -> np.ndarray:
    """Log-probabilities of ``P(k) ~ exp(epsilon u_k / 2)`` (sensitivity 1)."""
    z = 0.5 * epsilon * np.asarray(utility, dtype=np.float64)
    return z - logsumexp(z)


def _renyi(logp: np.ndarray, logq: np.ndarray, alpha: float) -> float:
    return float(logsumexp(alpha * logp + (1.0 - alpha) * logq) / (alpha - 1.0))


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(-1, 1)), min_size=2, max_size=12),
       st.floats(0.01, 3.0), st.sampled_from([1.01, 1.5, 2.0, 4.0, 8.0, 32.0, 256.0]))
def test_neighbouring_draws_have_renyi_divergence_at_most_alpha_epsilon_squared_over_8(
        pairs, epsilon, alpha):
    u = np.array([a for a, _ in pairs])
    u_prime = u + np.array([b for _, b in pairs])  # replace-one: each utility moves by <= 1
    rho = ZCDPAccountant().compose(ExponentialMechanismEvent(epsilon)).rho
    d = _renyi(_log_em(u, epsilon), _log_em(u_prime, epsilon), alpha)
    assert d <= alpha * rho * (1 + 1e-9) + 1e-12


def test_the_bound_is_tight_for_two_candidates_as_epsilon_goes_to_zero():
    # u = (1, 0) against (0, 1): KL = (eps/2) tanh(eps/4), which tends to eps^2 / 8
    epsilon = 0.02
    logp, logq = _log_em([1, 0], epsilon), _log_em([0, 1], epsilon)
    kl = float(np.sum(np.exp(logp) * (logp - logq)))
    assert 0.999 < kl / (epsilon ** 2 / 8) <= 1.0


def test_two_candidates_match_dp_accounting_randomized_response():
    from dp_accounting import dp_event
    from dp_accounting.privacy_accountant import NeighboringRelation
    from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant

    orders = [1.5, 2.0, 4.0, 8.0, 32.0]
    for epsilon in (0.05, 0.6, 2.0):
        # keep the true bucket with probability e^(eps/2) / (1 + e^(eps/2)) = 1 - p / 2
        p = 2.0 / (1.0 + math.exp(epsilon / 2))
        acc = RdpAccountant(orders, neighboring_relation=NeighboringRelation.REPLACE_ONE)
        acc.compose(dp_event.RandomizedResponseDpEvent(noise_parameter=p, num_buckets=2))
        ours = [_renyi(_log_em([1, 0], epsilon), _log_em([0, 1], epsilon), a) for a in orders]
        np.testing.assert_allclose(ours, acc._rdp, rtol=1e-9)
        rho = ZCDPAccountant().compose(ExponentialMechanismEvent(epsilon)).rho
        assert all(r <= a * rho for r, a in zip(acc._rdp, orders))


def test_composition_adds_rho_and_pure_dp_would_cost_four_times_more():
    ev = ExponentialMechanismEvent(0.4)
    acc = ZCDPAccountant().compose(ComposedEvent((ev, DiscreteGaussianEvent(5.0))))
    assert math.isclose(acc.rho, 0.4 ** 2 / 8 + 0.5 / 25.0)
    assert not acc.is_gaussian  # the exact GDP conversion does not apply
