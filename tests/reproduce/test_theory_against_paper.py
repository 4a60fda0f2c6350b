"""dpboost.theory and dpboost.sample_complexity recomputed from the paper's formulas.

Every reference value here is computed in this file, with mpmath at 50 digits, straight from the
statement cited in the function's docstring (Bun, Carmosino & Sorrell, COLT 2020; Bartlett &
Shawe-Taylor 1998 for Theorem 28), never through the library's own helpers.  Parameter points come
from hypothesis, over wide ranges and including the edges (kappa -> 0 and -> 1, margin -> 0,
delta -> 0, eps large); inverse functions are checked to invert their forward bound and to be
minimal.
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpboost import sample_complexity as sc
from dpboost import theory as th

mp.mp.dps = 50
REL = 1e-12  # closed forms: a few ulps of float64, far below any constant or log-base error

# log-uniform strategies reaching the edges
def logu(lo_exp: float, hi_exp: float):
    return st.floats(lo_exp, hi_exp).map(lambda e: 10.0**e)


unit_open = st.one_of(logu(-300, -0.0001), st.floats(-15, -1e-3).map(lambda e: 1.0 - 10.0**e))
kappa_s = unit_open  # kappa -> 0 and kappa -> 1
gamma_s = logu(-100, math.log10(0.5))
delta_s = logu(-300, -0.001)
beta_s = st.one_of(logu(-300, -0.001), st.floats(-12, -1).map(lambda e: 1.0 - 10.0**e))
eps_s = logu(-6, 6)
tau_s = logu(-60, 0)
alpha_s = st.one_of(logu(-30, -0.001), st.floats(-12, -1).map(lambda e: 1.0 - 10.0**e))
pos_s = logu(-50, 50)


FLOAT_MAX = mp.mpf(1.7976931348623157e308)


def close(got: float, ref, rel: float = REL) -> bool:
    """``got`` is ``ref`` to ``rel``; a reference beyond float range must come out as inf."""
    ref = mp.mpf(ref)
    if abs(ref) > FLOAT_MAX * (1 + rel):
        return got == math.copysign(math.inf, ref)
    return abs(mp.mpf(got) - ref) <= rel * abs(ref) + mp.mpf(10) ** -300


def ln_inv(x) -> mp.mpf:
    return -mp.log(mp.mpf(x))


# ----------------------------------------------------------------------------- Theorem 24, Lemma 38


@settings(max_examples=150, deadline=None, derandomize=True)
@given(gamma=gamma_s, kappa=kappa_s)
@example(gamma=0.5, kappa=1 - 1e-12)
@example(gamma=0.1, kappa=5e-324)
def test_theorem24_rounds_is_16_ln_1_over_kappa_over_gamma_squared(gamma, kappa):
    ref = 16 * ln_inv(kappa) / mp.mpf(gamma) ** 2
    assert close(th.theorem24_rounds(gamma, kappa), ref)
    assert th.theorem24_learning_rate(gamma) == gamma / 4


@settings(max_examples=150, deadline=None, derandomize=True)
@given(gamma=gamma_s, kappa=kappa_s, rounds=pos_s, lam=logu(-30, 2))
def test_lemma38_margin_from_the_proof(gamma, kappa, rounds, lam):
    # gamma <= theta/2 + lambda + log(1/kappa)/(T lambda)  =>  theta = 2(gamma - lambda - ...)
    g, k, t, lm = (mp.mpf(v) for v in (gamma, kappa, rounds, lam))
    ref = 2 * (g - lm - ln_inv(k) / (t * lm))
    got = th.lemma38_margin(gamma, kappa, rounds, lam)
    # a difference of terms: compare against the size of the largest term
    scale = 2 * max(g, lm, ln_inv(k) / (t * lm))
    assert abs(mp.mpf(got) - ref) <= 1e-12 * scale


@settings(max_examples=100, deadline=None, derandomize=True)
@given(gamma=logu(-8, math.log10(0.5)), kappa=kappa_s)
def test_theorem24_settings_close_the_sandwich(gamma, kappa):
    # at T = 16 log(1/kappa)/gamma^2 and lambda = gamma/4 the margin is exactly gamma
    t = th.theorem24_rounds(gamma, kappa)
    assert th.lemma38_margin(gamma, kappa, t, gamma / 4) == pytest.approx(gamma, rel=1e-9)
    # one round fewer than ceil(T) never reaches gamma (T is the least number of rounds)
    if 2 < t < 1e12:
        assert th.lemma38_margin(gamma, kappa, math.ceil(t) - 1, gamma / 4) < gamma


@settings(max_examples=150, deadline=None, derandomize=True)
@given(lam=logu(-20, 1), kappa=kappa_s, rounds=pos_s, n=logu(0, 300),
       kl=st.one_of(st.none(), logu(-20, 20)))
@example(lam=0.1, kappa=0.5, rounds=10.0, n=math.inf, kl=None)
@example(lam=1e-13, kappa=1e-300, rounds=1.0, n=1e6, kl=1.0)  # subnormal partial product
@example(lam=1e-9, kappa=1e-300, rounds=1.0, n=10.0, kl=1.0)  # intermediate overflow
def test_lemma34_regret(lam, kappa, rounds, n, kl):
    lm, k, t = mp.mpf(lam), mp.mpf(kappa), mp.mpf(rounds)
    if kl is None:  # comparator uniform on kappa n points: KL = kappa n log(1/kappa), cancels
        ref = lm + ln_inv(k) / (lm * t)
        got = th.lemma34_regret(lam, kappa, rounds, n)
    else:
        ref = lm + mp.mpf(kl) / (lm * k * mp.mpf(n) * t)
        got = th.lemma34_regret(lam, kappa, rounds, n, divergence=kl)
    assert close(got, ref, 1e-11)


# ----------------------------------------------------------------------------- Algorithm 5


@settings(max_examples=150, deadline=None, derandomize=True)
@given(tau=tau_s, alpha=alpha_s)
@example(tau=1.0, alpha=1 - 1e-12)
@example(tau=0.5, alpha=0.4)
def test_algorithm5_parameters(tau, alpha):
    p = th.algorithm5_parameters(tau, alpha)
    ref_t = 1024 * ln_inv(mp.mpf(alpha) / 4) / mp.mpf(tau) ** 2
    assert p.kappa == alpha / 4 and p.gamma == tau / 8 and p.learning_rate == tau / 32
    # ceil, not floor, and not off by one: T-1 < n_rounds and n_rounds >= T (to float precision)
    assert p.n_rounds >= ref_t * (1 - 1e-15)
    assert p.n_rounds - 1 < ref_t * (1 + 1e-15)
    assert isinstance(p.n_rounds, int)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(tau=tau_s, rounds=st.one_of(st.integers(1, 10**6), st.integers(1, 10**300)),
       beta=beta_s, c=logu(-3, 3))
@example(tau=0.1, rounds=10, beta=5e-324, c=1.0)
def test_sigma_util_is_algorithm5s_sigma(tau, rounds, beta, c):
    ref = mp.mpf(tau) / (8 * mp.mpf(c) * mp.sqrt(mp.log(3 * mp.mpf(rounds) / mp.mpf(beta))))
    assert close(th.sigma_util(tau, rounds, beta, c=c), ref)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(tau=logu(-3, 0), alpha=logu(-4, -0.01), beta=logu(-10, -0.01))
def test_sigma_util_at_algorithm5_matches_the_printed_formula(tau, alpha, beta):
    # Algorithm 5 prints sigma = tau / (8c sqrt(log(3072 log(1/kappa) / (beta tau^2)))), i.e. the
    # real (unrounded) T; the code uses ceil(T): never larger, and equal up to 1/(T log(3T/beta))
    p = th.algorithm5_parameters(tau, alpha)
    c = mp.sqrt(2)
    printed = mp.mpf(tau) / (8 * c * mp.sqrt(mp.log(3072 * ln_inv(mp.mpf(alpha) / 4)
                                                       / (mp.mpf(beta) * mp.mpf(tau) ** 2))))
    got = p.sigma_util(beta)
    assert got <= printed * (1 + 1e-15)
    assert close(got, printed, 1e-4)


# ----------------------------------------------------------------------------- Theorem 27, Lemma 15


@settings(max_examples=150, deadline=None, derandomize=True)
@given(n=logu(0, 12), kappa=st.one_of(kappa_s, st.just(1.0)), sigma=logu(-10, 3),
       paper=st.booleans())
def test_theorem27_rho(n, kappa, sigma, paper):
    s = 1.0 / (kappa * n) if paper else 0.0
    ref = 2 * (1 / (mp.mpf(kappa) * mp.mpf(n)) + mp.mpf(s)) ** 2 / mp.mpf(sigma) ** 2
    got = th.theorem27_rho(n, kappa, sigma, slickness=s)
    assert close(got, ref, 1e-11)
    if paper:  # the paper's 8 / (kappa n sigma)^2 (Theorem 30's proof, Claim 1)
        assert close(got, 8 / (mp.mpf(kappa) * n * sigma) ** 2, 1e-11)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(tau=st.floats(1e-6, 1.0), sigma=st.one_of(st.just(0.0), logu(-12, 1)), xi=unit_open,
       c=logu(-2, 2))
@example(tau=0.1, sigma=0.0, xi=5e-324, c=1.0)
def test_theorem27_advantage(tau, sigma, xi, c):
    ref = mp.mpf(tau) / 4 - mp.mpf(c) * mp.mpf(sigma) * mp.sqrt(ln_inv(xi))
    got = th.theorem27_advantage(tau, sigma, xi, c=c)
    assert abs(mp.mpf(got) - ref) <= 1e-12 * max(mp.mpf(tau) / 4, abs(ref - mp.mpf(tau) / 4))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rho=st.one_of(st.just(0.0), logu(-30, 30)), delta=st.one_of(delta_s, unit_open))
@example(rho=0.0, delta=5e-324)
@example(rho=1.0, delta=1e-320)
def test_lemma15_epsilon(rho, delta):
    r = mp.mpf(rho)
    ref = r + 2 * mp.sqrt(r * ln_inv(delta))
    assert close(th.lemma15_epsilon(rho, delta), ref)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(eps=logu(-100, 300), delta=st.one_of(delta_s, unit_open))
@example(eps=1.0, delta=1e-320)
@example(eps=1e-170, delta=1e-6)
def test_lemma15_max_rho_inverts_lemma15_and_is_the_largest(eps, delta):
    # solve rho + 2 sqrt(rho L) = eps:  sqrt(rho) = sqrt(L + eps) - sqrt(L)
    big_l = ln_inv(delta)
    with mp.workdps(700):  # sqrt(L + eps) - sqrt(L) cancels: carry enough digits for eps ~ 1e-300
        ref = +((mp.sqrt(big_l + eps) - mp.sqrt(big_l)) ** 2)
    got = th.lemma15_max_rho(eps, delta)
    assert close(got, ref, 1e-11)
    # forward(inverse) meets eps, and any larger rho breaks it (checked in exact arithmetic)
    fwd = lambda r: mp.mpf(r) + 2 * mp.sqrt(mp.mpf(r) * big_l)  # noqa: E731
    assert fwd(got) <= eps * (1 + 1e-12)
    if got > 1e-290:  # not an underflow to 0 or a subnormal
        assert fwd(mp.mpf(got) * (1 + 1e-9)) > eps


# ----------------------------------------------------------------------------- Lemma 29, Theorem 28


@settings(max_examples=100, deadline=None, derandomize=True)
@given(gamma=logu(-150, 150))
def test_lemma29_fat_shattering(gamma):
    assert close(sc.lemma29_fat_shattering(gamma), 4 / mp.mpf(gamma) ** 2)


def bst98(n, d, k, delta) -> mp.mpf:
    """Bartlett & Shawe-Taylor (1998): k/n + sqrt((2/n)(d ln(34en/d) log2(578n) + ln(4/delta)))."""
    n, d = mp.mpf(n), mp.mpf(d)
    inner = d * mp.log(34 * mp.e * n / d) * mp.log(578 * n, 2) + mp.log(4 / mp.mpf(delta))
    return mp.mpf(k) + mp.sqrt(2 / n * inner)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(n=logu(0, 15), d=logu(0, 6), k=st.floats(0.0, 1.0), conf=unit_open)
def test_theorem28_error_bound_is_bartlett_shawe_taylor(n, d, k, conf):
    got = sc.theorem28_error_bound(n, d, k, conf)
    if n <= d:
        assert got == 1.0
    else:
        assert close(got, bst98(n, d, k, conf), 1e-11)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(d=logu(0, 6), k=st.floats(0.0, 0.5), conf=unit_open, f=st.floats(1.0001, 3.0))
def test_theorem28_never_worsens_with_more_samples(d, k, conf, f):
    # what the bound says (capped at 1: a bound on an error rate above 1 says nothing) never
    # worsens with n, including across n = d where the formula starts to apply
    def said(m):
        return min(1.0, sc.theorem28_error_bound(m, d, k, conf))

    for n in (d, d * 1.0001, d * f, d * 10 * f, d * 1e4 * f):
        assert said(n * f) <= said(n)
    assert sc.theorem28_error_bound(math.inf, d, k, conf) == k


@settings(max_examples=80, deadline=None, derandomize=True)
@given(target=st.floats(0.01, 0.99), d=logu(0, 5), k_frac=st.floats(0.0, 0.95), conf=unit_open)
def test_theorem28_samples_is_the_minimal_inverse(target, d, k_frac, conf):
    k = target * k_frac
    n = sc.theorem28_samples(target, d, k, conf)
    assert math.isfinite(n) and n > d
    assert bst98(n, d, k, conf) <= target * (1 + 1e-12)
    assert bst98(n * (1 - 1e-9), d, k, conf) > target


# ------------------------------------------------------------------------- Theorem 19, Claims 1-4


@settings(max_examples=150, deadline=None, derandomize=True)
@given(eps=st.floats(1e-6, 1 / 3, exclude_max=True), frac=logu(-300, -0.7))
def test_theorem19(eps, frac):
    delta = frac * eps  # frac < 1/4 + margin: delta < eps/4
    ref = mp.log(4 * mp.mpf(eps) / delta) / mp.mpf(eps) ** 2
    assert close(sc.theorem19_samples(eps, delta), ref)
    assert sc.claim4_generalization_samples(eps, delta) == sc.theorem19_samples(eps, delta)
    assert close(sc.theorem19_deviation(eps), 18 * mp.mpf(eps))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(alpha=alpha_s, tau=tau_s, beta=beta_s, n=logu(0, 12), k1=st.floats(1.0, 100.0))
def test_claim2(alpha, tau, beta, n, k1):
    a, t = mp.mpf(alpha), mp.mpf(tau)
    assert close(sc.claim2_noise_rate(alpha, tau), a * t / 32)
    # Chernoff, delta = 1: P[F >= 2 eta n] <= exp(-eta n / 3) = exp(-alpha tau n / 96)
    assert close(sc.claim2_bad_noise_probability(n, alpha, tau), mp.exp(-a * t * n / 96), 1e-10)
    m = sc.claim2_noise_samples(alpha, tau, beta, k1=k1)
    assert close(m, 96 * mp.log(mp.mpf(k1) / beta) / (a * t), 1e-11)
    # the inverse: at n = m the bound meets beta/k1
    assert mp.exp(-a * t * mp.mpf(m) / 96) <= mp.mpf(beta) / k1 * (1 + 1e-9)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(rounds=st.integers(1, 10**9), xi=st.one_of(unit_open, st.just(0.0), st.just(1.0)))
def test_claim3(rounds, xi):
    with mp.workdps(400):  # 1 - xi needs all the digits of a tiny xi
        ref = 1 - (1 - mp.mpf(xi)) ** rounds
    assert close(sc.claim3_bad_gaussian_probability(rounds, xi), ref, 1e-11)
    assert sc.claim3_bad_gaussian_probability(rounds, xi) <= min(1.0, rounds * xi) * (1 + 1e-12)


def claim1_ref(eps, delta, tau, alpha, beta, f, c=mp.sqrt(2)):
    """Smallest n: T rounds of sensitivity f/(kappa n), std sigma_util, within Lemma 15's eps."""
    kappa = mp.mpf(alpha) / 4
    t = mp.ceil(1024 * ln_inv(kappa) / mp.mpf(tau) ** 2)
    sigma = mp.mpf(tau) / (8 * c * mp.sqrt(mp.log(3 * t / mp.mpf(beta))))
    big_l = ln_inv(delta)
    with mp.workdps(700):  # sqrt(L + eps) - sqrt(L) cancels: carry enough digits
        sqrt_rho = +(mp.sqrt(big_l + eps) - mp.sqrt(big_l))
    # rho_T = T f^2 / (2 (kappa n sigma)^2) = sqrt_rho^2
    return f * mp.sqrt(t / 2) / (sqrt_rho * kappa * sigma), t, sigma, kappa


@settings(max_examples=100, deadline=None, derandomize=True)
@given(eps=logu(-4, 4), delta=logu(-300, -1), tau=logu(-3, 0), alpha=logu(-4, -0.01),
       beta=logu(-12, -0.01), paper=st.booleans())
@example(eps=1e-170, delta=1e-6, tau=0.1, alpha=0.1, beta=0.05, paper=True)
def test_claim1_privacy_samples_meets_eps_exactly(eps, delta, tau, alpha, beta, paper):
    f = 4 if paper else 2
    ref, t, sigma, kappa = claim1_ref(eps, delta, tau, alpha, beta, f)
    n = sc.claim1_privacy_samples(eps, delta, tau, alpha, beta,
                                  sensitivity="paper" if paper else "tight")
    assert close(n, ref, 1e-9)

    # the n returned is where the composed zCDP converts to exactly eps: minimal and sufficient
    def eps_at(m):
        rho_t = t * mp.mpf(f) ** 2 / (2 * (kappa * mp.mpf(m) * sigma) ** 2)
        return rho_t + 2 * mp.sqrt(rho_t * ln_inv(delta))

    assert eps_at(n) <= eps * (1 + 1e-9)
    assert eps_at(mp.mpf(n) * (1 - 1e-6)) > eps


@settings(max_examples=60, deadline=None, derandomize=True)
@given(eps=logu(-4, 2), delta=logu(-12, -2), tau=logu(-2, 0), alpha=logu(-3, -0.1),
       beta=logu(-6, -0.1))
def test_theorem30_terms(eps, delta, tau, alpha, beta):
    t30 = sc.theorem30_sample_complexity(eps, delta, tau, alpha, beta)
    assert close(t30["privacy"], claim1_ref(eps, delta, tau, alpha, beta, 4)[0], 1e-9)
    kappa = mp.mpf(alpha) / 4
    assert close(t30["noise"], 24 * mp.log(3 / mp.mpf(beta)) / (kappa * tau), 1e-11)
    # accuracy: Theorem 28 at d = fat(gamma/16) = 4/(tau/128)^2, k/n = 2 kappa, confidence beta/3
    d = 4 / (mp.mpf(tau) / 128) ** 2
    n = t30["accuracy"]
    assert bst98(n, d, alpha / 2, beta / 3) <= alpha * (1 + 1e-12)
    assert bst98(mp.mpf(n) * (1 - 1e-9), d, alpha / 2, beta / 3) > alpha
    assert t30.maximum == max(t30.terms.values())


@settings(max_examples=60, deadline=None, derandomize=True)
@given(eps=logu(-4, 2), delta=logu(-12, -2), tau=logu(-2, 0), alpha=logu(-3, -0.1),
       beta=logu(-6, -0.1))
def test_theorem33_terms(eps, delta, tau, alpha, beta):
    t33 = sc.theorem33_sample_complexity(eps, delta, tau, alpha, beta)
    phi = min(mp.mpf(eps), mp.mpf(alpha) / 36)
    delta_t = min(mp.mpf(delta), phi * mp.mpf(beta) / 4)
    assert close(t33["privacy"], claim1_ref(eps, delta_t, tau, alpha, beta, 4)[0], 1e-9)
    assert close(t33["accuracy"], claim1_ref(mp.mpf(alpha) / 36, delta_t, tau, alpha, beta, 4)[0],
                 1e-9)
    assert close(t33["generalization"], mp.log(4 * phi / delta_t) / phi**2, 1e-11)
    assert close(t33["noise"], 96 * mp.log(4 / mp.mpf(beta)) / (mp.mpf(alpha) * tau), 1e-11)
    # Theorem 19's conditions hold at (phi, delta_T): 0 < phi < 1/3, delta_T < phi/4, and the
    # failure delta_T/phi <= beta/4 and deviation 18 phi <= alpha/2
    assert phi < mp.mpf(1) / 3 and delta_t < phi / 4
    assert delta_t / phi <= mp.mpf(beta) / 4 * (1 + 1e-15) and 18 * phi <= mp.mpf(alpha) / 2
