"""The discriminant candidates of a joint multiclass fit (:mod:`dpboost.multiclass_discriminant`)
and the draw of a score family with the temperature
(:func:`dpboost.private_temperature.private_temperature_families`).

Before session 38 a joint fit predicted with its boosted class centres, or with those centres
divided by their masses plus a class prior: no class intercept, the total covariance whitened
instead of the within-class one, and on imbalanced real tables the prior cost 2.5-13 points
(diamonds' cut, 5 classes: 0.44 at epsilon = 1 against logistic regression's 0.59).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from _nuisance_cases import nuisance_task

from accounting import ZCDPAccountant
from dpboost import PrivateHalfspaceClassifier
from dpboost.multiclass_discriminant import discriminant, mapped_covariance
from dpboost.private_temperature import (
    ScoreFamily,
    pair_utilities,
    private_temperature,
    private_temperature_families,
    temperature_event,
)
from dpboost.private_threshold import BRIER_SENSITIVITY
from dpboost.whitening import Whitening


def _gaussian_classes(n: int, seed: int, K: int = 4, d: int = 5):
    rng = np.random.default_rng(seed)
    y = rng.choice(K, n, p=np.linspace(1, 2, K) / np.linspace(1, 2, K).sum())
    A = rng.normal(size=(d, d)) / d
    X = rng.normal(0, 0.1, (K, d))[y] + rng.normal(size=(n, d)) @ A * 0.1
    return X, y


def test_the_discriminant_of_exact_statistics_is_scikit_learns_lda():
    """With the class sums of a uniform measure (one round, no noise), the total covariance
    and the exact counts, the candidate with a negligible floor scores every row as
    scikit-learn's LinearDiscriminantAnalysis (least squares solver, the same priors)."""
    X, y = _gaussian_classes(4000, 0)
    K, c = 4, 0.3
    n = len(y)
    Z = np.hstack([X, np.full((n, 1), c)])
    sums = np.stack([Z[y == k].sum(axis=0) / n for k in range(K)])  # W[k, -1] = c n_k / n
    counts = np.bincount(y, minlength=K)
    cov = np.cov(X.T, bias=True)
    H, log_prior = discriminant(sums[None], c, cov, counts, 1e-12, 0.0)
    ours = Z @ H[0].T + log_prior
    lda = LinearDiscriminantAnalysis(solver="lsqr", priors=counts / n).fit(X, y)
    np.testing.assert_allclose(ours, lda.decision_function(X), rtol=1e-7, atol=1e-7)


def test_every_round_maps_linearly_so_the_mean_is_the_discriminant_of_the_mean():
    rng = np.random.default_rng(1)
    coefs = rng.normal(size=(7, 3, 5)) * 0.1
    coefs[..., -1] = np.abs(coefs[..., -1]) + 0.5  # positive masses
    cov = np.diag([0.3, 0.2, 0.1, 0.05])
    H, _ = discriminant(coefs, 0.4, cov, np.array([30, 50, 20]), 0.2, 0.01)
    H_mean, _ = discriminant(coefs.mean(axis=0)[None], 0.4, cov, np.array([30, 50, 20]), 0.2,
                             0.01)
    np.testing.assert_allclose(H.mean(axis=0), H_mean[0], rtol=1e-12, atol=1e-15)


def test_the_floor_bounds_the_condition_number_and_a_dead_covariance_gives_none():
    coefs = np.array([[[0.2, 0.1, 1.0], [-0.1, 0.3, 1.0], [0.0, -0.2, 1.0]]])
    # a within-class covariance with eigenvalues 1 and ~0: the floor lifts the small one
    H, _ = discriminant(coefs, 1.0, np.diag([1.0, 1e-9]) + 0.05, np.array([1, 1, 1]), 0.5, 0.0)
    assert np.all(np.isfinite(H))
    assert discriminant(coefs, 1.0, -np.eye(2), np.array([1, 1, 1]), 0.5, 0.0) is None
    white = Whitening(np.eye(2) / 2, 0.1, 0.5, False, np.eye(2))
    assert mapped_covariance(white, 3.0) is None  # released but not used: no candidates


@pytest.mark.parametrize("seed", range(4))
def test_replacing_one_row_moves_a_pair_utility_by_at_most_its_sensitivity(seed):
    """The sensitivity the draw is priced at: ``2 (2^10 + 2)`` steps, over random scores,
    offsets and temperatures, the replaced row anywhere (including far outside)."""
    rng = np.random.default_rng(seed)
    temperatures = 2.0 ** (np.arange(33) / 2.0)
    for _ in range(50):
        n, K = int(rng.integers(1, 60)), int(rng.integers(2, 9))
        u = rng.uniform(-1, 1, (n, K))
        y = rng.integers(0, K, n)
        offsets = None if rng.random() < 0.5 else rng.normal(0, 2, K)
        u2, y2 = u.copy(), y.copy()
        i = int(rng.integers(n))
        u2[i], y2[i] = rng.uniform(-1, 1, K), rng.integers(0, K)
        a = pair_utilities(u, y, temperatures, offsets)
        b = pair_utilities(u2, y2, temperatures, offsets)
        assert np.abs(a - b).max() <= 2 * BRIER_SENSITIVITY


def test_one_family_is_the_former_draw_and_several_cost_the_same_event():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 2000)
    good = 0.02 * np.eye(3)[y] + rng.normal(0, 0.01, (2000, 3))
    noise = rng.normal(0, 0.01, (2000, 3))
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    k, fit = private_temperature_families([ScoreFamily(good, 0.05)], y, 0.01, rng=a)
    assert k == 0 and fit == private_temperature(good, y, 0.01, 0.05, rng=b)
    assert a.bit_generator.state == b.bit_generator.state
    k, fit2 = private_temperature_families([ScoreFamily(noise, 0.05), ScoreFamily(good, 0.05)],
                                           y, 0.01, rng=np.random.default_rng(9))
    assert k == 1 and fit2.family == 1 and fit2.n_candidates == 66
    assert fit2.epsilon_0 == fit.epsilon_0 == temperature_event(0.01).epsilon


def test_a_fit_that_draws_a_discriminant_keeps_its_invariants():
    """The staged scores end at the model, the hypotheses' mean is ``boosted_coef_``, the run
    spends its plan and the report names the scores drawn (and that they were drawn)."""
    X, y = nuisance_task(12_000, 0)
    Xt, yt = nuisance_task(4_000, 100)
    clf = PrivateHalfspaceClassifier(2.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    report = clf.privacy_report_
    assert report["calibration"]["scores"].startswith("discriminant")
    assert report["calibration"]["n_candidates"] == 33 * 3
    staged = list(clf.staged_decision_function(Xt[:100]))
    np.testing.assert_allclose(staged[-1], clf.decision_function(Xt[:100]), rtol=1e-9,
                               atol=1e-12)
    assert len(staged) == report["n_rounds"]
    planned = ZCDPAccountant().compose(clf.planned_privacy_event()).rho
    assert ZCDPAccountant().compose(clf.privacy_event_).rho == pytest.approx(planned, rel=1e-9)
    assert clf.score(Xt, yt) >= LinearDiscriminantAnalysis().fit(X, y).score(Xt, yt) - 0.01


def test_small_balanced_data_keeps_the_boosted_centres_alone():
    """No whitening (too few rows) and no prior (balanced counts): one family, the former
    draw."""
    X, y = nuisance_task(600, 1)
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    report = clf.privacy_report_
    assert report["calibration"]["scores"] == "boosted centres"
    assert report["calibration"]["n_candidates"] == 33


@pytest.mark.parametrize("seed", range(3))
def test_the_draws_log_ratio_between_neighbours_stays_within_epsilon_0(seed, monkeypatch):
    """The exact probabilities of every (family, temperature) pair, computed from the
    utilities on two neighbouring datasets (one row replaced, scores and labels) with the
    ``eta`` and base measure the draw is made with, never differ by more than the event's
    epsilon_0 in log (the exponential mechanism's guarantee)."""
    import dpboost.private_temperature as pt

    seen = {}

    def spy(utility, eta, *, rng, weights=None):
        seen.update(eta=eta, weights=weights)
        return 0

    monkeypatch.setattr(pt, "sample_exponential", spy)
    rng = np.random.default_rng(seed)
    n, K, rho = 400, 4, 0.002
    temperatures = 2.0 ** (np.arange(33) / 2.0)
    fams = [(rng.uniform(-1, 1, (n, K)), None if f == 0 else rng.normal(0, 1, K))
            for f in range(3)]
    y = rng.integers(0, K, n)
    pt.private_temperature_families([ScoreFamily(u, 1.0, off) for u, off in fams], y, rho,
                                    rng=rng)
    eta, weights = float(seen["eta"]), np.asarray(seen["weights"], dtype=float)
    eps0 = temperature_event(rho).epsilon

    def log_probabilities(rows, labels):
        u = np.concatenate([pair_utilities(rows[f], labels, temperatures, off)
                            for f, (_, off) in enumerate(fams)]).astype(float)
        logits = np.log(weights) + eta * (u - u.max())
        return logits - np.logaddexp.reduce(logits)

    base = log_probabilities([f[0] for f in fams], y)
    worst = 0.0
    for _ in range(40):
        i = int(rng.integers(n))
        rows = [f[0].copy() for f in fams]
        for r in rows:
            r[i] = rng.uniform(-1, 1, K)
        labels = y.copy()
        labels[i] = rng.integers(0, K)
        worst = max(worst, float(np.abs(log_probabilities(rows, labels) - base).max()))
    assert 0.0 < worst <= eps0 * (1 + 1e-9)


def test_the_first_family_has_eight_times_the_base_weight_of_each_other():
    """Two identical families: the utilities cannot tell them apart, so the first is drawn
    with probability 8/9 (the public base measure).  900 draws: standard error 0.0105, the
    margin 0.05 is 4.8 of them."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 60)
    u = rng.uniform(-1, 1, (60, 3))
    fams = [ScoreFamily(u, 1.0), ScoreFamily(u, 1.0)]
    draws = [private_temperature_families(fams, y, 0.001, rng=rng)[0] for _ in range(900)]
    assert abs(np.mean(np.array(draws) == 0) - 8 / 9) < 0.05
