"""Save and load a fitted private halfspace as JSON: the weights, classes and privacy report only.

The file holds exactly what is safe to publish after a private fit: the weight vector ``w``
(the output of the differentially private mechanism), the two class labels (public: passed
as ``classes=`` or named on the command line), and the privacy report (a function of public
parameters and the sample size).  Never diagnostics or training accuracy, which are
computed from the data without privacy.

Layout (format version 3)::

    {"format": "dpboost-halfspace", "format_version": 3, "dpboost_version": "0.1.0",
     "n_features": d, "coef": [...], "intercept": 0.0, "classes": [neg, pos],
     "privacy_report": {...} | null,
     "schema": {...} | null, "feature_names": [...] | null,
     "probability": "sigmoid" | null, "norm_bound": R | null}

Version 2 adds the schema of public facts the model was trained through
(:class:`dpboost.schema.Schema`: it says how to encode a raw table, so ``dpboost predict``
matches columns by name) and the names of the d features.  Both are public declarations, not
read from the data.  ``"probability": "sigmoid"`` records that the estimator's
``predict_proba`` is ``sigmoid(decision_function)`` (its privately calibrated Platt scaling is
already folded into ``coef`` and ``intercept``).  Version-1 files (without these) still load.

Version 3 adds ``norm_bound``, the public bound ``R`` the fit clipped its training rows to:
the loaded model clips each row to it before scoring, as the estimator does
(:func:`dpboost.clipping.clip_for_scoring`; post-processing of the released weights by a
fixed public per-row map, so no privacy cost).  It is null for a model without one (e.g.
re-saved from a version-2 file).  Files of versions 1 and 2 do not record the bound: they
load and score rows as given, as they did when written (re-train, or re-save from the fitted
estimator, to clip).

References
----------
Bun, Carmosino & Sorrell (2020), Theorem 24: the halfspace learner's output is a single
weight vector; post-processing it (saving, predicting) keeps its (epsilon, delta) guarantee.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
from sklearn.utils.metaestimators import available_if

from dpboost import __version__
from dpboost._io import atomic_write_text
from dpboost._validation import check_column_order
from dpboost.clipping import clip_for_scoring, scoring_norm_bound
from dpboost.exceptions import ModelFileError
from dpboost.scores import class_probabilities, largest_class, linear_scores, probabilities

__all__ = ["FORMAT", "FORMAT_VERSION", "HalfspaceModel", "in_declared_order", "load_model",
           "model_from_dict", "model_to_dict", "save_model"]

FORMAT = "dpboost-halfspace"
FORMAT_VERSION = 3
#: Versions this dpboost reads.
READABLE_VERSIONS = (1, 2, 3)
_KEYS = ("format", "format_version", "dpboost_version", "n_features", "coef", "intercept",
         "classes", "privacy_report")
_KEYS_V2 = ("schema", "feature_names")
_KEYS_V3 = ("norm_bound",)


def _jsonable(value):
    """numpy scalars/arrays to Python; non-finite floats to the strings 'inf', '-inf', 'nan'."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in (value.tolist() if isinstance(value, np.ndarray)
                                       else value)]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _unjson(value):
    if isinstance(value, dict):
        return {k: _unjson(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unjson(v) for v in value]
    if value in ("inf", "-inf", "nan"):
        return float(value)
    return value


class HalfspaceModel:
    """A loaded halfspace predictor: ``predict(X) = classes_[1] if clip(X) @ coef_ + intercept_
    > 0 else classes_[0]``, each row clipped to ``norm_bound_`` as the training rows were.

    Holds only ``coef_``, ``intercept_``, ``classes_``, ``n_features_in_``,
    ``privacy_report_`` (None for a non-private model), ``schema_`` (a
    :class:`~dpboost.schema.Schema` or None), ``feature_names_`` (a list or None) and
    ``norm_bound_`` (None for a file of format version 1 or 2: rows are then scored as given).
    Made by :func:`load_model`.

    A model saved with a schema takes the raw table too: a pandas DataFrame holding the
    schema's columns (any order, extra columns ignored) is encoded by
    :meth:`~dpboost.tabular.TabularEncoder.of_model`, as ``dpboost predict`` encodes a file.

    :func:`load_model` gives ``classes_`` sorted, as a fitted dpboost or scikit-learn
    estimator's are, so a saved and reloaded model predicts, scores and orders
    ``predict_proba`` columns as the fitted one did (and ``roc_auc_score(y, proba[:, 1])``
    keeps its meaning).  ``declared_classes_`` keeps the order the file was written in, the
    schema's or ``--classes``' (negative first), which ``dpboost predict`` uses for its
    ``score`` and ``probability`` columns (:func:`in_declared_order`).  Until session 26 a
    loaded model kept the declared order, so with classes ``["stayed", "churned"]``
    ``predict_proba(X)[:, 1]`` meant P(churned) before saving and P(stayed) after loading (a
    user trial).
    """

    def __init__(self, coef, intercept: float, classes, privacy_report: dict | None,
                 *, dpboost_version: str = __version__, schema=None,
                 feature_names=None, probability: str | None = None,
                 norm_bound: float | None = None, declared_classes=None) -> None:
        self.coef_ = np.asarray(coef, dtype=np.float64)
        # multiclass (K >= 3): coef_ (K, d) and intercept_ (K,); binary: (d,) and a float
        self.intercept_ = (np.asarray(intercept, dtype=np.float64) if self.coef_.ndim == 2
                           else float(intercept))
        self.classes_ = np.asarray(classes)
        self.declared_classes_ = self.classes_ if declared_classes is None else np.asarray(
            declared_classes)
        self.n_features_in_ = int(self.coef_.shape[-1])
        self.privacy_report_ = privacy_report
        self.dpboost_version = dpboost_version
        self.schema_ = schema
        self.feature_names_ = None if feature_names is None else list(feature_names)
        self.probability_ = probability
        self.norm_bound_ = None if norm_bound is None else float(norm_bound)

    def _check_X(self, X) -> np.ndarray:
        X = self._encoded(X)
        check_column_order(X, None if self._reads_tables() else self.feature_names_)
        try:
            X = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("X holds values that are not numbers: a model reads encoded "
                             "features" + (f"; this one was saved with a schema, so pass the "
                             f"raw table as a pandas DataFrame with the schema's columns "
                             f"{list(self.schema_.used_columns)[:10]}"
                             if self._reads_tables() else "; encode them as the training "
                             "rows were") + ".") from None
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-d array. Got shape {X.shape} instead.")
        if X.shape[1] != self.n_features_in_:
            raise ModelFileError(f"The model expects {self.n_features_in_} features; the data "
                                 f"has {X.shape[1]}.")
        if not np.all(np.isfinite(X)):
            bad = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
            raise ValueError(f"Input X contains NaN or infinity (first bad row: {bad}).")
        return clip_for_scoring(X, self.norm_bound_)  # as the training rows (post-processing)

    def _reads_tables(self) -> bool:
        return self.schema_ is not None and bool(getattr(self.schema_, "columns", None))

    def _encoded(self, X):
        """``X`` encoded by the model's schema when it is a raw table (a DataFrame holding
        every column the schema reads); anything else as given."""
        if not self._reads_tables() or not hasattr(X, "columns"):
            return X
        names = {str(c).strip() for c in X.columns}
        missing = [c for c in self.schema_.used_columns if c not in names]
        if missing and len(missing) < len(self.schema_.used_columns):  # a raw table, short
            raise ValueError(f"The data has no column {missing[0]!r}, which the model's schema "
                             f"reads ({len(missing)} of its columns missing).")
        if missing:  # none of them: encoded features
            return X
        from dpboost.tabular import TabularEncoder

        return TabularEncoder.of_model(self.schema_).transform(X)

    def decision_function(self, X) -> np.ndarray:
        """Signed score ``clip(X) @ coef_ + intercept_`` (rows clipped to ``norm_bound_``;
        as given when it is None); positive means ``classes_[1]`` (multiclass: one score per
        class, shape (n, K))."""
        return self._scores(self._check_X(X))

    def _scores(self, X: np.ndarray) -> np.ndarray:
        w = self.coef_.T if self.coef_.ndim == 2 else self.coef_
        return linear_scores(X, w) + self.intercept_  # as the estimator scores them

    def predict(self, X) -> np.ndarray:
        """Class labels: ``classes_[1]`` where the score is > 0, else ``classes_[0]``
        (multiclass: the class of the largest score)."""
        X = self._check_X(X)
        scores = self._scores(X)
        if scores.ndim == 2:  # (ties between overflowed scores: dpboost.scores)
            return self.classes_[largest_class(X, scores, self.coef_.T, self.intercept_)]
        return np.where(scores > 0, self.classes_[1], self.classes_[0])

    @available_if(lambda self: self.probability_ in ("sigmoid", "softmax"))
    def predict_proba(self, X) -> np.ndarray:
        """``[1 - p, p]`` with ``p = sigmoid(decision_function(X))`` (calibrated binary models);
        the softmax of the K scores for a multiclass model (their private temperature is
        folded into the saved coefficients)."""
        X = self._check_X(X)
        scores = self._scores(X)
        if scores.ndim == 2:
            return class_probabilities(X, scores, self.coef_.T, self.intercept_)
        return probabilities(scores)

    def score(self, X, y) -> float:
        """Accuracy on ``(X, y)`` (computed without privacy: do not publish it for training
        data)."""
        return float(np.mean(self.predict(X) == np.asarray(y)))

    def __sklearn_tags__(self):
        """A fitted classifier's tags, so scikit-learn's scorers (``get_scorer("roc_auc")``)
        and ``is_classifier`` take a loaded model as they take the estimator (they failed on
        the missing method: a user trial, session 26)."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=self.coef_.ndim == 2),
                    input_tags=InputTags())

    def __repr__(self) -> str:
        private = "private" if self.privacy_report_ is not None else "non-private"
        return (f"HalfspaceModel(n_features={self.n_features_in_}, "
                f"classes={self.classes_.tolist()}, {private})")


def _reordered(coef, intercept, order):
    """``coef`` and ``intercept`` with the classes taken in ``order`` (positions of the old
    classes).  Binary: swapping the two classes negates both (``sigmoid(-s) = 1 - sigmoid(s)``,
    so the probabilities follow; a score of exactly 0 then goes to the other class).
    Multiclass: the rows are permuted.  Post-processing of the released weights."""
    coef, intercept = np.asarray(coef, dtype=np.float64), np.asarray(intercept, np.float64)
    if coef.ndim == 1:
        return (-coef, -intercept) if list(order) == [1, 0] else (coef, intercept)
    return coef[order], intercept[order]


def in_declared_order(model: HalfspaceModel) -> HalfspaceModel:
    """``model`` with ``classes_`` in its ``declared_classes_`` order (the file's: the schema's
    or ``--classes``', negative first), as ``dpboost predict`` writes its ``score`` and
    ``probability`` columns for the declared positive class; ``model`` itself when the two
    orders agree."""
    classes = model.classes_.tolist()
    declared = model.declared_classes_.tolist()
    if declared == classes:
        return model
    coef, intercept = _reordered(model.coef_, model.intercept_,
                                 [classes.index(c) for c in declared])
    return HalfspaceModel(coef, intercept if coef.ndim == 2 else float(intercept), declared,
                          model.privacy_report_, dpboost_version=model.dpboost_version,
                          schema=model.schema_, feature_names=model.feature_names_,
                          probability=model.probability_, norm_bound=model.norm_bound_)


def _pipeline_parts(pipeline) -> tuple:
    """``(model, schema, feature names)`` of a fitted ``Pipeline(TabularEncoder, model)``.

    ``dpboost predict`` can repeat a :class:`~dpboost.tabular.TabularEncoder` from the schema
    alone (public), so that pipeline is saved as its model with the encoder's schema and
    feature names; any other step in front of the model could not be repeated, and is refused.
    """
    from dpboost.tabular import TabularEncoder

    steps = [step for _, step in pipeline.steps if step not in (None, "passthrough")]
    if (len(steps) != 2 or not isinstance(steps[0], TabularEncoder)
            or getattr(steps[0], "schema_", None) is None):
        names = [type(step).__name__ for step in steps]
        raise ValueError(f"save_model saves a Pipeline only as (TabularEncoder, model), fitted: "
                         f"predict can repeat nothing else in front of the model. Got the steps "
                         f"{names}; save the model itself with save_model(model, path, schema=, "
                         "feature_names=) and repeat the other steps yourself.")
    encoder = steps[0]
    return steps[1], encoder.schema_, encoder.get_feature_names_out().tolist()


def _in_label_order(content: dict, declared_classes=None) -> dict:
    """The model with its classes in the schema's declared label order (else in
    ``declared_classes``, the estimator's ``classes=``), when that differs.

    A scikit-learn estimator sorts ``classes_`` (``"Malignant" < "benign"``), while ``dpboost
    predict`` reads a labelled file's classes in the schema's order.  Reversing the classes of
    a binary model negates ``coef`` and ``intercept`` (``sigmoid(-s) = 1 - sigmoid(s)``, so the
    probabilities follow); a multiclass model permutes its rows.  Post-processing of the
    released weights; the same predictions.
    """
    label = (content.get("schema") or {}).get("label")
    declared = [str(c) for c in (label or {}).get("classes") or declared_classes or []]
    classes = [str(c) for c in content["classes"]]
    if not declared or declared == classes or sorted(declared) != sorted(classes):
        return content
    order = [classes.index(c) for c in declared]
    coef, intercept = _reordered(content["coef"], content["intercept"], order)
    return {**content, "coef": coef.tolist(), "intercept": intercept.tolist(),
            "classes": [content["classes"][j] for j in order]}


def _released_model(estimator):
    """The model a search releases, or ``estimator`` itself when it is not a search."""
    if getattr(estimator, "coef_", None) is not None:
        return estimator
    best = getattr(estimator, "best_estimator_", None)
    if best is None:
        return estimator  # not fitted, or not a search: model_to_dict says which
    if "selected_by" in (getattr(best, "privacy_report_", None) or {}):
        return best  # a PrivateSelection: its best run's report is the search's
    raise ValueError(f"{type(estimator).__name__} is a search, not a model: save its "
                     "best_estimator_, whose privacy report prices one fit, not the search.")


def model_to_dict(estimator, *, schema=None, feature_names=None, classes=None) -> dict:
    """The JSON-ready content of a fitted halfspace estimator (w, classes, privacy report).

    Parameters
    ----------
    estimator : fitted estimator with ``coef_`` and ``classes_``
    schema : Schema, dict or None
        The public schema the features were encoded with (default: the estimator's
        ``schema_`` if it has one).
    feature_names : list of str or None
        Names of the d features (default: ``feature_names_`` if the estimator has them).
    classes : list or None
        The two public labels to write instead of ``estimator.classes_`` (used when the
        estimator was trained on label positions 0/1, e.g. from a schema), negative first.

    A fitted ``Pipeline(TabularEncoder, model)`` is saved as its model with the encoder's
    schema and feature names (any other pipeline is refused: predict could not repeat its
    steps).  When the schema declares the label's classes in another order than the model's
    ``classes_`` (scikit-learn sorts them), the model is written in the schema's order.
    A fitted :class:`~dpboost.selection.PrivateSelection` is saved as its ``best_estimator_``,
    whose report states the search's cost (the release's); any other search (an object with a
    ``best_estimator_`` but no ``coef_``, e.g. ``GridSearchCV``) is refused, since its best
    model's report prices one fit, not the search.

    Raises ``ValueError`` if the estimator is not fitted or its weights are not finite.
    """
    if hasattr(estimator, "steps") and hasattr(estimator, "named_steps"):  # a Pipeline
        estimator, piped_schema, piped_names = _pipeline_parts(estimator)
        schema = piped_schema if schema is None else schema
        feature_names = piped_names if feature_names is None else feature_names
    if feature_names is None:  # a DataFrame's columns, as scikit-learn keeps them (a search's)
        feature_names = getattr(estimator, "feature_names_in_", None)
    estimator = _released_model(estimator)
    if isinstance(estimator, HalfspaceModel):  # a loaded model is written as it was read
        estimator = in_declared_order(estimator)
    declared = classes
    coef = getattr(estimator, "coef_", None)
    classes = getattr(estimator, "classes_", None)
    if coef is None or classes is None:
        raise ValueError(f"{type(estimator).__name__} is not fitted: call fit before "
                         "save_model.")
    coef = np.asarray(coef, dtype=np.float64)
    multiclass = coef.ndim == 2
    coef = coef if multiclass else coef.ravel()
    if not np.all(np.isfinite(coef)):
        raise ValueError("The model's weights contain NaN or infinity; refusing to save.")
    if schema is None:
        schema = getattr(estimator, "schema_", None)
    if feature_names is None:  # a loaded model's
        feature_names = getattr(estimator, "feature_names_", None)
    # a draft schema's values read from the data are a release outside every mechanism:
    # the report says so, as it does for labels inferred from y (the file's schema keeps
    # the marks too)
    draft = schema.draft_marks() if hasattr(schema, "draft_marks") else []
    if schema is not None and not isinstance(schema, dict):
        schema = schema.to_dict()
    if feature_names is not None:
        feature_names = [str(n) for n in feature_names]
        if len(feature_names) != coef.shape[-1]:
            raise ValueError(f"{len(feature_names)} feature names for {coef.shape[-1]} "
                             "weights.")
    classes = np.asarray(declared if declared is not None else classes)
    expected = (coef.shape[0],) if multiclass else (2,)
    if classes.shape != expected:
        raise ValueError(f"Expected {expected[0]} classes, got {classes.tolist()!r}.")
    intercept = getattr(estimator, "intercept_", 0.0)
    report = getattr(estimator, "privacy_report_", None)
    if report is not None and draft:
        report = {**report, "schema_from_data": list(draft)}
    # the positive class as declared (classes=["malignant", "benign"]: "benign"), which
    # predict scores, also without a schema (a user trial, session 26)
    by_param = getattr(estimator, "classes", None) if declared is None else None
    return _in_label_order({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "dpboost_version": __version__,
        "n_features": int(coef.shape[-1]),
        "coef": _jsonable(coef),
        "intercept": (_jsonable(np.asarray(intercept, dtype=np.float64)) if multiclass
                      else float(intercept)),
        "classes": _jsonable(classes),
        "privacy_report": None if report is None else _jsonable(dict(report)),
        "schema": schema,
        "feature_names": feature_names,
        "probability": (None if not hasattr(estimator, "predict_proba") else
                        "softmax" if multiclass else "sigmoid"),
        "norm_bound": scoring_norm_bound(estimator),  # public: the fit's declared bound
    }, None if by_param is None else list(np.asarray(by_param, dtype=object).tolist()))


def _is_number(value) -> bool:
    """A JSON number (``bool`` excluded; strings such as ``"1e5"`` are not numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_positive_finite(value) -> bool:
    """A JSON number that is finite and > 0 as a float (an integer beyond float64 is not)."""
    if not _is_number(value):
        return False
    try:
        number = float(value)
    except OverflowError:
        return False
    return math.isfinite(number) and number > 0


def _numbers(value, ndim: int) -> np.ndarray | None:
    """``value`` as a float64 array of ``ndim`` dimensions if it is a (nested) list of JSON
    numbers, rectangular and all finite; else None."""
    def numeric(v, depth):
        if depth == 0:
            return _is_number(v)
        return isinstance(v, list) and all(numeric(u, depth - 1) for u in v)

    if not numeric(value, ndim):
        return None
    try:
        array = np.array(value, dtype=np.float64)
    except (ValueError, OverflowError):  # ragged rows; an integer beyond float64
        return None
    if array.ndim != ndim or not np.all(np.isfinite(array)):
        return None
    return array


def _is_label(value) -> bool:
    """A class label: a string, a bool or a finite JSON number (not null, a list or an object)."""
    return isinstance(value, (str, bool)) or (_is_number(value) and math.isfinite(value))


def model_from_dict(content: object, source: str = "model") -> HalfspaceModel:
    """Rebuild a :class:`HalfspaceModel` from :func:`model_to_dict` output; ModelFileError if
    anything is missing, of another format version, or inconsistent.

    Every field is checked, so a tampered or hand-edited file fails here with one line rather
    than predicting silently: ``coef`` and ``intercept`` must be finite JSON numbers (not
    strings such as ``"nan"`` or ``"1e5"``), ``classes`` distinct labels, ``feature_names``
    distinct strings, ``probability`` match the kind of model (``"sigmoid"`` for a binary
    model, ``"softmax"`` for a multiclass one, or null), and ``norm_bound`` (version 3) be a
    finite number > 0 or null.
    """
    if not isinstance(content, dict):
        raise ModelFileError(f"{source} is not a dpboost model file (top level is not an "
                             "object).")
    if content.get("format") != FORMAT:
        raise ModelFileError(f"{source} is not a dpboost model file (format "
                             f"{content.get('format')!r}, expected {FORMAT!r}).")
    version = content.get("format_version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise ModelFileError(f"{source} has model format version "
                             f"{content.get('format_version')!r} (written by dpboost "
                             f"{content.get('dpboost_version')!r}); this dpboost {__version__} "
                             f"reads versions {', '.join(map(str, READABLE_VERSIONS))}.")
    missing = [k for k in _KEYS + (_KEYS_V2 if version >= 2 else ())
               + (_KEYS_V3 if version >= 3 else ()) if k not in content]
    if missing:
        raise ModelFileError(f"{source} is missing the key(s) {', '.join(missing)}.")
    if not isinstance(content["dpboost_version"], str):
        raise ModelFileError(f"{source}: 'dpboost_version' must be a string. Got "
                             f"{content['dpboost_version']!r} instead.")
    d = content["n_features"]
    if not isinstance(d, int) or isinstance(d, bool) or d < 1:
        raise ModelFileError(f"{source}: 'n_features' must be a positive integer. Got {d!r} "
                             "instead.")
    raw_coef = content["coef"]
    multiclass = isinstance(raw_coef, list) and bool(raw_coef) and isinstance(raw_coef[0], list)
    coef = _numbers(raw_coef, 2 if multiclass else 1)
    intercept = _numbers(content["intercept"], 1) if multiclass else (
        float(content["intercept"]) if _is_number(content["intercept"]) else None)
    if coef is None or intercept is None or not np.all(np.isfinite(intercept)):
        raise ModelFileError(f"{source}: 'coef' and 'intercept' must be numbers (finite JSON "
                             "numbers, not strings; 'intercept' one number, or one per class "
                             "for a multiclass model).")
    if coef.shape[-1] != d:
        raise ModelFileError(f"{source}: 'coef' must hold n_features = {d!r} finite numbers "
                             "(per class).")
    classes = content["classes"]
    n_classes = coef.shape[0] if multiclass else 2
    if not isinstance(classes, list) or len(classes) != n_classes or (
            multiclass and (n_classes < 3 or np.shape(intercept) != (n_classes,))):
        raise ModelFileError(f"{source}: 'classes' must be a list of {n_classes} labels "
                             "(one row of 'coef' and one 'intercept' per class when there are "
                             "three or more).")
    # distinct as read: numpy turns a mix of strings and numbers into strings, so ["1", 1]
    # (two labels in JSON) would predict "1" for both classes
    if not all(_is_label(c) for c in classes) or len(set(classes)) != n_classes or (
            np.unique(np.asarray(classes)).size != n_classes
            or len({isinstance(c, str) for c in classes}) > 1):
        raise ModelFileError(f"{source}: 'classes' must be {n_classes} distinct labels "
                             f"(all strings or all numbers). Got {classes!r} instead.")
    report = content["privacy_report"]
    if report is not None and not isinstance(report, dict):
        raise ModelFileError(f"{source}: 'privacy_report' must be an object or null.")
    schema, names = content.get("schema"), content.get("feature_names")
    if schema is not None:
        from dpboost.schema import Schema

        try:
            schema = Schema.from_dict(schema)
        except (TypeError, ValueError) as exc:
            raise ModelFileError(f"{source}: its schema is invalid: {exc}") from None
    if names is not None and (not isinstance(names, list) or len(names) != coef.shape[-1]
                              or not all(isinstance(n, str) for n in names)):
        raise ModelFileError(f"{source}: 'feature_names' must list n_features = "
                             f"{coef.shape[-1]} names (strings).")
    if names is not None and len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise ModelFileError(f"{source}: 'feature_names' must be distinct (each names one "
                             f"column); {repeated!r} repeated.")
    probability = content.get("probability")
    allowed = "softmax" if multiclass else "sigmoid"
    if probability not in (None, allowed):
        raise ModelFileError(f"{source}: 'probability' must be \"{allowed}\" or null for a "
                             f"{'multiclass' if multiclass else 'binary'} model. Got "
                             f"{probability!r} instead.")
    bound = content.get("norm_bound") if version >= 3 else None
    if bound is not None and not _is_positive_finite(bound):
        raise ModelFileError(f"{source}: 'norm_bound' must be a finite number > 0 (the bound "
                             "rows are clipped to before scoring) or null. Got "
                             f"{bound!r} instead.")
    order = np.argsort(np.asarray(classes), kind="stable")  # all strings or all numbers
    coef, intercept = _reordered(coef, intercept, order) if (
        order.tolist() != list(range(n_classes))) else (coef, intercept)
    return HalfspaceModel(coef, intercept if multiclass else float(intercept),
                          [classes[j] for j in order],
                          None if report is None else _unjson(report),
                          dpboost_version=content["dpboost_version"], schema=schema,
                          feature_names=names, probability=probability, norm_bound=bound,
                          declared_classes=classes)


def save_model(estimator, path: str | os.PathLike, *, schema=None, feature_names=None,
               classes=None) -> None:
    """Write a fitted halfspace classifier to ``path`` as JSON, atomically.

    Only the weights, the classes, the privacy report and the public schema and feature names
    are written (see the module docstring); diagnostics and training accuracy never are.

    Parameters
    ----------
    estimator : fitted PrivateHalfspaceClassifier (or any estimator with ``coef_`` and
        ``classes_``; a non-private one is saved with ``privacy_report: null``), or a fitted
        PrivateSelection (saved as its ``best_estimator_``, with the search's report)
    path : str or path-like
    schema, feature_names, classes
        See :func:`model_to_dict`.

    References
    ----------
    Bun, Carmosino & Sorrell (2020), Theorem 24 (the released output is the weight vector).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> m = HalfspaceModel([1.0, -2.0], 0.0, [-1, 1], None)
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.json"
    >>> save_model(m, p)
    >>> load_model(p).predict([[1.0, 0.0], [0.0, 1.0]]).tolist()
    [1, -1]
    """
    content = model_to_dict(estimator, schema=schema, feature_names=feature_names,
                            classes=classes)
    text = json.dumps(content, indent=2, allow_nan=False) + "\n"
    atomic_write_text(path, text)


def load_model(path: str | os.PathLike) -> HalfspaceModel:
    """Read a model written by :func:`save_model`.

    Raises
    ------
    ModelFileError
        Truncated or non-JSON file, another format or format version, missing keys.
    OSError
        The file cannot be read.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        content = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path} is not a complete JSON model file (truncated or "
                             f"corrupt: {exc.msg} at line {exc.lineno}).") from None
    return model_from_dict(content, source=str(path))
