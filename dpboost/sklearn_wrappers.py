"""What a scikit-learn wrapper around a private fit costs, said when it fits one.

:func:`warn_if_in_search`: a search, cross-validation, calibration, an ensemble or
self-training fits clones again and again, and every fit spends the whole budget
(:class:`BudgetPerFitWarning`).

:func:`warn_if_after_learned_steps`: a ``Pipeline`` step before the private estimator that
learned from the data.

``Pipeline(StandardScaler(), PrivateHalfspaceClassifier(...))`` fits the scaler on the rows
without noise: its means and scales depend on every row, so one row moves the whole scaled
table and the model's guarantee no longer holds (red team, session 37: replacing one row
with 1e6 moved accuracy on the other 1,999 rows from 1.0 to 0.504; the report still said
epsilon 1).  :func:`warn_if_after_learned_steps` says so once per pipeline, when a private
estimator is fitted by one.  Steps that read nothing from the rows pass: ``"passthrough"``,
:class:`~dpboost.tabular.TabularEncoder` (a schema of public facts), ``FunctionTransformer``
(a function the user wrote), and a ``ColumnTransformer`` or ``Pipeline`` of those.
"""

from __future__ import annotations

import sys
import warnings
import weakref

from dpboost.exceptions import PrivacyLeakWarning
from dpboost.privacy_report import fit_warnings_withheld

__all__ = ["BudgetPerFitWarning", "learned_steps", "warn_if_after_learned_steps",
           "warn_if_in_search"]

#: The pipelines already warned about (:func:`warn_if_after_learned_steps`).
_warned_pipelines: weakref.WeakSet = weakref.WeakSet()


def _reads_nothing(step) -> bool:
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    from dpboost.tabular import TabularEncoder

    if step is None or step in ("passthrough", "drop"):
        return True
    if isinstance(step, (TabularEncoder, FunctionTransformer)):
        return True
    if isinstance(step, ColumnTransformer):
        return all(_reads_nothing(t) for _, t, _ in step.transformers) and _reads_nothing(
            step.remainder)
    if isinstance(step, Pipeline):
        return all(_reads_nothing(s) for _, s in step.steps)
    return False


def learned_steps(pipeline, estimator) -> list[str]:
    """The names of ``pipeline``'s steps before ``estimator`` that learn from the rows."""
    names = []
    for name, step in pipeline.steps:
        if step is estimator:
            return names
        if not _reads_nothing(step):
            names.append(f"{name} ({type(step).__name__})")
    return []  # not a step of this pipeline


def warn_if_after_learned_steps(estimator) -> None:
    """Warn (``PrivacyLeakWarning``, once per pipeline) when a scikit-learn ``Pipeline`` on
    the call stack fits ``estimator`` after a step that learned from the rows."""
    from sklearn.pipeline import Pipeline

    frame = sys._getframe(1)
    while frame is not None:
        pipeline = frame.f_locals.get("self")
        if isinstance(pipeline, Pipeline) and pipeline not in _warned_pipelines:
            learned = learned_steps(pipeline, estimator)
            if learned:
                _warned_pipelines.add(pipeline)
                warnings.warn(
                    f"{type(estimator).__name__} is fitted after {', '.join(learned)} in a "
                    "Pipeline: that step learned from the rows without noise (a scaler's "
                    "means and scales depend on every row), so the model is outside the "
                    "(target_epsilon, target_delta) guarantee. Scale by public constants "
                    "(FunctionTransformer, or a TabularEncoder schema) instead.",
                    PrivacyLeakWarning, stacklevel=4)
        frame = frame.f_back


class BudgetPerFitWarning(UserWarning):
    """Each fit of a private estimator spends its whole privacy budget."""


#: Where scikit-learn fits an estimator's clones again and again: model selection (searches,
#: ``cross_val_score``), calibration (``CalibratedClassifierCV``: one fit per fold), ensembles
#: and the one-vs-rest wrappers.
_REFITTERS = ("sklearn/model_selection/", "sklearn/calibration.py", "sklearn/ensemble/",
              "sklearn/multiclass.py", "sklearn/multioutput.py", "sklearn/feature_selection/",
              "sklearn/semi_supervised/")  # self-training refits on its own pseudo-labels

#: The searches (or the estimators a ``cross_val_score`` was given) already warned about.
_warned: weakref.WeakSet = weakref.WeakSet()


class _Unkeyed:
    """The key of a refitting frame without ``self`` or ``estimator``: warned once."""


_UNKEYED = _Unkeyed()


def warn_if_in_search(owner: str) -> None:
    """Warn once per search when scikit-learn fits a private estimator repeatedly.

    The search is the outermost scikit-learn object on the call stack that refits (its
    ``self``; for a function such as ``cross_val_score``, the ``estimator`` it was given), so a
    second ``GridSearchCV`` warns again, and a search's many fits warn once.  Until session 26
    the warning came once per process, and ``CalibratedClassifierCV`` (a fit per fold) never
    warned (a user trial).  Every private fit calls this, so it also runs the other check of
    the scikit-learn wrapper it runs in: a ``Pipeline`` step before it that learned from the
    rows (:func:`warn_if_after_learned_steps`).
    """
    warn_if_after_learned_steps(sys._getframe(1).f_locals.get("self"))  # a Pipeline's scaler
    frame, key, where = sys._getframe(1), None, None
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        found = next((r for r in _REFITTERS if r in name), None)
        if found is not None:  # keep the outermost
            key = frame.f_locals.get("self", frame.f_locals.get("estimator"))
            where = found
        frame = frame.f_back
    if where is None or fit_warnings_withheld():  # a PrivateSelection's run: it warned
        return
    key = _UNKEYED if key is None else key
    try:
        if key in _warned:
            return
        _warned.add(key)
    except TypeError:  # an object that cannot be weakly referenced: warned at each fit
        pass
    fix = ("put the settings in its candidates instead" if owner == "PrivateSelection"
           else "Use dpboost.selection.PrivateSelection to tune within one budget")
    module = where.strip("/").removesuffix(".py").replace("/", ".")
    warnings.warn(
        f"{owner} is being fitted repeatedly by scikit-learn ({module}): every fit spends "
        "the whole (target_epsilon, target_delta) budget and the choice among them is "
        "not private, so the total cost is at least the composition of all fits; and what "
        "the wrapper itself computes from the data (a calibrator fitted on the labels, a "
        "bootstrap that repeats a row, pseudo-labels) is outside any guarantee. "
        f"{fix[0].upper()}{fix[1:]}.",
        BudgetPerFitWarning, stacklevel=3)
