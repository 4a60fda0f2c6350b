"""dpboost.theory: values at hand-computed points and monotonicity in every argument."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpboost import sample_complexity as bounds
from dpboost import theory as th

unit = st.floats(min_value=0.01, max_value=0.9)
small = st.floats(min_value=0.02, max_value=0.5)
eps_s = st.floats(min_value=0.01, max_value=10.0)
delta_s = st.floats(min_value=1e-12, max_value=1e-2)
beta_s = st.floats(min_value=1e-3, max_value=0.5)
factor = st.floats(min_value=1.05, max_value=3.0)


# ----------------------------------------------------------------------------- hand-computed points


def test_algorithm5_parameters_follow_the_proof_not_the_text():
    p = th.algorithm5_parameters(margin=0.1, accuracy=0.2)
    assert p.kappa == pytest.approx(0.05)
    assert p.gamma == pytest.approx(0.0125)
    assert p.learning_rate == pytest.approx(0.1 / 32)  # gamma/4, not tau/8
    assert p.learning_rate != pytest.approx(0.1 / 8)
    # T = 1024 log(1/kappa) / tau^2 = 1024 * 2.9957322... / 0.01 = 306762.98...
    assert p.n_rounds == math.ceil(1024 * math.log(20) / 0.01)
    assert p.n_rounds == 306763


def test_sigma_util_hand_value_and_advantage_is_gamma():
    # tau=0.2, T=100, beta=0.3: log(3T/beta) = log(1000); sigma = 0.2/(8 sqrt2 sqrt(log 1000))
    s = th.sigma_util(0.2, 100, 0.3)
    assert s == pytest.approx(0.2 / (8 * math.sqrt(2) * math.sqrt(math.log(1000.0))))
    assert th.sigma_util(0.2, 100, 0.3, c=1.0) == pytest.approx(s * math.sqrt(2))
    assert th.theorem27_advantage(0.2, s, 0.3 / 300) == pytest.approx(0.2 / 8)


def test_c_sqrt2_is_a_valid_one_sided_gaussian_tail():
    # P[N(0,1) <= -sqrt(2 log(1/xi))] <= xi for the xi the runner uses
    for xi in (0.5, 1e-2, 1e-4, 1e-8):
        assert stats.norm.cdf(-th.DEFAULT_C * math.sqrt(math.log(1 / xi))) <= xi
    # and the two-sided statement with log(2/xi)
    for xi in (0.5, 1e-3, 1e-9):
        assert 2 * stats.norm.sf(math.sqrt(2 * math.log(2 / xi))) <= xi


def test_theorem24_and_lemma38_close_the_sandwich():
    gamma, kappa = 0.05, 0.1
    rounds = th.theorem24_rounds(gamma, kappa)
    assert rounds == pytest.approx(16 * math.log(10) / 0.0025)
    assert th.lemma38_margin(gamma, kappa, rounds, gamma / 4) == pytest.approx(gamma)
    # the Algorithm 5 text's learning rate (2x gamma... tau/8 = 8 gamma/8 = gamma) gives nothing
    assert th.lemma38_margin(gamma, kappa, rounds, gamma) < 0
    assert th.theorem24_learning_rate(gamma) == pytest.approx(gamma / 4)


def test_lemma34_regret_hand_value():
    # lambda + KL/(lambda kappa n T) with KL = 3, lambda=0.5, kappa=0.25, n=8, T=6 -> 0.5 + 3/6
    assert th.lemma34_regret(0.5, 0.25, 6, 8, divergence=3.0) == pytest.approx(1.0)
    # default comparator: lambda + log(1/kappa)/(lambda T)
    assert th.lemma34_regret(0.5, 0.25, 6, 8) == pytest.approx(0.5 + math.log(4) / 3)


def test_theorem27_rho_matches_paper_and_tight_sensitivity():
    n, kappa, sigma = 1000, 0.25, 0.01
    assert th.theorem27_rho(n, kappa, sigma, slickness=1 / (kappa * n)) == pytest.approx(
        8 / (kappa * n * sigma) ** 2)
    # slickness 0: sensitivity 2/(kappa n), rho = Delta^2 / (2 sigma^2)
    assert th.theorem27_rho(n, kappa, sigma) == pytest.approx(
        (2 / (kappa * n)) ** 2 / (2 * sigma**2))


def test_lemma15_round_trip_and_reference():
    assert th.lemma15_epsilon(0.5, math.exp(-2)) == pytest.approx(0.5 + 2 * math.sqrt(1.0))
    for eps, delta in [(0.1, 1e-6), (1.0, 1e-9), (8.0, 1e-3)]:
        assert th.lemma15_epsilon(th.lemma15_max_rho(eps, delta), delta) == pytest.approx(eps)


def test_fat_shattering_and_bartlett_shawe_taylor():
    assert bounds.lemma29_fat_shattering(0.5) == pytest.approx(16.0)
    n, d, k, delta = 1e6, 100.0, 0.01, 0.04
    expected = k + math.sqrt(2 / n * (d * math.log(34 * math.e * n / d) * math.log2(578 * n)
                                      + math.log(4 / delta)))
    assert bounds.theorem28_error_bound(n, d, k, delta) == pytest.approx(expected)
    assert bounds.theorem28_error_bound(50, 100, 0.0, 0.1) == 1.0  # vacuous below d
    n_star = bounds.theorem28_samples(0.2, d, k, delta)
    assert bounds.theorem28_error_bound(n_star, d, k, delta) <= 0.2
    assert bounds.theorem28_error_bound(n_star * 0.999, d, k, delta) > 0.2
    assert bounds.theorem28_samples(0.1, d, 0.1, delta) == math.inf


def test_theorem19_and_claims_hand_values():
    assert bounds.theorem19_samples(0.1, 0.4 * math.exp(-3)) == pytest.approx(300.0)
    assert bounds.theorem19_deviation(0.01) == pytest.approx(0.18)
    with pytest.raises(ValueError, match="'delta' parameter of theorem19_samples"):
        bounds.theorem19_samples(0.1, 0.03)
    assert bounds.claim2_noise_rate(0.1, 0.2) == pytest.approx(0.1 * 0.2 / 32)
    # n > 96 ln(4/beta) / (alpha tau)
    assert bounds.claim2_noise_samples(0.1, 0.2, 0.05) == pytest.approx(96 * math.log(80) / 0.02)
    assert bounds.claim2_bad_noise_probability(960, 0.5, 0.2) == pytest.approx(math.exp(-1.0))
    # at n = claim2_noise_samples the Chernoff bound equals beta/4
    n = bounds.claim2_noise_samples(0.1, 0.2, 0.05)
    assert bounds.claim2_bad_noise_probability(n, 0.1, 0.2) == pytest.approx(0.05 / 4)
    # Claim 3 at xi = beta/(3T): at most beta/3
    assert bounds.claim3_bad_gaussian_probability(1000, 0.05 / 3000) <= 0.05 / 3
    assert bounds.claim3_bad_gaussian_probability(2, 0.5) == pytest.approx(0.75)
    assert bounds.claim4_generalization_samples(0.1, 0.001) == pytest.approx(math.log(400) / 0.01)


def test_claim1_closed_form():
    eps, delta, tau, alpha, beta = 0.5, 1e-6, 0.1, 0.1, 0.05
    p = th.algorithm5_parameters(tau, alpha)
    sigma = th.sigma_util(tau, p.n_rounds, beta)
    n = bounds.claim1_privacy_samples(eps, delta, tau, alpha, beta)
    # at that n the composed rho is exactly Lemma 15's budget
    rho_t = p.n_rounds * th.theorem27_rho(n, p.kappa, sigma, slickness=1 / (p.kappa * n))
    assert th.lemma15_epsilon(rho_t, delta) == pytest.approx(eps)
    tight = bounds.claim1_privacy_samples(eps, delta, tau, alpha, beta, sensitivity="tight")
    assert tight == pytest.approx(n / 2)


def test_sample_complexity_terms_and_dominance():
    sc = bounds.theorem33_sample_complexity(0.001, 1e-6, 0.1, 0.1, 0.05)
    assert set(sc.terms) == {"privacy", "accuracy", "generalization", "noise"}
    assert (sc.maximum == max(sc.terms.values())
            and sc.total == pytest.approx(sum(sc.terms.values())))
    assert sc.dominant == "privacy"
    # at large eps the transfer requirement eps_T = alpha/36 takes over
    assert bounds.theorem33_sample_complexity(1.0, 1e-6, 0.1, 0.1, 0.05).dominant == "accuracy"
    t30 = bounds.theorem30_sample_complexity(1.0, 1e-6, 0.1, 0.1, 0.05)
    assert set(t30.terms) == {"privacy", "accuracy", "noise"}
    assert t30["noise"] == pytest.approx(24 * math.log(60) / (0.025 * 0.1))


def test_privacy_term_scales_as_one_over_eps_alpha_tau2_up_to_logs():
    base = bounds.claim1_privacy_samples(0.01, 1e-6, 0.1, 0.1, 0.05)
    # eps: exactly 1/eps for small eps (rho_max ~ eps^2/(4L))
    assert bounds.claim1_privacy_samples(0.005, 1e-6, 0.1, 0.1, 0.05) / base == pytest.approx(
        2, rel=2e-3)
    # tau: slope 2 up to the sqrt(log(3T/beta)) factor
    ratio = bounds.claim1_privacy_samples(0.01, 1e-6, 0.05, 0.1, 0.05) / base
    assert 4.0 < ratio < 4.6


def test_errors_use_the_house_template():
    with pytest.raises(ValueError,
                       match=r"The 'margin' parameter of algorithm5_parameters must be"):
        th.algorithm5_parameters(margin=0.0, accuracy=0.1)
    with pytest.raises(TypeError, match=r"'accuracy' parameter"):
        th.algorithm5_parameters(margin=0.1, accuracy="0.1")
    with pytest.raises(ValueError, match=r"'failure_probability'"):
        th.sigma_util(0.1, 10, float("nan"))
    with pytest.raises(TypeError, match=r"'n_rounds'"):
        th.sigma_util(0.1, 10.5, 0.1)


# ----------------------------------------------------------------------------- monotonicity


@settings(max_examples=40)
@given(tau=small, alpha=unit, f=factor)
def test_algorithm5_monotone(tau, alpha, f):
    p = th.algorithm5_parameters(tau, alpha)
    assert th.algorithm5_parameters(min(tau * f, 1.0), alpha).n_rounds <= p.n_rounds
    assert th.algorithm5_parameters(tau, min(alpha * f, 0.99)).n_rounds <= p.n_rounds


@settings(max_examples=40)
@given(tau=small, rounds=st.integers(1, 10**6), beta=beta_s, f=factor)
def test_sigma_util_monotone(tau, rounds, beta, f):
    s = th.sigma_util(tau, rounds, beta)
    assert th.sigma_util(min(tau * f, 1.0), rounds, beta) >= s
    assert th.sigma_util(tau, int(rounds * f) + 1, beta) < s
    assert th.sigma_util(tau, rounds, min(beta * f, 0.99)) >= s
    assert th.sigma_util(tau, rounds, beta, c=2.0) < s


@settings(max_examples=40)
@given(tau=small, sigma=st.floats(1e-4, 1.0), xi=beta_s, f=factor)
def test_theorem27_monotone(tau, sigma, xi, f):
    a = th.theorem27_advantage(tau, sigma, xi)
    assert th.theorem27_advantage(min(tau * f, 1.0), sigma, xi) >= a
    assert th.theorem27_advantage(tau, sigma * f, xi) < a
    assert th.theorem27_advantage(tau, sigma, min(xi * f, 0.99)) >= a
    n, kappa = 1000.0, 0.2
    r = th.theorem27_rho(n, kappa, sigma)
    assert th.theorem27_rho(n * f, kappa, sigma) < r
    assert th.theorem27_rho(n, min(kappa * f, 1.0), sigma) < r
    assert th.theorem27_rho(n, kappa, sigma * f) < r
    assert th.theorem27_rho(n, kappa, sigma, slickness=0.01) > r


@settings(max_examples=40)
@given(gamma=st.floats(0.02, 0.4), kappa=unit, lam=st.floats(1e-3, 0.2), f=factor)
def test_round_bound_margin_regret_monotone(gamma, kappa, lam, f):
    t = th.theorem24_rounds(gamma, kappa)
    assert th.theorem24_rounds(min(gamma * f, 0.5), kappa) < t
    assert th.theorem24_rounds(gamma, min(kappa * f, 0.99)) < t
    m = th.lemma38_margin(gamma, kappa, t, lam)
    assert th.lemma38_margin(gamma, kappa, t * f, lam) > m
    assert th.lemma38_margin(min(gamma * f, 0.5), kappa, t, lam) > m
    r = th.lemma34_regret(lam, kappa, t, 500)
    assert th.lemma34_regret(lam, kappa, t * f, 500) < r
    assert th.lemma34_regret(lam, kappa, t, 500, divergence=1.0) < th.lemma34_regret(
        lam, kappa, t, 500, divergence=1.0 * f)


@settings(max_examples=30)
@given(eps=eps_s, delta=delta_s, tau=small, alpha=st.floats(0.02, 0.5), beta=beta_s, f=factor)
def test_claim1_monotone_in_every_argument(eps, delta, tau, alpha, beta, f):
    n = bounds.claim1_privacy_samples(eps, delta, tau, alpha, beta)
    assert bounds.claim1_privacy_samples(eps * f, delta, tau, alpha, beta) < n
    assert bounds.claim1_privacy_samples(eps, min(delta * f, 0.9), tau, alpha, beta) < n
    assert bounds.claim1_privacy_samples(eps, delta, min(tau * f, 1.0), alpha, beta) < n
    assert bounds.claim1_privacy_samples(eps, delta, tau, min(alpha * f, 0.99), beta) < n
    assert bounds.claim1_privacy_samples(eps, delta, tau, alpha, min(beta * f, 0.99)) < n


@settings(max_examples=30)
@given(eps=eps_s, delta=delta_s, tau=small, alpha=st.floats(0.02, 0.5), beta=beta_s, f=factor)
def test_theorem30_33_monotone(eps, delta, tau, alpha, beta, f):
    for fn in (bounds.theorem30_sample_complexity, bounds.theorem33_sample_complexity):
        n = fn(eps, delta, tau, alpha, beta).maximum
        assert fn(eps * f, delta, tau, alpha, beta).maximum <= n * (1 + 1e-12)
        assert fn(eps, min(delta * f, 0.9), tau, alpha, beta).maximum <= n * (1 + 1e-12)
        assert fn(eps, delta, min(tau * f, 1.0), alpha, beta).maximum < n
        assert fn(eps, delta, tau, min(alpha * f, 0.99), beta).maximum < n
        assert fn(eps, delta, tau, alpha, min(beta * f, 0.99)).maximum <= n


@settings(max_examples=40)
@given(n=st.floats(1e4, 1e9), d=st.floats(1.0, 1e3), k=st.floats(0, 0.5), conf=beta_s, f=factor)
def test_theorem28_monotone(n, d, k, conf, f):
    b = bounds.theorem28_error_bound(n, d, k, conf)
    assert bounds.theorem28_error_bound(n * f, d, k, conf) < b
    assert bounds.theorem28_error_bound(n, d * f, k, conf) > b
    assert bounds.theorem28_error_bound(n, d, min(k * f + 0.01, 1.0), conf) > b
    assert bounds.theorem28_error_bound(n, d, k, min(conf * f, 0.99)) < b


@settings(max_examples=40)
@given(eps=st.floats(0.001, 0.3), frac=st.floats(1e-6, 0.2), alpha=unit, tau=small,
       beta=beta_s, f=factor)
def test_theorem19_and_claim2_monotone(eps, frac, alpha, tau, beta, f):
    delta = frac * eps
    n = bounds.theorem19_samples(eps, delta)
    assert bounds.theorem19_samples(min(eps * f, 0.33), delta) < n
    assert bounds.theorem19_samples(eps, min(delta * f, 0.24 * eps)) < n
    assert bounds.lemma29_fat_shattering(tau * f) < bounds.lemma29_fat_shattering(tau)
    m = bounds.claim2_noise_samples(alpha, tau, beta)
    assert bounds.claim2_noise_samples(min(alpha * f, 0.99), tau, beta) < m
    assert bounds.claim2_noise_samples(alpha, min(tau * f, 1.0), beta) < m
    assert bounds.claim2_noise_samples(alpha, tau, min(beta * f, 0.99)) < m
    assert bounds.claim2_bad_noise_probability(
        1e4 * f, alpha, tau) <= bounds.claim2_bad_noise_probability(1e4, alpha, tau)
    assert np.isfinite(m)


def test_moved_names_still_resolve_from_theory_with_a_warning():
    for name in bounds.__all__:
        with pytest.warns(DeprecationWarning, match=f"dpboost.sample_complexity.{name}"):
            assert getattr(th, name) is getattr(bounds, name)
    with pytest.raises(AttributeError):
        th.no_such_bound  # noqa: B018
