"""Where a fit's noise came from, in every report a model publishes (red team, session 37).

Two neighbouring files trained with ``--seed 0`` drew the same noise (their noisy counts were
300 and 301, the input centres identical), so anyone who knows or guesses the seed tells them
apart with certainty; the model file said ``(1, 1e-06)-DP`` and nothing of the seed.  The
report now carries ``noise_source`` (never the seed itself), and ``train``'s privacy line
says a seeded run is private only while the seed is secret.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.privacy_report import noise_source
from dpboost.selection import PrivateSelection


def _data(n=300, d=3, classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / 3
    if classes == 3:
        return X, np.digitize(X[:, 0], [-0.2, 0.2])
    return X, np.where(X[:, 0] > 0, 1, -1)


@pytest.mark.parametrize("state, start", [(None, "fresh"), (3, "seeded"),
                                          (np.random.default_rng(1), "a numpy Generator")])
@pytest.mark.parametrize("classes", [2, 3])
def test_every_fit_reports_its_noise_source(state, start, classes):
    X, y = _data(classes=classes)
    labels = [-1, 1] if classes == 2 else [0, 1, 2]
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=labels, n_rounds=5,
                                     random_state=state).fit(X, y)
    assert est.privacy_report_["noise_source"].startswith(start)
    assert str(3) not in est.privacy_report_["noise_source"]  # never the seed


def test_a_search_reports_its_own_noise_source_for_the_released_run():
    """The search's runs get Generators drawn from the search's seed; the released run's
    report states the search's source (an int seed), not the Generator it was handed."""
    X, y = _data()
    sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], random_state=0,
                           candidates=[{"n_rounds": 5}, {"n_rounds": 8}]).fit(X, y)
    assert sel.privacy_report_["noise_source"].startswith("seeded")
    assert sel.best_estimator_.privacy_report_["noise_source"].startswith("seeded")


def test_train_says_a_seeded_run_is_private_only_while_the_seed_is_secret(tmp_path, capsys):
    X, y = _data()
    data = tmp_path / "d.csv"
    data.write_text("a,b,c,y\n" + "".join(f"{a},{b},{c},{t}\n" for (a, b, c), t in zip(X, y)),
                    encoding="utf-8")
    lines = {}
    for seed in (["--seed", "0"], []):
        out = tmp_path / f"m{len(seed)}.json"
        assert main(["train", str(data), "--label", "y", "--classes=-1,1", "--target-epsilon",
                     "1", "--target-delta", "1e-6", "--out", str(out), *seed]) == 0
        lines[bool(seed)] = [x for x in capsys.readouterr().out.splitlines()
                             if x.startswith("privacy:")][0]
        report = json.loads(out.read_text(encoding="utf-8"))["privacy_report"]
        assert report["noise_source"].startswith("seeded" if seed else "fresh")
    assert lines[True].endswith("noise seeded by --seed: private only while the seed is secret")
    assert "seed" not in lines[False]


def test_noise_source_never_names_the_seed():
    for seed in (0, 7, 12345, 2**40):
        assert str(seed) not in noise_source(seed).replace("random_state", "")
