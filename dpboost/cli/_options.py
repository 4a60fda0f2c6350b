"""The one place that defines the flags shared by the ``dpboost`` subcommands.

One spelling per concept, one help sentence, defaults taken from the library:

============================  ===========================================================
flag                          meaning
============================  ===========================================================
``--target-epsilon E``        the epsilon of the (epsilon, delta)-DP goal or claim
``--target-delta D``          the delta of the (epsilon, delta)-DP goal or claim
``--n-rounds T``              boosting rounds (Gaussian rounds composed)
``--seed S``                  seed; :data:`SEED_POLICY` says what the default is and why
``--label COL``               the label column of a data file, and nothing else
``--note TEXT``               a free-text note (e.g. of a ledger entry)
``--out PATH``                where the command writes its result
``--json``                    machine-readable output on stdout
============================  ===========================================================

Old spellings (``--rounds``, ``--epsilon``, ``--delta``, ``budget spend --label``) still work
as hidden aliases that print a one-line deprecation warning on stderr, so scripts do not break.

User errors
-----------
A user error (bad flag value, unreadable file, exhausted budget) is one line on stderr and exit
code 2; a bug in dpboost is reported as an internal error with its traceback (exit code 1), so
it is never mistaken for the user's fault.  :func:`is_user_error` draws the line:

* :class:`UserError`, the domain errors (budget, convergence, unsupported event, model file),
  ``OSError`` and decoding errors are always user errors;
* ``ValueError``, ``TypeError`` and ``KeyError`` are user errors when dpboost raised them
  *deliberately* (an explicit ``raise`` statement in :mod:`dpboost` or :mod:`accounting`: the
  house style raises these for bad input and only for that), or when they arose while reading
  a user's file (a frame of a reader module, :data:`READER_MODULES`, is on the stack), or
  when scikit-learn's input validation (``check_array``, ``validate_data``: the estimator's
  public-boundary checks) raised them;
* everything else, e.g. an ``AttributeError``, or a ``ValueError`` raised implicitly by numpy
  inside the estimator, is a bug.
"""

from __future__ import annotations

import argparse
import json
import linecache
import re
import sys
import types

__all__ = [
    "ALWAYS_USER_ERRORS",
    "READER_MODULES",
    "SEED_POLICY",
    "VALIDATOR_MODULES",
    "UserError",
    "add_json",
    "add_label",
    "add_n_rounds",
    "add_note",
    "add_out",
    "add_seed",
    "add_target_epsilon_delta",
    "allow_negative_values",
    "deprecated_alias",
    "is_user_error",
    "positive_int",
    "target_delta_value",
    "target_epsilon_value",
]

#: Said in the help of every ``--seed``; ``tests/core/test_cli_vocabulary.py`` checks it.
SEED_POLICY = ("Default policy: where privacy is at stake (noise protecting real data) the "
               "default is none, i.e. fresh OS entropy on every run, because whoever knows "
               "the seed can subtract the noise; experiments on public or synthetic data "
               "default to 0 so their numbers are reproducible.")


class UserError(Exception):
    """A mistake the user can fix (a flag, a file, a value): one line on stderr, exit code 2.

    Raise it at the CLI boundary for checks that are not already done by the library's
    validation helpers (whose ``ValueError``/``TypeError`` count as user errors too).
    """


def _always_user_errors() -> tuple[type[BaseException], ...]:
    from accounting.exceptions import (
        BudgetExceededError,
        ConvergenceError,
        UnsupportedEventError,
    )

    errors: list[type[BaseException]] = [UserError, BudgetExceededError, ConvergenceError,
                                          UnsupportedEventError, OSError, json.JSONDecodeError,
                                          UnicodeError]
    try:
        from dpboost.exceptions import ModelFileError
        errors.append(ModelFileError)
    except ImportError:  # pragma: no cover
        pass
    return tuple(errors)


#: Exception types that are a user error wherever they come from.
ALWAYS_USER_ERRORS = _always_user_errors()

#: Types that are a user error only when raised deliberately by dpboost or by a reader.
_CONDITIONAL_USER_ERRORS = (ValueError, TypeError, KeyError)

#: Packages whose explicit ``raise ValueError/TypeError/KeyError`` means "bad input".
_OWN_PACKAGES = ("dpboost", "accounting")

#: Modules that read users' files: any ValueError/TypeError/KeyError raised while one of them
#: is on the stack (including inside pandas or pyarrow) is the file's fault, not a bug.
READER_MODULES = ("dpboost.data", "dpboost.readers", "dpboost.model_io", "dpboost._io",
                  "dpboost.schema", "dpboost.tabular", "accounting.ledger")


#: Third-party modules whose ValueError/TypeError is an input check at dpboost's boundary.
VALIDATOR_MODULES = ("sklearn.utils.validation", "sklearn.utils._param_validation")


def _frames(tb: types.TracebackType | None):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is the user's doing (one line, exit 2) rather than a bug in dpboost.

    See the module docstring for the rule.

    Examples
    --------
    >>> is_user_error(UserError("--n must be positive"))
    True
    >>> is_user_error(AttributeError("'NoneType' object has no attribute 'shape'"))
    False
    """
    if isinstance(exc, ALWAYS_USER_ERRORS):
        return True
    if not isinstance(exc, _CONDITIONAL_USER_ERRORS):
        return False
    frames = list(_frames(exc.__traceback__))
    if not frames:  # raised and caught without a traceback: trust the type
        return True
    modules = [tb.tb_frame.f_globals.get("__name__", "") for tb in frames]
    if any(_in(m, READER_MODULES) for m in modules):
        return True
    last = frames[-1]
    if _in(modules[-1], VALIDATOR_MODULES):
        return True
    if not _in(modules[-1], _OWN_PACKAGES):
        return False  # raised inside numpy, scipy, the standard library...: not deliberate
    line = linecache.getline(last.tb_frame.f_code.co_filename, last.tb_lineno).strip()
    return line.startswith("raise")


def json_text(value, **kwargs) -> str:
    """``json.dumps(value, **kwargs)`` that stays JSON: a non-finite float is written as the
    string ``"inf"``, ``"-inf"`` or ``"nan"``, as the ledger file stores it (``json.dumps``
    wrote bare ``Infinity``, which JSON parsers refuse: red team, session 36).

    >>> json_text({"rho": float("inf"), "eps": [1.5, float("nan")]})
    '{"rho": "inf", "eps": [1.5, "nan"]}'
    """
    import json
    import math

    def plain(v):
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if v != v else ("inf" if v > 0 else "-inf")
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v

    return json.dumps(plain(value), allow_nan=False, **kwargs)


def report_error(exc: BaseException, command: str | None) -> int:
    """Print ``exc`` as a user error (one line, returns 2; a ``MemoryError`` too: the size
    asked for), a ``DistributedFitError`` (one line, returns 1: the workers failed, not the
    input nor dpboost) or a bug (traceback, returns 1)."""
    prefix = f"dpboost {command}" if command else "dpboost"
    if is_user_error(exc):
        message = " ".join(str(exc).split()) or type(exc).__name__
        if isinstance(exc, OSError) and exc.strerror:  # "[Errno 17] ..." said nothing more
            message = " ".join(f"{exc.filename}: {exc.strerror}".split() if exc.filename
                               else str(exc.strerror).split())
        if isinstance(exc, KeyError):
            message = f"missing key {message}"
        print(f"{prefix}: error: {message}", file=sys.stderr)
        return 2
    if any(c.__name__ == "DistributedFitError" and c.__module__ == "dpboost.distributed"
           for c in type(exc).__mro__):  # workers died or a spool chunk was lost: not a bug,
        # and not the input either (red team, s37: a traceback and "this is a bug")
        print(f"{prefix}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    if isinstance(exc, MemoryError):  # the size asked for, not a bug: one line (red team, s36:
        # 'demo --n 1000000000000' printed a traceback and "this is a bug")
        detail = " ".join(str(exc).split())
        print(f"{prefix}: error: not enough memory for this run{f' ({detail})' if detail else ''}"
              "; ask for fewer rows, features, rounds or learners.", file=sys.stderr)
        return 2
    import traceback

    traceback.print_exception(exc, file=sys.stderr)
    print(f"{prefix}: internal error ({type(exc).__name__}): this is a bug in dpboost, not in "
          "your input; please report it with the traceback above.", file=sys.stderr)
    return 1


# ---- deprecated spellings -------------------------------------------------------------------

class _DeprecatedAlias(argparse.Action):
    """A hidden old spelling: stores into the new flag's ``dest`` and warns once on stderr."""

    def __init__(self, option_strings, dest, *, new: str, **kwargs):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: warning: {option_string} is deprecated and will be removed; "
              f"use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def deprecated_alias(container, old: str, new: str, *, dest: str, type=None) -> argparse.Action:
    """Register ``old`` as a hidden alias of ``new`` (same ``dest``), warning when used."""
    action = container.add_argument(old, dest=dest, type=type, new=new, default=argparse.SUPPRESS,
                                    action=_DeprecatedAlias, help=argparse.SUPPRESS)
    action.deprecated_alias_of = new
    return action


def _add_with_alias(parser, new: str, old: str | None, *, dest: str, required: bool, **kwargs):
    """Add ``new`` (and the hidden ``old``); ``required`` is enforced over both spellings."""
    if old is None:
        return parser.add_argument(new, dest=dest, required=required, **kwargs)
    container = parser.add_mutually_exclusive_group(required=True) if required else parser
    action = container.add_argument(new, dest=dest, **kwargs)
    deprecated_alias(container, old, new, dest=dest, type=kwargs.get("type"))
    return action


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1 (a count: runs, pairs, rows).

    Examples
    --------
    >>> positive_int("3")
    3
    >>> positive_int("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number of at least 1. Got '-1' instead.
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1. Got {text!r} "
                                         "instead.")
    return value


#: A value that starts as a negative number does (``-1,0,1``, ``-.5``, ``-1e-3``): no
#: dpboost flag looks like that, so such a word is a value (as Python 3.13's argparse has it).
_NEGATIVE_START = re.compile(r"^-\.?\d")


def allow_negative_values(parser: argparse.ArgumentParser) -> None:
    """Let a flag take a value that starts with a negative number (``--classes -1,0,1``).

    argparse takes a word starting with ``-`` for a flag unless the whole word is a negative
    number, so ``--classes -1,1`` worked only through a narrower pattern and ``-1,0,1``
    failed with "expected one argument".  Every subcommand whose values may start so calls
    this on its parser.
    """
    if hasattr(parser, "_negative_number_matcher"):  # (private in argparse; checked by a test)
        parser._negative_number_matcher = _NEGATIVE_START


def target_epsilon_value(text: str) -> float:
    """An argparse ``type``: a target epsilon the noise calibration supports.

    That is a number in [:data:`~accounting.calibration.MIN_TARGET_EPSILON`,
    :data:`~accounting.calibration.MAX_TARGET_EPSILON`] (outside it the noise over- or
    underflows doubles), checked while the flags are parsed: before a file is read or a
    ledger opened, in the flag's own name.  (Until session 21 ``train --target-epsilon 0``
    said the range was (0, inf) in the estimator's name and ``1e9`` then met
    ``calibrate_noise``'s [1e-09, 1e+06].)

    Examples
    --------
    >>> target_epsilon_value("0.5")
    0.5
    >>> target_epsilon_value("1e9")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number from 1e-09 to 1e+06 (the range of
    'target_epsilon' dpboost supports). Got '1e9' instead.
    """
    from accounting.calibration import MAX_TARGET_EPSILON, MIN_TARGET_EPSILON

    value = _float_or_none(text)
    if value is None or not MIN_TARGET_EPSILON <= value <= MAX_TARGET_EPSILON:
        raise argparse.ArgumentTypeError(f"must be a number from {MIN_TARGET_EPSILON:g} to "
                                         f"{MAX_TARGET_EPSILON:g} (the range of "
                                         f"'target_epsilon' dpboost supports). Got {text!r} "
                                         "instead.")
    return value


def target_delta_value(text: str) -> float:
    """An argparse ``type``: a delta strictly between 0 and 1 (as every accountant takes it).

    Examples
    --------
    >>> target_delta_value("1e-6")
    1e-06
    >>> target_delta_value("0")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number strictly between 0 and 1 (the range of
    'target_delta' dpboost supports). Got '0' instead.
    """
    value = _float_or_none(text)
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError("must be a number strictly between 0 and 1 (the "
                                         "range of 'target_delta' dpboost supports). Got "
                                         f"{text!r} instead.")
    return value


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _fmt(value) -> str:
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


# ---- the shared flags -----------------------------------------------------------------------

def add_target_epsilon_delta(parser: argparse.ArgumentParser, *, required: bool = True,
                             epsilon_default: float | None = None,
                             delta_default: float | None = None,
                             epsilon_help: str = "the epsilon of the (epsilon, delta)-DP target",
                             delta_help: str = "the delta of the (epsilon, delta)-DP target",
                             epsilon: bool = True, delta: bool = True,
                             aliases: bool = False) -> None:
    """``--target-epsilon E`` and ``--target-delta D`` (``aliases``: hidden ``--epsilon``,
    ``--delta``).  With ``required=False`` the defaults are stated in the help.

    Both are checked as they are parsed (:func:`target_epsilon_value`,
    :func:`target_delta_value`: one type for every subcommand) and their help states the range,
    so a value out of range is one line in the flag's name before a file is read or a ledger
    opened.
    """
    from accounting.calibration import MAX_TARGET_EPSILON, MIN_TARGET_EPSILON

    for enabled, name, old, default, text, check, span in (
            (epsilon, "--target-epsilon", "--epsilon", epsilon_default, epsilon_help,
             target_epsilon_value, f"from {MIN_TARGET_EPSILON:g} to {MAX_TARGET_EPSILON:g}"),
            (delta, "--target-delta", "--delta", delta_default, delta_help,
             target_delta_value, "strictly between 0 and 1")):
        if not enabled:
            continue
        tail = f"a number {span}; " + ("required" if required else f"default: {_fmt(default)}")
        kwargs = {} if required else {"default": default}
        _add_with_alias(parser, name, old if aliases else None, dest=name[2:].replace("-", "_"),
                        required=required, type=check, metavar=name[9].upper(),
                        help=f"{text} ({tail})", **kwargs)


def add_n_rounds(parser: argparse.ArgumentParser, *, default: int | None = None,
                 required: bool = False, default_text: str | None = None,
                 help: str = "boosting rounds T", aliases: bool = False) -> None:
    """``--n-rounds T`` (``aliases``: hidden ``--rounds``).

    ``default=None`` means "the estimator's default": learned privately from epsilon, n and d
    (:func:`dpboost.defaults.adaptive_rounds`) unless ``default_text`` says otherwise.
    """
    if required:
        tail = "required"
    elif default_text is not None:
        tail = f"default: {default_text}"
    elif default is None:
        tail = "default: learned from epsilon, n and d (dpboost.defaults)"
    else:
        tail = f"default: {default}"
    kwargs = {} if required else {"default": default}
    _add_with_alias(parser, "--n-rounds", "--rounds" if aliases else None, dest="n_rounds",
                    required=required, type=int, metavar="T", help=f"{help} ({tail})", **kwargs)


def add_seed(parser: argparse.ArgumentParser, *, private: bool, what: str = "") -> None:
    """``--seed S`` under :data:`SEED_POLICY`: default none if ``private``, else 0.

    ``private`` is true where the seeded randomness is noise protecting real data.
    """
    default = None if private else 0
    text = f"seed{(' for ' + what) if what else ''} (default: {_fmt(default)}). "
    if private:
        text += "A seeded run is reproducible but not private against whoever knows the seed. "
    action = parser.add_argument("--seed", type=int, default=default, metavar="S",
                                 help=text + SEED_POLICY)
    action.seed_private = private


def add_label(parser: argparse.ArgumentParser, *, default: str | None = None,
              help: str = "the label column of a CSV file: header name or index",
              default_text: str = "the last column") -> None:
    """``--label COL``: the label column (and only that)."""
    parser.add_argument("--label", default=default, metavar="COL",
                        help=f"{help} (default: {default_text})")


def add_note(parser: argparse.ArgumentParser, *, required: bool = False,
             help: str = "a free-text note", aliases_label: bool = False) -> None:
    """``--note TEXT`` (``aliases_label``: the hidden, deprecated ``--label``)."""
    tail = "required" if required else "default: none"
    _add_with_alias(parser, "--note", "--label" if aliases_label else None, dest="note",
                    required=required, metavar="TEXT", help=f"{help} ({tail})",
                    **({} if required else {"default": None}))


def add_out(parser: argparse.ArgumentParser, *, required: bool = False, default: str | None = None,
            metavar: str = "PATH", help: str = "where to write the result",
            default_text: str | None = None) -> None:
    """``--out PATH``."""
    if required:
        tail = "required"
    else:
        tail = f"default: {default_text if default_text is not None else _fmt(default)}"
    parser.add_argument("--out", required=required, default=default, metavar=metavar,
                        help=f"{help} ({tail})")


def add_json(parser: argparse.ArgumentParser, *, help: str = "print JSON instead of text") -> None:
    """``--json``."""
    parser.add_argument("--json", action="store_true", help=f"{help} (default: off)")
