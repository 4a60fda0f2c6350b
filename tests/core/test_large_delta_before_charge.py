"""``dpboost train`` says ``target_delta >= 1 / n`` before its ledger reserves the budget.

The fit warns (:class:`~dpboost.exceptions.LargeDeltaWarning`) at its end, from its report,
when the budget is already spent; train printed that warning after the fit, so the ledger was
charged first, and a fit that failed midway (charged "(failed)") never printed it at all.
Since session 28 :func:`dpboost.cli.train.fit_charged` prints it from the public ``n`` and
``delta`` before the reservation, once (the fit's own copy is dropped), and charges as before:
a warning, not a refusal.  The Python API is unchanged (``fit`` still warns).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from accounting import BudgetLedger, ZCDPAccountant, event_from_dict
from dpboost.cli import main
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.exceptions import LargeDeltaWarning

HEAD = "dpboost train: warning: PrivateHalfspaceClassifier: target_delta ="


def _data(tmp_path, n=60, k=2):
    rng = np.random.default_rng(0)
    y = np.arange(n) % k
    X = rng.normal(size=(n, 3)) * 0.1 + 0.3 * np.eye(3)[y % 3]
    lines = ["a,b,c,y"] + [f"{r[0]:.6f},{r[1]:.6f},{r[2]:.6f},{t}" for r, t in zip(X, y)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, X.round(6), y


def _ledger(tmp_path):
    path = tmp_path / "ledger.json"
    BudgetLedger(path, target_epsilon=10.0, target_delta=0.5)
    return path


def _train(data, tmp_path, delta, *extra, classes="0,1"):
    return main(["train", str(data), "--label", "y", "--classes", classes, "--target-epsilon",
                 "1", "--target-delta", delta, "--seed", "0", "--out",
                 str(tmp_path / "m.json"), *extra])


def _warned(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(HEAD)]


@pytest.mark.parametrize("delta,warns", [("0.02", True), ("0.0166", False)])
def test_stderr_holds_the_warning_when_the_ledger_reserves(tmp_path, monkeypatch, capsys,
                                                            delta, warns):
    """Fails on the old code: the line came after the fit, so after the reservation."""
    data, _, _ = _data(tmp_path)  # 60 rows: 1 / n = 0.01667
    ledger = _ledger(tmp_path)
    real_reserve = BudgetLedger.reserve
    said = []

    def reserve(self, *args, **kwargs):
        said.append(capsys.readouterr().err)  # what the user had seen before the charge
        return real_reserve(self, *args, **kwargs)

    monkeypatch.setattr(BudgetLedger, "reserve", reserve)
    assert _train(data, tmp_path, delta, "--ledger", str(ledger)) == 0
    after = capsys.readouterr().err
    assert len(said) == 1
    assert len(_warned(said[0])) == int(warns) and _warned(after) == []  # once, before
    # still charged as before: one spend, the planned event, under the run's label
    spends = json.loads(ledger.read_text())["spends"]
    planned = PrivateHalfspaceClassifier(1.0, float(delta), classes=[0, 1]).planned_privacy_event()
    assert [s["label"] for s in spends] == ["dpboost train d.csv"]
    assert ZCDPAccountant().compose(event_from_dict(spends[0]["event"])).rho == pytest.approx(
        ZCDPAccountant().compose(planned).rho, rel=1e-12)
    assert (tmp_path / "m.json").exists()


@pytest.mark.parametrize("k", [2, 3])
def test_the_line_is_the_python_fit_warning_and_comes_before_the_fit(tmp_path, monkeypatch,
                                                                      capsys, k):
    """Without a ledger too, once, before anything of the fit; its text is the one
    ``fit`` warns on the same rows (binary, and multiclass: the report's ``n`` and ``delta``)."""
    data, X, y = _data(tmp_path, k=k)
    classes = list(range(k))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrivateHalfspaceClassifier(1.0, 0.05, classes=classes, random_state=0).fit(X, y)
    python = [str(w.message) for w in caught if issubclass(w.category, LargeDeltaWarning)]
    assert len(python) == 1
    real_fit = PrivateHalfspaceClassifier.fit
    before_fit = []

    def fit(self, X, y):
        before_fit.append(capsys.readouterr().err)
        return real_fit(self, X, y)

    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", fit)
    assert _train(data, tmp_path, "0.05", classes=",".join(map(str, classes))) == 0
    after = capsys.readouterr().err
    assert _warned(before_fit[0]) == [f"dpboost train: warning: {' '.join(python[0].split())}"]
    assert _warned(after) == []


def test_a_fit_that_fails_midway_has_shown_the_warning(tmp_path, monkeypatch, capsys):
    """Fails on the old code: the warnings were printed after a fit that returned, so a fit
    charged "(failed)" had never said its delta was large."""
    data, _, _ = _data(tmp_path)
    ledger = _ledger(tmp_path)
    real_fit = PrivateHalfspaceClassifier.fit

    def fit_then_fail(self, X, y):
        real_fit(self, X, y)
        raise RuntimeError("a lost worker")

    monkeypatch.setattr(PrivateHalfspaceClassifier, "fit", fit_then_fail)
    assert _train(data, tmp_path, "0.02", "--ledger", str(ledger)) != 0
    assert len(_warned(capsys.readouterr().err)) == 1
    assert [s["label"] for s in json.loads(ledger.read_text())["spends"]] == [
        "dpboost train d.csv (failed)"]


def test_the_dask_path_says_it_before_the_reservation(tmp_path, monkeypatch, capsys):
    """``--workers``: the same function (``fit_charged``) with ``n`` from the encoded array."""
    pytest.importorskip("distributed")
    data, _, _ = _data(tmp_path)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({
        "columns": {c: {"type": "numeric", "lower": -1.0, "upper": 1.0} for c in "abc"},
        "label": {"column": "y", "classes": [0, 1]}}))
    ledger = _ledger(tmp_path)
    real_reserve = BudgetLedger.reserve
    said = []

    def reserve(self, *args, **kwargs):
        said.append(capsys.readouterr().err)
        return real_reserve(self, *args, **kwargs)

    monkeypatch.setattr(BudgetLedger, "reserve", reserve)
    code = main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "0.02", "--seed", "0", "--ledger", str(ledger),
                 "--workers", "1", "--memory-limit", "1GiB", "--out", str(tmp_path / "m.json")])
    after = capsys.readouterr().err
    assert code == 0, after
    assert len(said) == 1 and len(_warned(said[0])) == 1 and _warned(after) == []
    assert "n = 60 rows" in _warned(said[0])[0]
    assert len(json.loads(ledger.read_text())["spends"]) == 1
