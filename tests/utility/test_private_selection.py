"""PrivateSelection: one budget for the whole search, planned before data; GridSearchCV warns."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV

from accounting import TNBSelectionEvent, ZCDPAccountant
from dpboost import selection
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.selection import BudgetPerFitWarning, PrivateSelection


def _data(n=8000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)) / 3
    return X, np.where(X[:, 0] + 0.1 > 0, 1, 0)


@pytest.mark.slow
def test_selection_spends_one_budget_and_picks_a_candidate(monkeypatch):
    draws = []  # K is not released (dpboost.selection): read it where it is drawn
    sample = selection._sample_tnb
    monkeypatch.setattr(selection, "_sample_tnb", lambda *a: draws.append(sample(*a)) or draws[-1])
    X, y = _data()
    sel = PrivateSelection(2.0, 1e-6, classes=[0, 1], random_state=3)
    planned = sel.planned_privacy_event()
    assert isinstance(planned, TNBSelectionEvent)
    sel.fit(X, y)
    assert sel.privacy_event_ == planned
    eps = ZCDPAccountant().compose(planned).get_epsilon(1e-6)
    assert eps <= 2.0 and eps >= 2.0 - 1e-6  # the largest base rho that meets the target
    assert sel.best_params_ in list(selection.DEFAULT_CANDIDATES)
    assert sel.score(X, y) > 0.9
    # K is drawn independently of the data: same seed, other data, same number of runs
    X2, y2 = _data(seed=9)
    PrivateSelection(2.0, 1e-6, classes=[0, 1], random_state=3).fit(X2, y2)
    assert draws[0] == draws[1]


@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_each_run_gets_less_than_a_single_fit(eps):
    from dpboost.defaults import split_budget

    planned = PrivateSelection(eps, 1e-6).planned_privacy_event()
    assert ZCDPAccountant().compose(planned).get_epsilon(1e-6) <= eps
    single = split_budget(eps, 1e-6, count=True, calibration=True, method="cks").rho
    assert 0.2 * single < planned.rho < 0.6 * single  # measured 0.37-0.47 for 7.5 runs


def test_grid_search_warns_once_that_each_fit_spends_the_budget():
    X, y = _data(1200)
    grid = GridSearchCV(PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=5, classes=[0, 1]),
                        {"learning_rate": [1.0, 5.0]}, cv=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grid.fit(X, y)
    budget = [w for w in caught if issubclass(w.category, BudgetPerFitWarning)]
    assert len(budget) == 1 and "spends the whole" in str(budget[0].message)
    with warnings.catch_warnings(record=True) as caught:  # a plain fit does not warn
        warnings.simplefilter("always")
        PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=5, classes=[0, 1]).fit(X, y)
    assert not [w for w in caught if issubclass(w.category, BudgetPerFitWarning)]


def test_a_ledger_checks_the_whole_search_before_any_data(tmp_path):
    from accounting import BudgetExceededError, BudgetLedger

    ledger = BudgetLedger(tmp_path / "budget.json", target_epsilon=2.0, target_delta=1e-6)
    first = PrivateSelection(1.0, 1e-6).planned_privacy_event()
    assert ledger.check(first) == pytest.approx(1.0, abs=1e-6)
    ledger.spend(first, label="tuning")
    with pytest.raises(BudgetExceededError):  # RDP composition of two searches: 2.15 > 2
        ledger.check(PrivateSelection(1.5, 1e-6).planned_privacy_event())


def test_every_search_warns_once_and_calibration_too():
    # session 26 (a user trial): once per process, so a second search was silent, and
    # CalibratedClassifierCV, a fit per fold, never warned
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.model_selection import cross_val_score

    X, y = _data(900)
    make = lambda: PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=5, classes=[0, 1])  # noqa
    runs = [lambda: GridSearchCV(make(), {"learning_rate": [1.0, 5.0]}, cv=2).fit(X, y),
            lambda: GridSearchCV(make(), {"learning_rate": [1.0, 5.0]}, cv=2).fit(X, y),
            lambda: CalibratedClassifierCV(make(), cv=2).fit(X, y),
            lambda: cross_val_score(make(), X, y, cv=3)]
    for run in runs:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run()
        budget = [w for w in caught if issubclass(w.category, BudgetPerFitWarning)]
        assert len(budget) == 1, [str(w.message) for w in budget]
    estimator = make()
    with warnings.catch_warnings(record=True) as caught:  # the same estimator: warned once
        warnings.simplefilter("always")
        cross_val_score(estimator, X, y, cv=2)
        cross_val_score(estimator, X, y, cv=2)
    assert len([w for w in caught if issubclass(w.category, BudgetPerFitWarning)]) == 1
