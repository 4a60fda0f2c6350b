"""Shared checks for the public boundary of dpboost (one message template everywhere).

Every public entry point validates its arguments with these helpers, so a user sees the
same sentence whatever went wrong::

    The 'kappa' parameter of PrivateHalfspaceClassifier must be a float in (0, 1). Got 1.5 instead.

``TypeError`` is raised for the wrong kind of value, ``ValueError`` for a value out of range
(NaN is out of every range).  Internal functions do not re-validate.  The sentence itself lives in
:mod:`accounting._validation` (accounting may not import dpboost; dpboost may import accounting).
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from accounting._validation import house_message as _message
from accounting._validation import interval

__all__ = ["NORM_BOUND_RANGE", "check_choice", "check_finite_rows", "check_norm_bound",
           "check_random_state", "check_scalar", "interval", "warn_if_clipped",
           "warn_inferred_classes"]

#: Admissible ``norm_bound`` (closed interval).  The mechanisms compute ``R**2`` (the
#: whitening's sensitivity ``sqrt(2) R^2``, its error bound ``n R^2``) and divide the released
#: centres by ``R**2``: beyond about 1e154 ``R**2`` overflows, below about 1e-154 it underflows
#: (measured: fits fail from 1e154 and below 1e-200, and lose accuracy near 1e-150).
#: [1e-100, 1e100] leaves 50 orders of magnitude of headroom for ``n`` and ``d``; rescale the
#: features by a public constant to bring rows outside it into range.
NORM_BOUND_RANGE = (1e-100, 1e100)


def check_scalar(
    value: object,
    name: str,
    owner: str,
    *,
    kind: str = "float",
    low: float | None = None,
    high: float | None = None,
    closed: str = "neither",
) -> float | int:
    """Check one scalar parameter and return it as a Python ``float`` or ``int``.

    Parameters
    ----------
    value : object
        The value to check.
    name, owner : str
        Parameter name and the class or function it belongs to (used in the message).
    kind : {"float", "int"}
        ``"float"`` accepts any real number (bools excluded); ``"int"`` accepts integers only.
    low, high : float or None
        Bounds of the admissible interval (``None`` = unbounded).
    closed : {"neither", "left", "right", "both"}
        Which bounds belong to the interval.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (or not an integer when ``kind="int"``).
    ValueError
        If ``value`` is NaN or outside the interval.

    Examples
    --------
    >>> check_scalar(0.5, "kappa", "f", low=0, high=1)
    0.5
    >>> check_scalar(1.5, "kappa", "PrivateHalfspaceClassifier", low=0, high=1)
    Traceback (most recent call last):
    ...
    ValueError: The 'kappa' parameter of PrivateHalfspaceClassifier must be a float in (0, 1). Got 1.5 instead.
    """
    where = interval(low, high, closed)
    if kind == "int":
        expected = f"an int in {where}"
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(_message(name, owner, expected, value))
        out: float | int = int(value)
    else:
        expected = f"a float in {where}"
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(_message(name, owner, expected, value))
        out = float(value)
        if math.isnan(out):
            raise ValueError(_message(name, owner, expected, value))
    lo_ok = low is None or (out >= low if closed in ("left", "both") else out > low)
    hi_ok = high is None or (out <= high if closed in ("right", "both") else out < high)
    if not (lo_ok and hi_ok):
        raise ValueError(_message(name, owner, expected, value))
    return out


def check_norm_bound(value: object, owner: str) -> float:
    """Check ``norm_bound`` against :data:`NORM_BOUND_RANGE` and return it as a float.

    Examples
    --------
    >>> check_norm_bound(1e200, "PrivateHalfspaceClassifier")
    Traceback (most recent call last):
    ...
    ValueError: The 'norm_bound' parameter of PrivateHalfspaceClassifier must be a float in [1e-100, 1e+100]. Got 1e+200 instead.
    """
    low, high = NORM_BOUND_RANGE
    return check_scalar(value, "norm_bound", owner, low=low, high=high, closed="both")


def check_choice(value: object, name: str, owner: str, choices: tuple[str, ...]) -> str:
    """Check that ``value`` is one of the strings in ``choices`` and return it."""
    expected = "one of " + ", ".join(repr(c) for c in choices)
    if not isinstance(value, str):
        raise TypeError(_message(name, owner, expected, value))
    if value not in choices:
        raise ValueError(_message(name, owner, expected, value))
    return value


def check_random_state(random_state: object, name: str = "random_state", owner: str = "dpboost"):
    """Turn ``None``, an int or a ``numpy.random.Generator`` into a Generator.

    ``None`` gives fresh OS entropy (what privacy needs); an int seeds a new Generator, which is
    for reproducibility only: a seeded run's noise is predictable by whoever knows the seed.
    The global NumPy RNG is never used.
    """
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if int(random_state) < 0:
            raise ValueError(_message(name, owner, "None, a non-negative int or a numpy Generator",
                                      random_state))
        return np.random.default_rng(int(random_state))
    raise TypeError(_message(name, owner, "None, a non-negative int or a numpy Generator",
                             random_state))


def check_finite_rows(X: np.ndarray, name: str = "X") -> None:
    """Raise ``ValueError`` naming the first row of a 2-D array that holds NaN or inf."""
    finite = np.isfinite(X)
    if not finite.all():
        bad = np.flatnonzero(~finite.all(axis=1))
        row = int(bad[0]) if bad.size else 0
        raise ValueError(
            f"Input {name} contains NaN or infinity (first bad row: {row}); "
            "remove or impute those rows before training."
        )


CLIPPED_SHARE_WARNED = 0.1  # clipping a few outliers is routine and safe; a tenth is a scale error


def warn_if_clipped(X: np.ndarray, norm_bound: float, owner: str) -> None:
    """Warn (:class:`~dpboost.exceptions.ClippedRowsWarning`) when at least a tenth of the rows
    of ``X`` have norm above ``norm_bound``: they are clipped for training but scored unclipped
    at prediction.  Clipping a few outliers (the demo's standardised breast-cancer rows: 4%) is
    routine and stays silent.

    A local message to the data owner (the count is not part of any release).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_if_clipped(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0, "Demo")
    ...     warn_if_clipped(np.array([[3.0, 4.0]] + [[0.3, 0.4]] * 10), 1.0, "Demo")  # 9%: silent
    >>> len(w)
    1
    >>> print(w[0].message)  # doctest: +ELLIPSIS
    1 of 2 training rows (50.0%) have norm above norm_bound=1 ...
    """
    from dpboost.exceptions import ClippedRowsWarning

    with np.errstate(over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64))
    over = int(np.count_nonzero(norms > norm_bound))
    if over and over >= CLIPPED_SHARE_WARNED * X.shape[0]:
        n = X.shape[0]
        warnings.warn(
            f"{over} of {n} training rows ({100.0 * over / n:.1f}%) have norm above "
            f"norm_bound={norm_bound:g} and were clipped onto the sphere; {owner} is fitted to "
            "the clipped rows, but predictions score rows as given, so a model trained mostly "
            "on clipped rows is miscalibrated. Divide the features by a public bound (or use "
            "'dpboost schema') so that rows fit in the ball.",
            ClippedRowsWarning, stacklevel=3)


def warn_inferred_classes(owner: str, classes, *, stacklevel: int = 3,
                          fix: str = "classes=[negative, positive]") -> None:
    """Warn (:class:`~dpboost.exceptions.PrivacyLeakWarning`) that ``classes`` were read from
    ``y``: the set of labels present in the training data is released without privacy."""
    from dpboost.exceptions import PrivacyLeakWarning

    warnings.warn(
        f"{owner}: classes were inferred from y, which releases without privacy the set of "
        f"labels present in the training data ({np.asarray(classes).tolist()}). Pass {fix} "
        "to avoid this leak.", PrivacyLeakWarning, stacklevel=stacklevel + 1)
