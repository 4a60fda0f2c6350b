"""``dpboost curves``: measure n*(tau, eps, alpha, eta) on a grid and plot it against the theory.

Example::

    dpboost curves --out docs                       # the default grid (star design), all cores
    dpboost curves --out /tmp/c --margins 0.1,0.2 --epsilons 1,4 --accuracies 0.1 --trials 3

The CSV (``OUT/curves.csv``) is appended cell by cell, so an interrupted run resumes where it
stopped when started again with the same arguments.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

from dpboost.cli._options import add_out, add_seed, add_target_epsilon_delta
from dpboost.experiments import (
    Cell,
    CurveSettings,
    make_grid,
    noise_tolerance,
    read_results,
    run_grid,
    training_diagnostics,
)
from dpboost.curve_slopes import center_cell, fit_slopes
from dpboost.plotting import plot_all

#: Default grid (star around tau=0.1, eps=1, alpha=0.1); noise rates are absolute.
DEFAULT_MARGINS = "0.07,0.085,0.1,0.12,0.14,0.17,0.2"
DEFAULT_EPSILONS = "0.5,0.7,1,1.4,2,2.8,4,5.6,8"
DEFAULT_ACCURACIES = "0.05,0.06,0.07,0.085,0.1,0.12,0.14"
#: Centre of the star design: tau, eps, alpha.
DEFAULT_CENTER = "0.1,2,0.1"
#: 0, Claim 2's alpha*tau/32 at the centre (0.1*0.1/32), then growing rates.
DEFAULT_NOISE_RATES = "0,0.0003125,0.003,0.01,0.03,0.1,0.2,0.3,0.4"


def _floats(text: str, name: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--{name} must be a comma-separated list of numbers. "
                         f"Got {text!r} instead.") from None
    if not values or any(not math.isfinite(v) for v in values):
        raise ValueError(f"--{name} must be a non-empty list of finite numbers. "
                         f"Got {text!r} instead.")
    return values


def add_parser(subparsers):
    p = subparsers.add_parser(
        "curves", help="measure the sample complexity n* on a grid and plot it",
        description="For each cell (tau, eps, alpha, eta) find the smallest n at which the "
                    "private halfspace learner has clean test error <= alpha in at least "
                    "(1 - beta) of the trials; write OUT/curves.csv and PNG figures.")
    add_out(p, metavar="DIR", default="out/curves",
            help="output folder for curves.csv and the figures")
    p.add_argument("--margins", default=DEFAULT_MARGINS, metavar="LIST",
                   help=f"margins tau, comma-separated, <= 0.25 for --kind skewed "
                        f"(default: {DEFAULT_MARGINS})")
    p.add_argument("--epsilons", default=DEFAULT_EPSILONS, metavar="LIST",
                   help=f"target epsilons of the grid, comma-separated "
                        f"(default: {DEFAULT_EPSILONS})")
    p.add_argument("--accuracies", default=DEFAULT_ACCURACIES, metavar="LIST",
                   help=f"test errors alpha to reach, comma-separated "
                        f"(default: {DEFAULT_ACCURACIES})")
    p.add_argument("--noise-rates", default=DEFAULT_NOISE_RATES, metavar="LIST",
                   help="label-noise rates eta, absolute; Claim 2's rate is alpha*tau/32 "
                        f"(default: {DEFAULT_NOISE_RATES})")
    p.add_argument("--center", default=None, metavar="TAU,EPS,ALPHA",
                   help=f"centre of the star design (default: {DEFAULT_CENTER} when those "
                        "values are in the lists, else the middle value of each)")
    p.add_argument("--design", choices=("star", "full"), default="star",
                   help="star: centre plus one axis at a time; full: product grid "
                        "(default: star)")
    p.add_argument("--trials", type=int, default=5,
                   help="trials per sample size (default: 5)")
    p.add_argument("--beta", type=float, default=0.2,
                   help="failure probability: n* must succeed in (1 - beta) of the trials "
                        "(default: 0.2)")
    add_target_epsilon_delta(p, epsilon=False, required=False, delta_default=1e-6,
                             aliases=True, delta_help="the delta of every cell's privacy target")
    p.add_argument("--dimension", type=int, default=10,
                   help="dimension d of the synthetic data (default: 10)")
    p.add_argument("--n-start", type=int, default=64,
                   help="first sample size of the search (default: 64)")
    p.add_argument("--n-max", type=int, default=2**17,
                   help=f"largest sample size tried (default: {2**17})")
    p.add_argument("--n-test", type=int, default=2000,
                   help="test points per trial (default: 2000)")
    p.add_argument("--resolution", type=float, default=2**0.25,
                   help=f"bisection stops when hi/lo <= this ratio (default: {2**0.25:.4g})")
    p.add_argument("--kind", choices=("skewed", "symmetric"), default="skewed",
                   help="margin distribution of the synthetic data (default: skewed)")
    p.add_argument("--mode", choices=("practical", "theory"), default="practical",
                   help="practical defaults, or the theorem's settings (Theorem 24) "
                        "(default: practical)")
    add_seed(p, private=False, what="the synthetic data and the noise of every cell")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (default: shown)")
    p.add_argument("--no-plots", action="store_true",
                   help="write the CSV only (default: also the figures)")
    p.add_argument("--diagnostics", action="store_true",
                   help="also plot Theorem 24's per-round diagnostics at the centre cell's n* "
                        "and 16 n* (default: off)")
    p.add_argument("--noise-factor", type=float, default=2.0,
                   help="with several noise rates, also measure every trial's clean test error "
                        "at n = FACTOR * n*(eta=0) for each rate (0 to skip; default: 2)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    settings = CurveSettings(
        delta=args.target_delta, failure_probability=args.beta, n_trials=args.trials,
        n_test=args.n_test, dimension=args.dimension, n_start=args.n_start, n_max=args.n_max,
        resolution=args.resolution, kind=args.kind, mode=args.mode, seed=args.seed).validate()
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be an int >= 1. Got {args.jobs!r} instead.")
    if not (math.isfinite(args.noise_factor) and args.noise_factor >= 0):
        raise ValueError("--noise-factor must be a finite number >= 0 (0 to skip). "
                         f"Got {args.noise_factor!r} instead.")
    lists = [_floats(args.margins, "margins"), _floats(args.epsilons, "epsilons"),
             _floats(args.accuracies, "accuracies")]
    noise_rates = _floats(args.noise_rates, "noise-rates")
    if 0.0 not in noise_rates:  # the grid ran, then the slopes refused (red team, s36)
        raise ValueError("--noise-rates must include 0: the slopes and the centre cell are "
                         f"read from the noise-free cells (e.g. --noise-rates 0,"
                         f"{args.noise_rates}).")
    center = _floats(args.center or DEFAULT_CENTER, "center")
    if len(center) != 3:
        raise ValueError(f"--center must be three numbers tau,eps,alpha. Got {args.center!r} "
                         "instead.")
    if args.center is None and not all(c in v for c, v in zip(center, lists)):
        center = [sorted(v)[len(v) // 2] for v in lists]
    cells_center = Cell(*center, min(noise_rates))
    cells = make_grid(*lists, noise_rates, design=args.design, center=cells_center)
    for c in cells:  # validate the cells before any work
        Cell(c.margin, c.epsilon, c.accuracy, c.noise_rate)
        if not (0 < c.margin <= (0.25 if args.kind == "skewed" else 1.0)):
            raise ValueError(f"--margins must lie in (0, {0.25 if args.kind == 'skewed' else 1}] "
                             f"for --kind {args.kind}. Got {c.margin!r} instead.")
        if not (0 < c.accuracy < 1) or not (c.epsilon > 0) or not (0 <= c.noise_rate <= 0.5):
            raise ValueError("--accuracies must be in (0, 1), --epsilons > 0 and --noise-rates "
                             f"in [0, 0.5]. Got cell {c} instead.")
    out = Path(args.out)
    blocking = next((p for p in [out, *out.parents] if p.exists() and not p.is_dir()), None)
    if blocking is not None:  # said "[Errno 17] File exists" (red team, session 36)
        raise ValueError(f"--out {args.out}: {blocking} is a file; curves writes its CSV and "
                         "figures into a folder: name a folder (it is created if missing).")
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "curves.csv"
    start = time.monotonic()
    rows = run_grid(cells, settings, csv_path, n_jobs=args.jobs, progress=not args.no_progress)
    wall = time.monotonic() - start
    print(f"{len(rows)} cells in {csv_path} ({wall:.0f} s wall this run, {len(cells)} in grid)")
    rows = read_results(csv_path)
    fits = fit_slopes(rows)
    if fits:
        print(f"{'axis':<10}{'slope':>8}{'95% CI':>20}{'theory':>8}{'points':>8}")
        for axis, f in fits.items():
            print(f"{axis:<10}{f.slope:>8.2f}{f'[{f.low:.2f}, {f.high:.2f}]':>20}"
                  f"{f.theory:>8g}{f.n_points:>8d}")
    if not args.no_plots:
        diag = None
        if args.diagnostics:
            finite = [r for r in rows if r["noise_rate"] == 0 and math.isfinite(r["n_star"])]
            if finite:
                center = center_cell(rows)
                row = next(r for r in finite if (r["margin"], r["epsilon"], r["accuracy"])
                           == (center.margin, center.epsilon, center.accuracy))
                n_star = int(row["n_star"])
                sizes = sorted({n_star, min(16 * n_star, settings.n_max)})
                diag = [training_diagnostics(center, n, settings) for n in sizes]
        tolerance = None
        base = [r for r in rows if (r["margin"], r["epsilon"], r["accuracy"], r["noise_rate"])
                == (cells_center.margin, cells_center.epsilon, cells_center.accuracy,
                    cells_center.noise_rate)]
        if args.noise_factor > 0 and len(noise_rates) > 1 and base \
                and math.isfinite(base[0]["n_star"]):
            n_fixed = min(int(round(args.noise_factor * base[0]["n_star"])), settings.n_max)
            tolerance = noise_tolerance(cells_center, noise_rates, n_fixed, settings)
            print(f"clean test error at n = {n_fixed} ({args.noise_factor:g} x n*(0)):")
            for eta, errs in tolerance["errors"].items():
                print(f"  eta={eta:<10g} median {np.median(errs):.3f}  max {max(errs):.3f}  "
                      f"<= alpha in {sum(e <= cells_center.accuracy for e in errs)}/{len(errs)}")
        for path in plot_all(rows, settings, out, diagnostics=diag, tolerance=tolerance):
            print(f"wrote {path}")
    sys.stdout.flush()
    return 0
