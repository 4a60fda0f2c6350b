"""The ``dpboost`` command line: a thin dispatcher over one module per subcommand.

Each subcommand lives in ``dpboost/cli/<name>.py`` and exposes

* ``add_parser(subparsers) -> argparse.ArgumentParser`` that registers it, and
* ``run(args) -> int`` that does the work and returns the exit code.

Errors a user can cause (bad arguments, unreadable files, invalid values, an exhausted
budget) end as **one line on stderr and exit code 2**, never a traceback.  A bug in dpboost is
reported as an internal error with its traceback (exit code 1), so it is never mistaken for the
user's fault: :func:`dpboost.cli._options.is_user_error` tells the two apart.  The shared flags
are defined once, in :mod:`dpboost.cli._options`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import re
import sys

from accounting.exceptions import BudgetExceededError, ConvergenceError, UnsupportedEventError
from dpboost.cli._options import UserError, report_error

#: Subcommands in the order ``dpboost --help`` lists them.
SUBCOMMANDS = ("demo", "schema", "train", "predict", "privacy", "budget", "audit", "curves",
               "online")

#: The exception types a user error can have (which of them are really the user's doing is
#: decided by :func:`dpboost.cli._options.is_user_error`).
USER_ERRORS = (
    UserError,
    ValueError,
    TypeError,
    OSError,
    BudgetExceededError,
    ConvergenceError,
    UnsupportedEventError,
    json.JSONDecodeError,
    UnicodeDecodeError,
    KeyError,
)


class UsageError(Exception):
    """Raised by :class:`OneLineParser` instead of printing usage and exiting."""


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors become one line on stderr (exit code 2)."""

    def error(self, message: str):
        # a required flag with a hidden deprecated alias is a one-flag exclusive group
        message = re.sub(r"^one of the arguments (\S+) is required$",
                         r"the following arguments are required: \1", message)
        raise UsageError(f"{self.prog}: error: {message}")


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="dpboost",
        description="Differentially private boosting and online boosting.",
    )
    from dpboost import __version__

    parser.add_argument("--version", action="version", version=f"dpboost {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       parser_class=OneLineParser)
    subparsers.required = True
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"dpboost.cli.{name}")
        except ModuleNotFoundError as exc:  # a subcommand not built yet
            if exc.name != f"dpboost.cli.{name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


@contextlib.contextmanager
def _one_line_warnings(prefix: str):
    """Warnings a command does not print itself, as ``dpboost CMD: warning: ...``: one line
    each, once per text.  Python's format printed the source path and line of dpboost's
    code, and ``audit --setting estimator`` repeated one warning for every fit (red team,
    session 36).  A command that gathers its warnings (``train``, ``predict``) still does."""
    import warnings

    seen: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None):
        text = " ".join(str(message).split())
        if text not in seen:
            seen.add(text)
            print(f"{prefix}: warning: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dpboost`` console script and of ``python -m dpboost``."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        with _one_line_warnings(f"dpboost {getattr(args, 'command', '')}".strip()):
            return int(args.func(args) or 0)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dpboost: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 (one line for user errors, traceback for bugs)
        return report_error(exc, getattr(locals().get("args"), "command", None))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
