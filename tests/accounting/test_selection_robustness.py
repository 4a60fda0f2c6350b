"""Robustness of private hyperparameter selection (third robustness sweep).

Found and pinned here:

1. ``_base_rho`` took the largest ``rho`` whose float conversion met the target: in exact
   arithmetic (mpmath) the selection then cost up to 2 ulp *more* than ``target_epsilon``.
2. ``_sample_tnb`` truncated ``K`` at 100,000 (Theorem 2 covers ``K ~ D_{eta, gamma}``, not
   ``min(K, cap)``) and cost ``O(k^2)`` (a draw with ``eta = 1``, ``E[K] = 1e9`` never ended).
3. A bad candidate (unknown or search-set key, out-of-range value, ``kappa * n_train < 1``)
   failed only in the run that drew it, after earlier runs had trained on the data.
4. A ``validation_fraction`` near 1 left no training rows (a scikit-learn error mid-run).
5. A label outside the declared classes failed or passed depending on which part the
   random split put it in.
6. A one-shot iterator of candidates was consumed by ``planned_privacy_event``.
7. ``GridSearchCV`` over ``PrivateSelection`` spent the whole budget per fit without the
   :class:`BudgetPerFitWarning`: the first run's warning was filtered inside the search, and
   used up the once-per-process warning for later searches too.
"""

from __future__ import annotations

import warnings

import mpmath as mp
import numpy as np
import pytest

from accounting.selection import tnb_pmf
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.selection import PrivateSelection, _gamma_for, _sample_tnb

FAST = [{"n_rounds": 5, "kappa": 0.3}, {"n_rounds": 8, "kappa": 0.3}]


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) / 3
    return X, np.where(X[:, 0] > 0, 1, -1)


def _exact_epsilon(rho, eta, gamma, delta):
    """PS22 Theorem 2 for a rho-zCDP base, then CKS20 Prop. 12, in 40-digit arithmetic."""
    mp.mp.dps = 40
    rho, eta, g, log_delta = mp.mpf(rho), mp.mpf(eta), mp.mpf(gamma), mp.log(mp.mpf(delta))
    runs = (1 / g - 1) / mp.log(1 / g) if eta == 0 else eta * (1 - g) / (g * (1 - g**eta))
    lam_hat = max(mp.mpf(1), mp.sqrt(mp.log(1 / g) / rho))  # the convex middle term's minimum
    middle = (1 + eta) * (rho * (lam_hat - 1) + mp.log(1 / g) / lam_hat)

    def f(t):
        a = 1 + mp.exp(t)
        return (rho * a + middle + mp.log(runs) / (a - 1) + mp.log(1 - 1 / a)
                - (log_delta + mp.log(a)) / (a - 1))

    ts = [mp.mpf(t) / 20 for t in range(-300, 400)]
    i = min(range(len(ts)), key=lambda j: f(ts[j]))
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
    phi = (mp.sqrt(5) - 1) / 2
    for _ in range(150):
        a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
        lo, hi = (lo, b) if f(a) < f(b) else (a, hi)
    return f((lo + hi) / 2)


# -- 1. the planned rho never converts to more than the target ------------------------------
@pytest.mark.parametrize("eps, delta, eta, runs", [
    (1.0, 1e-5, 0.0, None), (4.0, 1e-9, 0.0, None), (0.3, 1e-9, -0.5, 3.0),
    (1.0, 1e-9, -0.5, 50.0), (4.0, 1e-5, 1.0, 50.0),
])
def test_selection_cost_in_exact_arithmetic_never_exceeds_the_target(eps, delta, eta, runs):
    ev = PrivateSelection(eps, delta, eta=eta, expected_runs=runs,
                          classes=[-1, 1]).planned_privacy_event()
    assert ev.expected_runs == pytest.approx(runs or 7.5, rel=1e-9)
    exact = _exact_epsilon(ev.rho, ev.eta, ev.gamma, delta)
    assert exact <= eps
    assert exact > eps * (1 - 1e-6)  # and the margin is small


# -- 2. the number of runs: exact inversion, refused beyond the cap -------------------------
@pytest.mark.parametrize("eta", [-0.5, 0.0, 1.0, 3.0])
def test_tnb_draw_is_the_inverse_cdf_of_the_pmf(eta):
    gamma = _gamma_for(20.0, eta)
    for seed in range(40):
        u = np.random.default_rng(seed).random()
        k, cdf = 1, tnb_pmf(1, eta, gamma)
        while cdf < u:
            k += 1
            cdf += tnb_pmf(k, eta, gamma)
        assert _sample_tnb(eta, gamma, np.random.default_rng(seed)) == k


@pytest.mark.parametrize("eta", [0.0, 1.0])
def test_a_draw_beyond_the_cap_is_refused_not_truncated(eta):
    gamma = _gamma_for(1e9, eta)  # seed 0 draws K > 100,000 for both
    with pytest.raises(ValueError, match="more than 100,000 runs"):
        _sample_tnb(eta, gamma, np.random.default_rng(0))


# -- 3. bad candidates are refused before any run -------------------------------------------
@pytest.mark.parametrize("candidate, error, match", [
    ({"foo": 1}, TypeError, "'candidates' parameter of PrivateSelection"),
    ({"target_epsilon": 100.0}, TypeError, "the search sets those"),
    ({"accounting": "paper"}, TypeError, "the search sets those"),
    ({"random_state": 0}, TypeError, "the search sets those"),
    ({"kappa": 1.5}, ValueError, "'kappa' parameter of PrivateHalfspaceClassifier"),
    ({"multiclass": "OVR"}, ValueError, "'multiclass' parameter"),
    ({"kappa": 0.005}, ValueError, r"kappa \* n_samples >= 1"),  # n_train = 150
])
def test_a_bad_candidate_fails_before_any_run_trains(monkeypatch, candidate, error, match):
    fits = []
    real_fit = PrivateHalfspaceClassifier.fit
    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit",
                        lambda self, X, y: fits.append(1) or real_fit(self, X, y))
    X, y = _data()
    sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0,
                           candidates=FAST + [candidate])
    with pytest.raises(error, match=match):
        sel.fit(X, y)
    assert fits == []


def test_a_budget_too_small_for_any_run_is_one_clear_error():
    # each run's rho (about 1e-6) converts to epsilon 0 at delta = 1e-3
    sel = PrivateSelection(0.01, 1e-3, eta=2.0, classes=[-1, 1])
    with pytest.raises(ValueError, match="PrivateSelection: the budget epsilon=0.01"):
        sel.planned_privacy_event()
    X, y = _data()
    with pytest.raises(ValueError, match="no run can be calibrated"):
        sel.fit(X, y)


def test_a_one_shot_iterator_of_candidates_is_refused():
    sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=iter(FAST))
    with pytest.raises(TypeError, match="non-empty list of dicts"):
        sel.planned_privacy_event()


# -- 4. and 5. the split -----------------------------------------------------------------------
def test_a_validation_fraction_near_one_leaves_a_training_row():
    X, y = _data(n=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = PrivateSelection(2.0, 1e-6, classes=[-1, 1], validation_fraction=0.999,
                               candidates=[{"n_rounds": 3}],
                               random_state=0).fit(X, y)
    assert sel.predict(X).shape == (40,)


@pytest.mark.parametrize("seed", range(6))
def test_a_label_outside_the_classes_is_refused_whatever_the_split(seed):
    X, y = _data(n=60)
    y[-1] = 5
    sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], validation_fraction=0.5,
                           candidates=FAST, random_state=seed)
    with pytest.raises(ValueError, match=r"not in classes=\[-1, 1\] \(the first at row 59\)"):
        sel.fit(X, y)


# -- held: randomness only through the Generator --------------------------------------------
def test_selection_never_touches_the_global_numpy_rng():
    X, y = _data()

    def fingerprint(random_state):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST,
                                   random_state=random_state).fit(X, y)
        return sel.best_params_, sel.best_estimator_.coef_.tolist()

    np.random.seed(0)
    first = np.random.random()
    np.random.seed(0)
    a = fingerprint(3)
    assert np.random.random() == first  # the global stream did not move
    np.random.seed(1)
    assert fingerprint(3) == a  # an int seed does not read the global stream
    assert fingerprint(np.random.default_rng(3)) == a  # int and Generator agree


# -- 7. a search over PrivateSelection itself ---------------------------------------------------
def test_grid_search_over_private_selection_warns_that_each_fit_spends_the_budget():
    from sklearn.model_selection import GridSearchCV

    from dpboost import selection

    X, y = _data(n=120)
    grid = GridSearchCV(PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST,
                                         random_state=0),
                        {"validation_fraction": [0.25, 0.3]}, cv=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grid.fit(X, y)
    budget = [w for w in caught if issubclass(w.category, selection.BudgetPerFitWarning)]
    assert len(budget) == 1
    assert str(budget[0].message).startswith("PrivateSelection is being fitted")
    assert "candidates" in str(budget[0].message)
