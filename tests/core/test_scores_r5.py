"""Overflowed scores: rescaled per row before they decide a class (round 5).

A row of huge (but finite) features can overflow ``X @ w`` although the true score, and the
ranking of the classes, are well defined; :func:`dpboost.scores.linear_scores` recomputes such
rows as ``((x / m) @ w) * m`` and :func:`dpboost.scores.largest_class` compares
``(x / m) @ w + b / m``, the scores divided by the positive ``m = max |x_j|`` (same argmax).

Kills SC01 (``linear_scores`` rescaling only rows where *every* class's score is non-finite):
a multiclass row where one class's product is ``inf - inf = nan`` and another's is finite kept
its NaN score; SC02 (the rescaled part not multiplied back by ``m``) gave such a row
scores ``m`` times too small.  Kills SC03 (``largest_class`` adding the intercept undivided by
``m``): the intercept then outweighs the feature part by a factor ``m`` and flips the predicted
class.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dpboost.scores import largest_class, linear_scores


def _exact(x, w):
    return float(sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, w)))


def test_a_row_with_one_overflowed_class_gets_its_exact_score():
    X = np.array([[1e200, 1e200], [0.5, 0.25]])
    W = np.array([[1e200, 0.0], [-1e200, 1.0]])  # class 0: 1e400 - 1e400 overflows to nan
    scores = linear_scores(X, W)
    assert np.isfinite(scores).all(), scores
    for i in range(2):
        for k in range(2):
            assert scores[i, k] == _exact(X[i], W[:, k])


def test_the_intercept_is_divided_by_the_row_scale_when_breaking_overflow():
    m = 1e300
    X = np.array([[m, 0.0]])
    W = np.array([[1e10, 1.5e10], [0.0, 0.0]])  # true scores 1e310 + 1e10 and 1.5e310
    b = np.array([1e10, 0.0])
    with np.errstate(over="ignore"):
        scores = X @ W + b
    assert np.isinf(scores).all()  # both overflowed: a tie to break
    assert largest_class(X, scores, W, b).tolist() == [1]
