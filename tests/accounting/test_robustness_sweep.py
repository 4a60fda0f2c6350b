"""Robustness sweep: conversions on extreme inputs terminate, are never optimistic, and tampered
or crowded budget ledgers fail with one clear error (or leave their neighbours alone)."""

import math
import sys

import mpmath as mp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import (
    BudgetLedger,
    GaussianEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    calibrate_noise,
    cks_delta,
    cks_epsilon,
    gdp_epsilon,
    gdp_log_delta,
    zcdp_to_delta_paper,
    zcdp_to_epsilon_paper,
)
from accounting.conversions import MAX_EPSILON
from accounting.events import MAX_EVENT_DEPTH, event_from_dict
from accounting.selection import TNBSelectionEvent, selection_rdp
from ledger_cases import TAMPERED, nested, variant
from time_limit import within

TINY = 5e-324  # the smallest positive (denormal) double
ONE_MINUS = 1.0 - 2.0**-53  # the largest double below 1


def exact_lower(rho, delta):
    """Exact epsilon of the Gaussian mechanism with this rho (a rho-zCDP mechanism): every valid
    zCDP conversion is at least this. ``None`` where the exact solver does not apply."""
    try:
        return gdp_epsilon(math.sqrt(2.0) * math.sqrt(rho), delta)  # 2 rho may overflow
    except ValueError:  # beyond MAX_EPSILON
        return None


def mp_cks_epsilon(rho, delta):
    """CKS20 Cor. 13 at 60 digits: bisection on the stationarity equation, then the objective."""
    mp.mp.dps = 60
    rho, delta = mp.mpf(rho), mp.mpf(delta)
    L = -mp.log(delta)
    g = lambda u: u * u * rho + mp.log1p(u) - L  # noqa: E731
    lo, hi = mp.mpf(0), min(mp.sqrt(L / rho), mp.expm1(L))
    for _ in range(400):  # g is increasing; 400 halvings reach far below any double's ulp
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if g(mid) < 0 else (lo, mid)
    u = hi  # alpha - 1; log(1 - 1/alpha) = -log1p(1/u) (1 - 1/alpha rounds to 1 at 60 digits)
    return max((1 + u) * rho - mp.log1p(1 / u) - (mp.log(delta) + mp.log1p(u)) / u, 0)


EXTREME_RHO = [0.0, TINY, 1e-320, 1e-310, 2.2e-308, 1e-300, 1e-150, 1e-20, 1e-6, 0.5, 1.0,
               1e6, 1e150, 1e300, 1.7e308, math.inf]
EXTREME_DELTA = [TINY, 1e-310, 1e-300, 1e-20, 1e-6, 0.5, ONE_MINUS]
EXTREME_EPS = [0.0, TINY, 1e-310, 1e-300, 1e-20, 1e-6, 0.5, 1.0, 1e6, 1e150, 1e300, 1.7e308,
               math.inf]


# --------------------------------------------------------------------------- bug 1: CKS hang


@pytest.mark.parametrize("rho", [TINY, 1e-320, 1e-310, 2.2e-308, 1e-300])
@pytest.mark.parametrize("delta", [TINY, 1e-300, 1e-6, 0.5])
def test_cks_epsilon_of_a_denormal_rho_returns_at_once(rho, delta):
    # sqrt(L / rho) overflowed to inf and the bracket loop halved inf forever
    with within(2):
        eps = cks_epsilon(rho, delta)
    assert 0.0 <= eps <= zcdp_to_epsilon_paper(rho, delta)
    assert eps < 1e-140  # tiny rho, tiny epsilon
    ref = exact_lower(rho, delta)
    assert ref is not None and ref <= eps


def test_the_reported_hang_through_the_accountant():
    with within(2):
        acc = ZCDPAccountant().compose(GaussianEvent(1e155))
        assert acc.get_epsilon(1e-6) == 0.0
        assert acc.epsilons(1e-6)["cks"] == 0.0


@settings(max_examples=300)
@given(
    rho=st.one_of(
        st.sampled_from(EXTREME_RHO),
        st.floats(min_value=0.0, max_value=math.inf, allow_nan=False, allow_subnormal=True),
    ),
    delta=st.one_of(
        st.sampled_from(EXTREME_DELTA),
        st.floats(min_value=TINY, max_value=ONE_MINUS, allow_subnormal=True),
    ),
)
def test_cks_epsilon_terminates_and_lies_between_exact_and_paper(rho, delta):
    with within(2):
        eps = cks_epsilon(rho, delta)
        paper = zcdp_to_epsilon_paper(rho, delta)
    assert not math.isnan(eps) and eps >= 0.0
    assert eps <= paper  # never above Lemma 15 (it caps the result)
    if rho not in (0.0, math.inf):
        ref = exact_lower(rho, delta)
        if ref is not None:  # sqrt(2 rho) is rounded: allow its one ulp
            assert ref <= eps * (1 + 1e-12) + 1e-300


@pytest.mark.parametrize(
    "rho, delta",
    [(TINY, TINY), (1e-310, 1e-300), (1e-300, TINY), (1e-20, 1e-300), (1e-12, 1e-6),
     (1e-6, 1e-6), (0.5, 0.5), (1.0, ONE_MINUS), (1e10, 1e-6), (1e10, ONE_MINUS), (1e150, 1e-300),
     (1e300, 1e-300)],
)
def test_cks_epsilon_is_never_below_the_60_digit_optimum(rho, delta):
    with within(2):
        eps = cks_epsilon(rho, delta)
    ref = mp_cks_epsilon(rho, delta)
    assert mp.mpf(eps) >= ref  # never optimistic, not even by an ulp
    assert mp.mpf(eps) <= ref * (1 + mp.mpf("1e-9")) + mp.mpf("1e-300")  # and tight


@settings(max_examples=200)
@given(
    rho=st.one_of(st.sampled_from(EXTREME_RHO),
                  st.floats(min_value=0.0, max_value=math.inf, allow_subnormal=True)),
    epsilon=st.one_of(st.sampled_from(EXTREME_EPS),
                      st.floats(min_value=0.0, max_value=math.inf, allow_subnormal=True)),
)
def test_delta_conversions_terminate_and_are_ordered(rho, epsilon):
    with within(2):
        cks, paper = cks_delta(rho, epsilon), zcdp_to_delta_paper(rho, epsilon)
        exact = math.exp(gdp_log_delta(math.sqrt(2.0) * math.sqrt(rho), epsilon))
    for value in (cks, paper, exact):
        assert 0.0 <= value <= 1.0
    assert exact <= cks * (1 + 1e-9) + 1e-300
    assert cks <= paper * (1 + 1e-9) + 1e-300


@pytest.mark.parametrize("rho", EXTREME_RHO)
@pytest.mark.parametrize("delta", EXTREME_DELTA)
def test_gdp_epsilon_terminates_on_extremes(rho, delta):
    mu = math.sqrt(2.0 * rho)
    with within(2):
        try:
            eps = gdp_epsilon(mu, delta)
        except ValueError as exc:
            assert "does not support" in str(exc)
            return
    assert eps >= 0.0 and not math.isnan(eps)
    if 0.0 < mu < math.inf and eps <= MAX_EPSILON:
        assert gdp_log_delta(mu, eps) <= math.log(delta)


def test_gdp_epsilon_of_a_tiny_mu_at_a_denormal_delta_is_quick_and_conservative():
    # brentq's absolute xtol of 1e-300 was 10% of this root; the 1e-15-step nudge then looped
    with within(2):
        eps = gdp_epsilon(1e-300, TINY)
    with mp.workdps(400):  # delta ~ 1e-323 is a difference of two numbers near 1e-23
        m, e = mp.mpf(1e-300), mp.mpf(eps)

        def profile(t):
            return mp.ncdf(-t / m + m / 2) - mp.exp(t) * mp.ncdf(-t / m - m / 2)

        assert 0 < profile(e) <= TINY  # conservative
        assert profile(e * (1 - mp.mpf("1e-9"))) > TINY  # and tight


@pytest.mark.parametrize("mu, epsilon", [(8.152928722917925e-143, 1.0084756560717613e140),
                                         (1.5207444849981513e24, 9.501713406870447e285)])
def test_gdp_log_delta_far_in_the_tail_is_minus_inf_not_an_error(mu, epsilon):
    # the erfcx gap underflowed to 0 and math.log raised "math domain error"
    assert gdp_log_delta(mu, epsilon) == -math.inf


def test_selection_curve_keeps_its_middle_term_for_a_denormal_rho():
    # sqrt(log(1/gamma) / rho) overflowed, lam_hat became inf and the middle term was dropped
    ev = TNBSelectionEvent(rho=1e-310, eta=1e150, gamma=0.5)
    alpha = 1e6
    middle = 2 * math.sqrt(ev.rho * math.log(2.0)) - ev.rho  # its value at the optimal lam_hat
    floor = (1 + ev.eta) * middle + math.log(ev.expected_runs) / (alpha - 1)
    assert selection_rdp(ev, alpha) >= floor * (1 - 1e-12)


@pytest.mark.parametrize("eps", [1e-9, 1e-3, 1.0, 1e3, 1e6])
@pytest.mark.parametrize("delta", [TINY, 1e-300, 1e-6, 0.5])
def test_calibration_terminates_and_meets_the_target(eps, delta):
    with within(20):
        res = calibrate_noise(eps, delta, 1, method="cks")
    assert res.epsilon <= eps


# --------------------------------------------------------------------------- bugs 3 and 4: ledger

@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_a_tampered_ledger_is_one_value_error_naming_the_file(tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_text(TAMPERED[name])
    before = path.read_bytes()
    with pytest.raises(ValueError) as info:
        BudgetLedger.open(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    # a spend through a handle opened before the tampering refuses too, and writes nothing
    good = tmp_path / "good.json"
    ledger = BudgetLedger(good, 1.0, 1e-6)
    good.write_text(TAMPERED[name])
    with pytest.raises(ValueError, match="budget ledger"):
        ledger.spend(SelfComposedEvent(GaussianEvent(100.0), 1), label="x")
    assert good.read_text() == TAMPERED[name]
    assert path.read_bytes() == before


def test_nesting_within_the_limit_still_loads(tmp_path):
    path = tmp_path / "deep_ok.json"
    path.write_text(nested(MAX_EVENT_DEPTH - 1))
    assert len(BudgetLedger.open(path).history) == 1


def test_event_from_dict_refuses_deep_nesting_with_a_value_error():
    data = {"type": "NoOpEvent"}
    for _ in range(MAX_EVENT_DEPTH + 1):
        data = {"type": "SelfComposedEvent", "count": 1, "event": data}
    with pytest.raises(ValueError, match="levels deep"):
        event_from_dict(data)
    limit = sys.getrecursionlimit()
    try:  # the guard fires long before the interpreter's limit would
        sys.setrecursionlimit(max(limit, 4 * MAX_EVENT_DEPTH + 200))
        with pytest.raises(ValueError, match="levels deep"):
            event_from_dict(data)
    finally:
        sys.setrecursionlimit(limit)


def test_valid_targets_still_load(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(variant(target_epsilon=3, target_delta=1e-9))
    ledger = BudgetLedger.open(path)
    assert (ledger.target_epsilon, ledger.target_delta) == (3.0, 1e-9)
    assert isinstance(ledger.target_epsilon, float)


def test_spend_removes_only_its_own_stale_temp_files(tmp_path):
    a = BudgetLedger(tmp_path / "l.json", 2.0, 1e-6)
    BudgetLedger(tmp_path / "l.json.b", 2.0, 1e-6)
    in_flight = tmp_path / ".l.json.b.k2j4_x9q.tmp"  # ledger l.json.b, mid-write
    in_flight.write_text("{}")
    other = tmp_path / ".l.jsonx.abcd1234.tmp"  # another name altogether
    other.write_text("{}")
    stale = tmp_path / ".l.json.zz9_ab12.tmp"  # l.json's own, left by a killed writer
    stale.write_text("{}")
    a.spend(SelfComposedEvent(GaussianEvent(42.25), 10), label="run")
    assert in_flight.exists() and other.exists()
    assert not stale.exists()


def test_a_regex_special_ledger_name_cleans_only_its_own(tmp_path):
    a = BudgetLedger(tmp_path / "l+(1).json", 2.0, 1e-6)
    stale = tmp_path / ".l+(1).json.abc_1234.tmp"
    stale.write_text("{}")
    foreign = tmp_path / ".l+(1).json.x.abc_1234.tmp"
    foreign.write_text("{}")
    a.spend(SelfComposedEvent(GaussianEvent(42.25), 10), label="run")
    assert not stale.exists() and foreign.exists()


def test_a_non_utf8_ledger_is_one_value_error_naming_the_file(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\x00\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8") as info:
        BudgetLedger.open(path)
    assert str(path) in str(info.value)
