"""``dpboost budget``: a privacy budget ledger shared by every training on one dataset.

``init`` creates it, ``show`` prints the history and what is left, ``spend`` records T rounds
after checking they fit (concurrent spenders are serialised by a lock on the ledger file; a
spend that would pass the budget is refused, exit code 2). The rounds are discrete Gaussians by
default (``--mechanism``), as ``dpboost train`` releases them, converted by cks (CKS20
Prop. 12): recording a fit's rounds as continuous Gaussians with the exact conversion (Balle &
Wang 2018, Thm 8) charged 0.927 for a fit whose report says 1.000. A default fit spends more
than its rounds (a mean, histograms, a count, a threshold): ``train --ledger`` records it all.

Examples::

    dpboost budget init adult.budget.json --target-epsilon 3 --target-delta 1e-6
    dpboost budget spend adult.budget.json --noise-multiplier 42.25 --n-rounds 100 --note run1
    dpboost budget show adult.budget.json --json
"""

from __future__ import annotations

import argparse
import os

from dpboost.cli._options import (UserError, add_json, add_n_rounds, add_note,
                                  add_target_epsilon_delta, json_text)
from dpboost.cli.privacy import (
    MECHANISMS,
    NOT_RECORDED,
    add_mechanism,
    check_noise_multiplier,
    check_rounds,
    epsilon_text,
    mechanism_event,
)

__all__ = ["add_parser", "run"]

OWNER = "dpboost budget"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "budget",
        help="create, show or spend from a privacy budget ledger",
        description="A JSON privacy budget (target epsilon, delta) with a history of spends.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    init = actions.add_parser(
        "init", help="create a ledger", description="Create a new budget ledger file."
    )
    init.add_argument("ledger", metavar="LEDGER", help="path of the new ledger file (JSON)")
    add_target_epsilon_delta(init, epsilon_help="the total epsilon this dataset may spend",
                             delta_help="the delta of the total")

    show = actions.add_parser(
        "show",
        help="show spends and the remaining budget",
        description="Show the history and the total of a ledger.",
    )
    show.add_argument("ledger", metavar="LEDGER", help="path of the ledger file")
    add_json(show, help="print JSON instead of a table")

    spend = actions.add_parser(
        "spend",
        help="record T Gaussian rounds if they fit",
        description="Check and record T rounds (discrete Gaussian by default, as "
        "'dpboost train' releases them) with the given noise multiplier (refused if over "
        "budget). A default fit spends more than its rounds: record it with "
        "'dpboost train --ledger'.",
    )
    spend.add_argument("ledger", metavar="LEDGER", help="path of the ledger file")
    spend.add_argument("--noise-multiplier", type=float, required=True, metavar="Z",
                       help="sigma divided by the L2 sensitivity of one round (required)")
    add_n_rounds(spend, required=True, aliases=True,
                 help="number of Gaussian rounds to record, at most 10**15")
    add_mechanism(spend)
    add_note(spend, required=True, aliases_label=True,
             help="a note naming the spend in the ledger (e.g. the run)")
    add_json(spend)
    parser.set_defaults(func=run)
    return parser


def _summary(ledger) -> dict:
    from accounting import ZCDPAccountant

    delta = ledger.target_delta
    history = ledger.history
    spends = []
    for s in history:
        eps = ZCDPAccountant().compose(s.event).get_epsilon(delta)
        spends.append(
            {"timestamp": s.timestamp, "label": s.label, "event": s.event.to_dict(), "epsilon": eps,
             # a reservation not yet settled: its run is going on, or was killed (it counts)
             **({"reservation": s.reservation} if s.reservation else {})}
        )
    acc = ZCDPAccountant()
    for s in history:
        acc.compose(s.event)
    spent = acc.get_epsilon(delta) if history else 0.0
    method = acc.best_method(delta) if history else _conversion(acc)
    return {
        "path": str(ledger.path),
        "target_epsilon": ledger.target_epsilon,
        "target_delta": delta,
        "spent_epsilon": spent,
        "remaining_epsilon": max(ledger.target_epsilon - spent, 0.0),
        "method": method,
        "spends": spends,
    }


def _conversion(acc) -> str:
    """The conversion "best" amounts to: exact for Gaussian rounds only, else cks (zCDP)."""
    return "exact" if acc.is_gaussian else "cks"


def _number(value) -> str:
    """A float of an event dict for display; infinity is stored as the string "inf"."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}"
    return str(value)


def _describe(event: dict) -> str:
    """One short line for an event dict (``to_dict`` output, so values are numbers or "inf")."""
    kind = event.get("type")
    if kind == "SelfComposedEvent":
        return f"{event['count']} x {_describe(event['event'])}"
    if kind == "GaussianEvent":
        return f"Gaussian(z={_number(event['noise_multiplier'])})"
    if kind == "DiscreteGaussianEvent":
        return f"DiscreteGaussian(z={_number(event['noise_multiplier'])})"
    return str(kind or "?")


def _printable(text: str) -> str:
    """``text`` with its control characters escaped (``\\n``, ``\\x1b``): a note holding a
    line break broke the table, and an ANSI escape recoloured the terminal (red team,
    session 36).  The ledger keeps the note as written; ``--json`` shows it so."""
    import unicodedata

    return "".join(repr(c)[1:-1] if unicodedata.category(c) == "Cc" else c for c in text)


def _print_table(summary: dict) -> None:
    print(
        f"ledger {summary['path']}: target epsilon={summary['target_epsilon']:g}, "
        f"delta={summary['target_delta']:g}"
    )
    rows = [["timestamp", "label", "event", "epsilon"]]
    for s in summary["spends"]:
        rows.append([_printable(s["timestamp"]), _printable(s["label"]), _describe(s["event"]),
                     epsilon_text(s['epsilon'])])
    if len(rows) > 1:
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            print("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    else:
        print("  (no spends yet)")
    over = summary["spent_epsilon"] - summary["target_epsilon"]
    print(
        f"spent epsilon={epsilon_text(summary['spent_epsilon'])} ({summary['method']}, composed), "
        f"remaining {epsilon_text(summary['remaining_epsilon'])} of {summary['target_epsilon']:g}"
        + (f"; OVER the target by {epsilon_text(over)} (the spends were recorded outside "
           "this ledger's checks, e.g. edited in by hand)" if over > 0 else "")
    )


def run(args) -> int:
    from accounting import BudgetLedger, SelfComposedEvent, ZCDPAccountant
    from dpboost._validation import check_scalar

    if args.action == "init":
        check_scalar(args.target_epsilon, "target_epsilon", OWNER, low=0)
        check_scalar(args.target_delta, "target_delta", OWNER, low=0, high=1)
        if os.path.exists(args.ledger):
            raise FileExistsError(
                f"{args.ledger} already exists; use 'dpboost budget show' to read it"
            )
        ledger = BudgetLedger(args.ledger, args.target_epsilon, args.target_delta)
        if not ledger.created:  # another init made it between the check and the creation
            raise FileExistsError(
                f"{args.ledger} already exists; use 'dpboost budget show' to read it"
            )
        print(
            f"created ledger {ledger.path}: target epsilon={ledger.target_epsilon:g}, "
            f"delta={ledger.target_delta:g}"
        )
        return 0
    if args.action == "show":
        summary = _summary(BudgetLedger.open(args.ledger))
        if args.json:
            print(json_text(summary))
        else:
            _print_table(summary)
        return 0
    # spend
    if not args.note.strip():  # "required", yet an empty note was taken (red team, s. 36)
        raise UserError("--note is empty: say what the spend is for (a run, a release).")
    z = check_noise_multiplier(args.noise_multiplier, OWNER)
    rounds = check_rounds(args.n_rounds, OWNER)
    ledger = BudgetLedger.open(args.ledger)
    event = SelfComposedEvent(mechanism_event(args.mechanism, z), rounds)
    total = ledger.spend(event, label=args.note)
    conversion = _conversion(ZCDPAccountant().compose(ledger.event))
    if args.json:
        print(json_text({"label": args.note, "mechanism": args.mechanism,
                          "conversion": conversion, "spent_epsilon": total,
                          "target_epsilon": ledger.target_epsilon,
                          "target_delta": ledger.target_delta}))
    else:
        print(f"recorded '{args.note}': {_describe(event.to_dict())} "
              f"({MECHANISMS[args.mechanism][2]} rounds); spent epsilon={epsilon_text(total)} "
              f"({conversion}, composed) of {ledger.target_epsilon:g} "
              f"(delta={ledger.target_delta:g})")
        print(f"note: only these rounds were recorded; {NOT_RECORDED}")
    return 0
