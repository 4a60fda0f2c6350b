"""A fitted halfspace's scores and probabilities, computed once for every holder of a model.

The estimators (:mod:`dpboost.halfspace_base`, :mod:`dpboost.estimator`) and a model loaded
from a file (:mod:`dpboost.model_io`) score rows here, so a model says the same about a row
whichever object holds it.  These functions are post-processing of released weights;
:func:`macro_roc_auc` also reads evaluation labels (the data owner's, shown to them only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, softmax

__all__ = ["MacroAUC", "class_probabilities", "largest_class", "linear_scores",
           "macro_roc_auc", "probabilities"]


def linear_scores(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``X @ w`` (``w`` of shape (d,) or (d, K)), finite for every finite row.

    A finite row near the float limit can overflow the product (``inf - inf`` is NaN, the
    wrong class); such rows are scored as ``m ((x / m) @ w)`` with ``m = max |x_j|``, which
    keeps the sign (an overflowing score becomes ``+-inf``, never NaN).

    Examples
    --------
    >>> linear_scores(np.array([[1.2e308, 1.2e308, -1.2e308]]), np.ones(3)).tolist()
    [1.2e+308]
    """
    with np.errstate(over="ignore", invalid="ignore"):
        scores = X @ w
    bad = ~np.isfinite(scores).reshape(len(X), -1).all(axis=1)  # rows (any class)
    if bad.any():
        m = np.abs(X[bad]).max(axis=1)
        with np.errstate(over="ignore"):
            part = (X[bad] / m[:, None]) @ w
            scores[bad] = part * (m[:, None] if part.ndim == 2 else m)
    return scores


def largest_class(X: np.ndarray, scores: np.ndarray, w: np.ndarray, b) -> np.ndarray:
    """The index of each row's largest score, ``scores = X @ w + b`` with ``w`` of shape (d, K).

    Where a row's scores overflowed, two classes can both be ``+inf`` and ``argmax`` would take
    the first; such rows are compared by ``(x / m) @ w + b / m`` (``m = max |x_j| > 0``), which
    orders the classes as the exact scores do.

    Examples
    --------
    >>> X = np.array([[1e308, 1e308]]); w = np.array([[1.0, 3.0], [2.0, 1.0]])
    >>> largest_class(X, linear_scores(X, w) + 0.0, w, np.zeros(2)).tolist()
    [1]
    """
    index = np.argmax(scores, axis=1)
    bad = ~np.isfinite(scores).all(axis=1)
    if bad.any():
        Xb = np.asarray(X, dtype=np.float64)[bad]
        m = np.abs(Xb).max(axis=1)[:, None]
        index[bad] = np.argmax((Xb / m) @ w + np.asarray(b, dtype=np.float64) / m, axis=1)
    return index


def probabilities(scores: np.ndarray) -> np.ndarray:
    """``[1 - p, p]`` with ``p = sigmoid(scores)`` for (n,) scores; the softmax of (n, K).

    An infinite class score gives a one-hot row, not NaN (``inf - inf``): the scores are
    clipped to the largest float first.

    Examples
    --------
    >>> probabilities(np.array([0.0])).tolist()
    [[0.5, 0.5]]
    >>> probabilities(np.array([[np.inf, 0.0, -np.inf]])).tolist()
    [[1.0, 0.0, 0.0]]
    """
    if scores.ndim == 2:  # multiclass (the fit folds its temperature into the scores)
        big = np.finfo(np.float64).max
        with np.errstate(over="ignore"):  # exp(-big - big) is 0, as it should be
            return softmax(np.clip(scores.astype(np.float64), -big, big), axis=1)
    p = expit(scores)
    return np.column_stack([1.0 - p, p])


def class_probabilities(X: np.ndarray, scores: np.ndarray, w: np.ndarray, b) -> np.ndarray:
    """:func:`probabilities` of (n, K) ``scores = X @ w + b``; a row whose scores overflowed is
    one-hot at its :func:`largest_class` (the softmax of two ``+inf`` would split the mass).

    Examples
    --------
    >>> X = np.array([[1e308, 1e308]]); w = np.array([[1.0, 3.0], [2.0, 1.0]])
    >>> class_probabilities(X, linear_scores(X, w), w, np.zeros(2)).tolist()
    [[0.0, 1.0]]
    """
    proba = probabilities(scores)
    bad = ~np.isfinite(scores).all(axis=1)
    if bad.any():
        proba[bad] = np.eye(scores.shape[1])[largest_class(X, scores, w, b)[bad]]
    return proba


@dataclass(frozen=True)
class MacroAUC:
    """A macro-averaged one-vs-rest ROC AUC and the classes it was averaged over.

    ``auc`` is None when no class could be scored (the labels hold one class).
    ``classes_scored`` of the model's ``n_classes`` had both positives and negatives in the
    labels; the other ``classes_left_out`` (absent from the labels, or the only class present)
    are not in the mean, so the figure is not comparable with one over every class.
    """

    auc: float | None
    classes_scored: int
    n_classes: int

    @property
    def classes_left_out(self) -> int:
        return self.n_classes - self.classes_scored

    def text(self) -> str:
        """One phrase for a metrics line, naming how many classes were left out."""
        if self.auc is None:
            return "ROC AUC: undefined (the labels hold one class)"
        over = (f"over the {self.n_classes} classes" if not self.classes_left_out else
                f"over the {self.classes_scored} of {self.n_classes} classes present in the "
                f"labels; {self.classes_left_out} left out")
        return f"ROC AUC {self.auc:.4f} (macro one-vs-rest {over})"


def macro_roc_auc(index: np.ndarray, scores: np.ndarray) -> MacroAUC:
    """The mean over classes of the one-vs-rest ROC AUC of ``scores[:, k]``, over the classes
    PRESENT in the labels.

    ``index`` holds each row's class as a position in the model's classes and ``scores`` is
    (n, K).  A class with no row in ``index`` has no positives, and a class holding every row
    no negatives: its AUC is undefined, so it is left out of the mean (where
    ``sklearn.metrics.roc_auc_score(..., multi_class="ovr")`` refuses such labels).  Over
    labels holding every class it is sklearn's macro one-vs-rest AUC of the same columns: pass
    the class probabilities (``predict_proba``, as ``dpboost predict`` does) to match
    ``roc_auc_score(y, proba, multi_class="ovr")``; raw scores rank each class's rows
    differently (0.875 against 0.908 on letter).  The result says how
    many classes were scored and left out; a mean over fewer classes than the model has can be
    higher or lower than one over all of them.

    Examples
    --------
    >>> scores = np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [1.0, 0.0, 0.0]])
    >>> result = macro_roc_auc(np.array([0, 1, 0]), scores)  # class 2 is absent
    >>> result.auc, result.classes_scored, result.classes_left_out
    (1.0, 2, 1)
    >>> result.text()[:57]
    'ROC AUC 1.0000 (macro one-vs-rest over the 2 of 3 classes'
    """
    from sklearn.metrics import roc_auc_score

    index = np.asarray(index)
    n, n_classes = len(index), scores.shape[1]
    aucs = [float(roc_auc_score(index == k, scores[:, k])) for k in range(n_classes)
            if 0 < np.count_nonzero(index == k) < n]
    return MacroAUC(float(np.mean(aucs)) if aucs else None, len(aucs), n_classes)
