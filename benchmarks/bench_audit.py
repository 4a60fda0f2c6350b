"""Power of the privacy audit on the broken variants, and its tightness on the real mechanism.

Prints, for the default audit settings (dpboost.audit.DEFAULT_*):

* the analytic power (the likelihood-ratio statistic is exactly Gaussian; see
  dpboost.audit.expected_power) of the two broken variants, which both double mu;
* the measured power: the share of repeated audits (independent seeds) that flag each broken
  variant, with a 95% Clopper-Pearson interval, for one round and for a whole 3-round run;
* eps_lower / eps_claimed on the real mechanism (mean, max over repeats): how close the audit
  gets to the exact accountant's epsilon.

Usage: python benchmarks/bench_audit.py [--round-repeats 40] [--run-repeats 6]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install

from dpboost.audit import (
    DEFAULT_DELTA,
    DEFAULT_EPSILON,
    DEFAULT_RUN_RUNS,
    DEFAULT_RUNS,
    _audit_round,
    _audit_run,
    _claim,
    clopper_pearson,
    expected_power,
)


def _repeat(fn, variant, repeats, seed):
    seeds = np.random.SeedSequence(seed).generate_state(repeats)
    results = [fn(variant, int(s)) for s in seeds]
    flagged = sum(not r.passed for r in results)
    ratios = [r.epsilon_lower / r.epsilon_claimed for r in results]
    return flagged, ratios


def _round(variant, seed):
    return _audit_round(epsilon=DEFAULT_EPSILON, delta=DEFAULT_DELTA, runs=DEFAULT_RUNS, n=20,
                        kappa=0.5, norm_bound=1.0, random_state=seed, _variant=variant)


def _run(variant, seed):
    return _audit_run(epsilon=DEFAULT_EPSILON, delta=DEFAULT_DELTA, runs=DEFAULT_RUN_RUNS,
                      n_rounds=3, n=10, kappa=0.99, learning_rate=0.01, norm_bound=1.0,
                      random_state=seed, _variant=variant)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--round-repeats", type=int, default=40)
    parser.add_argument("--run-repeats", type=int, default=6)
    args = parser.parse_args()
    print(f"claimed (eps, delta) = ({DEFAULT_EPSILON}, {DEFAULT_DELTA:g}); runs: "
          f"{DEFAULT_RUNS} (round), {DEFAULT_RUN_RUNS} (3-round run); 95% Clopper-Pearson, "
          "20% of runs choose the threshold")
    z1, eps1 = _claim(DEFAULT_EPSILON, DEFAULT_DELTA, 1)
    z3, eps3 = _claim(DEFAULT_EPSILON, DEFAULT_DELTA, 3)
    mu1, mu3 = 1 / z1, math.sqrt(3) / z3
    print("\nanalytic power (oracle threshold), broken = 2x mu:")
    round_real = expected_power(mu1, epsilon_claimed=eps1, delta=DEFAULT_DELTA,
                                runs=DEFAULT_RUNS)
    round_broken = expected_power(2 * mu1, epsilon_claimed=eps1, delta=DEFAULT_DELTA,
                                  runs=DEFAULT_RUNS)
    print(f"  round: real {round_real:.2e}"
          f"  broken {round_broken:.6f}")
    run_real = expected_power(0.99 * mu3, epsilon_claimed=eps3, delta=DEFAULT_DELTA,
                              runs=DEFAULT_RUN_RUNS)
    run_broken = expected_power(2 * 0.99 * mu3, epsilon_claimed=eps3, delta=DEFAULT_DELTA,
                                runs=DEFAULT_RUN_RUNS)
    print(f"  run (mu_eff = 0.99 mu): real "
          f"{run_real:.2e}"
          f"  broken {run_broken:.6f}")
    small_delta_broken = expected_power(2 / _claim(2.0, 1e-5, 1)[0],
                                        epsilon_claimed=_claim(2.0, 1e-5, 1)[1], delta=1e-5,
                                        runs=100_000)
    print(f"  at delta=1e-5 the same power needs ~100000 runs: broken round "
          f"{small_delta_broken:.6f}")
    for label, fn, repeats in (("round", _round, args.round_repeats),
                               ("run", _run, args.run_repeats)):
        if repeats <= 0:
            continue
        print(f"\nrepeated audits, {label} ({repeats} per variant):")
        for variant, seed in ((None, 1), ("half_noise", 2), ("half_sensitivity", 3)):
            start = time.perf_counter()
            flagged, ratios = _repeat(fn, variant, repeats, seed)
            lo, hi = clopper_pearson(flagged, repeats)
            name = variant or "real"
            print(f"  {name:17s} flagged {flagged}/{repeats} = {flagged / repeats:.3f} "
                  f"[{lo:.3f}, {hi:.3f}]  eps_lower/eps_claimed mean {np.mean(ratios):.3f} "
                  f"max {np.max(ratios):.3f}  "
                  f"({(time.perf_counter() - start) / repeats:.2f} s/audit)")


if __name__ == "__main__":
    main()
