"""``dpboost online``: run an online booster on a CSV or LIBSVM file. NOT differentially private.

The online learners (Online BBM, AdaBoost.OL(.S), online agnostic boosting and their weak
learners) see every example in the clear: neither the model, its predictions nor the errors
printed here are covered by any privacy guarantee.  The command says so in its help and in its
output (``"differentially_private": false``).  For a private model use ``dpboost train``.

The rows are shuffled with ``--seed`` (the permutation is ``default_rng(seed).permutation(n)``,
the split ``benchmarks/bench_online.py`` uses) and split into a training part and a held-out part
(``--test-fraction``).  The model makes one online pass over the training part, predicting each
example before learning from it (progressive validation), and is then frozen and scored on the
held-out part.  Labels must take exactly two values; the larger (numbers) or the later in sorted
order (strings) becomes ``+1``.

Defaults come from the library's classes (:data:`DEFAULTS`), so ``dpboost online`` and
``OnlineBBM()`` are the same learner.

References
----------
Beygelzimer, Kale & Luo (2015), Algorithms 1-2 and Section 5; Brukhim, Chen, Hazan & Moran (2020),
Algorithm 1.
"""

from __future__ import annotations

import argparse
import inspect
import time
import warnings

import numpy as np

from dpboost._validation import check_scalar
from dpboost.cli._options import UserError, add_json, add_label, add_seed, json_text

__all__ = ["ALGORITHMS", "NOT_PRIVATE", "add_parser", "binary_labels", "default_gamma",
           "library_default", "make_model", "run"]

ALGORITHMS = ("bbm", "adaboost-ol", "adaboost-ol-s", "agnostic", "base")

#: The boosters whose ``predict_one`` draws a label (``prediction="sample"``): a log loss of
#: their +-1 draws charges 34.5 per mistake (red team s34), so ``--metric log_loss`` scores
#: their expected label (``prediction="mean"``) instead.
DRAWN_LABELS = ("adaboost-ol", "adaboost-ol-s", "agnostic")

#: Said in the help and in every output of ``dpboost online``.
NOT_PRIVATE = ("NOT differentially private: the online learners see every example in the "
               "clear, and neither the model, its predictions nor the errors reported are "
               "covered by any privacy guarantee (for a private model use 'dpboost train').")


def _classes() -> dict:
    from dpboost.online.adaboost_ol import AdaBoostOL, AdaBoostOLS
    from dpboost.online.agnostic import OnlineAgnosticBoost
    from dpboost.online.bbm import OnlineBBM
    from dpboost.online.learners import OnlineLinearLearner

    return {"bbm": OnlineBBM, "adaboost-ol": AdaBoostOL, "adaboost-ol-s": AdaBoostOLS,
            "agnostic": OnlineAgnosticBoost, "base": OnlineLinearLearner}


def library_default(algorithm: str, parameter: str):
    """The default of ``parameter`` in the constructor of ``algorithm``'s library class
    (``None`` when the class has no such parameter)."""
    cls = _classes()[algorithm]
    param = inspect.signature(cls).parameters.get(parameter)
    return None if param is None or param.default is inspect.Parameter.empty else param.default


def _defaults_text(parameter: str) -> str:
    values = {a: library_default(a, parameter) for a in ALGORITHMS}
    values = {a: v for a, v in values.items() if v is not None}
    if len(set(values.values())) == 1:
        return f"{next(iter(values.values()))}, the library's"
    return "the library's: " + ", ".join(f"{v} for {a}" for a, v in values.items())


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "online",
        help="online boosting (Online BBM, AdaBoost.OL(.S), agnostic) on a CSV or LIBSVM "
             "file; NOT differentially private",
        description="One online pass over the training part (progressive validation), then the "
                    "0-1 error on the held-out part. " + NOT_PRIVATE,
    )
    parser.add_argument("data", metavar="DATA", help="CSV (.csv, .csv.gz) or LIBSVM file")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="bbm",
                        help="the online booster, or 'base' for one weak learner alone "
                             "(default: bbm)")
    add_label(parser)
    parser.add_argument("--n-learners", type=int, default=None, metavar="N",
                        help=f"number N of weak learners (default: "
                             f"{_defaults_text('n_learners')})")
    parser.add_argument("--gamma", type=float, default=None, metavar="G",
                        help="edge for bbm and agnostic, as in the papers (VW's --gamma is half "
                             f"of it) (default: {_defaults_text('gamma')}; BCHM20 Definition 1: "
                             "a no-regret learner such as the linear one has advantage 1)")
    parser.add_argument("--learning-rate", type=float, default=None, metavar="L",
                        help="base step of the linear weak learners' normalised adaptive "
                             f"updates, as VW's -l (default: {_defaults_text('learning_rate')})")
    parser.add_argument("--weak-learner", choices=("linear", "perceptron", "stump"),
                        default="linear", help="the weak learner (default: linear)")
    parser.add_argument("--mode", choices=("weight", "sample"), default=None,
                        help="bbm: pass importance weights or sample (default: weight)")
    parser.add_argument("--metric", choices=("zero_one", "log_loss"), default="zero_one",
                        help="progressive-validation loss (default: zero_one); log_loss scores "
                             "P(y = +1), so the boosters that draw their label (adaboost-ol, "
                             "adaboost-ol-s, agnostic) then predict its expectation "
                             "(prediction=mean) for the loss and the test error")
    parser.add_argument("--test-fraction", type=float, default=0.2, metavar="F",
                        help="fraction of the rows held out for the test error (default: 0.2)")
    add_seed(parser, private=False, what="the split and the learners' sampling")
    add_json(parser)
    parser.set_defaults(func=run)
    return parser


def binary_labels(y: np.ndarray) -> tuple[np.ndarray, list]:
    """Map two distinct labels to ``-1`` and ``+1`` (sorted order); raise otherwise."""
    classes = np.unique(y)
    if classes.size != 2:
        shown = ", ".join(str(c) for c in classes[:5]) + (", ..." if classes.size > 5 else "")
        raise ValueError(f"online boosting needs exactly two classes; the data has "
                         f"{classes.size} ({shown}).")
    return np.where(y == classes[1], 1.0, -1.0), [classes[0].item(), classes[1].item()]


def default_gamma(algorithm: str) -> float:
    """``--gamma`` when not given: the library class's default (1.0 for ``agnostic``, 0.2 for
    ``bbm``; the other algorithms have no ``gamma`` and get 0.2, unused).

    For Algorithm 1 of Brukhim, Chen, Hazan & Moran (2020) ``gamma`` is the advantage of
    Definition 1, which a no-regret learner such as the default linear one has with
    ``gamma = 1``; Theorem 2's bound ``R_W(T)/(gamma T) + O(1/(gamma sqrt(N)))`` is smallest for
    the largest valid ``gamma`` (measured on a9a, seed 1, N = 10: held-out error 0.30 at 0.2,
    0.18 at 1.0).
    """
    gamma = library_default(algorithm, "gamma")
    return 0.2 if gamma is None else float(gamma)


def make_model(algorithm: str, *, n_learners: int | None = None, gamma: float | None = None,
               learning_rate: float | None = None, weak_learner: str = "linear",
               mode: str = "weight", prediction: str | None = None, random_state=None):
    """The online learner named by ``algorithm`` (one of :data:`ALGORITHMS`).

    A parameter left at ``None`` takes the library class's default; ``prediction`` applies to
    the boosters that draw their label (:data:`DRAWN_LABELS`).
    """
    from dpboost.online.learners import OnlinePerceptronLearner, OnlineStumpLearner

    if algorithm not in ALGORITHMS:
        raise ValueError(f"The 'algorithm' parameter of dpboost online must be one of "
                         f"{', '.join(ALGORITHMS)}. Got {algorithm!r} instead.")
    cls = _classes()[algorithm]
    given = {"n_learners": n_learners, "gamma": gamma, "learning_rate": learning_rate}
    kwargs = {k: v for k, v in given.items() if v is not None}
    if algorithm == "base":
        if weak_learner == "linear":
            return cls(**{k: v for k, v in kwargs.items() if k == "learning_rate"})
        return OnlinePerceptronLearner() if weak_learner == "perceptron" else OnlineStumpLearner()
    if algorithm == "bbm":
        kwargs["mode"] = mode
    elif algorithm != "agnostic":  # AdaBoost.OL(.S) have no edge parameter
        kwargs.pop("gamma", None)
    if algorithm in DRAWN_LABELS and prediction is not None:
        kwargs["prediction"] = prediction
    return cls(weak_learner=weak_learner, random_state=random_state, **kwargs)


def _settings(model) -> dict:
    """The model's public settings, for the output."""
    keys = ("n_learners", "gamma", "learning_rate", "mode", "prediction")
    return {k: getattr(model, k) for k in keys if isinstance(getattr(model, k, None),
                                                                (int, float, str))}


def _refuse_unused_flags(args) -> None:
    """A flag the chosen learner would ignore is an error, not a silent no-op."""
    unused = []
    if args.gamma is not None and library_default(args.algorithm, "gamma") is None:
        unused.append(("--gamma", f"--algorithm {args.algorithm}"))
    if args.learning_rate is not None and args.weak_learner != "linear":
        unused.append(("--learning-rate", f"--weak-learner {args.weak_learner}"))
    if args.mode is not None and args.algorithm != "bbm":
        unused.append(("--mode", f"--algorithm {args.algorithm}"))
    if unused:
        flag, context = unused[0]
        raise UserError(f"{flag} has no effect with {context}; remove it.")


def _plan(args, model, n_train: int, n_test: int, d: int):
    """The clock of the pass: it says how long a long pass will take and draws its bar
    (:class:`~dpboost.cli._online_estimate.PassClock`)."""
    from dpboost.cli._online_estimate import PassClock

    n_learners = _settings(model).get("n_learners", 1)
    what = f"{args.algorithm} with {n_learners} learners on {n_train} rows x {d} features"
    return PassClock("dpboost online", what, n_train, n_test)


def run(args) -> int:
    from dpboost.cli._online_estimate import refuse_if_too_large
    from dpboost.data import detect_format, load_dataset
    from dpboost.exceptions import PrivacyLeakWarning
    from dpboost.online.evaluate import progressive_val_score

    owner = "dpboost online"
    test_fraction = check_scalar(args.test_fraction, "test_fraction", owner, low=0.0, high=1.0,
                                 closed="left")
    if args.seed < 0:
        raise UserError(f"The 'seed' parameter of {owner} must be a non-negative int. "
                        f"Got {args.seed!r} instead.")
    _refuse_unused_flags(args)
    # build (and so validate) the model before reading the data
    try:
        model = make_model(args.algorithm, n_learners=args.n_learners, gamma=args.gamma,
                           learning_rate=args.learning_rate, weak_learner=args.weak_learner,
                           mode=args.mode or "weight",
                           prediction="mean" if args.metric == "log_loss" else None,
                           random_state=np.random.default_rng(
                               np.random.SeedSequence(args.seed, spawn_key=(1,))))
    except MemoryError:
        raise UserError(f"not enough memory for --algorithm {args.algorithm} with --n-learners "
                        f"{args.n_learners}; use fewer learners.") from None
    with warnings.catch_warnings():
        # nothing this command outputs is private (NOT_PRIVATE), so a loader's warning that
        # something was read from the data without privacy tells the user nothing new
        warnings.simplefilter("ignore", PrivacyLeakWarning)
        if args.label is not None and detect_format(args.data) == "libsvm":
            # as train says: ignored here, it would mislead (red team, session 36)
            raise UserError(f"--label {args.label}: {args.data} is a LIBSVM file, whose label "
                            "is always the first field of each line; remove --label.")
        try:
            X, y_raw = load_dataset(args.data, label=args.label)
        except ValueError as exc:  # online has no --schema: the loader's hint names train's
            raise UserError(str(exc).replace(
                ", or declare a schema (--schema).", ": 'dpboost online' reads numbers only "
                "(text columns are encoded by 'dpboost train --schema').")) from None
    y, classes = binary_labels(np.asarray(y_raw))
    n = len(y)
    n_test = round(test_fraction * n)
    if n - n_test < 1:
        raise UserError(f"{n} rows and --test-fraction {test_fraction} leave no training rows.")
    perm = np.random.default_rng(args.seed).permutation(n)  # bench_online.py's split
    train, test = perm[: n - n_test], perm[n - n_test:]
    refuse_if_too_large(model, X.shape[1])  # before the first row allocates the arrays
    clock = _plan(args, model, len(train), n_test, X.shape[1])
    start = time.perf_counter()
    try:
        pv = progressive_val_score(model, X[train], y[train], metric=args.metric,
                                   progress=clock)
        test_error = float(np.mean(model.predict(X[test]) != y[test])) if n_test else None
    except MemoryError:
        raise UserError(f"not enough memory for {X.shape[1]} features with --algorithm "
                        f"{args.algorithm} and {_settings(model).get('n_learners', 1)} "
                        f"learners; use fewer learners or features.") from None
    finally:  # an error's line is printed on a line of its own, not after the bar
        clock.close()
    seconds = time.perf_counter() - start
    settings = _settings(model)
    result = {"pv_loss": pv, "test_error": test_error, "n_train": int(n - n_test),
              "n_test": int(n_test), "seconds": seconds, "algorithm": args.algorithm,
              "settings": settings, "differentially_private": False, "privacy": NOT_PRIVATE}
    if args.json:
        print(json_text(result))
        return 0
    shown = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in settings.items()]
    shown.append(f"weak learner={args.weak_learner}")  # 'base' has no other settings
    print(f"dpboost online: {args.algorithm} ({', '.join(shown)}) on {args.data}")
    print(f"privacy: none. {NOT_PRIVATE}")
    print(f"labels: {classes[0]} -> -1, {classes[1]} -> +1")
    print(f"progressive-validation {args.metric} loss (train, n={n - n_test}): {pv:.4f}")
    if test_error is not None:
        print(f"test 0-1 error (held out, n={n_test}): {test_error:.4f}")
    print(f"seconds: {seconds:.2f}")
    return 0
