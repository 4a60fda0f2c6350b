"""Each mechanism of a fit spends exactly the budget its report entry names (round 5).

The plan (:mod:`dpboost.budget_plan`) fixes every mechanism's ``rho`` before the data is read,
and ``privacy_report_["mechanisms"]`` / ``privacy_event_`` are built from the plan, not from
what the fit actually passed to the mechanisms.  A fit that hands a mechanism a larger ``rho``
(less noise) than its planned share therefore reports the planned guarantee while releasing
more: a false guarantee no report test sees.  Here each mechanism function is wrapped in the
module that calls it, the ``rho`` it is called with is recorded, and the event that ``rho``
buys (the same public event function the plan uses) must be the report's entry, bit for bit.

Kills ES09 (the rounds' noise multiplier computed for 1 round and used for all ``T``: each
round ``T`` times the planned rho), ES13 (the Platt histogram given twice its share), ES14
(the positive count given twice its share) and ES15 (the input-scale histogram given the
whole ``rho``), ES08 (the learned ``T`` computed from the whole ``rho`` instead of the rounds'
share: more rounds at the noise the plan priced for fewer is fine for privacy only because
the noise multiplier is recomputed, but the report's ``n_rounds_rule`` then misstates the
rule).  Also ES17 (the small-data cut given the histogram's whole share instead of
``threshold_rho()``), where that differs, and PR06 (the report's ``sensitivity`` naming the
exact-arithmetic ``2R/(kappa n)`` instead of the ``Delta'`` the noise is calibrated to).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dpboost.estimator as est_mod
import dpboost.input_map as imap_mod
from accounting import DiscreteGaussianEvent, SelfComposedEvent, ZCDPAccountant
from dpboost import PrivateHalfspaceClassifier
from dpboost.defaults import adaptive_kappa, adaptive_rounds, norm_histogram_event
from dpboost.input_map import mean_event
from dpboost.mechanisms import lattice_variance
from dpboost.private_platt import score_histogram_event
from dpboost.private_threshold import threshold_event
from dpboost.weak_learners import GaussianCenteringHalfspace


def _data(n, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / (2 * np.sqrt(d))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) / np.sqrt(d) > 0.05, 1, 0)
    return X, y


def _recording_fit(monkeypatch, n, **kw):
    calls = {}

    def wrap(module, name, at=2):
        real = getattr(module, name)

        def recorder(*args, **kwargs):
            rho = kwargs["rho"] if "rho" in kwargs else args[at]
            calls.setdefault(name, []).append(rho)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, recorder)

    for name in ("private_norm_scale", "private_platt", "private_threshold"):
        wrap(est_mod, name)
    wrap(est_mod, "private_count", at=1)  # (y_pm, rho)
    wrap(imap_mod, "private_mean")
    X, y = _data(n)
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    entries = {m["name"].split(" (")[0]: m for m in clf.privacy_report_["mechanisms"]}
    return clf, calls, entries


def _entry(entries, start):
    (key,) = [k for k in entries if k.startswith(start)]
    return entries[key]["event"]


def _rounds_checks(clf, entries):
    rep = clf.privacy_report_
    T, z = rep["n_rounds"], rep["noise_multiplier"]
    rounds = SelfComposedEvent(DiscreteGaussianEvent(z), count=T)
    assert rounds.to_dict() == _entry(entries, "boosting rounds")
    planned = [m["rho"] for m in rep["mechanisms"] if m["name"].startswith("boosting rounds")]
    assert ZCDPAccountant().compose(rounds).rho == pytest.approx(planned[0], rel=1e-9)
    assert rep["sigma"] >= z * rep["sensitivity"] * (1 - 1e-12)  # each round's noise
    n, d = rep["n_samples"], clf.released_centres_.shape[1]
    wl = GaussianCenteringHalfspace(z, rep["kappa"], rep["norm_bound"], rep["sensitivity_rule"])
    assert rep["sensitivity_exact_arithmetic"] == wl.sensitivity(n)
    assert rep["sensitivity"] == wl.effective_sensitivity(n, d)  # Delta' = Delta + 2E + g sqrt d
    assert rep["sensitivity"] > rep["sensitivity_exact_arithmetic"]
    assert rep["sigma"] == wl.sigma(n, d)


def test_a_calibrated_fit_spends_what_its_report_names(monkeypatch):
    clf, calls, entries = _recording_fit(monkeypatch, 4000)
    assert clf.calibration_ is not None  # the Platt histogram ran
    (r_count,) = calls["private_count"]
    (r_norms,) = calls["private_norm_scale"]
    (r_platt,) = calls["private_platt"]
    (r_mean,) = calls["private_mean"]
    t, m = lattice_variance(np.sqrt(0.5 / r_count))
    assert DiscreteGaussianEvent(np.sqrt(t * m)).to_dict() == _entry(entries, "count")
    assert norm_histogram_event(r_norms).to_dict() == _entry(entries, "row-norm histogram")
    assert score_histogram_event(r_platt).to_dict() == _entry(entries, "score histogram")
    assert mean_event(r_mean).to_dict() == _entry(entries, "mean of the rows")
    _rounds_checks(clf, entries)
    # the learned T and kappa follow their rules with the rounds' share (not the whole rho)
    rep = clf.privacy_report_
    d = clf.released_centres_.shape[1]  # the mapped coordinates, d + 1
    rho_rounds = [m["rho"] for m in rep["mechanisms"] if m["name"].startswith("boosting")][0]
    kappa = adaptive_kappa(rep["noisy_positive_count"], 4000, d, rho_rounds)
    assert rep["kappa"] == pytest.approx(kappa, rel=1e-9)
    assert rep["n_rounds"] == adaptive_rounds(rep["kappa"], 4000, d, rho_rounds)
    assert rep["n_rounds"] != adaptive_rounds(rep["kappa"], 4000, d, rep["rho"])


def test_a_small_fit_spends_on_its_cut_what_its_report_names(monkeypatch):
    clf, calls, entries = _recording_fit(monkeypatch, 300)
    assert clf.threshold_ is not None and "private_platt" not in calls
    (r_cut,) = calls["private_threshold"]
    assert threshold_event(r_cut).to_dict() == _entry(entries, "threshold")
    _rounds_checks(clf, entries)


def test_pinned_settings_put_the_whole_budget_on_rounds_at_the_reported_noise(monkeypatch):
    clf, calls, entries = _recording_fit(monkeypatch, 500, n_rounds=20, kappa=0.25)
    assert not calls
    _rounds_checks(clf, entries)
    z = clf.privacy_report_["noise_multiplier"]
    rho = ZCDPAccountant().compose(clf.privacy_event_).rho
    assert 20 / (2 * z * z) == pytest.approx(rho, rel=1e-9)
