"""``dpboost budget spend`` and ``dpboost privacy`` charge what ``train`` releases, and refuse
values that would record nothing or cannot be accounted, in one line (privacy-trial findings)."""

import json

import pytest

from accounting import BudgetLedger, DiscreteGaussianEvent, SelfComposedEvent
from dpboost.cli import main

Z, T = 20.262698584715604, 20  # the trial's fit: n_rounds=20, kappa=0.1, report eps = 1.000


def _init(tmp_path, eps="5"):
    path = str(tmp_path / "l.json")
    assert main(["budget", "init", path, "--target-epsilon", eps, "--target-delta", "1e-6"]) == 0
    return path


def _one_line_error(capsys, argv, fragment):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and fragment in err, err
    assert "Traceback" not in err and "internal error" not in err


def test_budget_spend_charges_the_discrete_gaussian_by_default(tmp_path, capsys):
    # Before: the same command recorded 20 x Gaussian and charged 0.927 (exact GDP).
    path = _init(tmp_path)
    capsys.readouterr()
    assert main(["budget", "spend", path, "--noise-multiplier", str(Z), "--n-rounds", str(T),
                 "--note", "fit", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mechanism"] == "discrete-gaussian" and out["conversion"] == "cks"
    assert out["spent_epsilon"] == pytest.approx(1.0, abs=1e-6)
    event = BudgetLedger.open(path).history[0].event
    assert event == SelfComposedEvent(DiscreteGaussianEvent(Z), T)
    assert main(["budget", "spend", path, "--noise-multiplier", str(Z), "--n-rounds", str(T),
                 "--note", "fit 2"]) == 0
    text = capsys.readouterr().out
    assert "DiscreteGaussian(z=20.2627)" in text and "(cks, composed)" in text
    assert "'dpboost train --ledger'" in text and "exponential-mechanism" in text


def test_budget_spend_never_charges_less_than_the_fits_own_report(tmp_path, capsys):
    from dpboost import PrivateHalfspaceClassifier, make_margin_data

    X, y = make_margin_data(400, 5, 0.2, random_state=0)
    est = PrivateHalfspaceClassifier(target_epsilon=1.0, target_delta=1e-6, classes=[-1, 1],
                                     n_rounds=T, kappa=0.1, random_state=0).fit(X, y)
    event = est.privacy_event_
    assert isinstance(event.event, DiscreteGaussianEvent)
    path = _init(tmp_path)
    capsys.readouterr()
    assert main(["budget", "spend", path, "--noise-multiplier", repr(event.event.noise_multiplier),
                 "--n-rounds", str(event.count), "--note", "fit", "--json"]) == 0
    charged = json.loads(capsys.readouterr().out)["spent_epsilon"]
    assert charged >= est.privacy_report_["epsilon"]["best"] - 1e-12


def test_privacy_reports_the_discrete_gaussian_by_default(capsys):
    assert main(["privacy", "--n-rounds", str(T), "--noise-multiplier", str(Z),
                 "--target-delta", "1e-6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mechanism"] == "discrete-gaussian" and out["mu"] is None
    assert set(out["epsilon"]) == {"paper", "cks"} and out["conversion"] == "cks"
    assert out["epsilon"]["cks"] == pytest.approx(1.0, abs=1e-6)
    assert main(["privacy", "--n-rounds", str(T), "--noise-multiplier", str(Z),
                 "--target-delta", "1e-6"]) == 0
    text = capsys.readouterr().out
    assert "discrete Gaussian rounds" in text and "best: cks" in text
    assert "exact GDP conversion does not apply" in text and "train --ledger" in text
    assert main(["privacy", "--n-rounds", "100", "--target-epsilon", "1", "--target-delta",
                 "1e-6", "--calibrate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["noise_multiplier"]) == {"paper", "cks"} and out["conversion"] == "cks"
    assert out["noise_multiplier"]["cks"] == pytest.approx(45.3088, abs=1e-4)


@pytest.mark.parametrize("z, fragment", [("inf", "costs nothing"), ("nan", "'noise_multiplier'"),
                                         ("0", "'noise_multiplier'")])
def test_a_noise_multiplier_that_records_nothing_is_refused(tmp_path, capsys, z, fragment):
    path = _init(tmp_path)
    capsys.readouterr()
    _one_line_error(capsys, ["budget", "spend", path, "--noise-multiplier", z, "--n-rounds", "5",
                             "--note", "x"], fragment)
    _one_line_error(capsys, ["privacy", "--noise-multiplier", z, "--n-rounds", "5",
                             "--target-delta", "1e-6"], fragment)
    assert BudgetLedger.open(path).history == ()


@pytest.mark.parametrize("rounds", [str(10**400), str(10**15 + 1)])
def test_counts_above_the_bound_are_one_line(tmp_path, capsys, rounds):
    # Before: --n-rounds 10**400 was an internal error (OverflowError), exit 1.
    path = _init(tmp_path)
    capsys.readouterr()
    _one_line_error(capsys, ["privacy", "--n-rounds", rounds, "--noise-multiplier", "1",
                             "--target-delta", "1e-6"], "at most 10**15")
    _one_line_error(capsys, ["budget", "spend", path, "--n-rounds", rounds,
                             "--noise-multiplier", "1", "--note", "x"], "at most 10**15")
    assert main(["privacy", "--n-rounds", str(10**15), "--noise-multiplier", "1e9",
                 "--target-delta", "1e-6", "--json"]) == 0


def test_a_ledger_entry_that_cannot_be_read_is_named(tmp_path, capsys):
    # Before: a hand-edited count of 10**400 made show, spend and train --ledger internal errors.
    path = _init(tmp_path)
    data = json.loads(open(path).read())
    data["spends"].append({"timestamp": "t", "label": "edited", "event": {
        "type": "SelfComposedEvent", "count": 10**400,
        "event": {"type": "GaussianEvent", "noise_multiplier": 50.0}}})
    with open(path, "w") as handle:
        json.dump(data, handle)
    capsys.readouterr()
    for argv in (["budget", "show", path],
                 ["budget", "spend", path, "--noise-multiplier", "50", "--n-rounds", "1",
                  "--note", "x"]):
        _one_line_error(capsys, argv, "spend 1 ('edited')")


def test_cli_ledger_paths_are_one_line(tmp_path, capsys):
    _one_line_error(capsys, ["budget", "show", ""], "must name a ledger file")
    _one_line_error(capsys, ["budget", "init", str(tmp_path / "none" / "l.json"),
                             "--target-epsilon", "1", "--target-delta", "1e-6"],
                    "folder does not exist")
