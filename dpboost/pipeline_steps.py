"""A scikit-learn ``Pipeline`` step that learned from the data before a private fit.

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

__all__ = ["learned_steps", "warn_if_after_learned_steps"]

_warned: weakref.WeakSet = weakref.WeakSet()


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
        if isinstance(pipeline, Pipeline) and pipeline not in _warned:
            learned = learned_steps(pipeline, estimator)
            if learned:
                _warned.add(pipeline)
                warnings.warn(
                    f"{type(estimator).__name__} is fitted after {', '.join(learned)} in a "
                    "Pipeline: that step learned from the rows without noise (a scaler's "
                    "means and scales depend on every row), so the model is outside the "
                    "(target_epsilon, target_delta) guarantee. Scale by public constants "
                    "(FunctionTransformer, or a TabularEncoder schema) instead.",
                    PrivacyLeakWarning, stacklevel=4)
        frame = frame.f_back
