"""``dpboost online`` end to end on small LIBSVM and CSV files."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.cli.online import ALGORITHMS, binary_labels, library_default, make_model
from dpboost.online import AdaBoostOL, AdaBoostOLS, OnlineAgnosticBoost, OnlineBBM


@pytest.fixture()
def libsvm_file(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(300, 4))
    y = np.where(X[:, 0] - 0.5 * X[:, 2] > 0, 1, -1)
    lines = [f"{'+1' if t > 0 else '-1'} " + " ".join(f"{j + 1}:{v:.4f}" for j, v in
                                                      enumerate(x) if abs(v) > 0.1)
             for x, t in zip(X, y)]
    path = tmp_path / "toy.svm"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture()
def csv_file(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(200, 3))
    labels = np.where(X[:, 1] > 0, "yes", "no")
    path = tmp_path / "toy.csv"
    rows = ["a,target,b,c"] + [f"{x[0]:.3f},{t},{x[1]:.3f},{x[2]:.3f}" for x, t in
                               zip(X, labels)]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_json_output(libsvm_file, capsys, algorithm):
    code = main(["online", str(libsvm_file), "--algorithm", algorithm, "--n-learners", "4",
                 "--seed", "3", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"pv_loss", "test_error", "n_train", "n_test", "seconds", "algorithm",
                        "settings", "differentially_private", "privacy"}
    assert out["differentially_private"] is False and "NOT differentially private" in out["privacy"]
    assert out["algorithm"] == algorithm
    assert (out["n_train"], out["n_test"]) == (240, 60)
    assert 0 <= out["pv_loss"] <= 1 and 0 <= out["test_error"] <= 1
    if algorithm != "agnostic":  # Algorithm 1 needs many learners; 4 is far too few
        assert out["test_error"] <= 0.25


def test_deterministic_with_seed(libsvm_file, capsys):
    args = ["online", str(libsvm_file), "--algorithm", "adaboost-ol-s", "--n-learners", "3",
            "--json"]
    main(args + ["--seed", "7"])
    first = json.loads(capsys.readouterr().out)
    main(args + ["--seed", "7"])
    second = json.loads(capsys.readouterr().out)
    assert first["pv_loss"] == second["pv_loss"] and first["test_error"] == second["test_error"]


def test_csv_with_string_labels_and_text_output(csv_file, capsys):
    code = main(["online", str(csv_file), "--label", "target", "--algorithm", "bbm",
                 "--n-learners", "5", "--test-fraction", "0.25", "--metric", "log_loss"])
    assert code == 0
    out = capsys.readouterr().out
    assert "no -> -1, yes -> +1" in out
    assert "progressive-validation log_loss loss (train, n=150)" in out
    assert "test 0-1 error (held out, n=50)" in out


@pytest.mark.parametrize("extra,match", [
    (["--gamma", "1.5"], "gamma"),
    (["--n-learners", "0"], "n_learners"),
    (["--test-fraction", "1"], "test_fraction"),
    (["--algorithm", "xgboost"], "invalid choice"),
    (["--label", "nope"], "nope"),
])
def test_bad_arguments_give_one_line_and_exit_2(csv_file, capsys, extra, match):
    args = ["online", str(csv_file)]
    if "--label" not in extra:
        args += ["--label", "target"]
    code = main(args + extra)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and match in err and "Traceback" not in err


def test_three_classes_and_missing_file(tmp_path, capsys):
    path = tmp_path / "three.csv"
    path.write_text("x,y\n1,a\n2,b\n3,c\n")
    assert main(["online", str(path), "--label", "y"]) == 2
    assert "exactly two classes" in capsys.readouterr().err
    assert main(["online", str(tmp_path / "missing.svm")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_binary_labels():
    y, classes = binary_labels(np.array([2, 1, 2]))
    assert y.tolist() == [1.0, -1.0, 1.0] and classes == [1, 2]
    with pytest.raises(ValueError, match="two classes"):
        binary_labels(np.array([1, 1]))


def test_says_it_is_not_private_in_help_and_text(csv_file, capsys):
    from dpboost.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.choices
               and "online" in a.choices)
    assert "NOT differentially private" in " ".join(sub.choices["online"].format_help().split())
    assert "NOT differentially private" in " ".join(parser.format_help().split())
    assert main(["online", str(csv_file), "--label", "target", "--n-learners", "3"]) == 0
    out = capsys.readouterr().out
    assert "privacy: none. NOT differentially private" in out


@pytest.mark.parametrize("algorithm, cls", [("bbm", OnlineBBM), ("adaboost-ol", AdaBoostOL),
                                            ("adaboost-ol-s", AdaBoostOLS),
                                            ("agnostic", OnlineAgnosticBoost)])
def test_cli_defaults_are_the_library_defaults(algorithm, cls, libsvm_file, capsys):
    library = cls()
    model = make_model(algorithm)
    for key in ("n_learners", "gamma", "learning_rate"):
        if hasattr(library, key):
            assert getattr(model, key) == getattr(library, key) == library_default(algorithm, key)
    assert main(["online", str(libsvm_file), "--algorithm", algorithm, "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["n_learners"] == library.n_learners == 100


def test_split_is_bench_online_split(tmp_path, capsys):
    """The held-out rows are ``default_rng(seed).permutation(n)[n - n_test:]`` (the split of
    benchmarks/bench_online.py): a label that is +1 exactly on those rows shows it."""
    n, seed = 50, 4
    perm = np.random.default_rng(seed).permutation(n)
    held_out = set(perm[round(0.8 * n):].tolist())
    rows = ["x,y"] + [f"{i},{'b' if i in held_out else 'a'}" for i in range(n)]
    path = tmp_path / "split.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["online", str(path), "--label", "y", "--algorithm", "base", "--seed",
                 str(seed), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # every training row is 'a' (-1), every held-out row 'b' (+1): a learner that only ever saw
    # -1 predicts -1 on all of them (only its very first, untrained prediction can be wrong)
    assert out["n_test"] == 10 and out["pv_loss"] <= 1 / 40 and out["test_error"] == 1.0


# ---- the defaults on the benchmark data (skipped without /work/shared/datasets) -------------

DATA = Path(os.environ.get("DPBOOST_DATA",
                           Path(__file__).resolve().parents[3] / "shared" / "datasets"))
#: Tuned Online BBM test errors of benchmarks/bench_online.py (README table, split seed 0).
TUNED_BBM = {"a9a": 0.1508, "letter": 0.3018}


def _a9a_file(tmp_path):
    path = tmp_path / "a9a.full"
    path.write_bytes((DATA / "a9a" / "a9a").read_bytes() + (DATA / "a9a" / "a9a.t").read_bytes())
    return path, []


def _letter_file(tmp_path):
    path = tmp_path / "letter.csv"
    rows = [line.split(",", 1) for line in
            (DATA / "letter" / "letter-recognition.data").read_text().splitlines() if line]
    path.write_text("".join(f"{int(c <= 'M')},{rest}\n" for c, rest in rows))  # A-M vs N-Z
    return path, ["--label", "0"]


@pytest.mark.slow
@pytest.mark.parametrize("name, make", [("a9a", _a9a_file), ("letter", _letter_file)])
def test_defaults_within_0005_of_the_tuned_error(name, make, tmp_path, capsys):
    """`dpboost online DATA` with no tuning, on bench_online.py's split (seed 0), lands within
    0.005 of the tuned figure (measured: a9a 0.1536, letter 0.2825; covtype 0.2387 vs 0.2356
    is measured by benchmarks/bench_online.py, too slow for the suite)."""
    if not (DATA / name).is_dir():
        pytest.skip(f"no {DATA / name}")
    path, extra = make(tmp_path)
    assert main(["online", str(path), *extra, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["n_learners"] == 100
    assert out["test_error"] <= TUNED_BBM[name] + 0.005
