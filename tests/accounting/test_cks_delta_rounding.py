"""``cks_delta`` is rounded up, like ``cks_epsilon``: never below the 60-digit CKS20 value.

The reference minimises the log of the Prop. 12 objective by bisection on its stationarity
condition in mpmath (every alpha gives a valid delta; the minimiser gives the smallest).
"""

import mpmath as mp
import numpy as np
import pytest

from accounting import cks_delta


def mp_cks_delta(rho, eps):
    """CKS20 Prop. 12 at 60 digits: ``min_a exp((a-1)(a rho - eps) - log a + (a-1) log(1-1/a))``."""
    with mp.workdps(60):
        rho, eps = mp.mpf(rho), mp.mpf(eps)

        def log_obj(a):
            return (a - 1) * (a * rho - eps) - mp.log(a) + (a - 1) * mp.log(1 - 1 / a)

        def slope(a):
            return (2 * a - 1) * rho + mp.log(1 - 1 / a) - eps

        lo, hi = 1 + mp.mpf("1e-40"), mp.mpf(2)
        while slope(hi) < 0:
            hi *= 2
        for _ in range(300):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if slope(mid) > 0 else (mid, hi)
        return min(mp.exp(log_obj((lo + hi) / 2)), mp.mpf(1))


@pytest.mark.parametrize("rho, eps", [
    (3.7499552694771716, 97.63769089934358),   # 1.0e-13 relative low before the margin
    (1.0198576040153207, 0.30806714619307146),  # delta = 0.67: 1.3e-16 absolute low before
    (18.698209131350417, 0.10095959062659711),  # delta = 1 - 8e-9
])
def test_known_low_cases_are_now_safe(rho, eps):
    ref = mp_cks_delta(rho, eps)
    got = cks_delta(rho, eps)
    assert mp.mpf(got) >= ref
    assert mp.mpf(got) <= ref * (1 + mp.mpf("1e-11"))


@pytest.mark.slow
def test_never_below_mpmath_over_random_cases():
    rng = np.random.default_rng(20261127)
    checked, worst_low, worst_high = 0, mp.mpf(0), mp.mpf(0)
    for _ in range(400):
        rho = 10 ** rng.uniform(-6, 2.5)
        eps = rng.uniform(0, 3) if rng.random() < 0.5 else 10 ** rng.uniform(-3, 3)
        ref = mp_cks_delta(rho, eps)
        if ref < mp.mpf("1e-300"):  # below every double: 0.0 or a denormal is the float answer
            continue
        rel = (mp.mpf(cks_delta(rho, eps)) - ref) / ref
        worst_low, worst_high = min(worst_low, rel), max(worst_high, rel)
        checked += 1
    assert checked > 250
    assert worst_low >= 0, float(worst_low)
    assert worst_high <= 1e-11, float(worst_high)  # the margin costs a few 1e-12 at most
