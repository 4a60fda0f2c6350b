"""Pins ``dpboost.projection.capped_scaling`` against an independent reference (BCS20 Lemma 9).

Kills mutants R01 (the "surely capped" bound ``D = log n - log f + 1`` lowered to ``... - 1``),
R03 (the log-space fallback's scale ``log(target - k + 1)``) and guards R02/R04 (the scale
``(target - k - 1) / S``; the pivot rank ``floor(kappa n)``).

Why this property: the projection onto the kappa-dense measures is ``mu = min(1, c mu~)`` with
the unique ``c`` giving ``sum mu = kappa n`` (Lemma 9).  The reference here sorts the weights and
tries every number ``k`` of capped points in log space: ``log c = log(kappa n - k) -
logsumexp(a[k:])``, valid when the ``k``-th largest is capped and the next one is not.  Cases:
random spreads, a point just below the capping level with the rest tied (where a too small
``D`` caps it wrongly: ``n = 100``, ``kappa n = 1.01``, one point ``e^9`` above 99 equal ones is
*not* capped, ``c e^9 = 0.998``), and ``kappa n`` below ``e^-699`` (the only inputs that reach the
log-space search, ``D >= 700``).
"""

import math

import numpy as np
import pytest
from scipy.special import logsumexp

from dpboost.projection import capped_scaling


def _reference(a, kappa):
    """``log mu`` by brute force over the number of capped points (log space)."""
    n = a.size
    target = kappa * n
    s = np.sort(a)[::-1]
    for k in range(0, n):
        if k > target:
            break
        log_c = math.log(target - k) - logsumexp(s[k:])
        top_uncapped = s[k] + log_c <= 1e-12
        capped_ok = k == 0 or s[k - 1] + log_c >= -1e-12
        if top_uncapped and capped_ok:
            return np.minimum(a + log_c, 0.0)
    raise AssertionError("no valid k")


def _check(a, kappa):
    mu = capped_scaling(a, kappa)
    ref = _reference(a, kappa)
    assert np.all(mu <= 1.0)
    with np.errstate(divide="ignore"):
        log_mu = np.log(mu)
    big = ref > -600.0  # below, the projection floors exp at e^-708 (its documented floor)
    assert np.allclose(log_mu[big], ref[big], rtol=0, atol=1e-9)
    assert np.all(mu[~big] < math.exp(-590.0))
    assert math.fsum(mu) == pytest.approx(kappa * a.size, rel=1e-9)


def test_a_large_point_just_below_the_cap_stays_uncapped():
    a = np.zeros(100)
    a[0] = 9.0
    kappa = 1.01 / 100
    mu = capped_scaling(a, kappa)
    c = 1.01 / (99 + math.exp(9.0))
    assert mu[0] == pytest.approx(c * math.exp(9.0), rel=1e-12) and mu[0] < 1.0
    assert mu[1] == pytest.approx(c, rel=1e-12)
    _check(a, kappa)


@pytest.mark.parametrize("kappa", [1e-306, 3e-310])
def test_density_below_exp_minus_699_uses_the_log_search_correctly(kappa):
    a = np.array([0.0, -1.0, 2.0, 0.5, -300.0])
    mu = capped_scaling(a, kappa)
    assert math.fsum(mu) == pytest.approx(kappa * a.size, rel=1e-9)
    w = np.exp(a - a.max())
    assert np.allclose(mu / mu[2], w / w[2], rtol=1e-9)


@pytest.mark.parametrize("seed", range(12))
def test_random_cases_match_the_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    spread = float(rng.choice([0.1, 3.0, 30.0, 600.0]))
    a = rng.normal(0.0, spread, n)
    if seed % 3 == 0:
        a[: n // 2] = a[0]  # many ties
    kappa = float(rng.choice([0.05, 0.3, 0.5, 0.9, (math.floor(0.4 * n) + 0.003) / n]))
    _check(a, kappa)
