"""Audits of the real mechanism (one round, a whole run) and of the broken variants.

The broken variants are reachable only through the private ``_variant`` hook used here.
Power figures: the likelihood-ratio statistic is exactly Gaussian, N(0, 1) vs N(mu, 1) after
standardisation, so :func:`expected_power` gives the power in closed form; the slow test below
confirms it by repeated audits with a fixed seed (benchmarks/bench_audit.py prints the figures).
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import DiscreteGaussianEvent, SelfComposedEvent, ZCDPAccountant
from dpboost import audit
from dpboost.audit import (
    DEFAULT_DELTA,
    DEFAULT_EPSILON,
    DEFAULT_RUN_RUNS,
    DEFAULT_RUNS,
    _audit_round,
    _audit_run,
    _capped_scaling_rows,
    _claim,
    _replay_centres,
    audit_round,
    audit_run,
    expected_power,
    round_audit_pair,
)
from dpboost.boost import boost
from dpboost.cli import main
from dpboost.lazy_breg import LazyBregBoost
from dpboost.projection import capped_scaling
from dpboost.weak_learners import GaussianCenteringHalfspace, centering_sum


def _round(variant=None, seed=0, **kw):
    args = dict(epsilon=DEFAULT_EPSILON, delta=DEFAULT_DELTA, runs=DEFAULT_RUNS, n=20,
                kappa=0.5, norm_bound=1.0, random_state=seed)
    args.update(kw)
    return _audit_round(_variant=variant, **args)


def _run(variant=None, seed=0, **kw):
    args = dict(epsilon=DEFAULT_EPSILON, delta=DEFAULT_DELTA, runs=DEFAULT_RUN_RUNS,
                n_rounds=3, n=10, kappa=0.99, learning_rate=0.01, norm_bound=1.0,
                random_state=seed)
    args.update(kw)
    return _audit_run(_variant=variant, **args)


@pytest.mark.parametrize("n,kappa,R", [(20, 0.5, 1.0), (7, 0.3, 2.5), (50, 0.9, 0.1)])
def test_round_pair_reaches_the_sensitivity_exactly(n, kappa, R):
    X, y, y_prime, history = round_audit_pair(n, kappa, R)
    nxm = LazyBregBoost(kappa, 1.0)
    mu, mu_p = nxm.recompute(X, y, history), nxm.recompute(X, y_prime, history)
    assert mu[0] == mu_p[0] == 1.0  # the replaced row is capped in both samples
    z = centering_sum(X, y, mu / mu.sum())
    z_p = centering_sum(X, y_prime, mu_p / mu_p.sum())
    sens = GaussianCenteringHalfspace(1.0, kappa, R).sensitivity(n)
    assert np.linalg.norm(z - z_p) == pytest.approx(sens, rel=1e-12)


@settings(max_examples=60)
@given(st.integers(2, 30), st.floats(0.05, 0.99), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_batched_capped_scaling_matches_projection(n, kappa, rows, seed):
    rng = np.random.default_rng(seed)
    a = np.log(kappa) - rng.uniform(0, 40, (rows, n)) * rng.uniform(0, 1)
    got = _capped_scaling_rows(a, kappa)
    for i in range(rows):
        np.testing.assert_allclose(got[i], capped_scaling(a[i], kappa), rtol=1e-10, atol=1e-13)


def test_replay_centres_match_lazy_breg_on_a_real_history():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9, 2)) / 2.0
    y = rng.choice([-1.0, 1.0], 9)
    learner = GaussianCenteringHalfspace(0.5, 0.6)
    hyps = boost(X, y, measure_producer=LazyBregBoost(0.6, 2.0), weak_learner=learner,
                 n_rounds=5, rng=rng)
    coefs = np.array([[h.coef for h in hyps]])
    got = _replay_centres(X, y, coefs, 0.6, 2.0)
    nxm = LazyBregBoost(0.6, 2.0)
    for t in range(5):
        mu = nxm.recompute(X, y, hyps[:t])
        np.testing.assert_allclose(got[0, t], centering_sum(X, y, mu / mu.sum()), atol=1e-14)


def test_claim_is_the_target_and_the_noise_meets_it():
    z, eps = _claim(2.0, 1e-3, 3)
    assert eps == 2.0  # the user's target, never the accountant's own report
    acc = ZCDPAccountant().compose(SelfComposedEvent(DiscreteGaussianEvent(z), 3))
    assert 2.0 - 1e-6 < acc.get_epsilon(1e-3) <= 2.0 + 1e-9


@pytest.mark.parametrize("kw", [dict(), dict(epsilon=0.5, delta=1e-5, n=9, kappa=0.25),
                                dict(epsilon=4.0, norm_bound=3.0, kappa=0.9)])
def test_real_round_passes(kw):
    result = audit_round(runs=6000, random_state=11, **kw)
    assert result.passed and result.epsilon_lower <= result.epsilon_claimed
    assert result.distance_over_sensitivity == pytest.approx(1.0, rel=1e-12)


def test_real_run_passes():
    result = audit_run(runs=2000, random_state=12)
    assert result.passed and result.setting == "run" and result.n_rounds == 3
    # round 1 is uniform (centres kappa * sensitivity apart, kappa = 0.99); later rounds stay
    # close to it and never pass the sensitivity
    assert 0.985 < result.distance_over_sensitivity <= 1.0


def test_default_design_has_the_analytic_power():
    # round: the broken variants double mu exactly; run: mu_eff <= 2 * 0.99 mu (round 1 uniform)
    z, eps = _claim(DEFAULT_EPSILON, DEFAULT_DELTA, 1)
    assert expected_power(2.0 / z, epsilon_claimed=eps, delta=DEFAULT_DELTA,
                          runs=DEFAULT_RUNS) > 0.9999
    z3, eps3 = _claim(DEFAULT_EPSILON, DEFAULT_DELTA, 3)
    mu3 = np.sqrt(3) / z3
    assert expected_power(2 * 0.99 * mu3, epsilon_claimed=eps3, delta=DEFAULT_DELTA,
                          runs=DEFAULT_RUN_RUNS) > 0.9999
    # and the real mechanism is flagged with probability well under the 5% level
    assert expected_power(1 / z, epsilon_claimed=eps, delta=DEFAULT_DELTA,
                          runs=DEFAULT_RUNS) < 0.01


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["half_noise", "half_sensitivity"])
def test_broken_round_is_flagged(variant):
    result = _round(variant, seed=5)
    assert not result.passed and result.epsilon_lower > result.epsilon_claimed


def test_broken_variants_are_not_public():
    assert all(not name.startswith("_") for name in audit.__all__)
    with pytest.raises(TypeError):
        audit_round(_variant="half_noise")  # type: ignore[call-arg]


@pytest.mark.slow
def test_repeated_round_audits_power_fixed_seed():
    # 3 audits per variant at the default runs; analytic power > 0.99999 each, so all 6
    # flagged has probability > 0.9999; the real mechanism passes both (P[flag] < 0.01 each)
    seeds = np.random.SeedSequence(2026).generate_state(12)
    flagged = [not _round(v, seed=int(s)).passed
               for v, s in zip(["half_noise"] * 3 + ["half_sensitivity"] * 3, seeds[:6])]
    assert all(flagged)
    assert all(_round(None, seed=int(s)).passed for s in seeds[10:])


@pytest.mark.slow
def test_whole_run_default_runs_flags_broken():
    broken = _run("half_sensitivity", seed=21)
    assert not broken.passed and broken.runs == DEFAULT_RUN_RUNS


def test_cli_audit_json(capsys):
    code = main(["audit", "--json", "--runs", "2000", "--seed", "0"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert list(out)[:5] == ["epsilon_lower", "epsilon_claimed", "delta", "runs", "passed"]
    assert out["passed"] is True and out["runs"] == 2000 and out["delta"] == DEFAULT_DELTA


def test_cli_audit_text_and_run_setting(capsys):
    assert main(["audit", "--setting", "run", "--runs", "400", "--n-rounds", "2",
                 "--seed", "1"]) == 0
    assert "PASSED" in capsys.readouterr().out
