"""Round-4 mutation gaps in dpboost/audit_statistics.py: ties and all-error counts.

The audit's test says "D'" when a score is strictly above the threshold (DistinguisherResult),
so a run scoring exactly the threshold is a "D" answer; the released statistics of some audits
are discrete (the private cut lies on a grid), so ties are the rule, not an accident.
"""

from __future__ import annotations

import numpy as np

from dpboost.audit_statistics import (
    distinguish,
    distinguish_best,
    epsilon_detectable,
    epsilon_lower_bound,
)


def test_identical_discrete_scores_give_no_lower_bound():
    """Runs on D and D' with the same (constant) score come from identical output
    distributions, which are 0-DP: no sound audit may report epsilon > 0.  At the only
    threshold, 0, every D' run scores <= 0 and is a false negative."""
    res = distinguish(np.zeros(500), np.zeros(500), delta=1e-5)
    assert res.false_negatives == res.positives
    assert res.epsilon_lower == 0.0


def test_all_errors_on_one_run_bound_nothing():
    """One run on D, flagged as D': its false-positive rate may be 1 (the Clopper-Pearson upper
    limit of 1 success in 1 trial is 1).  FPR = 1, FNR = 0 is the test "always say D'", which
    every mechanism admits, so the counts imply no epsilon above 0."""
    assert epsilon_lower_bound(1, 1, 0, 10000, delta=0.0) == 0.0
    assert epsilon_lower_bound(10000, 10000, 0, 10000, delta=0.0) == 0.0


def test_a_perfectly_separating_discrete_statistic_is_chosen():
    """Two statistics per run: 0 is continuous noise with the same law on D and D'; 1 is 0 on
    every D run and 1 on every D' run (a release that escaped the noise).  The calibration
    runs must pick statistic 1 at threshold 0 (zero errors), and the held-out bound is then
    that of a perfect test, epsilon_detectable on the evaluation runs."""
    rng = np.random.default_rng(0)
    runs = 1000
    d = np.column_stack([rng.normal(size=runs), np.zeros(runs)])
    p = np.column_stack([rng.normal(size=runs), np.ones(runs)])
    res = distinguish_best(d, p, delta=1e-5)
    m = runs - int(runs * 0.2)
    assert res.false_positives == 0 and res.false_negatives == 0
    assert res.epsilon_lower == epsilon_detectable(m, m, delta=1e-5)


def test_the_statistic_is_chosen_on_the_calibration_runs_only():
    """The held-out bound is valid only if the statistic and threshold were chosen without
    the evaluation runs (Jagielski, Ullman & Oprea 2020; docstring of distinguish_best).
    Statistic 0 separates D (0) from D' (1) on the calibration runs (the first 20%) only, and
    is N(0, 1) on both afterwards; statistic 1 has the same law U(0.4, 0.6) on D and D' in the
    calibration runs and separates them (0 vs 1) on the evaluation runs only.  The rule must
    choose 0, whose evaluation runs carry no signal: its bound is about 0 (below 0.5 here).
    A choice made on all runs would pick 1 and report a near-perfect bound."""
    rng = np.random.default_rng(0)
    runs, cal = 1000, 200
    d0, p0 = rng.normal(size=runs), rng.normal(size=runs)
    d0[:cal], p0[:cal] = 0.0, 1.0
    d1, p1 = np.zeros(runs), np.ones(runs)
    d1[:cal], p1[:cal] = rng.uniform(0.4, 0.6, cal), rng.uniform(0.4, 0.6, cal)
    res = distinguish_best(np.column_stack([d0, d1]), np.column_stack([p0, p1]), delta=1e-5)
    assert res.epsilon_lower < 0.5


def test_detectable_ceiling_is_the_perfect_test_bound_with_delta():
    """A perfect test has 0 errors in m runs on each side; the one-sided Clopper-Pearson upper
    limit of 0 of m at level 1 - 0.05/2 is u = 1 - 0.025^(1/m) (solve (1 - u)^m = 0.025), and
    the bound is log((1 - delta - u) / u).  The claimed delta enters it: at delta = 0.3 the
    ceiling is visibly lower than at delta = 0."""
    import math

    m = 100
    u = 1.0 - 0.025 ** (1.0 / m)
    for delta in (0.0, 0.3):
        expected = math.log((1.0 - delta - u) / u)
        assert abs(epsilon_detectable(m, m, delta=delta) - expected) < 1e-9


def test_first_llr_column_is_the_whole_log_likelihood_ratio():
    """coordinate_log_likelihood_ratios' first column is the whole Gaussian log-likelihood
    ratio log p_D'(r) - log p_D(r) for N(m, sigma^2 I) releases (docstring): checked against
    scipy's log densities summed over the coordinates."""
    from scipy.stats import norm

    from dpboost.audit_statistics import coordinate_log_likelihood_ratios

    rng = np.random.default_rng(0)
    m, mp, sigma = rng.normal(size=4), rng.normal(size=4), 0.7
    r = rng.normal(size=(50, 4))
    got = coordinate_log_likelihood_ratios(r, m, mp, sigma)
    direct = (norm.logpdf(r, mp, sigma) - norm.logpdf(r, m, sigma)).sum(axis=1)
    np.testing.assert_allclose(got[:, 0], direct, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got[:, 1:].sum(axis=1), direct, rtol=1e-9, atol=1e-9)
