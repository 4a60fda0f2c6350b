"""Audit statistics: Clopper-Pearson limits, the epsilon lower bound, the calibrated
distinguisher and the analytic power, checked against closed forms and independent code."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from dpboost.audit import (
    clopper_pearson,
    distinguish,
    epsilon_lower_bound,
    expected_power,
    gaussian_log_likelihood_ratio,
)


def _cp_mpmath(k, n, tail):
    """Upper CP limit as the root of P[Bin(n, p) <= k] = tail, in 40-digit arithmetic."""
    mpmath.mp.dps = 40
    if k == n:
        return 1.0
    f = lambda p: mpmath.betainc(k + 1, n - k, 0, p, regularized=True) - (1 - tail)
    return float(mpmath.findroot(f, (mpmath.mpf(1e-12), mpmath.mpf(1) - mpmath.mpf(1e-12)),
                                 solver="bisect", tol=1e-30))


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (7, 1000), (60, 200)])
def test_clopper_pearson_matches_binomial_tail_root(k, n):
    lo, hi = clopper_pearson(k, n)
    assert hi == pytest.approx(_cp_mpmath(k, n, 0.025), rel=1e-9)
    if k > 0:
        # lower limit: P[Bin(n, lo) >= k] = 0.025
        assert stats.binom.sf(k - 1, n, lo) == pytest.approx(0.025, rel=1e-7)
    else:
        assert lo == 0.0


def test_clopper_pearson_zero_of_n_closed_form():
    # k = 0: (1 - hi)^n = 0.025
    for n in (1, 5, 100, 10_000):
        assert clopper_pearson(0, n)[1] == pytest.approx(1 - 0.025 ** (1 / n), rel=1e-10)


def test_clopper_pearson_coverage_at_least_nominal():
    # exact coverage of the upper limit: sum over k with hi(k) >= p of Bin(n, p) pmf
    n = 40
    his = np.array([clopper_pearson(k, n)[1] for k in range(n + 1)])
    for p in np.linspace(0.01, 0.99, 37):
        cover = stats.binom.pmf(np.arange(n + 1), n, p)[his >= p].sum()
        assert cover >= 0.975 - 1e-12


def test_epsilon_lower_bound_formula():
    fp, neg, fn, pos, delta = 12, 5000, 4200, 5000, 1e-3
    fpr_hi, fnr_hi = clopper_pearson(fp, neg)[1], clopper_pearson(fn, pos)[1]
    expected = max(math.log((1 - delta - fnr_hi) / fpr_hi),
                   math.log((1 - delta - fpr_hi) / fnr_hi), 0.0)
    assert epsilon_lower_bound(fp, neg, fn, pos, delta=delta) == pytest.approx(expected,
                                                                               rel=1e-12)
    # symmetric form: swapping the roles of the two error kinds gives the same bound
    assert epsilon_lower_bound(fn, pos, fp, neg, delta=delta) == pytest.approx(expected,
                                                                               rel=1e-12)


@given(st.integers(1, 400), st.integers(1, 400), st.data())
def test_epsilon_lower_bound_properties(neg, pos, data):
    fp = data.draw(st.integers(0, neg))
    fn = data.draw(st.integers(0, pos))
    eps = epsilon_lower_bound(fp, neg, fn, pos, delta=1e-5)
    assert eps >= 0 and math.isfinite(eps)
    # more errors can only weaken the bound; a larger delta too
    if fp < neg:
        assert epsilon_lower_bound(fp + 1, neg, fn, pos, delta=1e-5) <= eps + 1e-12
    assert epsilon_lower_bound(fp, neg, fn, pos, delta=0.1) <= eps + 1e-12
    # a test at chance level never certifies anything
    if fp >= neg / 2 and fn >= pos / 2:
        assert eps == 0.0


@pytest.mark.parametrize("bad", [
    dict(false_positives=-1), dict(false_positives=11), dict(negatives=0),
    dict(delta=1.0), dict(delta=float("nan")), dict(confidence=1.0),
])
def test_epsilon_lower_bound_rejects_bad_arguments(bad):
    kwargs = dict(false_positives=1, negatives=10, false_negatives=1, positives=10, delta=1e-5)
    kwargs.update(bad)
    with pytest.raises(ValueError, match="parameter of"):
        epsilon_lower_bound(**kwargs)


def test_llr_equals_difference_of_log_densities():
    rng = np.random.default_rng(0)
    w, m0, m1 = rng.normal(size=(3, 50, 4))
    sigma = 0.7
    direct = (stats.multivariate_normal.logpdf(w[0], m1[0], sigma**2)
              - stats.multivariate_normal.logpdf(w[0], m0[0], sigma**2))
    assert gaussian_log_likelihood_ratio(w[0], m0[0], m1[0], sigma) == pytest.approx(direct)
    batch = gaussian_log_likelihood_ratio(w, m0, m1, sigma)
    assert batch.shape == (50,)


def test_distinguish_threshold_comes_from_calibration_runs_only():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 1, 2000), rng.normal(1.0, 1, 2000)
    r1 = distinguish(a, b, delta=1e-5)
    # changing only evaluation runs never changes the threshold
    a2, b2 = a.copy(), b.copy()
    a2[400:] = rng.normal(0, 1, 1600)
    b2[400:] = rng.normal(1.0, 1, 1600)
    r2 = distinguish(a2, b2, delta=1e-5)
    assert r1.threshold == r2.threshold
    assert r1.negatives == 1600 and r1.positives == 1600 and r1.calibration_runs == 800
    fp = int(np.count_nonzero(a[400:] > r1.threshold))
    assert r1.false_positives == fp


def test_distinguish_identical_distributions_rarely_certifies():
    # under the null (no leakage at all) the bound exceeds 0 with probability <= 5%
    rng = np.random.default_rng(2)
    positive = sum(distinguish(rng.normal(size=1000), rng.normal(size=1000),
                               delta=0.0).epsilon_lower > 0 for _ in range(100))
    # Binomial(100, 0.05) exceeds 12 with probability 0.002
    assert positive <= 12


def test_distinguish_rejects_nan_scores():
    with pytest.raises(ValueError, match="NaN"):
        distinguish(np.array([0.0, np.nan] * 50), np.zeros(100), delta=1e-5)


def test_expected_power_matches_direct_binomial_sum():
    # at a fixed threshold the power is P[eps_lower(FP, FN) > eps_c] for independent binomials
    shift, eps_c, delta, runs, t = 1.5, 0.8, 1e-3, 160, 1.5
    m = runs // 2 - int(runs // 2 * 0.2)
    fpr, fnr = stats.norm.sf(t), stats.norm.cdf(t - shift)
    total = 0.0
    for fp in range(m + 1):
        pfp = stats.binom.pmf(fp, m, fpr)
        if pfp < 1e-15:
            continue
        for fn in range(m + 1):
            pfn = stats.binom.pmf(fn, m, fnr)
            if pfn > 1e-15 and epsilon_lower_bound(fp, m, fn, m, delta=delta) > eps_c:
                total += pfp * pfn
    got = expected_power(shift, epsilon_claimed=eps_c, delta=delta, runs=runs, threshold=t)
    assert got == pytest.approx(total, abs=1e-9)
