"""``dpboost privacy``: what T Gaussian rounds cost, or the noise a target (epsilon, delta) needs.

Three conversions side by side (neighbouring relation: replace-one):

* ``paper``: Lemma 15 of Bun, Carmosino & Sorrell (2020), ``eps = rho + 2 sqrt(rho log(1/delta))``;
* ``cks``: Canonne, Kamath & Steinke (2020), Prop. 12 / Cor. 13;
* ``exact``: the composition is ``mu``-GDP with ``mu = sqrt(T)/z`` (Dong, Roth & Su 2019), whose
  exact profile is Balle & Wang (2018), Thm 8.

Examples::

    dpboost privacy --n-rounds 100 --noise-multiplier 42.25 --target-delta 1e-6
    dpboost privacy --n-rounds 100 --target-epsilon 1 --target-delta 1e-6 --calibrate --json
"""

from __future__ import annotations

import argparse
import json
import math

from dpboost.cli._options import UserError, add_json, add_n_rounds, add_target_epsilon_delta

__all__ = ["add_parser", "run"]

OWNER = "dpboost privacy"
REFERENCES = {
    "paper": "Lemma 15, Bun-Carmosino-Sorrell 2020",
    "cks": "Canonne-Kamath-Steinke 2020, Prop. 12/Cor. 13",
    "exact": "GDP: Balle-Wang 2018 Thm 8, Dong-Roth-Su 2019",
}


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "privacy",
        help="epsilon of T Gaussian rounds, or the noise a target epsilon needs",
        description="Privacy of T adaptively composed Gaussian rounds (replace-one neighbours) "
        "by three conversions: paper (Lemma 15), cks (Canonne-Kamath-Steinke 2020) "
        "and exact (Gaussian DP). With --calibrate, the smallest noise multiplier "
        "meeting --target-epsilon by each method.",
    )
    add_n_rounds(parser, required=True, aliases=True,
                 help="number of Gaussian rounds composed (boosting rounds)")
    parser.add_argument(
        "--noise-multiplier",
        type=float,
        default=None,
        metavar="Z",
        help="sigma divided by the L2 sensitivity of one round (default: none; give it, or "
        "--target-epsilon with --calibrate)",
    )
    add_target_epsilon_delta(parser, epsilon=False, aliases=True,
                             delta_help="the delta at which epsilon is reported, or met with "
                                        "--calibrate")
    add_target_epsilon_delta(parser, delta=False, required=False,
                             epsilon_help="with --calibrate: the epsilon to meet")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="find the noise multiplier for --target-epsilon instead (default: off)",
    )
    add_json(parser, help="print JSON instead of a table")
    parser.set_defaults(func=run)
    return parser


def _check(args) -> tuple[int, float]:
    from dpboost._validation import check_scalar

    rounds = check_scalar(args.n_rounds, "n_rounds", OWNER, kind="int", low=1, closed="left")
    delta = check_scalar(args.target_delta, "target_delta", OWNER, low=0, high=1)
    if args.calibrate:
        if args.target_epsilon is None:
            raise UserError("--calibrate needs --target-epsilon")
        if args.noise_multiplier is not None:
            raise UserError("give either --noise-multiplier or --calibrate, not both")
        check_scalar(args.target_epsilon, "target_epsilon", OWNER, low=0)
    else:
        if args.noise_multiplier is None:
            raise UserError("give --noise-multiplier Z, or --target-epsilon E --calibrate")
        if args.target_epsilon is not None:
            raise UserError("--target-epsilon is only used with --calibrate")
        check_scalar(
            args.noise_multiplier, "noise_multiplier", OWNER, low=0, high=math.inf, closed="right"
        )
    return rounds, delta


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def run(args) -> int:
    from accounting import GaussianEvent, ZCDPAccountant, calibrate_noise

    rounds, delta = _check(args)
    if args.calibrate:
        eps = args.target_epsilon
        results = {m: calibrate_noise(eps, delta, rounds, method=m) for m in REFERENCES}
        if args.json:
            print(
                json.dumps(
                    {"noise_multiplier": {m: r.noise_multiplier for m, r in results.items()}}
                )
            )
            return 0
        paper = results["paper"].noise_multiplier
        rows = [["method", "noise multiplier", "/ paper", "epsilon", "reference"]]
        for m, r in results.items():
            rows.append(
                [
                    m,
                    f"{r.noise_multiplier:.6g}",
                    f"{r.noise_multiplier / paper:.4f}",
                    f"{r.epsilon:.6f}",
                    REFERENCES[m],
                ]
            )
        print(
            f"Smallest noise multiplier for {rounds} Gaussian rounds to be "
            f"(epsilon={eps:g}, delta={delta:g})-DP (replace-one):"
        )
        print(_table(rows))
        return 0
    acc = ZCDPAccountant().compose(GaussianEvent(args.noise_multiplier), count=rounds)
    epsilons = acc.epsilons(delta)
    if args.json:
        print(json.dumps({"rho": acc.rho, "mu": acc.mu, "epsilon": epsilons}))
        return 0
    print(
        f"{rounds} Gaussian rounds, noise multiplier {args.noise_multiplier:g}, "
        f"delta={delta:g} (replace-one):  rho={acc.rho:.6g}  mu={acc.mu:.6g}"
    )
    rows = [["method", "epsilon", "reference"]]
    rows += [[m, f"{e:.6f}", REFERENCES[m]] for m, e in epsilons.items()]
    print(_table(rows))
    return 0
