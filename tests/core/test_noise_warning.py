"""``NoiseDominatesWarning``: a fit whose released halfspace is mostly noise says so, from
public and released values only (a raw-CSV trial, session 22: 20 rows of breast cancer at
epsilon = 1 trained silently into predictions whose ranking was inverted in 8 of 12 fits)."""

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.exceptions import NoiseDominatesWarning
from dpboost.privacy_report import NOISE_WARNING_RATIO


def _data():
    d = load_breast_cancer()
    return d.data / np.abs(d.data).max(axis=0) / math.sqrt(30), d.target


def _fit(X, y, eps=1.0, seed=0):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = PrivateHalfspaceClassifier(eps, 1e-6, classes=[0, 1], random_state=seed)
        model.fit(X, y)
    return model, [w for w in caught if issubclass(w.category, NoiseDominatesWarning)]


@pytest.mark.parametrize("n,eps", [(20, 1.0), (60, 1.0), (60, 4.0), (200, 0.5), (200, 1.0),
                                   (427, 1.0), (40, 20.0)])
def test_warns_exactly_when_the_ratio_reaches_the_bound(n, eps):
    X, y = _data()
    model, caught = _fit(X[:n], y[:n], eps)
    rep = model.privacy_report_
    d = model.released_centres_.shape[1]
    ratio = rep["sigma"] * math.sqrt(d / rep["n_rounds"]) / rep["norm_bound"]
    assert rep["noise_ratio"] == pytest.approx(ratio, rel=1e-12)
    assert (len(caught) == 1) == (ratio >= NOISE_WARNING_RATIO)
    if caught:
        text = str(caught[0].message)
        assert f"n = {n} rows" in text and f"{ratio:.2g} times" in text
        assert "near chance" in text


def test_the_message_is_the_same_for_a_neighbour():
    X, y = _data()
    X, y = X[:30], y[:30].copy()
    other = X.copy()
    other[4] = -other[4]  # one row replaced
    y2 = y.copy()
    y2[4] = 1 - y2[4]
    texts = []
    for rows, labels in ((X, y), (other, y2)):
        _, caught = _fit(rows, labels, 1.0, seed=3)
        texts.append([str(w.message) for w in caught])
    assert texts[0] and texts[0] == texts[1]


def test_the_cli_prints_it_as_one_line(tmp_path):
    X, y = _data()
    rows = "\n".join(",".join(f"{v:.6f}" for v in r) + f",{t}" for r, t in zip(X[:25], y))
    (tmp_path / "d.csv").write_text(
        ",".join(f"f{j}" for j in range(30)) + ",y\n" + rows + "\n")
    run = subprocess.run([sys.executable, "-m", "dpboost", "train", str(tmp_path / "d.csv"),
                          "--classes", "0,1", "--target-epsilon", "1", "--target-delta",
                          "1e-6", "--seed", "0", "--out", str(tmp_path / "m.json")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = [ln for ln in run.stderr.splitlines() if "noise dominates" in ln]
    assert len(lines) == 1 and lines[0].startswith("dpboost train: warning:")
