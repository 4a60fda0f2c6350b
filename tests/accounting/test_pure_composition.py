"""Pure events paid by basic composition: ``sum_P epsilon_0 + epsilon_R(delta)`` (the ``pure+``
methods), alongside the all-zCDP conversions; "best" takes the smallest and names it.

Checked against the formula, against the value before the pure methods existed (never larger),
and from below against Google's dp-accounting PLD accountant (never optimistic): a bound valid
for every epsilon_0-DP mechanism is at least the composition of the worst-case epsilon_0-DP
privacy loss distribution, which dp-accounting builds from the privacy parameters.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import (
    BudgetLedger,
    ComposedEvent,
    ExponentialMechanismEvent,
    GaussianEvent,
    NoOpEvent,
    PureDPEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    ZCDPEvent,
    cks_delta,
    cks_epsilon,
    gdp_delta,
    gdp_epsilon,
    zcdp_to_epsilon_paper,
)

BASE = ("paper", "cks", "exact")


def old_best(acc, delta):
    """"best" as it was: the all-zCDP (or GDP) conversions only."""
    return min(v for m, v in acc.epsilons(delta).items() if m in BASE)


# ---------------------------------------------------------------- the auditor's repros
def test_one_pure_event_costs_its_epsilon():
    acc = ZCDPAccountant().compose(PureDPEvent(1.0))
    eps = acc.epsilons(1e-6)
    assert eps["cks"] == pytest.approx(5.2215, abs=1e-4)  # through zCDP alone
    assert eps["pure+cks"] == eps["pure+paper"] == eps["pure+exact"] == 1.0
    assert acc.get_epsilon(1e-6) == 1.0 and acc.get_epsilon(1e-300) == 1.0
    assert acc.get_delta(1.0) == 0.0 and acc.get_delta(7.0) == 0.0
    assert acc.get_delta(0.99) == acc.get_delta(0.99, "cks") > 0  # below eps_0: zCDP only
    assert acc.best_method(1e-6) == "pure+exact"  # the rest is empty, hence Gaussian


def test_one_exponential_mechanism_costs_its_epsilon():
    acc = ZCDPAccountant().compose(ExponentialMechanismEvent(1.0))
    assert acc.epsilons(1e-9)["cks"] == pytest.approx(3.0581, abs=1e-4)
    assert acc.get_epsilon(1e-9) == 1.0
    # many small draws: the bounded-range zCDP route (rho = eps^2 / 8) stays the cheaper one
    many = ZCDPAccountant().compose(ExponentialMechanismEvent(0.01), count=1000)
    assert many.get_epsilon(1e-6) == many.get_epsilon(1e-6, "cks") < 10.0
    assert many.best_method(1e-6) == "cks"


def test_the_ledger_admits_a_pure_spend_that_fits(tmp_path):
    ledger = BudgetLedger(tmp_path / "l.json", target_epsilon=1.1, target_delta=1e-6)
    assert ledger.check(PureDPEvent(0.5)) == 0.5
    assert ledger.spend(PureDPEvent(0.5), label="a") == 0.5
    assert ledger.spend(PureDPEvent(0.5), label="b") == 1.0
    with pytest.raises(Exception, match=r"requested eps=0\.5, total would be eps=1\.5"):
        ledger.check(PureDPEvent(0.5))


# ---------------------------------------------------------------- the formula
def test_pure_plus_gaussians_is_the_sum_of_the_two_conversions():
    acc = ZCDPAccountant().compose(PureDPEvent(0.5)).compose(GaussianEvent(10.0), count=100)
    eps = acc.epsilons(1e-6)
    assert set(eps) == {"paper", "cks", "pure+paper", "pure+cks", "pure+exact"}
    rho_rest, mu_rest = 100 / (2 * 10.0**2), math.sqrt(100) / 10.0
    assert eps["pure+paper"] == pytest.approx(0.5 + zcdp_to_epsilon_paper(rho_rest, 1e-6),
                                              rel=1e-15)
    assert eps["pure+cks"] == pytest.approx(0.5 + cks_epsilon(rho_rest, 1e-6), rel=1e-15)
    assert eps["pure+exact"] >= 0.5 + gdp_epsilon(mu_rest, 1e-6)  # rounded up
    assert eps["pure+exact"] == pytest.approx(0.5 + gdp_epsilon(mu_rest, 1e-6), rel=1e-15)
    assert acc.get_epsilon(1e-6) == eps["pure+exact"] < eps["cks"]
    assert acc.best_method(1e-6) == "pure+exact"
    # delta: the rest's delta at epsilon - 0.5; no guarantee from the split below 0.5
    assert acc.get_delta(2.0, "pure+cks") == cks_delta(rho_rest, 1.5)
    assert acc.get_delta(2.0, "pure+exact") == gdp_delta(mu_rest, 1.5)
    assert acc.get_delta(0.4, "pure+cks") == 1.0
    assert acc.get_delta(2.0) == min(acc.get_delta(2.0, m) for m in eps)


def test_the_sum_is_exact_and_rounded_up():
    acc = ZCDPAccountant().compose(PureDPEvent(0.1), count=3).compose(PureDPEvent(0.2))
    exact = 3 * Fraction(0.1) + Fraction(0.2)
    got = acc.get_epsilon(1e-6)
    assert Fraction(got) >= exact and Fraction(math.nextafter(got, 0.0)) < exact
    assert acc.get_delta(got) == 0.0


def test_a_large_pure_event_is_split_from_small_ones():
    """Split "largest rho per epsilon first": the 2.0 event alone by basic composition, the 200
    small ones in zCDP, is cheaper than either all-pure (4.0) or all-zCDP."""
    acc = (ZCDPAccountant().compose(PureDPEvent(2.0))
           .compose(PureDPEvent(0.01), count=200).compose(GaussianEvent(20.0), count=50))
    rest_rho = 200 * 0.5 * 0.01**2 + 50 / (2 * 20.0**2)
    assert acc.get_epsilon(1e-6, "pure+cks") == pytest.approx(2.0 + cks_epsilon(rest_rho, 1e-6),
                                                              rel=1e-15)
    assert acc.get_epsilon(1e-6) < min(old_best(acc, 1e-6), 4.0 + cks_epsilon(0.0625, 1e-6))
    assert "pure+exact" in acc.methods()  # all pure in P leaves Gaussians only


def test_methods_and_supports():
    gauss = ZCDPAccountant().compose(GaussianEvent(3.0))
    assert gauss.methods() == BASE and not gauss.supports(PureDPEvent(1.0), "exact")
    assert gauss.supports(PureDPEvent(1.0), "pure+exact")
    assert not gauss.supports(ComposedEvent((PureDPEvent(1.0), ZCDPEvent(0.1))), "pure+exact")
    assert not gauss.supports(GaussianEvent(1.0), "pure+cks")
    mixed = ZCDPAccountant().compose(ExponentialMechanismEvent(0.5)).compose(ZCDPEvent(0.01))
    assert mixed.methods() == ("paper", "cks", "pure+paper", "pure+cks")
    with pytest.raises(ValueError, match="'pure\\+cks', 'pure\\+exact', 'best'"):
        mixed.get_epsilon(1e-6, "pure")
    assert ZCDPAccountant().compose(PureDPEvent(0.0), count=3).methods() == ("paper", "cks")


def test_nested_pure_events_are_found_and_counted():
    inner = ComposedEvent((PureDPEvent(0.25), NoOpEvent(), GaussianEvent(math.inf)))
    acc = ZCDPAccountant().compose(SelfComposedEvent(SelfComposedEvent(inner, 2), 3))
    assert acc.get_epsilon(1e-6) == 1.5 and acc.get_delta(1.5) == 0.0


# ---------------------------------------------------------------- properties
leaf = st.one_of(
    st.builds(PureDPEvent, st.floats(1e-3, 3.0)),
    st.builds(ExponentialMechanismEvent, st.floats(1e-3, 3.0)),
    st.builds(GaussianEvent, st.floats(0.5, 100.0)),
    st.builds(ZCDPEvent, st.floats(1e-4, 1.0)),
)
mixes = st.lists(st.tuples(leaf, st.integers(1, 50)), min_size=1, max_size=5)


def accountant(mix):
    acc = ZCDPAccountant()
    for ev, count in mix:
        acc.compose(ev, count)
    return acc


@settings(max_examples=60, deadline=None)
@given(mix=mixes, delta=st.floats(1e-12, 0.1))
def test_never_above_the_old_value_nor_below_the_gaussian_part(mix, delta):
    acc = accountant(mix)
    new = acc.get_epsilon(delta)
    assert new <= old_best(acc, delta)
    assert new == acc.epsilons(delta)[acc.best_method(delta)]
    pure = [(ev, c) for ev, c in mix if isinstance(ev, (PureDPEvent, ExponentialMechanismEvent))]
    if len(pure) == len(mix):  # pure only: never above the sum of the epsilons
        assert new <= float(sum(Fraction(ev.epsilon) * c for ev, c in pure)) * (1 + 1e-15)
    gauss = [(ev, c) for ev, c in mix if isinstance(ev, GaussianEvent)]
    if gauss:  # a composition costs at least its Gaussian part (whose exact epsilon is known)
        assert new >= accountant(gauss).get_epsilon(delta, "exact")


@settings(max_examples=60, deadline=None)
@given(mix=mixes, epsilon=st.floats(0.0, 20.0))
def test_delta_never_above_the_old_value(mix, epsilon):
    acc = accountant(mix)
    old = min(acc.get_delta(epsilon, m) for m in acc.methods() if m in BASE)
    assert acc.get_delta(epsilon) <= old


dp_accounting = pytest.importorskip("dp_accounting")


def pld_epsilon(mix, delta):
    """dp-accounting's PLD epsilon of the mix: pure events as the worst-case eps_0-DP PLD,
    Gaussians with sensitivity 1 (the same loss under add/remove and replace-one)."""
    from dp_accounting.pld import common, privacy_loss_distribution as pld

    total = None
    for ev, count in mix:
        if isinstance(ev, PureDPEvent):
            one = pld.from_privacy_parameters(common.DifferentialPrivacyParameters(ev.epsilon, 0),
                                              value_discretization_interval=1e-4)
        else:
            one = pld.from_gaussian_mechanism(ev.noise_multiplier, sensitivity=1.0,
                                              value_discretization_interval=1e-4)
        one = one.self_compose(count) if count > 1 else one
        total = one if total is None else total.compose(one)
    return total.get_epsilon_for_delta(delta)


pure_or_gauss = st.one_of(st.builds(PureDPEvent, st.floats(0.01, 2.0)),
                          st.builds(GaussianEvent, st.floats(0.5, 50.0)))


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(mix=st.lists(st.tuples(pure_or_gauss, st.integers(1, 20)), min_size=1, max_size=4),
       delta=st.sampled_from([1e-3, 1e-6, 1e-9]))
def test_never_below_dp_accounting_pld(mix, delta):
    ours = accountant(mix).get_epsilon(delta)
    # the PLD is pessimistic by at most its discretisation (1e-4 per composed loss)
    slack = 1e-4 * sum(c for _, c in mix)
    assert ours >= pld_epsilon(mix, delta) - slack


def test_many_pure_events_still_try_the_largest_alone():
    """Over 32 kinds of pure event the splits are thinned, geometrically, so k = 1 stays."""
    acc = ZCDPAccountant()
    for i in range(100):
        acc.compose(PureDPEvent(0.001 * (i + 1))).compose(GaussianEvent(50.0 + i))
    before = acc.get_epsilon(1e-6)
    acc.compose(PureDPEvent(5.0))
    assert acc.get_epsilon(1e-6) <= 5.0 + before * (1 + 1e-15)
    assert len(acc._splits()) <= 32
    again = ZCDPAccountant().load_state_dict(acc.state_dict())
    assert again.epsilons(1e-6) == acc.epsilons(1e-6)
