"""``LargeDeltaWarning``: a fit whose ``target_delta`` is at least ``1 / n`` says so.

(epsilon, delta)-DP with ``delta >= 1 / n`` is met by publishing each row with probability
``delta`` (Dwork & Roth 2014, Section 2.3), so such a pair promises little; before session 27
every such fit trained silently (``dpboost train --target-delta 0.01`` on 50 rows).
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.exceptions import LargeDeltaWarning
from dpboost.privacy_report import warn_if_delta_large


def _caught(fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [w for w in caught if issubclass(w.category, LargeDeltaWarning)]


def _rows(n, k=2, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.normal(size=(n, 4)) * 0.1 + 0.3 * np.eye(4)[y % 4]
    return X / np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True)), y


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**7), st.floats(1e-12, 0.999))
def test_warns_exactly_when_delta_times_n_reaches_one(n, delta):
    caught = _caught(lambda: warn_if_delta_large({"delta": delta, "n_samples": n}, "X"))
    assert len(caught) == (1 if delta * n >= 1.0 else 0)


@pytest.mark.parametrize("n,delta,warns", [(50, 0.02, True), (50, 0.019, False),
                                           (400, 1e-6, False), (400, 0.01, True)])
def test_a_binary_fit_warns_and_points_at_its_caller(n, delta, warns):
    X, y = _rows(n)
    model = PrivateHalfspaceClassifier(1.0, delta, classes=[0, 1], random_state=0)
    caught = _caught(lambda: model.fit(X, y))
    assert len(caught) == int(warns)
    if warns:
        assert caught[0].filename == __file__  # stacklevel: the line that called fit
        assert f"n = {n} rows" in str(caught[0].message)


def test_a_multiclass_fit_warns():
    X, y = _rows(60, k=3)
    model = PrivateHalfspaceClassifier(1.0, 0.05, classes=[0, 1, 2], random_state=0)
    caught = _caught(lambda: model.fit(X, y))
    assert len(caught) == 1 and "n = 60 rows" in str(caught[0].message)


def test_the_cli_prints_it_as_one_line(tmp_path):
    X, y = _rows(50)
    body = "\n".join(",".join(f"{v:.6f}" for v in r) + f",{t}" for r, t in zip(X, y))
    (tmp_path / "d.csv").write_text("a,b,c,d,y\n" + body + "\n")
    out = []
    for delta in ("0.02", "1e-6"):
        run = subprocess.run([sys.executable, "-m", "dpboost", "train", str(tmp_path / "d.csv"),
                              "--classes", "0,1", "--target-epsilon", "1", "--target-delta",
                              delta, "--seed", "0", "--out", str(tmp_path / "m.json")],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        out.append([ln for ln in run.stderr.splitlines() if "target_delta" in ln])
    assert len(out[0]) == 1 and out[0][0].startswith("dpboost train: warning:")
    assert out[1] == []


@pytest.mark.parametrize("delta,warns", [(0.02, True), (1e-6, False)])
def test_private_selection_warns_once_itself(delta, warns):
    """Red team round 2 (session 27): the search filters its runs' warnings (they would count
    its K runs), so it never said it; it now warns once in ``fit``, from delta and n."""
    from dpboost.selection import PrivateSelection

    X, y = _rows(100)
    search = PrivateSelection(1.0, delta, classes=[0, 1], random_state=0)
    caught = _caught(lambda: search.fit(X, y))
    assert len(caught) == int(warns)
    if warns:
        assert caught[0].filename == __file__ and "n = 100 rows" in str(caught[0].message)
