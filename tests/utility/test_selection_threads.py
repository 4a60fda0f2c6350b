"""PrivateSelection withholds its runs' warnings on its own thread only.

No run may warn (a warning per run releases ``K``).  Until session 28 each run was wrapped in
``warnings.catch_warnings()``, which swaps the process-wide ``warnings.filters`` list: two
searches in two threads restored each other's lists, so a search's own warning was lost, a
run's warnings leaked, every later warning of the process was ignored, and another thread's
warning was lost while a run fitted.  The runs now fit within
:func:`dpboost.privacy_report.withhold_fit_warnings`, a context variable (per thread).

The interleaving is forced with events around the runs' fits, so the test is deterministic:
search A's run enters, search B starts and its run enters, A ends, then B's run fits.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

from dpboost import selection
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.exceptions import LargeDeltaWarning
from dpboost.privacy_report import fit_warnings_withheld, withhold_fit_warnings
from dpboost.selection import PrivateSelection

N, DELTA = 100, 0.05  # delta >= 1/n for the search (100 rows) and for a run (75 rows)
WAIT = 60.0


def _rows(n=N, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, 4)) * 0.1 + 0.3 * np.eye(4)[y]
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True)), y


def _messages(caught, category, start):
    return [str(w.message) for w in caught
            if issubclass(w.category, category) and str(w.message).startswith(start)]


def test_a_run_alone_would_warn():
    """The control: a run's estimator on a run's rows (75) raises the warnings withheld."""
    X, y = _rows(75)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrivateHalfspaceClassifier(0.5, DELTA, classes=[1, 0], accounting="cks",
                                   random_state=0).fit(X, y)
    kinds = {w.category for w in caught}
    assert LargeDeltaWarning in kinds and UserWarning in kinds  # 1/n, and the unsorted classes
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with withhold_fit_warnings():
            PrivateHalfspaceClassifier(0.5, DELTA, classes=[0, 1], accounting="cks",
                                       random_state=0).fit(X, y)
    assert caught == []


def test_two_searches_in_two_threads_keep_every_warning_where_it_belongs(monkeypatch):
    """Fails on the old code: there the filters were left ignoring every warning, search B's
    delta warning and the main thread's were lost, and B's run's warnings leaked (n = 75)."""
    monkeypatch.setattr(selection, "_sample_tnb", lambda *a: 1)  # one run per search
    X, y = _rows()
    a_in, b_in, a_done = threading.Event(), threading.Event(), threading.Event()
    real_fit = PrivateHalfspaceClassifier.fit
    waited = []

    def fit(self, X, y):
        role = threading.current_thread().name
        if role == "A":  # A's run: entered; stays until B's run has entered
            a_in.set()
            waited.append(b_in.wait(WAIT))
        elif role == "B":  # B's run: entered; fits once search A has ended
            b_in.set()
            waited.append(a_done.wait(WAIT))
        return real_fit(self, X, y)

    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", fit)
    searches = {r: PrivateSelection(1.0, DELTA, classes=[1, 0], random_state=i)
                for i, r in enumerate("AB")}
    errors = []

    def work(role):
        try:
            searches[role].fit(X, y)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            if role == "A":
                a_done.set()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        before = list(warnings.filters)
        a = threading.Thread(target=work, args=("A",), name="A")
        a.start()
        assert a_in.wait(WAIT)
        # the main thread's own fit while A's run fits: its warning must not be lost
        real_fit(PrivateHalfspaceClassifier(1.0, DELTA, classes=[0, 1], random_state=0), X, y)
        b = threading.Thread(target=work, args=("B",), name="B")
        b.start()
        a.join(WAIT)
        b.join(WAIT)
        after = list(warnings.filters)
    assert not errors and waited == [True, True]
    assert after == before  # the process-wide filters are untouched
    # each search said its delta once, and the main thread's fit said its own
    assert len(_messages(caught, LargeDeltaWarning, "PrivateSelection:")) == 2
    assert len(_messages(caught, LargeDeltaWarning, "PrivateHalfspaceClassifier:")) == 1
    assert all(f"n = {N} rows" in m
               for m in _messages(caught, LargeDeltaWarning, "PrivateHalfspaceClassifier:"))
    # no run warned (a run has 75 rows; the unsorted classes are the searches' to say)
    assert not [w for w in caught if "n = 75 rows" in str(w.message)]
    assert not _messages(caught, UserWarning, "PrivateHalfspaceClassifier: classes=")
    assert len(_messages(caught, UserWarning, "PrivateSelection: classes=[1, 0]")) == 2


def test_the_withholding_ends_with_the_search_even_when_a_run_fails(monkeypatch):
    def fail(self, X, y):
        assert fit_warnings_withheld()
        raise RuntimeError("a run failed")

    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", fail)
    X, y = _rows()
    with pytest.raises(RuntimeError, match="a run failed"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        PrivateSelection(1.0, 1e-6, classes=[0, 1], random_state=0).fit(X, y)
    assert not fit_warnings_withheld()


def test_unsorted_classes_reach_the_runs_sorted_and_the_release_as_declared():
    """A run fits with the classes sorted (so it does not warn about their order) and the
    released estimator holds them as declared (the label order ``model_io`` saves); the fit
    is the one the declared order gives (``classes_`` is sorted either way).  The search
    warns about the order once itself, where before nothing said it."""
    from dpboost.model_io import model_to_dict

    X, y = _rows(400)
    fitted = {}
    for classes in ([1, 0], [0, 1]):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fitted[tuple(classes)] = PrivateSelection(
                1.0, 1e-6, classes=classes, random_state=5).fit(X, y)
        unsorted = [w for w in caught if str(w.message).startswith("PrivateSelection: classes=")]
        assert len(unsorted) == (1 if classes == [1, 0] else 0)
        assert all(w.filename == __file__ for w in unsorted)  # the line that called fit
    declared, ordered = fitted[(1, 0)], fitted[(0, 1)]
    assert declared.best_estimator_.get_params()["classes"] == [1, 0]
    assert declared.best_estimator_.classes_.tolist() == [0, 1]
    np.testing.assert_array_equal(declared.best_estimator_.coef_, ordered.best_estimator_.coef_)
    assert model_to_dict(declared)["classes"] == [1, 0]  # as declared, as before


def test_a_run_fits_with_numpys_floating_point_reports_off(monkeypatch):
    """A numpy RuntimeWarning (overflow, invalid value) raised in a run would be shown once
    per run under an "always" filter, so K, and under np.seterr(all="raise") it would stop the
    search: each run fits under np.errstate(all="ignore"), which is per thread."""
    seen = []
    fit = PrivateHalfspaceClassifier.fit

    def recording_fit(self, X, y):
        seen.append(np.geterr())
        return fit(self, X, y)

    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", recording_fit)
    X, y = _rows()
    with np.errstate(all="raise"):
        PrivateSelection(1.0, 1e-6, classes=[0, 1], random_state=0).fit(X, y)
        assert np.geterr()["over"] == "raise"  # the caller's state, back after the search
    assert seen and all(set(state.values()) == {"ignore"} for state in seen)
