"""``dpboost audit``: empirical lower bound on epsilon, or the sensitivity/slickness search.

``dpboost audit`` runs the Gaussian weak learner (one round, worst-case neighbours) many times
on a neighbouring pair and lower-bounds epsilon with 95% confidence; ``--setting run`` audits a
whole boosting run from its released vectors; ``--sensitivity`` searches neighbouring samples
for the largest total variation and centre distance of one round.  Exit code 0 when the audit
passes (``epsilon_lower <= epsilon_claimed``, maxima within the bounds), 1 when it does not.

References
----------
Jagielski, Ullman & Oprea (2020); Bun, Carmosino & Sorrell (2020), Lemma 25 and Theorem 27.
"""

from __future__ import annotations

import argparse
import json

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    from dpboost.audit import DEFAULT_DELTA, DEFAULT_EPSILON

    parser = subparsers.add_parser(
        "audit",
        help="empirical privacy audit (epsilon lower bound) or sensitivity search",
        description="Lower-bound epsilon by running the mechanism many times on a worst-case "
                    "neighbouring pair and testing which one it saw (95% Clopper-Pearson).",
    )
    parser.add_argument("--setting", choices=("round", "run"), default="round",
                        help="'round': one round of the Gaussian weak learner at the worst "
                             "case (default); 'run': a whole boosting run")
    parser.add_argument("--epsilon", type=float, default=DEFAULT_EPSILON,
                        help=f"claimed epsilon the noise is calibrated to (default "
                             f"{DEFAULT_EPSILON:g})")
    parser.add_argument("--delta", type=float, default=DEFAULT_DELTA,
                        help=f"claimed delta (default {DEFAULT_DELTA:g})")
    parser.add_argument("--runs", type=int, default=None,
                        help="mechanism runs, half on each dataset (default 20000 for a "
                             "round, 10000 for a run)")
    parser.add_argument("--n-rounds", type=int, default=3, metavar="T",
                        help="rounds of the audited run (--setting run; default 3)")
    parser.add_argument("--sensitivity", action="store_true",
                        help="search neighbouring samples for the largest total variation "
                             "and centre distance instead")
    parser.add_argument("--pairs", type=int, default=2000,
                        help="neighbouring pairs tried by --sensitivity (default 2000)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for a reproducible audit")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)
    return parser


def run(args) -> int:
    from dpboost import audit

    if args.sensitivity:
        result = audit.search_sensitivity(pairs=args.pairs, random_state=args.seed)
        if args.json:
            print(json.dumps(result.to_dict(), indent=2))
        else:
            print(f"{result.pairs} neighbouring pairs: max TV = {result.max_tv_ratio:.6f} x "
                  f"1/(kappa n) (Lemma 25 bound 1), max ||z - z'|| = "
                  f"{result.max_distance_ratio:.6f} x 2R/(kappa n) (bound 1): "
                  f"{'PASSED' if result.passed else 'FAILED'}")
        return 0 if result.passed else 1
    if args.setting == "round":
        runs = audit.DEFAULT_RUNS if args.runs is None else args.runs
        result = audit.audit_round(epsilon=args.epsilon, delta=args.delta, runs=runs,
                                   random_state=args.seed)
    else:
        runs = audit.DEFAULT_RUN_RUNS if args.runs is None else args.runs
        result = audit.audit_run(epsilon=args.epsilon, delta=args.delta, runs=runs,
                                 n_rounds=args.n_rounds, random_state=args.seed)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"audit ({result.setting}, {result.runs} runs, T={result.n_rounds}): "
              f"epsilon_lower = {result.epsilon_lower:.4f} <= epsilon_claimed = "
              f"{result.epsilon_claimed:.4f} at delta = {result.delta:g}: "
              f"{'PASSED' if result.passed else 'FAILED'}")
    return 0 if result.passed else 1
