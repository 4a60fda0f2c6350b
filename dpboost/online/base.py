"""The online-learner protocol shared by primitives, weak learners and boosters.

Labels are ``-1`` or ``+1``.  ``predict_one`` returns a real number in ``[-1, 1]`` whose sign is
the predicted label (a classifier that only outputs labels returns exactly ``-1.0`` or
``+1.0``).  ``learn_one`` takes an importance ``weight >= 0`` (Beygelzimer, Kale & Luo 2015,
Section 2.1): a weight of ``0`` leaves the learner exactly as it was (no statistic, counter or
random draw moves), as if the example had not been seen, and weights above :data:`MAX_WEIGHT`
are refused.  The batch verbs are *defined* as loops of the single-example verbs; a subclass
may override them with a faster equivalent only if a test pins that the results agree.
``learn_one`` / ``predict_one`` take one example ``x``, a 1-D array with at least one feature;
``partial_fit`` / ``predict`` / ``decision_function`` take a 2-D ``X`` of shape
``(n_examples, n_features)``.  A learner whose predictions are random draws them from its own
stream (:func:`prediction_stream`), so predicting never changes what the learner learns.

References
----------
.. [1] Beygelzimer, Kale & Luo, "Optimal and Adaptive Algorithms for Online Boosting",
   ICML 2015, Section 2 (weak online learners with importance weights).
"""

from __future__ import annotations

import copy
import hashlib
import numbers
from typing import Protocol, runtime_checkable

import numpy as np

from dpboost._validation import check_scalar

__all__ = ["MAX_WEIGHT", "OnlineClassifier", "OnlineLearner", "check_features", "check_label",
           "check_rows", "check_weight", "independent_streams", "prediction_stream"]

#: Largest importance weight accepted.  The linear weak learners' AdaGrad accumulators sum
#: squared weighted gradients: near ``1e154`` one square overflows float64, the accumulator
#: becomes ``inf`` and every later step is ``0`` (``sample_weight=1e300`` on one row made
#: OnlineBBM, AdaBoostOL and OnlineAgnosticBoost predict +1 on every row, silently).  At
#: ``1e100`` a square is at most ``1e200``, so the sums stay finite for ``1e108`` examples; a
#: stump's counts for ``1e208`` examples, and one Perceptron step for features below ``1e208``.
#: A weight near the bound still dominates what follows (AdaGrad's later steps shrink by that
#: factor): that is the weighted objective, in which such a row outweighs any number of unit
#: rows, not an overflow.
MAX_WEIGHT = 1e100


def check_label(y: object, owner: str) -> float:
    """``y`` as a float if it is ``-1`` or ``+1``; ``TypeError`` for a non-number or a bool.

    Examples
    --------
    >>> check_label(-1, "Perceptron.learn_one")
    -1.0
    >>> check_label(0.0, "Perceptron.learn_one")
    Traceback (most recent call last):
    ...
    ValueError: The 'y' parameter of Perceptron.learn_one must be -1 or +1. Got 0.0 instead.
    """
    if type(y) is float and (y == 1.0 or y == -1.0):  # the hot path of partial_fit
        return y
    message = f"The 'y' parameter of {owner} must be -1 or +1. Got {y!r} instead."
    if isinstance(y, (bool, np.bool_)) or not isinstance(y, numbers.Real):
        raise TypeError(message)
    if y != 1 and y != -1:
        raise ValueError(message)
    return float(y)


def check_weight(weight: object, owner: str) -> float:
    """The importance ``weight`` as a float in ``[0, MAX_WEIGHT]`` (NaN and inf are refused).

    Examples
    --------
    >>> check_weight(2, "Perceptron.learn_one")
    2.0
    >>> check_weight(1e300, "Perceptron.learn_one")
    Traceback (most recent call last):
    ...
    ValueError: The 'weight' parameter of Perceptron.learn_one must be a float in [0, 1e+100]. \
Got 1e+300 instead.
    """
    if type(weight) is float and 0.0 <= weight <= MAX_WEIGHT:  # the hot path
        return weight
    return check_scalar(weight, "weight", owner, low=0.0, high=MAX_WEIGHT, closed="both")


def check_features(x: object, n_features: int | None, owner: str) -> np.ndarray:
    """``x`` as a finite 1-D float array with ``n_features`` entries (at least one if ``None``).

    A 2-D ``x`` is refused rather than flattened: ``[[1, 2], [3, 4]]`` is two examples, not one
    example with four features.

    Examples
    --------
    >>> check_features([[1, 2], [3, 4]], None, "Perceptron.learn_one")
    Traceback (most recent call last):
    ...
    ValueError: The 'x' parameter of Perceptron.learn_one must be one example: a 1-D array \
with at least one feature. Got an array of shape (2, 2) instead (use partial_fit or predict \
for several rows).
    """
    try:
        x = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"The 'x' parameter of {owner} must be a 1-D array of numbers. Got {x!r} instead."
        ) from None
    if x.ndim != 1 or x.shape[0] == 0:
        hint = " (use partial_fit or predict for several rows)" if x.ndim == 2 else ""
        raise ValueError(
            f"The 'x' parameter of {owner} must be one example: a 1-D array with at least one "
            f"feature. Got an array of shape {x.shape} instead{hint}."
        )
    if n_features is not None and x.shape[0] != n_features:
        raise ValueError(
            f"x has {x.shape[0]} features, but this learner was started with "
            f"{n_features} features."
        )
    if not np.isfinite(x).all():
        raise ValueError(
            f"The 'x' parameter of {owner} must be finite (no NaN or infinity). Got {x!r} instead."
        )
    return x


def check_rows(X: object, owner: str) -> np.ndarray:
    """``X`` as a 2-D float array of shape ``(n_examples, n_features)``, as scikit-learn reads it.

    A 1-D ``X`` is refused: ``[1, 2]`` could be two one-feature rows or one two-feature row.

    Examples
    --------
    >>> check_rows([1.0, 2.0], "Perceptron.partial_fit")
    Traceback (most recent call last):
    ...
    ValueError: The 'X' parameter of Perceptron.partial_fit must be a 2-D array of shape \
(n_examples, n_features). Got a 1-D array of shape (2,) instead: reshape it with \
X.reshape(-1, 1) if it holds a single feature or X.reshape(1, -1) if it is a single example.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(
            f"The 'X' parameter of {owner} must be a 2-D array of shape (n_examples, "
            f"n_features). Got a {X.ndim}-D array of shape {X.shape} instead: reshape it with "
            "X.reshape(-1, 1) if it holds a single feature or X.reshape(1, -1) if it is a "
            "single example."
        )
    return X


def prediction_stream(rng: np.random.Generator) -> np.random.Generator:
    """An independent child of ``rng`` for a learner's random predictions.

    ``rng.spawn`` moves only the parent's spawn counter, never the state that learning draws
    from, so a learner's training is the same whether or not it predicts in between (the
    progressive validation of :func:`~dpboost.online.evaluate.progressive_val_score` predicts
    before every update) and ``partial_fit`` with a given ``random_state`` is reproducible.
    """
    try:
        return rng.spawn(1)[0]
    except (TypeError, ValueError):  # a bit generator without a SeedSequence: seed the child
        # from a digest of the state, which (unlike a draw) leaves the parent's stream alone
        digest = hashlib.sha256(repr(rng.bit_generator.state).encode()).digest()
        return np.random.default_rng(int.from_bytes(digest, "little"))


def independent_streams(rng: np.random.Generator, n: int) -> list[np.random.Generator]:
    """``n`` independent children of (a copy of) ``rng``, which is itself left as it was.

    ``Generator.spawn`` on a copy: the children depend on ``rng``'s seed only, so a booster's
    weak learners copied from one prototype are reproducible and mutually independent.  A bit
    generator without a ``SeedSequence`` seeds child ``i`` from a digest of its state and ``i``.
    """
    try:
        return copy.deepcopy(rng).spawn(n)
    except (TypeError, ValueError):
        state = repr(rng.bit_generator.state)
        return [np.random.default_rng(int.from_bytes(
            hashlib.sha256(f"{state}/{i}".encode()).digest(), "little")) for i in range(n)]


@runtime_checkable
class OnlineLearner(Protocol):
    """Anything with ``predict_one`` and ``learn_one`` (structural type)."""

    def predict_one(self, x: np.ndarray) -> float: ...

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None: ...


class OnlineClassifier:
    """Base class giving the batch verbs as loops of ``predict_one`` / ``learn_one``."""

    def predict_one(self, x: np.ndarray) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def learn_one(self, x: np.ndarray, y: float, weight: float = 1.0) -> None:  # pragma: no cover
        raise NotImplementedError

    def partial_fit(self, X, y, sample_weight=None) -> OnlineClassifier:
        """Learn from the rows of ``X`` in order: exactly the loop of :meth:`learn_one`."""
        X = check_rows(X, f"{type(self).__name__}.partial_fit")
        y = np.asarray(y, dtype=float)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if X.ndim == 0 or y.ndim != 1 or len(X) != len(y) or w.shape != y.shape:
            # zip would silently stop at the shortest
            raise ValueError(
                f"The 'X', 'y' and 'sample_weight' parameters of {type(self).__name__}."
                f"partial_fit must have one row, label and weight per example. Got shapes "
                f"{X.shape}, {y.shape} and {w.shape} instead."
            )
        self._check_batch(X, y, w, f"{type(self).__name__}.partial_fit")
        for xi, yi, wi in zip(X, y, w):
            self.learn_one(xi, float(yi), float(wi))
        return self

    @staticmethod
    def _check_batch(X: np.ndarray, y: np.ndarray, w: np.ndarray, owner: str) -> None:
        """Refuse a batch with a non-finite row, a label other than -1/+1 or a weight outside
        ``[0, MAX_WEIGHT]`` before any row is learned (red team s34: a NaN at row 5 raised
        after rows 0-4 had updated the model), in the words ``learn_one`` would use."""
        ok = np.isfinite(X).all(axis=1) & ((y == 1.0) | (y == -1.0))
        ok &= (w >= 0.0) & (w <= MAX_WEIGHT)  # False for NaN
        bad = np.flatnonzero(~ok)
        if bad.size:
            i = int(bad[0])
            try:
                check_features(X[i], None, owner)
                check_label(float(y[i]), owner)
                check_weight(float(w[i]), owner)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{exc} At row {i}; nothing was learned from this call.") from None

    def decision_function(self, X) -> np.ndarray:
        """``predict_one`` on every row of the 2-D ``X`` (no learning)."""
        X = check_rows(X, f"{type(self).__name__}.decision_function")
        return np.array([self.predict_one(xi) for xi in X], dtype=float)

    def predict(self, X) -> np.ndarray:
        """Labels in ``{-1, +1}`` (ties go to ``+1``)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)
