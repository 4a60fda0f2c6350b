"""The curves runner: seeding, resumable CSV, slope fits with t-intervals, diagnostics, CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpboost import curve_slopes
from dpboost import experiments as ex
from dpboost.cli import main

TINY = ex.CurveSettings(n_trials=2, n_test=200, n_start=32, n_max=256, dimension=5, seed=3)
TINY_CELLS = [ex.Cell(0.2, 8.0, 0.15), ex.Cell(0.2, 2.0, 0.15), ex.Cell(0.2, 8.0, 0.15, 0.05)]


def test_make_grid_star_and_full():
    star = ex.make_grid([0.1, 0.2, 0.05], [1, 2], [0.1], [0, 0.01])
    center = ex.Cell(0.1, 2.0, 0.1, 0.0)
    assert center in star
    # centre + 2 other margins + 1 other eps + 1 other noise rate
    assert len(star) == 5
    assert all(sum(getattr(c, a) != getattr(center, a) for a in
                   ("margin", "epsilon", "accuracy", "noise_rate")) <= 1 for c in star)
    assert len(ex.make_grid([0.1, 0.2], [1, 2], [0.1, 0.2], [0, 0.1], design="full")) == 16
    with pytest.raises(ValueError, match="'design' parameter of make_grid"):
        ex.make_grid([0.1], [1], [0.1], design="diagonal")


def test_cell_key_depends_on_values_only():
    assert ex.Cell(0.1, 1.0, 0.1).key() == ex.Cell(0.1, 1.0, 0.1, 0.0).key()
    assert ex.Cell(0.1, 1.0, 0.1).key() != ex.Cell(0.1, 1.0, 0.2).key()


def test_practical_and_theory_parameters():
    p = ex.practical_parameters(ex.Cell(0.1, 1.0, 0.1), ex.CurveSettings())
    assert p["kappa"] == pytest.approx(0.025)
    assert p["n_rounds"] == math.ceil(math.log(40) / 0.01)
    assert p["learning_rate"] == pytest.approx(1.0)
    t = ex.practical_parameters(ex.Cell(0.1, 1.0, 0.1), ex.CurveSettings(mode="theory"))
    assert t["learning_rate"] == pytest.approx(0.1 / 32)
    assert t["n_rounds"] == math.ceil(1024 * math.log(40) / 0.01)


def test_settings_validation_uses_template():
    with pytest.raises(ValueError, match="'n_max' parameter of CurveSettings"):
        ex.CurveSettings(n_start=64, n_max=32).validate()
    with pytest.raises(ValueError, match="'mode' parameter of CurveSettings"):
        ex.CurveSettings(mode="fast").validate()
    assert ex.CurveSettings(n_trials=5, failure_probability=0.2).passes_needed == 4
    assert ex.CurveSettings(n_trials=10, failure_probability=0.05).passes_needed == 10


def test_fit_slope_exact_and_t_interval():
    x = np.array([0.05, 0.1, 0.2, 0.4])
    f = curve_slopes.fit_slope(x, 3.0 / x**2, "margin", 2.0)
    assert f.slope == pytest.approx(2.0) and f.high - f.low == pytest.approx(0.0, abs=1e-9)
    # noisy: the interval is slope +- t_{0.975, m-2} * standard error (closed form)
    rng = np.random.default_rng(0)
    y = 5.0 / x * np.exp(rng.normal(0, 0.1, x.size))
    f = curve_slopes.fit_slope(x, y)
    lx, ly = np.log(1 / x), np.log(y)
    b = np.polyfit(lx, ly, 1)
    resid = ly - np.polyval(b, lx)
    se = math.sqrt(resid @ resid / (x.size - 2) / np.sum((lx - lx.mean()) ** 2))
    half = stats.t.ppf(0.975, x.size - 2) * se
    assert f.slope == pytest.approx(b[0])
    assert (f.low, f.high) == pytest.approx((b[0] - half, b[0] + half))
    assert math.isinf(curve_slopes.fit_slope([0.1, 0.2], [10, 5]).high)
    with pytest.raises(ValueError, match="two distinct finite points"):
        curve_slopes.fit_slope([0.1], [10])


def _bytes(path):
    return path.read_bytes()


@pytest.mark.slow
def test_grid_is_reproducible_resumable_and_schedule_free(tmp_path):
    a, b, c = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"
    rows = ex.run_grid(TINY_CELLS, TINY, a, n_jobs=1, progress=False)
    assert [ex.Cell(r["margin"], r["epsilon"], r["accuracy"], r["noise_rate"]) for r in rows] \
        == TINY_CELLS
    # interrupted after one cell, then resumed: same bytes as uninterrupted
    part = ex.run_grid(TINY_CELLS, TINY, b, n_jobs=1, progress=False, max_cells=1)
    assert len(part) == 1 and len(ex.read_results(b)) == 1
    ex.run_grid(TINY_CELLS, TINY, b, n_jobs=1, progress=False)
    assert _bytes(a) == _bytes(b)
    # two worker processes, other order: same bytes
    ex.run_grid(TINY_CELLS[::-1], TINY, c, n_jobs=2, progress=False)
    assert _bytes(a) == _bytes(c)
    # a rerun with everything present does no work and changes nothing
    ex.run_grid(TINY_CELLS, TINY, a, n_jobs=1, progress=False)
    assert _bytes(a) == _bytes(c)
    # resuming under other settings is refused
    with pytest.raises(ValueError, match="other settings"):
        ex.run_grid(TINY_CELLS, ex.CurveSettings(n_trials=3, n_max=256), a, progress=False)


@pytest.mark.slow
def test_search_brackets_n_star():
    cell = ex.Cell(0.2, 4.0, 0.15)
    row = ex.find_sample_complexity(cell, TINY)
    ev = ex._parse_row(dict(zip(ex.CSV_COLUMNS, ex._format_row(row))))["evaluations"]
    need = TINY.passes_needed
    assert row["censored"] in ("", "lower", "upper")
    if row["censored"] == "":
        n = int(row["n_star"])
        assert sum(e <= cell.accuracy for e in ev[n]) >= need
        below = [m for m in ev if m < n]
        # every smaller size tried failed, and the last failure is within the resolution
        assert below and all(sum(e <= cell.accuracy for e in ev[m]) < need for m in below)
        assert n / max(below) <= TINY.resolution * (1 + 1e-9) or n <= 2 * max(below)


@pytest.mark.slow
def test_training_diagnostics_smoothness_and_lengths():
    cell = ex.Cell(0.2, 4.0, 0.15)
    d = ex.training_diagnostics(cell, 200, TINY)
    T = ex.practical_parameters(cell, TINY)["n_rounds"]
    assert len(d["rounds"]) == len(d["smoothness"]) == len(d["margin_fraction"]) == T
    assert np.all(d["smoothness"] <= 1.0 + 1e-9)          # Theorem 24 smoothness
    assert np.all((d["margin_fraction"] >= 0) & (d["margin_fraction"] <= 1))


@pytest.mark.slow
def test_cli_tiny_run_writes_csv_and_figures(tmp_path, capsys):
    args = ["curves", "--out", str(tmp_path), "--margins", "0.2,0.25", "--epsilons", "4,8",
            "--accuracies", "0.15", "--noise-rates", "0,0.05", "--trials", "2", "--n-start",
            "32", "--n-max", "256", "--n-test", "200", "--dimension", "5", "--jobs", "1",
            "--no-progress", "--diagnostics"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "cells in" in out
    assert (tmp_path / "curves.csv").exists()
    for name in ("curves-error.png", "curves-diagnostics.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_bad_input_is_one_line(capsys):
    assert main(["curves", "--margins", "0.1,abc", "--out", "/tmp/unused-dpboost"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--margins" in err[0]
    assert main(["curves", "--margins", "0.5", "--out", "/tmp/unused-dpboost"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "0.25" in err[0]
