"""``SelfTrainingClassifier`` refits a private estimator on its own pseudo-labels: each fit
spends the whole budget, as in a grid search, and it said nothing (red team, session 37:
six fits on the same labelled rows, each report saying epsilon 1; composed, 2.63).  It now
warns once, like the other scikit-learn wrappers that refit."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.semi_supervised import SelfTrainingClassifier

from dpboost import PrivateHalfspaceClassifier, make_margin_data
from dpboost.selection import BudgetPerFitWarning


def test_self_training_warns_once_that_each_fit_spends_the_budget():
    X, y = make_margin_data(400, 4, 0.1, random_state=0)
    y = (y > 0).astype(int)
    y[200:] = -1  # unlabelled
    base = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], n_rounds=10,
                                      random_state=np.random.default_rng(0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        SelfTrainingClassifier(base, max_iter=3).fit(X, y)
    budget = [w for w in caught if issubclass(w.category, BudgetPerFitWarning)]
    assert len(budget) == 1, [str(w.message) for w in caught]
    text = str(budget[0].message)
    assert "sklearn.semi_supervised" in text and "outside any guarantee" in text
