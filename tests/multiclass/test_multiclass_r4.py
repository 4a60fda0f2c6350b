"""Round-4 mutation gaps in the multiclass fit (dpboost/multiclass.py): what is released
must never cost more than what ``privacy_event_`` accounts for.

The check is independent of the planning code: every discrete Gaussian release made through
:meth:`LatticeGaussian.release` costs at most ``Delta'^2 / (2 sigma^2)`` zCDP (Canonne, Kamath &
Steinke 2020, Theorem 14, with ``Delta'`` the effective sensitivity and ``sigma`` the noise
scale actually drawn), and every exponential-mechanism draw of the temperature with rate
``eta`` over a utility of sensitivity ``Delta`` is ``epsilon_0 = 2 eta Delta`` bounded range,
hence ``epsilon_0^2 / 8``-zCDP (Cesar & Rogers 2021, Lemma 3.2).  zCDP composes by addition
(Bun & Steinke 2016, Lemma 2.3), so the sum of those costs over the calls observed during a
fit must not exceed the rho of the accounted event.  With ``n_rounds`` given the fit spends on
the rounds and the temperature only (no learned count, scale, centre or whitening), so the sum
is close to the accounted rho and a release that is not charged breaks the inequality.
"""

from __future__ import annotations

import numpy as np
import pytest

from accounting import ZCDPAccountant
from dpboost import PrivateHalfspaceClassifier, private_temperature
from dpboost.mechanisms import LatticeGaussian
from dpboost.private_threshold import BRIER_SENSITIVITY


def _data(n=240, K=3, d=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % K
    centres = np.eye(K, d) * 0.5
    X = centres[y] + rng.normal(0.0, 0.1, (n, d))
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None], y


def _spent_and_accounted(monkeypatch, mode, K=3):
    spent = []
    release = LatticeGaussian.release

    def counting_release(self, value, *, rng):
        spent.append(self.effective_sensitivity ** 2 / (2.0 * self.sigma ** 2))
        return release(self, value, rng=rng)

    draw = private_temperature.sample_exponential

    def counting_draw(gains, eta, **kw):
        spent.append(float(2 * eta * BRIER_SENSITIVITY) ** 2 / 8.0)
        return draw(gains, eta, **kw)

    monkeypatch.setattr(LatticeGaussian, "release", counting_release)
    monkeypatch.setattr(private_temperature, "sample_exponential", counting_draw)
    X, y = _data(K=K)
    est = PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=4, classes=list(range(K)),
                                     multiclass=mode, random_state=0).fit(X, y)
    return spent, ZCDPAccountant().compose(est.privacy_event_).rho, est


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_observed_releases_cost_no_more_than_the_accounted_rho(monkeypatch, mode):
    """Sum of per-call zCDP costs <= accounted rho (composition; module docstring)."""
    spent, rho, _ = _spent_and_accounted(monkeypatch, mode)
    assert len(spent) >= 2
    assert sum(spent) <= rho * (1.0 + 1e-9)


def test_one_vs_rest_makes_and_charges_K_T_releases(monkeypatch):
    """One-vs-rest trains K binary problems of T rounds: K T Gaussian releases (plus one
    temperature draw), and their total cost is at least half the accounted rho (the rounds
    hold 95% of the plan when T is given), so the K T releases are all charged, none free."""
    K = 3
    spent, rho, est = _spent_and_accounted(monkeypatch, "ovr", K=K)
    # K T rounds, the temperature, and the input centre (a given T keeps the learned input
    # map since session 39; the centre is the same safe lattice release as a round)
    assert est.input_centre_ is not None
    assert len(spent) == K * 4 + 2
    assert 0.5 * rho <= sum(spent) <= rho * (1.0 + 1e-9)


# -- the joint learner and its hypothesis (module docstring of dpboost.multiclass) -----------
from dpboost import multiclass_prior  # noqa: E402
from dpboost.multiclass import (  # noqa: E402
    JointGaussianCentering,
    MulticlassHypothesis,
    class_sums,
    multiclass_gain,
)
from dpboost.weak_learners import GaussianCenteringHalfspace  # noqa: E402


def test_class_scores_are_clipped_to_the_unit_interval():
    """s_k(x) = clip(x . w_k, -1, 1) (the definition): LB-NxM's gain and slickness need
    scores in [-1, 1].  Large weights make raw products far outside it."""
    rng = np.random.default_rng(0)
    X, W = rng.normal(size=(50, 4)), 20.0 * rng.normal(size=(3, 4))
    s = MulticlassHypothesis(W)(X)
    np.testing.assert_array_equal(s, np.clip(X @ W.T, -1.0, 1.0))
    y = rng.integers(0, 3, 50)
    g = multiclass_gain(s, y)
    assert g.min() >= 0.0 and g.max() <= 1.0


@pytest.mark.parametrize("n,R", [(10, 1.0), (5000, 2.5), (100000, 0.5)])
def test_joint_release_charges_the_binary_float_error_bound(n, R):
    """The K class sums keep the in-memory blocks of n rows, so their Frobenius float error is
    bounded by the binary centre's public bound for n rows (module docstring of
    dpboost.distributed_multiclass / dpboost.multiclass): the joint mechanism must charge the
    same, strictly positive, error bound as the binary learner on the same n and R."""
    joint = JointGaussianCentering(2.0, 0.5, 4, R).mechanism(n, 3)
    binary = GaussianCenteringHalfspace(2.0, 0.5, R).mechanism(n, 3)
    assert joint.error_bound > 0.0
    assert joint.error_bound == binary.error_bound
    assert joint.effective_sensitivity >= joint.sensitivity + 2.0 * joint.error_bound


@pytest.mark.parametrize("R", [0.5, 3.0])
def test_joint_hypothesis_is_the_released_sums_over_R_squared(R):
    """w_k = z_hat_k / R^2 (s_k(x) = clip(x . z_k / R^2, -1, 1), module docstring).  With a
    tiny noise multiplier the released sums are within 8 sigma + one grid step of the exact
    class sums, so R^2 w must be, too (a 1/R scaling misses by a factor R)."""
    rng = np.random.default_rng(4)
    n, d, K = 3000, 3, 3
    y = np.sort(rng.integers(0, K, n))
    X = 0.5 * np.eye(K, d)[y] + rng.normal(0.0, 0.2, (n, d))
    X = R * X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    mu_hat = np.full(n, 1.0 / n)
    wl = JointGaussianCentering(0.05, 0.5, K, R)
    mech = wl.mechanism(n, d)
    h = wl.fit(X, y, mu_hat, rng=np.random.default_rng(0))
    Z = class_sums(X, y, mu_hat, K)
    assert np.abs(Z).max() > 20 * (8 * mech.sigma + mech.granularity)  # a visible signal
    np.testing.assert_allclose(h.coef * R * R, Z, rtol=0,
                               atol=8 * mech.sigma + mech.granularity)


def test_class_prior_gets_the_noise_sd_of_the_mean_centre(monkeypatch):
    """The model's centre is W = mean_t Z_t / R^2 over T rounds of independent noise of sd
    sigma: its per-coordinate noise sd is sigma / (R^2 sqrt(T)) (variance of a mean of T
    iid terms), the public scale the class prior's reliability test must use."""
    seen = []
    fit_prior = multiclass_prior.fit_prior

    def recording(coefs, y_idx, K, rho, noise_sd, **kw):
        seen.append(noise_sd)
        return fit_prior(coefs, y_idx, K, rho, noise_sd, **kw)

    monkeypatch.setattr(multiclass_prior, "fit_prior", recording)
    X, y = _data(n=600)
    R = 1.0
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], norm_bound=R,
                                     random_state=0).fit(X, y)
    rep = est.privacy_report_
    assert len(seen) == 1
    T = rep["n_rounds"]
    assert T > 1
    assert seen[0] == pytest.approx(rep["sigma"] / (R * R * np.sqrt(T)), rel=1e-12)


def _fit_R(R, **kw):
    X, y = _data(n=300)
    return PrivateHalfspaceClassifier(2.0, 1e-6, n_rounds=3, classes=[0, 1, 2], norm_bound=R,
                                      random_state=0, **kw).fit(R * X, y), R * X


@pytest.mark.parametrize("R", [0.5, 4.0])
def test_temperature_score_bound_is_cauchy_schwarz_with_R(R, monkeypatch):
    """B = R max_k ||w_k|| bounds |x . w_k| for every row of norm <= R (Cauchy-Schwarz): it is
    the divisor that puts the temperature's scores in [-1, 1].  The rows here reach norm R.
    (A given T keeps the learned input map since session 39: the rows checked are the mapped
    rows the scores are computed on, taken where the fit scores its families.)"""
    from dpboost import multiclass_discriminant

    seen, family = [], multiclass_discriminant._family

    def spy(X, coefs, R_, offsets):
        seen.append(np.asarray(X))
        return family(X, coefs, R_, offsets)

    monkeypatch.setattr(multiclass_discriminant, "_family", spy)
    est, _ = _fit_R(R)
    X = seen[0]
    assert np.linalg.norm(X, axis=1).max() <= R * (1 + 1e-12)
    cal = est.calibration_
    W = est.boosted_coef_
    assert cal.bound == pytest.approx(R * np.linalg.norm(W, axis=1).max(), rel=1e-12)
    assert np.abs(X @ W.T).max() <= cal.bound * (1 + 1e-12)
    assert np.abs(X @ W.T).max() > np.linalg.norm(W, axis=1).max() * min(R, 1.0) * 0.5


def test_report_sensitivity_is_the_effective_one():
    """The discrete Gaussian on the grid g is private for the effective sensitivity
    Delta' = Delta + 2E + g sqrt(D), D = K d coordinates (mechanisms module: the integer
    query's sensitivity times g), which is what the report must state; Delta alone is the
    exact-arithmetic value, reported separately."""
    est, X = _fit_R(1.0)
    rep = est.privacy_report_
    D = 3 * est.released_centres_.shape[-1]  # the mapped rows' d + 1 coordinates
    expected = (rep["sensitivity_exact_arithmetic"] + 2.0 * rep["float_error_bound"]
                + rep["grid_granularity"] * np.sqrt(D))
    assert rep["sensitivity"] == pytest.approx(expected, rel=1e-12)
    assert rep["sensitivity"] > rep["sensitivity_exact_arithmetic"]
