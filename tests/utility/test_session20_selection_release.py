"""What a PrivateSelection releases states the search's cost; time padding runs max(K, K_pad).

Session 20's two defects: (1) the best run's ``privacy_report_`` (what ``save_model`` writes)
stated the run's own epsilon 0.569 and rho 0.00848 at the standard keys for a release that
cost the search's epsilon 1.0, and ``save_model(sel)`` failed with "PrivateSelection is not
fitted"; (2) the fit's wall time revealed ``K`` (corr 0.99 over 12 seeds), which Theorem 2 of
Papernot & Steinke (2022) requires hidden: ``time_padding_share`` now executes
``max(K, K_pad)`` runs, counted here by patching the estimator's ``fit`` (not by timing).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from accounting import ZCDPAccountant
from accounting.selection import padding_runs
from dpboost import selection
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.model_io import load_model, model_to_dict, save_model
from dpboost.selection import PrivateSelection

FAST = [{"n_rounds": 5, "kappa": 0.3}, {"n_rounds": 8, "kappa": 0.3}]


def _data(n=200, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / 3
    return X, np.where(X[:, 0] > 0, 1, -1)


def _fit(sel):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sel.fit(*_data())


# -- defect 1: the saved model states the search --------------------------------------------

@pytest.mark.parametrize("seed", [0, 1])
def test_the_best_runs_standard_keys_state_the_search(seed):
    sel = _fit(PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST,
                                random_state=seed))
    rep = sel.best_estimator_.privacy_report_
    search = ZCDPAccountant().compose(sel.privacy_event_)
    assert rep["epsilon"]["best"] == sel.privacy_report_["epsilon"] == search.get_epsilon(1e-6)
    assert rep["epsilon"]["cks"] == search.get_epsilon(1e-6, "cks")
    assert rep["epsilon"]["paper"] == search.get_epsilon(1e-6, "paper")
    assert 0.99 < rep["epsilon"]["best"] <= 1.0
    assert rep["delta"] == 1e-6 and rep["rho"] is None
    assert rep["mechanism"] == sel.privacy_report_["mechanism"]
    # the run's own figures, apart and clearly smaller: one run of the K
    own = rep["single_run"]
    assert own["epsilon"]["best"] < 0.8 * rep["epsilon"]["best"]
    assert 0 < own["rho"] <= sel.privacy_report_["rho_train"] * (1 + 1e-9)
    # the event a ledger composes is the search's
    assert sel.best_estimator_.privacy_event_ == sel.privacy_event_


def test_save_model_of_a_search_writes_its_best_run_with_the_searchs_epsilon(tmp_path):
    sel = _fit(PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST, random_state=0))
    save_model(sel, tmp_path / "sel.json")
    save_model(sel.best_estimator_, tmp_path / "best.json")
    a = json.loads((tmp_path / "sel.json").read_text())
    b = json.loads((tmp_path / "best.json").read_text())
    assert a == b
    assert a["privacy_report"]["epsilon"]["best"] == sel.privacy_report_["epsilon"]
    model = load_model(tmp_path / "sel.json")
    X, _ = _data()
    np.testing.assert_array_equal(model.predict(X), sel.predict(X))
    assert model.privacy_report_["epsilon"]["best"] > 0.99


def test_save_model_refuses_another_search_and_names_best_estimator():
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, kappa=0.3,
                                     random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(*_data())

    class Search:  # a search such as GridSearchCV: its best model priced one fit only
        best_estimator_ = est

    with pytest.raises(ValueError, match="Search is a search, not a model: save its "
                                         "best_estimator_"):
        model_to_dict(Search())
    with pytest.raises(ValueError, match="PrivateSelection is not fitted"):
        model_to_dict(PrivateSelection(1.0, 1e-6))


# -- defect 2: time padding executes max(K, K_pad) runs --------------------------------------

def _count_runs(monkeypatch):
    """Patch the search's estimator and K sampler: returns (fits, Ks) lists they fill."""
    fits, ks = [], []

    class Counted(PrivateHalfspaceClassifier):
        def fit(self, X, y):
            fits.append(len(y))
            return super().fit(X, y)

    sample = selection._sample_tnb
    monkeypatch.setattr(selection, "PrivateHalfspaceClassifier", Counted)
    monkeypatch.setattr(selection, "_sample_tnb", lambda *a: ks.append(sample(*a)) or ks[-1])
    return fits, ks


def _forced_padding(monkeypatch, runs):
    """Make every search's K_pad ``runs`` (its delta accounting unchanged)."""
    original = PrivateSelection._time_padding

    def padded(self, *a):
        return {**original(self, *a), "runs": runs}

    monkeypatch.setattr(PrivateSelection, "_time_padding", padded)


def test_padded_fits_execute_max_k_k_pad_runs(monkeypatch):
    """The real K_pad (epsilon 1, delta 1e-3, half of it for the padding, E[K] = 3) and the
    report's figures; each fit runs max(K, K_pad) times."""
    fits, ks = _count_runs(monkeypatch)
    eps, delta, share = 1.0, 1e-3, 0.5
    for seed in range(3):
        sel = _fit(PrivateSelection(eps, delta, classes=[-1, 1], candidates=FAST,
                                    expected_runs=3, time_padding_share=share,
                                    random_state=seed))
        pad = sel.privacy_report_["time_padding"]
        _, _, eta, gamma, _, _, _ = sel._plan()
        k_pad, tail = padding_runs(eta, gamma, share * delta / (1 + math.exp(eps)))
        assert (pad["runs"], pad["tail_probability"]) == (k_pad, tail)
        assert pad["delta_search"] + pad["delta"] <= delta
        assert sel.best_estimator_.privacy_report_["selected_by"]["time_padding"] == pad
        assert len(fits) == max(ks[-1], k_pad) == k_pad, (seed, ks[-1], k_pad)
        fits.clear()


def test_a_k_above_k_pad_runs_k_times_and_one_below_k_pad(monkeypatch):
    """K_pad forced to 3 so that over 12 seeds K falls on both sides of it."""
    fits, ks = _count_runs(monkeypatch)
    _forced_padding(monkeypatch, 3)
    for seed in range(12):
        _fit(PrivateSelection(1.0, 1e-3, classes=[-1, 1], candidates=FAST, expected_runs=3,
                              time_padding_share=0.5, random_state=seed))
        assert len(fits) == max(ks[-1], 3), (seed, ks[-1])
        fits.clear()
    assert min(ks) < 3 < max(ks), ks


def test_without_padding_fits_run_k_times(monkeypatch):
    fits, ks = _count_runs(monkeypatch)
    for seed in range(4):
        sel = _fit(PrivateSelection(1.0, 1e-3, classes=[-1, 1], candidates=FAST,
                                    expected_runs=3, random_state=seed))
        assert sel.privacy_report_["time_padding"] is None
        assert len(fits) == ks[-1]
        fits.clear()


def test_the_extra_runs_do_not_change_the_release(monkeypatch):
    """Same seed and plan, padded to 1 run and to 40 runs: the same model (the extra runs
    come after the K real ones, from their own streams, and are discarded)."""
    def fitted(runs):
        _forced_padding(monkeypatch, runs)
        return _fit(PrivateSelection(1.0, 1e-3, classes=[-1, 1], candidates=FAST,
                                     expected_runs=3, time_padding_share=0.5, random_state=5))

    a, b = fitted(1), fitted(40)
    np.testing.assert_array_equal(a.best_estimator_.coef_, b.best_estimator_.coef_)
    assert a.best_params_ == b.best_params_


@pytest.mark.parametrize("share", [0.0, 1.0, -0.1, "0.1", True])
def test_time_padding_share_is_checked_before_any_data(share):
    with pytest.raises((TypeError, ValueError), match="time_padding_share"):
        PrivateSelection(1.0, 1e-6, classes=[-1, 1], time_padding_share=share).fit(*_data())
