"""Review of the online family (red team s34): each test failed before the fix it pins.

* A randomised weak learner given as ``weak_learner=`` was deep-copied N times with its
  Generator, so the N copies drew one stream and voted alike (no boosting);
* ``partial_fit`` refused a bad row only after learning the rows before it;
* ``dpboost online --metric log_loss`` scored the drawn +-1 labels of AdaBoost.OL and the
  agnostic booster as probabilities (34.5 per mistake); a folder was "No such file".
"""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.online import AdaBoostOL, OnlineBBM
from test_online_robustness import BAD_EXAMPLES, LEARNERS, X, Y


class NoisyOracle:
    """Right with probability (1 + edge)/2 on rows whose first feature is the label."""

    def __init__(self, edge: float, rng: np.random.Generator):
        self.edge, self.rng = edge, rng

    def predict_one(self, x):
        return x[0] if self.rng.random() < (1 + self.edge) / 2 else -x[0]

    def learn_one(self, x, y, weight=1.0):
        pass


def _oracle_rows(n=2000):
    y = np.random.default_rng(0).choice([-1.0, 1.0], size=n)
    return y[:, None], y


@pytest.mark.parametrize("cls", [OnlineBBM, AdaBoostOL])
def test_copies_of_a_randomised_weak_learner_draw_independent_streams(cls):
    """51 independent learners right with probability 0.6: the majority errs with probability
    P[Bin(51, 0.6) <= 25] = 0.072 (measured 0.077 for BBM, 0.101 for AdaBoost.OL); one learner
    copied 51 times errs with probability 0.4 (measured 0.39 before)."""
    X, y = _oracle_rows()
    prototype = NoisyOracle(0.2, np.random.default_rng(1))
    state = copy.deepcopy(prototype.rng.bit_generator.state)
    model = cls(51, weak_learner=prototype, random_state=0)
    assert len(np.unique(model.bank_.scores(X[0]))) == 2
    first = model.partial_fit(X, y).predict(X)
    error = np.mean(first != y)
    assert error < 0.15, error
    assert prototype.rng.bit_generator.state == state  # the user's object is left as it was
    again = cls(51, weak_learner=NoisyOracle(0.2, np.random.default_rng(1)), random_state=0)
    again.bank_.scores(X[0])  # the same draws as above, in the same order
    np.testing.assert_array_equal(again.partial_fit(X, y).predict(X), first)


@pytest.mark.parametrize("bad", list(BAD_EXAMPLES)[:2] + ["y 0", "weight negative"])
@pytest.mark.parametrize("name", list(LEARNERS))
def test_partial_fit_refuses_a_bad_row_before_learning_any(name, bad):
    model = LEARNERS[name]().partial_fit(X[:10], Y[:10])
    snapshot = pickle.dumps(model)
    rows, labels, weights = X[10:30].copy(), Y[10:30].copy(), np.ones(20)
    x, label, weight, _ = BAD_EXAMPLES[bad]
    rows[7], labels[7], weights[7] = x, label, weight
    with pytest.raises(ValueError, match="At row 7; nothing was learned from this call"):
        model.partial_fit(rows, labels, sample_weight=weights)
    assert pickle.dumps(model) == snapshot


@pytest.fixture()
def csv_file(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(200, 3))
    path = tmp_path / "toy.csv"
    path.write_text("a,b,c,y\n" + "".join(f"{x[0]:.3f},{x[1]:.3f},{x[2]:.3f},"
                                          f"{1 if x[1] > 0 else -1}\n" for x in X))
    return path


@pytest.mark.parametrize("algorithm", ["adaboost-ol", "adaboost-ol-s", "agnostic", "bbm"])
def test_log_loss_scores_the_expected_label_of_a_drawing_booster(algorithm, csv_file, capsys):
    def run(metric):
        assert main(["online", str(csv_file), "--algorithm", algorithm, "--metric", metric,
                     "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    log, zero_one = run("log_loss"), run("zero_one")
    if algorithm == "bbm":  # its vote is a score already
        assert "prediction" not in log["settings"]
    else:
        assert log["settings"]["prediction"] == "mean"
        assert zero_one["settings"]["prediction"] == "sample"
    # a drawn label costs -log(1e-15) = 34.5 per progressive-validation mistake
    assert log["pv_loss"] < 34.5 * zero_one["pv_loss"]


def test_a_folder_is_named_as_a_folder(tmp_path, capsys):
    assert main(["online", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"dpboost online: error: {tmp_path} is a folder, not a data file."]
