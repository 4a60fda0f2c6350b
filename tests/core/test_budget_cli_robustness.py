"""``dpboost budget`` / ``dpboost privacy`` on extreme noise and tampered ledgers: they return
quickly, and every failure is one line on stderr with exit code 2 (never a traceback)."""

import json
import math

import pytest

from accounting import BudgetLedger, GaussianEvent, SelfComposedEvent
from dpboost.cli import main
from ledger_cases import TAMPERED
from time_limit import within


def _init(path):
    assert main(["budget", "init", str(path), "--target-epsilon", "1", "--target-delta",
                 "1e-6"]) == 0


def _spend(path, z, note="x"):
    return main(["budget", "spend", str(path), "--noise-multiplier", str(z), "--n-rounds", "1",
                 "--note", note])


def _one_line_error(capsys, path=None):
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    if path is not None:
        assert str(path) in lines[0]
    return lines[0]


def test_privacy_with_a_huge_noise_multiplier_returns(capsys):
    # rho = 5e-311: cks_epsilon looped forever on sqrt(L / rho) = inf
    with within(5):  # the default mechanism is train's discrete Gaussian (no exact route)
        assert main(["privacy", "--n-rounds", "1", "--noise-multiplier", "1e155",
                     "--target-delta", "1e-6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["epsilon"] == {"paper": pytest.approx(0.0, abs=1e-150), "cks": 0.0}
    with within(5):
        assert main(["privacy", "--n-rounds", "1", "--noise-multiplier", "1e155",
                     "--target-delta", "1e-6", "--json", "--mechanism", "gaussian"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["epsilon"] == {"paper": pytest.approx(0.0, abs=1e-150), "cks": 0.0, "exact": 0.0}


def test_budget_spend_with_a_huge_noise_multiplier_returns_and_releases_the_lock(tmp_path, capsys):
    path = tmp_path / "l.json"
    _init(path)
    with within(5):
        assert _spend(path, "1e160", "big") == 0
        assert _spend(path, "100", "normal") == 0  # the lock was released
    assert [s.label for s in BudgetLedger.open(path).history] == ["big", "normal"]


def test_show_after_an_infinite_noise_spend(tmp_path, capsys):
    """The CLI refuses z = inf (a spend that costs nothing); a ledger that holds one (the
    Python API's "a step that releases nothing", or an older dpboost) still shows."""
    path = tmp_path / "inf.json"
    _init(path)
    assert _spend(path, "inf", "free") == 2
    _one_line_error(capsys)
    BudgetLedger.open(path).spend(SelfComposedEvent(GaussianEvent(math.inf), 1), label="free")
    capsys.readouterr()
    # stored as the zero-cost GaussianEvent(inf), in standard JSON ("inf" as a string)
    stored = json.loads(path.read_text())["spends"][0]["event"]
    assert stored == {"type": "SelfComposedEvent", "count": 1,
                      "event": {"type": "GaussianEvent", "noise_multiplier": "inf"}}
    assert BudgetLedger.open(path).history[0].event == SelfComposedEvent(GaussianEvent(math.inf), 1)
    assert main(["budget", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 x Gaussian(z=inf)" in out and "spent epsilon=0.000000" in out
    assert main(["budget", "show", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["spent_epsilon"] == 0.0 and summary["spends"][0]["epsilon"] == 0.0


@pytest.mark.parametrize("name", sorted(TAMPERED))
@pytest.mark.parametrize("action", ["show", "show-json", "spend"])
def test_a_tampered_ledger_is_one_line_exit_2_naming_the_file(tmp_path, capsys, name, action):
    path = tmp_path / f"{name}.json"
    path.write_text(TAMPERED[name])
    argv = {
        "show": ["budget", "show", str(path)],
        "show-json": ["budget", "show", str(path), "--json"],
        "spend": ["budget", "spend", str(path), "--noise-multiplier", "100", "--n-rounds", "1",
                  "--note", "x"],
    }[action]
    assert main(argv) == 2
    line = _one_line_error(capsys, path)
    assert "budget ledger" in line
    assert path.read_text() == TAMPERED[name]  # nothing written, nothing lost
