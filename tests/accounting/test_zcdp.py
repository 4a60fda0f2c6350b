"""ZCDPAccountant: contract, method ordering, monotonicity, and exact vs dp-accounting's PLD."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting import (
    ComposedEvent,
    GaussianEvent,
    NonPrivateEvent,
    NoOpEvent,
    PureDPEvent,
    SelfComposedEvent,
    UnsupportedEventError,
    ZCDPAccountant,
    ZCDPEvent,
    calibrate_noise,
)


class AccountantContract:
    """What every accountant must do (subclass and set ``make``)."""

    make = None

    def test_compose_returns_self_and_chains(self):
        acc = self.make()
        assert acc.compose(GaussianEvent(10.0)) is acc
        assert acc.compose(GaussianEvent(10.0), count=3).compose(NoOpEvent()) is acc

    def test_empty_is_free(self):
        acc = self.make()
        assert acc.get_epsilon(1e-6) == 0.0
        assert acc.get_delta(0.5) == 0.0

    def test_rejects_non_events(self):
        with pytest.raises(TypeError, match="must be a DPEvent"):
            self.make().compose(3.0)
        with pytest.raises(ValueError):
            self.make().compose(GaussianEvent(1.0), count=-1)

    def test_invalid_delta_and_epsilon(self):
        acc = self.make().compose(GaussianEvent(1.0))
        for bad in [0.0, 1.0, -1e-9, float("nan")]:
            with pytest.raises(ValueError, match=r"The 'delta' parameter of"):
                acc.get_epsilon(bad)
        for bad in [-1.0, float("nan")]:
            with pytest.raises(ValueError, match=r"The 'epsilon' parameter of"):
                acc.get_delta(bad)
        with pytest.raises(ValueError, match="'method'"):
            acc.get_epsilon(1e-6, method="rdp")

    def test_count_equals_repetition(self):
        a = self.make().compose(GaussianEvent(7.0), count=5)
        b = self.make()
        for _ in range(5):
            b.compose(GaussianEvent(7.0))
        assert a.get_epsilon(1e-6) == pytest.approx(b.get_epsilon(1e-6), rel=1e-12)

    def test_epsilon_delta_inverse(self):
        acc = self.make().compose(GaussianEvent(3.0), count=20)
        for delta in [1e-3, 1e-6, 1e-12]:
            eps = acc.get_epsilon(delta)
            assert acc.get_delta(eps) <= delta * (1 + 1e-9)
            assert acc.get_delta(eps * 0.999) > delta


class TestZCDPAccountant(AccountantContract):
    make = ZCDPAccountant

    def test_reference_values(self):
        acc = ZCDPAccountant().compose(SelfComposedEvent(GaussianEvent(42.25), 100))
        eps = acc.epsilons(1e-6)
        assert set(eps) == {"paper", "cks", "exact"}
        assert eps["exact"] == pytest.approx(0.999918, abs=5e-7)
        assert eps["cks"] == pytest.approx(1.0777695, abs=5e-7)
        assert eps["paper"] == pytest.approx(1.272157, abs=5e-7)
        assert acc.get_epsilon(1e-6) == eps["exact"]
        assert acc.rho == pytest.approx(100 / (2 * 42.25**2), rel=1e-15)
        assert acc.mu == pytest.approx(10 / 42.25, rel=1e-15)

    def test_rho_of_each_event(self):
        acc = ZCDPAccountant()
        acc.compose(ZCDPEvent(0.1)).compose(PureDPEvent(1.0), count=2).compose(GaussianEvent(2.0))
        acc.compose(ComposedEvent([NoOpEvent(), GaussianEvent(math.inf)]))
        assert acc.rho == pytest.approx(0.1 + 2 * 0.5 + 1 / 8, rel=1e-15)
        assert ZCDPAccountant().compose(NonPrivateEvent()).rho == math.inf
        assert ZCDPAccountant().compose(NonPrivateEvent()).get_epsilon(1e-6) == math.inf

    def test_exact_names_the_offending_sub_event(self):
        acc = ZCDPAccountant().compose(GaussianEvent(5.0), count=10)
        acc.compose(ComposedEvent([NoOpEvent(), SelfComposedEvent(ZCDPEvent(0.01), 3)]))
        with pytest.raises(UnsupportedEventError, match=r"ZCDPEvent\(rho=0\.01\)"):
            acc.get_epsilon(1e-6, method="exact")
        with pytest.raises(UnsupportedEventError, match="ZCDPEvent"):
            _ = acc.mu
        assert not acc.supports(ZCDPEvent(0.1), method="exact")
        assert acc.supports(ZCDPEvent(0.1), method="cks")
        # "best" uses the applicable methods only
        assert set(acc.epsilons(1e-6)) == {"paper", "cks"}
        assert acc.get_epsilon(1e-6) == acc.get_epsilon(1e-6, method="cks")

    def test_scale_invariance(self):
        for T, z in [(100, 42.25), (7, 3.0), (1, 0.8)]:
            a = ZCDPAccountant().compose(GaussianEvent(z), count=T)
            b = ZCDPAccountant().compose(GaussianEvent(10 * z), count=100 * T)
            for method in ("paper", "cks", "exact"):
                assert a.get_epsilon(1e-6, method) == pytest.approx(
                    b.get_epsilon(1e-6, method), rel=1e-12
                )


@given(z=st.floats(0.05, 1e4), count=st.integers(1, 100_000), delta=st.floats(1e-300, 0.5))
def test_exact_le_cks_le_paper_and_best_is_min(z, count, delta):
    acc = ZCDPAccountant().compose(GaussianEvent(z), count=count)
    eps = acc.epsilons(delta)
    assert eps["exact"] <= eps["cks"] * (1 + 1e-12)
    assert eps["cks"] <= eps["paper"] * (1 + 1e-12)
    assert acc.get_epsilon(delta) == min(eps.values())


@given(
    z=st.floats(0.1, 1e3),
    count=st.integers(1, 10_000),
    delta=st.floats(1e-200, 0.1),
    method=st.sampled_from(["paper", "cks", "exact"]),
)
def test_monotone_in_noise_count_and_delta(z, count, delta, method):
    def eps(z, count, delta):
        return ZCDPAccountant().compose(GaussianEvent(z), count=count).get_epsilon(delta, method)

    base = eps(z, count, delta)
    assert eps(z * 1.01, count, delta) <= base
    assert eps(z, count + 1, delta) >= base
    assert eps(z, count, delta * 0.5) >= base


# ---------------------------------------------------------------- independent library
dp_accounting = pytest.importorskip("dp_accounting")


@pytest.mark.parametrize("T", [1, 10, 100, 1000])
@pytest.mark.parametrize("delta", [1e-5, 1e-9])
@pytest.mark.parametrize("target", [0.1, 1.0, 8.0])
def test_exact_matches_dp_accounting_pld(T, delta, target):
    """PLD with the default add/remove relation and the same noise multiplier: the Gaussian
    mechanism's privacy loss is identical under both relations for the same L2 sensitivity, and
    dp-accounting's REPLACE_ONE would double that sensitivity (measured while planning)."""
    from dp_accounting.pld import PLDAccountant

    z = calibrate_noise(target, delta, T, method="exact").noise_multiplier
    pld = PLDAccountant(value_discretization_interval=1e-3)
    pld.compose(dp_accounting.GaussianDpEvent(z), count=T)
    ours = ZCDPAccountant().compose(GaussianEvent(z), count=T).get_epsilon(delta, "exact")
    assert ours == pytest.approx(pld.get_epsilon(delta), rel=1e-3)  # the issue asks for 1%


@pytest.mark.parametrize("T", [100, 10_000])
def test_readme_noise_table_and_ratios(T):
    """The README's table: noise for eps=1, delta=1e-6; ratios do not depend on T (only mu does)."""
    from dp_accounting.pld import PLDAccountant

    z = {
        m: calibrate_noise(1.0, 1e-6, T, method=m).noise_multiplier
        for m in ("paper", "cks", "exact")
    }
    scale = (T / 100) ** 0.5
    assert z["paper"] == pytest.approx(53.4998 * scale, rel=2e-6)
    assert z["cks"] == pytest.approx(45.3088 * scale, rel=2e-6)
    assert z["exact"] == pytest.approx(42.24679 * scale, rel=2e-6)
    assert z["exact"] / z["paper"] == pytest.approx(0.78966, abs=5e-5)
    assert z["cks"] / z["paper"] == pytest.approx(0.84690, abs=5e-5)
    pld = PLDAccountant(value_discretization_interval=1e-4)
    pld.compose(dp_accounting.GaussianDpEvent(z["exact"]), count=T)
    assert pld.get_epsilon(1e-6) == pytest.approx(1.0, rel=1e-6)


def test_accounting_never_imports_dpboost():
    import ast
    from pathlib import Path

    import accounting

    for path in Path(accounting.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "dpboost" for n in names), path


def test_state_dict_round_trip():
    import json

    acc = ZCDPAccountant().compose(GaussianEvent(3.0), 10).compose(ZCDPEvent(0.01))
    state = json.loads(json.dumps(acc.state_dict()))
    again = ZCDPAccountant().load_state_dict(state)
    assert again.ledger == acc.ledger
    assert again.get_epsilon(1e-6) == acc.get_epsilon(1e-6)
    with pytest.raises(ValueError, match="missing the key 'events'"):
        ZCDPAccountant().load_state_dict({})
