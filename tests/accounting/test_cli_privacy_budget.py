"""``dpboost privacy`` and ``dpboost budget``: JSON output, tables, one-line errors (exit 2)."""

import json
import subprocess
import sys

import pytest

from accounting import BudgetLedger
from dpboost.cli import main


def run_json(capsys, argv):
    assert main(argv) == 0
    out, _err = capsys.readouterr()
    return json.loads(out)


def _spend_argv(path, label):
    return ["budget", "spend", path, "--noise-multiplier", "42.25", "--n-rounds", "100",
            "--note", label, "--mechanism", "gaussian"]


def test_privacy_json(capsys):
    out = run_json(
        capsys,
        ["privacy", "--n-rounds", "100", "--noise-multiplier", "42.25", "--target-delta", "1e-6",
         "--json", "--mechanism", "gaussian"],
    )
    assert set(out) == {"mechanism", "rho", "mu", "epsilon", "conversion"}
    assert out["mechanism"] == "gaussian" and out["conversion"] == "exact"
    assert out["rho"] == pytest.approx(100 / (2 * 42.25**2), rel=1e-15)
    assert out["mu"] == pytest.approx(10 / 42.25, rel=1e-15)
    assert out["epsilon"]["exact"] == pytest.approx(0.999918, abs=5e-7)
    assert out["epsilon"]["cks"] == pytest.approx(1.0777695, abs=5e-7)
    assert out["epsilon"]["paper"] == pytest.approx(1.272157, abs=5e-7)


def test_privacy_calibrate_json(capsys):
    out = run_json(
        capsys,
        [
            "privacy",
            "--n-rounds",
            "100",
            "--target-epsilon",
            "1",
            "--target-delta",
            "1e-6",
            "--calibrate",
            "--json",
            "--mechanism",
            "gaussian",
        ],
    )
    z = out["noise_multiplier"]
    assert z["exact"] == pytest.approx(42.24679, abs=1e-4)
    assert z["cks"] == pytest.approx(45.3088, abs=1e-4)
    assert z["paper"] == pytest.approx(53.4998, abs=1e-4)


def test_privacy_tables(capsys):
    assert (
        main(["privacy", "--n-rounds", "100", "--noise-multiplier", "42.25",
              "--target-delta", "1e-6", "--mechanism", "gaussian"]) == 0
    )
    out = capsys.readouterr().out
    assert "exact   0.999918" in out and "Lemma 15" in out
    assert (
        main(
            [
                "privacy",
                "--n-rounds",
                "100",
                "--target-epsilon",
                "1",
                "--target-delta",
                "1e-6",
                "--calibrate",
                "--mechanism",
                "gaussian",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "42.2468" in out and "53.4998" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["privacy", "--n-rounds", "0", "--noise-multiplier", "3", "--target-delta", "1e-6"],
         "'n_rounds'"),
        (
            ["privacy", "--n-rounds", "5", "--noise-multiplier", "-3", "--target-delta", "1e-6"],
            "'noise_multiplier'",
        ),
        (["privacy", "--n-rounds", "5", "--noise-multiplier", "3", "--target-delta", "2"],
         "'target_delta'"),
        (
            ["privacy", "--n-rounds", "5", "--noise-multiplier", "nan", "--target-delta", "1e-6"],
            "'noise_multiplier'",
        ),
        (
            ["privacy", "--n-rounds", "5", "--noise-multiplier", "abc", "--target-delta", "1e-6"],
            "invalid float",
        ),
        (["privacy", "--n-rounds", "5", "--target-delta", "1e-6"], "--noise-multiplier"),
        (["privacy", "--n-rounds", "5", "--target-delta", "1e-6", "--calibrate"],
         "--target-epsilon"),
        (
            ["privacy", "--n-rounds", "5", "--target-delta", "1e-6", "--calibrate",
             "--target-epsilon", "0"],
            "'target_epsilon'",
        ),
        (["budget"], "required"),
        (["budget", "show"], "required"),
    ],
)
def test_bad_arguments_one_line_exit_2(capsys, argv, fragment):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and fragment in err
    assert "Traceback" not in err


def test_budget_workflow(capsys, tmp_path):
    path = str(tmp_path / "adult.json")
    assert main(["budget", "init", path, "--target-epsilon", "1.6", "--target-delta", "1e-6"]) == 0
    assert "created ledger" in capsys.readouterr().out
    out = run_json(
        capsys,
        [
            "budget",
            "spend",
            path,
            "--noise-multiplier",
            "42.25",
            "--n-rounds",
            "100",
            "--note",
            "run 1",
            "--json",
            "--mechanism",
            "gaussian",
        ],
    )
    assert out["spent_epsilon"] == pytest.approx(0.999918, abs=5e-7)
    assert (
        main(_spend_argv(path, "run 2"))
        == 0
    )
    assert "spent epsilon=1.454551" in capsys.readouterr().out
    # a third run does not fit: refused in one line, nothing recorded
    assert (
        main(_spend_argv(path, "run 3"))
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("dpboost budget: error: Privacy budget exceeded: spent eps=")
    assert "limit eps=1.6" in err and err.count("\n") == 1
    show = run_json(capsys, ["budget", "show", path, "--json"])
    assert [s["label"] for s in show["spends"]] == ["run 1", "run 2"]
    assert show["method"] == "exact" and show["spent_epsilon"] <= 1.6
    assert show["spent_epsilon"] == pytest.approx(BudgetLedger.open(path).spent_epsilon)
    assert main(["budget", "show", path]) == 0
    table = capsys.readouterr().out
    assert "run 2" in table and "100 x Gaussian(z=42.25)" in table and "remaining" in table
    # init refuses to overwrite; show of a missing ledger is one line
    assert main(["budget", "init", path, "--target-epsilon", "2", "--target-delta", "1e-6"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["budget", "show", str(tmp_path / "missing.json")]) == 2
    assert "No budget ledger" in capsys.readouterr().err


def test_python_m_dpboost_bad_argument_exit_2():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dpboost",
            "privacy",
            "--n-rounds",
            "-1",
            "--noise-multiplier",
            "1",
            "--target-delta",
            "1e-6",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0
    assert "The 'n_rounds' parameter of dpboost privacy must be an int in [1, inf)" in proc.stderr


@pytest.mark.parametrize(
    "old, new",
    [
        (["privacy", "--rounds", "100", "--noise-multiplier", "42.25", "--delta", "1e-6",
          "--json"],
         ["privacy", "--n-rounds", "100", "--noise-multiplier", "42.25", "--target-delta",
          "1e-6", "--json"]),
    ],
)
def test_old_spellings_still_work_and_warn(capsys, old, new):
    assert main(new) == 0
    expected = capsys.readouterr()
    assert expected.err == ""
    assert main(old) == 0
    got = capsys.readouterr()
    assert got.out == expected.out
    lines = got.err.strip().splitlines()
    assert len(lines) == 2
    assert "--rounds is deprecated" in lines[0] and "use --n-rounds" in lines[0]
    assert "--delta is deprecated" in lines[1] and "use --target-delta" in lines[1]


def test_budget_spend_old_label_is_the_note(capsys, tmp_path):
    path = str(tmp_path / "l.json")
    assert main(["budget", "init", path, "--target-epsilon", "5", "--target-delta", "1e-6"]) == 0
    capsys.readouterr()
    assert main(["budget", "spend", path, "--noise-multiplier", "42.25", "--rounds", "100",
                 "--label", "old script"]) == 0
    err = capsys.readouterr().err
    assert "--label is deprecated" in err and "use --note" in err
    assert [s.label for s in BudgetLedger.open(path).history] == ["old script"]
    # giving both spellings of one flag is refused in one line
    assert main(["budget", "spend", path, "--noise-multiplier", "1", "--n-rounds", "1",
                 "--note", "a", "--label", "b"]) == 2
    err = capsys.readouterr().err
    assert "not allowed" in err and "Traceback" not in err


def test_missing_required_flag_names_the_new_spelling(capsys):
    assert main(["privacy", "--noise-multiplier", "3", "--target-delta", "1e-6"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("the following arguments are required: --n-rounds"), err


def test_tiny_epsilon_is_not_printed_as_zero(capsys, tmp_path):
    """A spend of about 8e-8 printed as 0.000000 in every table, which reads as nothing spent;
    each figure must be the JSON's value to the three digits shown."""
    argv = ["--noise-multiplier", "1e6", "--n-rounds", "3"]
    out = run_json(capsys, ["privacy", *argv, "--target-delta", "1e-6", "--json"])
    cks = out["epsilon"]["cks"]
    assert 1e-8 < cks < 1e-6
    assert main(["privacy", *argv, "--target-delta", "1e-6"]) == 0
    text = capsys.readouterr()[0]
    assert f"{cks:.3g}" in text and "0.000000" not in text
    path = str(tmp_path / "ledger.json")
    assert main(["budget", "init", path, "--target-epsilon", "1", "--target-delta", "1e-6"]) == 0
    assert main(["budget", "spend", path, *argv, "--note", "tiny"]) == 0
    assert main(["budget", "show", path]) == 0
    text = capsys.readouterr()[0]
    assert "0.000000" not in text and text.count(f"{cks:.3g}") == 3
