"""Training rows outside the norm bound: clipped (privacy holds), and whether a private fit
warned about them must not differ on neighbours (session 20: a warning at a tenth of the rows
was a noise-free bit of the data).  The data owner checks with ``clipped_fraction`` or
``diagnostics=True``."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost import BoostedHalfspaceClassifier, ClippedRowsWarning, PrivateHalfspaceClassifier
from dpboost.clipping import clipped_fraction
from dpboost.estimator import clip_rows
from dpboost.selection import PrivateSelection


def _rows(n, d, norm, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X *= norm / np.linalg.norm(X, axis=1, keepdims=True)
    return X, (X[:, 0] > 0).astype(int)


def _warnings(fit) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return sorted({f"{w.category.__name__}: {w.message}" for w in caught})


@pytest.mark.parametrize("make", [
    lambda: PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=0,
                                       diagnostics=True),
    lambda: BoostedHalfspaceClassifier(n_rounds=5, classes=[0, 1]),
])
def test_the_warning_fires_at_a_tenth_when_asked_and_states_no_count(make):
    X, y = _rows(400, 5, 0.9)
    X[:41] *= 2.0  # 41 rows of norm 1.8 > 1: a tenth or more
    with pytest.warns(ClippedRowsWarning, match=r"^A tenth or more of the training rows") as w:
        make().fit(X, y)
    assert not any(c in str(w[0].message) for c in ("41", "400", "10.2"))  # no exact figure
    X[40] /= 2.0  # 40 rows: still a tenth
    with pytest.warns(ClippedRowsWarning, match=r"^A tenth or more"):
        make().fit(X, y)
    X[39] /= 2.0  # 39 rows: a few outliers, routine: silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClippedRowsWarning)
        make().fit(X, y)


@pytest.mark.parametrize("k", [2, 3])
def test_a_private_fit_warns_alike_on_the_neighbours_at_the_tenth(k):
    """The trial's pair: 99 of 1,000 rows clipped, and the neighbour with one more (100)."""
    X, _ = _rows(1000, 4, 0.9, seed=1)
    y = np.arange(1000) % k
    X[:99] *= 1.5 / 0.9
    X2 = X.copy()
    X2[99] *= 1.5 / 0.9
    assert clipped_fraction(X) == 0.099 and clipped_fraction(X2) == 0.1

    def fit(rows, seed):
        return lambda: PrivateHalfspaceClassifier(1.0, 1e-6, classes=list(range(k)),
                                                  random_state=seed).fit(rows, y)
    for seed in range(3):
        assert _warnings(fit(X, seed)) == _warnings(fit(X2, seed)) == []


def test_private_selection_warns_alike_whatever_the_clipped_share():
    X, y = _rows(600, 3, 0.9, seed=2)
    X2 = X.copy()
    X2[:90] *= 2.0  # 15% clipped
    cands = [{"n_rounds": 3, "kappa": 0.25}]

    def fit(rows):
        return lambda: PrivateSelection(1.0, 1e-6, candidates=cands, classes=[0, 1],
                                        random_state=0).fit(rows, y)
    assert _warnings(fit(X)) == _warnings(fit(X2))
    assert not any("ClippedRowsWarning" in w for w in _warnings(fit(X2)))


def test_multiclass_warns_only_when_asked():
    X, _ = _rows(300, 4, 3.0)
    y = np.arange(300) % 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClippedRowsWarning)
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0).fit(X, y)
    with pytest.warns(ClippedRowsWarning, match="A tenth or more"):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1, 2], random_state=0,
                                   diagnostics=True).fit(X, y)


def test_rows_on_or_inside_the_ball_are_silent_and_the_warning_changes_no_release():
    X, y = _rows(500, 6, 4.0)
    inside = clip_rows(X, 1.0)  # what the fit trains on
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClippedRowsWarning)
        a = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=3,
                                       diagnostics=True).fit(inside, y)
        c = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=3).fit(X, y)
    with pytest.warns(ClippedRowsWarning, match="A tenth or more"):
        b = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=3,
                                       diagnostics=True).fit(X, y)
    # the rows outside the ball give the same released centres, with or without the warning
    np.testing.assert_allclose(b.released_centres_, a.released_centres_, rtol=0, atol=0)
    np.testing.assert_allclose(c.released_centres_, a.released_centres_, rtol=0, atol=0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 5), st.floats(0.01, 100), st.integers(0, 10**6))
def test_clipped_fraction_is_the_share_of_rows_longer_than_the_bound(n, d, bound, seed):
    X = np.random.default_rng(seed).standard_normal((n, d)) * 3
    expected = sum(float(np.sqrt(sum(v * v for v in row))) > bound for row in X) / n
    assert clipped_fraction(X, bound) == pytest.approx(expected, abs=1.5 / n)
    assert clipped_fraction(clip_rows(X, bound) * (1 - 1e-12), bound) == 0.0


@pytest.mark.parametrize("X, bound", [(np.zeros((0, 2)), 1.0), (np.zeros(3), 1.0),
                                      (np.zeros((2, 2)), 0.0), (np.zeros((2, 2)), np.inf)])
def test_clipped_fraction_refuses_bad_input(X, bound):
    with pytest.raises(ValueError):
        clipped_fraction(X, bound)
