"""The reproduction side at its edges: no NaN, no stray exception, errors that name the caller;
the curves runner's search bounds, resume after a torn write, seeding; the CLI's one-line errors."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from dpboost import experiments as ex
from dpboost import sample_complexity as sc
from dpboost import theory as th
from dpboost.cli import main

# ----------------------------------------------------------------------------- bounds at the edges

BASE = {
    "advantage": 0.1, "kappa": 0.1, "n_rounds": 100, "learning_rate": 0.025, "n_samples": 1000,
    "divergence": 1.0, "margin": 0.1, "accuracy": 0.1, "failure_probability": 0.05,
    "c": math.sqrt(2), "sigma": 0.01, "slickness": 0.0, "rho": 0.5, "delta": 1e-6,
    "epsilon": 1.0, "gamma": 0.1, "fat_dimension": 100.0, "margin_error": 0.05,
    "confidence": 0.05, "target_error": 0.3, "k1": 4.0, "per_round_failure": 0.001,
    "sensitivity": "paper",
}
SMALL_EPS = {"theorem19_samples", "claim4_generalization_samples", "theorem19_deviation"}
SPECIALS = [math.inf, 5e-324, 1e-310, 1e-200, 1e-170, 1e200, 1e308, 1 - 2**-53, 2**-53, 0.0, 1.0]
PUBLIC = sorted(
    [getattr(th, n) for n in th.__all__ if n[0].islower()]
    + [getattr(sc, n) for n in sc.__all__ if n[0].islower()],
    key=lambda f: f.__name__,
)


def _values(result) -> list[float]:
    if hasattr(result, "terms"):
        return list(result.terms.values())
    if hasattr(result, "n_rounds"):
        return [result.kappa, result.gamma, result.learning_rate, float(result.n_rounds)]
    return [result]


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_edges_give_a_number_or_the_house_error_naming_the_function(fn):
    """Every numeric argument at inf, subnormal, huge, 0, 1: no NaN, no ZeroDivisionError or
    OverflowError (e.g. claim1_privacy_samples at eps = 1e-170 divided by an underflowed
    rho_max, lemma15_max_rho(inf) was inf/inf = NaN), and an error names the called function,
    not a helper it delegates to (claim1_privacy_samples said 'algorithm5_parameters')."""
    params = list(inspect.signature(fn).parameters)
    args = {p: BASE[p] for p in params}
    if fn.__name__ in SMALL_EPS:
        args.update(epsilon=0.1, delta=1e-4) if "delta" in args else args.update(epsilon=0.1)
    for name in params:
        if name == "sensitivity":
            continue
        for value in SPECIALS:
            trial = dict(args)
            trial[name] = int(value) if name == "n_rounds" and 1 <= value < math.inf else value
            try:
                result = fn(**trial)
            except (TypeError, ValueError) as exc:
                assert f"parameter of {fn.__name__} must be" in str(exc), (name, value, exc)
                continue
            assert not any(math.isnan(v) for v in _values(result)), (name, value, result)


def test_infinite_epsilon_needs_no_samples_for_privacy():
    assert th.lemma15_max_rho(math.inf, 1e-6) == math.inf
    assert sc.claim1_privacy_samples(math.inf, 1e-6, 0.1, 0.1, 0.05) == 0.0
    t33 = sc.theorem33_sample_complexity(math.inf, 1e-6, 0.1, 0.1, 0.05)
    assert t33["privacy"] == 0.0 and t33.dominant == "accuracy"


def test_subnormal_delta_and_kappa_near_one_keep_their_digits():
    # log(1/delta) with 1/delta overflowing gave eps = inf, rho_max = 0, and NaN at rho = 0
    assert th.lemma15_epsilon(0.0, 5e-324) == 0.0
    assert th.lemma15_epsilon(1.0, 1e-320) == pytest.approx(1 + 2 * math.sqrt(-math.log(1e-320)))
    # log(1/kappa) at kappa = 1 - 1e-12 was off by 1e-4 relative
    kappa = 1 - 1e-12
    assert th.theorem24_rounds(0.1, kappa) == pytest.approx(-1600 * math.log(kappa), rel=1e-14)


def test_tiny_margin_is_refused_in_one_house_line():
    with pytest.raises(ValueError, match=r"The 'margin' parameter of algorithm5_parameters must be"
                                         r" a float in \(0, 1\] for which"):
        th.algorithm5_parameters(1e-170, 0.1)
    with pytest.raises(ValueError, match=r"'margin' parameter of theorem30_sample_complexity"):
        sc.theorem30_sample_complexity(1.0, 1e-6, 1e-200, 0.1, 0.05)
    assert th.theorem24_rounds(1e-170, 0.1) == math.inf  # a float answer: beyond float range


# ----------------------------------------------------------------------------- the curves runner

TINY = ex.CurveSettings(n_trials=1, n_test=100, n_start=32, n_max=64, dimension=3, seed=0)


def test_search_is_censored_when_n_max_is_below_the_smallest_admissible_n():
    # alpha = 0.05: kappa = 0.0125 needs n >= 80 > n_max = 64.  The runner used to fit on the
    # 64-row pool while asking for 80 rows: the estimator refused kappa * n < 1 mid-grid.
    row = ex.find_sample_complexity(ex.Cell(0.2, 8.0, 0.05), TINY)
    assert row["n_star"] == math.inf and row["censored"] == "upper"
    assert row["evaluations"] == ""


def test_bisection_starts_at_the_last_failing_size(monkeypatch):
    # doubling 64 -> 128 -> 256 -> n_max = 300: the old lower end n // 2 = 150 was below the
    # size that had already failed (256), so the search evaluated sizes known to fail
    settings = ex.CurveSettings(n_trials=1, n_start=64, n_max=300, resolution=1.1)
    tried = []

    def fake(cell, n, settings, pools, stop_when_decided=True):
        tried.append(n)
        return [0.0 if n >= 290 else 1.0]

    monkeypatch.setattr(ex, "trial_errors", fake)
    monkeypatch.setattr(ex, "_trial_pool", lambda cell, trial, settings: None)
    row = ex.find_sample_complexity(ex.Cell(0.2, 8.0, 0.5), settings)
    assert tried[:4] == [64, 128, 256, 300]
    assert all(n > 256 for n in tried[4:]) and tried[4:]
    assert 290 <= row["n_star"] <= 300 and row["censored"] == ""


def test_cell_key_of_a_huge_epsilon_is_exact():
    assert ex.Cell(0.1, 1e300, 0.1).key()[1] == int(1e300) * 10**9
    assert ex.Cell(0.1, 2.0, 0.1).key() == (100000000, 2000000000, 100000000, 0)  # unchanged


def test_search_never_touches_the_global_rng():
    cell = ex.Cell(0.2, 8.0, 0.15)
    np.random.seed(1)
    state = np.random.get_state()[1].copy()
    first = ex.find_sample_complexity(cell, TINY)
    assert np.array_equal(np.random.get_state()[1], state)
    np.random.seed(2)
    assert ex.find_sample_complexity(cell, TINY) == first


# ----------------------------------------------------------------------------- the CLI

ARGS = ["--margins", "0.2", "--epsilons", "8", "--accuracies", "0.15", "--noise-rates", "0",
        "--trials", "1", "--n-test", "100", "--n-start", "32", "--n-max", "64",
        "--dimension", "3", "--jobs", "1", "--no-progress", "--no-plots"]


@pytest.mark.parametrize("extra, words", [
    (["--noise-factor", "nan"], "--noise-factor must be a finite number"),
    (["--noise-factor", "inf"], "--noise-factor must be a finite number"),
    (["--noise-factor", "-1"], "--noise-factor must be a finite number"),
])
def test_bad_noise_factor_is_one_line_before_any_work(tmp_path, capsys, extra, words):
    assert main(["curves", "--out", str(tmp_path / "c"), *ARGS, *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "c" / "curves.csv").exists()


def test_huge_epsilon_is_not_an_internal_error(tmp_path, capsys):
    # Cell.key overflowed (OverflowError, reported as a dpboost bug); now the estimator's range
    # check speaks, in one line
    assert main(["curves", "--out", str(tmp_path), *ARGS, "--epsilons", "1e300"]) == 2
    err = capsys.readouterr().err
    assert "'target_epsilon' parameter" in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1


def test_resume_after_a_torn_row_and_a_corrupt_row_is_one_line(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["curves", "--out", str(out), *ARGS]) == 0
    csv_path = out / "curves.csv"
    whole = csv_path.read_bytes()
    # a run killed while appending leaves an unterminated row: the resume drops it and reruns
    csv_path.write_bytes(whole + b"0.2,4.0,0.15,0.0,64.0,lo")
    assert main(["curves", "--out", str(out), *ARGS, "--epsilons", "4,8"]) == 0
    rows = ex.read_results(csv_path)
    assert sorted(r["epsilon"] for r in rows) == [4.0, 8.0]
    # a complete line that does not parse: one line naming the file, not a traceback
    csv_path.write_bytes(whole + b"0.2,4.0,0.15,0.0,64.0,lower\r\n")
    capsys.readouterr()
    assert main(["curves", "--out", str(out), *ARGS, "--epsilons", "4,8"]) == 2
    err = capsys.readouterr().err
    assert "curves.csv line 3 is not a complete dpboost curves row" in err
    assert len(err.strip().splitlines()) == 1
