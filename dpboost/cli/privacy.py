"""``dpboost privacy``: what T Gaussian rounds cost, or the noise a target (epsilon, delta) needs.

Conversions side by side (neighbouring relation: replace-one):

* ``paper``: Lemma 15 of Bun, Carmosino & Sorrell (2020), ``eps = rho + 2 sqrt(rho log(1/delta))``;
* ``cks``: Canonne, Kamath & Steinke (2020), Prop. 12 / Cor. 13;
* ``exact``: the composition is ``mu``-GDP with ``mu = sqrt(T)/z`` (Dong, Roth & Su 2019), whose
  exact profile is Balle & Wang (2018), Thm 8.

``--mechanism`` says which rounds: ``discrete-gaussian`` (the default) is what ``dpboost train``
releases; its profile is not the continuous Gaussian's, so ``exact`` does not apply and the
best bound is ``cks`` (CKS20 Thm 14 and Prop. 12). Reporting a fit's rounds as continuous
Gaussians with ``exact`` would undercharge them: at z = 20.2627, T = 20, delta = 1e-6 it says
0.927 where the fit's own report (cks) says 1.000. ``gaussian`` is for continuous Gaussian
rounds released by other code.

Examples::

    dpboost privacy --n-rounds 100 --noise-multiplier 42.25 --target-delta 1e-6
    dpboost privacy --n-rounds 100 --target-epsilon 1 --target-delta 1e-6 --calibrate --json
"""

from __future__ import annotations

import argparse
import math

from accounting import DiscreteGaussianEvent, GaussianEvent
from dpboost.cli._options import (UserError, add_json, add_n_rounds, add_target_epsilon_delta,
                                  json_text)

__all__ = ["MAX_ROUNDS", "MECHANISMS", "add_mechanism", "add_parser", "check_rounds",
           "check_noise_multiplier", "mechanism_event", "run"]

#: Largest ``--n-rounds`` the accounting commands take: counts multiply floats, and every int up
#: to 2**53 (~9.0e15) is an exact double; no fit runs 10**15 rounds (``train`` stops at 10**6).
MAX_ROUNDS = 10**15

#: ``--mechanism`` choices: (event class, calibrate_noise's mechanism, words for output).
MECHANISMS = {
    "discrete-gaussian": (DiscreteGaussianEvent, "discrete_gaussian", "discrete Gaussian"),
    "gaussian": (GaussianEvent, "gaussian", "continuous Gaussian"),
}

#: What a default fit releases besides its rounds (README, "Defaults that adapt privately").
NOT_RECORDED = ("a default fit also spends a private mean, a second-moment matrix (large n), a "
                "histogram of norms, a count and a score histogram or exponential-mechanism "
                "threshold, which rounds alone do not cover: 'dpboost train --ledger' records "
                "a fit's whole event")

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
        "by the conversions that apply: paper (Lemma 15), cks (Canonne-Kamath-Steinke 2020) "
        "and, for continuous Gaussian rounds only, exact (Gaussian DP). The rounds are "
        "discrete Gaussians by default, as 'dpboost train' releases them. With --calibrate, "
        "the smallest noise multiplier meeting --target-epsilon by each method.",
    )
    add_n_rounds(parser, required=True, aliases=True,
                 help="number of Gaussian rounds composed (boosting rounds), at most 10**15")
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
    add_mechanism(parser)
    add_json(parser, help="print JSON instead of a table")
    parser.set_defaults(func=run)
    return parser


def add_mechanism(parser: argparse.ArgumentParser) -> None:
    """``--mechanism {discrete-gaussian,gaussian}``, default what ``dpboost train`` releases."""
    parser.add_argument(
        "--mechanism", choices=tuple(MECHANISMS), default="discrete-gaussian",
        help="the rounds' noise: discrete-gaussian is what 'dpboost train' releases, converted "
        "by cks (CKS20 Prop. 12; the exact GDP conversion does not apply to it); gaussian is "
        "the continuous Gaussian, converted exactly (Balle-Wang 2018 Thm 8) "
        "(default: discrete-gaussian)")


def check_rounds(value: int, owner: str) -> int:
    """``--n-rounds``: an int in [1, 10**15] (:data:`MAX_ROUNDS`), one line otherwise."""
    from dpboost._validation import check_scalar

    if isinstance(value, int) and value > MAX_ROUNDS:
        digits = len(str(value)) if value.bit_length() < 10_000 else "thousands of"
        raise UserError(f"--n-rounds must be at most 10**15 (a count of rounds the accounting "
                        f"can represent exactly); got a number with {digits} digits")
    return check_scalar(value, "n_rounds", owner, kind="int", low=1, closed="left")


def check_noise_multiplier(value: float, owner: str) -> float:
    """``--noise-multiplier``: a finite float > 0 (inf would record a spend that costs nothing)."""
    from dpboost._validation import check_scalar

    if value == math.inf:
        raise UserError("--noise-multiplier must be finite: inf means no data is released, "
                        "so it would record a spend that costs nothing")
    return check_scalar(value, "noise_multiplier", owner, low=0)


def mechanism_event(mechanism: str, z: float):
    """The event of one round of ``mechanism`` at noise multiplier ``z``."""
    return MECHANISMS[mechanism][0](z)


def _check(args) -> tuple[int, float]:
    from dpboost._validation import check_scalar

    rounds = check_rounds(args.n_rounds, OWNER)
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
        check_noise_multiplier(args.noise_multiplier, OWNER)
    return rounds, delta


def epsilon_text(epsilon: float) -> str:
    """``epsilon`` for a table: six decimals, or three significant digits below 0.001.

    Six decimals alone printed a spend of 2e-9 as 0.000000, which reads as nothing spent.
    """
    if epsilon == 0 or abs(epsilon) >= 1e-3 or not math.isfinite(epsilon):
        return f"{epsilon:.6f}"
    return f"{epsilon:.3g}"


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def _epsilons(acc, delta: float) -> dict[str, float]:
    """Epsilon by each applicable method; ``exact`` is left out where it cannot be evaluated
    (the others still bound the composition, as in ``get_epsilon(method="best")``)."""
    out = {}
    for m in acc.methods():
        try:
            out[m] = acc.get_epsilon(delta, m)
        except ValueError:
            if not m.endswith("exact"):  # "exact" and "pure+exact" have a supported range
                raise
    return out


def _calibrate(args, rounds: int, delta: float, kind: str) -> int:
    from accounting import calibrate_noise

    eps = args.target_epsilon
    methods = [m for m in REFERENCES if m != "exact" or kind == "gaussian"]
    results = {m: calibrate_noise(eps, delta, rounds, method=m, mechanism=kind)
               for m in methods}
    best = min(results, key=lambda m: results[m].noise_multiplier)
    if args.json:
        print(json_text({"mechanism": args.mechanism, "conversion": best,
                          "noise_multiplier": {m: r.noise_multiplier for m, r in results.items()}}))
        return 0
    paper = results["paper"].noise_multiplier
    rows = [["method", "noise multiplier", "/ paper", "epsilon", "reference"]]
    for m, r in results.items():
        rows.append([m, f"{r.noise_multiplier:.6g}", f"{r.noise_multiplier / paper:.4f}",
                     epsilon_text(r.epsilon), REFERENCES[m]])
    print(f"Smallest noise multiplier for {rounds} {MECHANISMS[args.mechanism][2]} rounds to be "
          f"(epsilon={eps:g}, delta={delta:g})-DP (replace-one); best: {best}:")
    print(_table(rows))
    return 0


def run(args) -> int:
    from accounting import ZCDPAccountant

    rounds, delta = _check(args)
    words, kind = MECHANISMS[args.mechanism][2], MECHANISMS[args.mechanism][1]
    if args.calibrate:
        return _calibrate(args, rounds, delta, kind)
    event = mechanism_event(args.mechanism, args.noise_multiplier)
    acc = ZCDPAccountant().compose(event, count=rounds)
    epsilons = _epsilons(acc, delta)
    best = min(epsilons, key=epsilons.get)
    mu = acc.mu if acc.is_gaussian else None  # no GDP profile for the discrete Gaussian
    if args.json:
        print(json_text({"mechanism": args.mechanism, "rho": acc.rho, "mu": mu,
                          "epsilon": epsilons, "conversion": best}))
        return 0
    print(f"{rounds} {words} rounds, noise multiplier {args.noise_multiplier:g}, "
          f"delta={delta:g} (replace-one):  rho={acc.rho:.6g}"
          + (f"  mu={mu:.6g}" if mu is not None else ""))
    rows = [["method", "epsilon", "reference"]]
    rows += [[m, epsilon_text(e), REFERENCES[m]] for m, e in epsilons.items()]
    print(_table(rows))
    print(f"best: {best} (epsilon={epsilon_text(epsilons[best])})"
          + ("; the exact GDP conversion does not apply to discrete Gaussian rounds"
             if kind == "discrete_gaussian" else ""))
    print(f"note: these are the rounds only; {NOT_RECORDED}")
    return 0
