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

__all__ = ["NORM_BOUND_RANGE", "check_choice", "check_column_order", "check_declared_classes",
           "check_declared_labels", "check_finite_rows", "check_label_cells", "check_norm_bound",
           "check_random_state", "check_scalar", "interval", "warn_if_clipped",
           "warn_inferred_classes", "warn_unsorted_classes"]

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


def check_finite_rows(X: np.ndarray, name: str = "X", when: str = "training") -> None:
    """Raise ``ValueError`` naming the first row of a 2-D array that holds NaN or inf
    (``when``: "training" or "predicting", what the rows must be cleaned before)."""
    finite = np.isfinite(X)
    if not finite.all():
        bad = np.flatnonzero(~finite.all(axis=1))
        row = int(bad[0]) if bad.size else 0
        raise ValueError(
            f"Input {name} contains NaN or infinity (first bad row: {row}); "
            f"remove or impute those rows before {when}."
        )


CLIPPED_SHARE_WARNED = 0.1  # clipping a few outliers is routine and safe; a tenth is a scale error


def warn_if_clipped(X: np.ndarray, norm_bound: float, owner: str) -> None:
    """Warn (:class:`~dpboost.exceptions.ClippedRowsWarning`) when at least a tenth of the rows
    of ``X`` have norm above ``norm_bound``: they are clipped onto the sphere, for training and
    again at prediction, so the model sees only their direction, not their length.  Clipping a
    few outliers (the demo's standardised breast-cancer rows: 4%) is routine and stays silent.

    NOT PRIVATE: whether the warning fires is a noise-free bit of the data (a neighbour with
    one more clipped row flips it with certainty), and warnings end up in logs that are
    shared.  So private fits call this only with ``diagnostics=True`` (the non-private
    ``BoostedHalfspaceClassifier`` always); the message states no count.  The data owner's
    own check before a private fit is :func:`dpboost.clipping.clipped_fraction`.

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
    A tenth or more of the training rows have norm above norm_bound=1 ...
    """
    from dpboost.exceptions import ClippedRowsWarning

    with np.errstate(over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64))
    over = int(np.count_nonzero(norms > norm_bound))
    if over and over >= CLIPPED_SHARE_WARNED * X.shape[0]:
        n = X.shape[0]
        warnings.warn(
            f"A tenth or more of the training rows have norm above norm_bound={norm_bound:g} "
            f"and were clipped onto the sphere; {owner} is fitted to, and predicts on, the "
            "clipped rows, so it cannot tell apart rows that differ only in length beyond the "
            "bound. Divide the features by a public bound (or use 'dpboost schema') so that "
            "rows fit in the ball. (The exact count is not shown: it is a figure of the data "
            "without noise, which a shared log would carry.)",
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


def warn_unsorted_classes(owner: str, declared, *, stacklevel: int = 3) -> None:
    """Warn (``UserWarning``) that declared ``classes`` are not in sorted order.

    ``classes_`` is sorted, as scikit-learn's scorers and meta-estimators assume
    (``CalibratedClassifierCV`` indexes ``predict_proba`` by the sorted labels; a
    ``classes_`` kept in declared order gave ``cross_val_score(scoring="roc_auc")`` 0.01
    where the model's AUC was 0.99).  So with two classes the positive one, ``classes_[1]``,
    is the larger label, whatever the declared order: ``["Nein", "Ja"]`` makes "Nein"
    positive.  The declared values are public, so the warning leaks nothing.
    """
    declared = np.asarray(declared).tolist()
    ordered = np.unique(np.asarray(declared)).tolist()
    if declared == ordered:
        return
    positive = (f"; the positive class, classes_[1] (a positive decision_function, "
                f"predict_proba[:, 1]), is {ordered[1]!r}" if len(ordered) == 2 else
                "; predict_proba's columns follow classes_")
    warnings.warn(
        f"{owner}: classes={declared!r} are used in sorted order, classes_ = {ordered!r}, as "
        f"scikit-learn requires{positive}. Declare them sorted to silence this, or encode y "
        "as 0/1 with 1 the positive class (TabularEncoder.encode_labels does).",
        UserWarning, stacklevel=stacklevel + 1)


# -- missing and mixed labels ---------------------------------------------------------------
def _label_cells(y) -> np.ndarray | None:
    """The labels of ``y`` as a 1-D numpy array (objects kept as given), or None when ``y`` is
    not a column the checks can read (sklearn's own checks then say what is wrong)."""
    if hasattr(y, "to_numpy"):  # pandas: a nullable column gives objects, with pandas.NA
        y = y.to_numpy()
    try:  # a list keeps its objects: numpy would turn [1, "a"] into ["1", "a"]
        arr = np.array(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)
    except (TypeError, ValueError):  # ragged
        return None
    if arr.ndim == 2 and arr.shape[1] == 1:  # a column vector (sklearn warns and ravels)
        arr = arr[:, 0]
    return arr if arr.ndim == 1 else None


def check_label_cells(y) -> None:
    """Raise :class:`~dpboost.tabular_cells.BadValueError` for a missing label or for labels
    that mix text and numbers.

    A missing label is None, NaN, ``pandas.NA`` or ``NaT``.  The message names the first such
    row; labels mixing text and numbers (``[1, "a", 0]``, which numpy would silently turn into
    the text ``"1"``, ``"a"``, ``"0"``) name the first row of each kind.  No message holds a
    label or a count: the rows are private training data, and a count told apart two refused
    neighbours that differ in a later row (red team, session 30; the CLI's ``train`` has said
    only the first row since session 24).  A dask ``y`` is not read here.

    Examples
    --------
    >>> check_label_cells([1, 0, 1])
    >>> check_label_cells([1, None, 0, float("nan")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dpboost.tabular_cells.BadValueError: y has no label at row 1 (None or NaN). Remove...
    """
    from dpboost.round_ops import is_dask_array
    from dpboost.tabular_cells import BadValueError

    if is_dask_array(y):
        return
    arr = _label_cells(y)
    if arr is None or arr.size == 0 or arr.dtype.kind not in "fcO":
        return
    if arr.dtype.kind in "fc":
        missing = np.isnan(arr)
    else:
        import pandas as pd  # (a dependency) isna reads None, NaN, pandas.NA and NaT at C speed

        missing = np.asarray(pd.isna(arr), dtype=bool)
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise BadValueError(
            f"y has no label at row {row} (None or NaN). Remove the rows without a label (or "
            "impute their labels) before fitting.", column="y", row=row)
    kinds = set(map(type, arr.tolist())) if arr.dtype.kind == "O" else set()
    if not (any(issubclass(k, (str, bytes)) for k in kinds)
            and any(issubclass(k, (numbers.Number, np.bool_)) for k in kinds)):
        return
    text = np.fromiter((isinstance(v, (str, bytes)) for v in arr), dtype=bool, count=arr.size)
    number = np.fromiter((isinstance(v, (numbers.Number, np.bool_)) for v in arr), dtype=bool,
                         count=arr.size)
    first_text, first_number = int(np.flatnonzero(text)[0]), int(np.flatnonzero(number)[0])
    row = max(first_text, first_number)
    raise BadValueError(
        f"y mixes text and number labels (the first text label at row {first_text}, the "
        f"first number at row {first_number}). Make every label text (for example "
        "y.astype(str)) or every label a number before fitting.", column="y", row=row)


# -- labels outside the declared classes ----------------------------------------------------
def _text(v):
    return v if isinstance(v, str) else None


def _strip(v):
    return v.strip() if isinstance(v, str) else None


def _fold(v):
    return v.casefold() if isinstance(v, str) else None


def _strip_fold(v):
    return v.strip().casefold() if isinstance(v, str) else None


def _number(v):
    """``float(v)`` for a number (bools excluded), else None."""
    if isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)):
        return float(v)
    return None


def _text_number(v):
    """The number a text label spells (``" 1"``, ``"1.0"``), else None."""
    if isinstance(v, (str, bytes)):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _decoded(v):
    return v.decode("utf-8", errors="replace") if isinstance(v, bytes) else None


def _numeric_classes(classes) -> list | None:
    """The declared text classes as numbers (public), or None when one is not a number."""
    out = []
    for c in classes:
        x = _text_number(c)
        if x is None or not math.isfinite(x):
            return None
        out.append(int(x) if x.is_integer() else x)
    return out


#: Slips that make a label miss its declared class (``numpy.isin`` already matches ``1.0`` and
#: ``True`` to ``1``, so those need no hint).  Each is (name, key of a label, key of a class,
#: hint); a slip explains the first label outside the classes when their keys meet (spaces:
#: only around the label, the classes as declared).  The hints name what to change and never
#: a label of the data; they read the first such label alone, so a later row of the private
#: data changes nothing in the message.
_SLIPS = (
    ("spaces", _strip, _text,
     "It matches a declared class once the spaces around it are removed: strip the labels, "
     "for example df[col].str.strip() (pandas.read_csv(..., skipinitialspace=True) removes "
     "only the spaces after a separator, not those at the end of a cell)."),
    ("case", _fold, _fold,
     "It matches a declared class except for upper and lower case: make the case of the "
     "labels agree with the classes, or declare the classes as spelt in y."),
    ("spaces and case", _strip_fold, _fold,
     "It matches a declared class once the spaces around it are removed and case is "
     "ignored: strip the labels and make their case agree with the classes."),
    ("numbers as text", _text_number, _number,
     "It is a number written as text and the declared classes are numbers: convert y to "
     "numbers (for example y.astype(float)) before fitting."),
    ("text as numbers", _number, _text_number,
     "It is a number and the declared classes are text: {fix}"),
    ("bytes", _decoded, _text,
     "It is bytes and the declared classes are text: decode the labels (for example "
     "numpy.char.decode(y, 'utf-8'))."),
    ("codes", None, None,
     "It is a whole number below the number of classes and not a declared class: perhaps a "
     "code of the classes, as scikit-learn passes y to a clone in cross_val_predict(..., "
     "method='predict_proba' or 'decision_function'), OneVsRestClassifier, VotingClassifier "
     "and BaggingClassifier (a LabelEncoder, classes in sorted order). For such a run "
     "declare classes={codes}: code k stands for the k-th class in sorted order."),
)


def _slips_explaining(value, classes) -> tuple[bool, ...]:
    """For each of :data:`_SLIPS`, whether it explains the label ``value``."""
    out = []
    for _, key, class_key, _ in _SLIPS:
        if key is None:  # codes 0..K-1 (scikit-learn's LabelEncoder): not a class here
            out.append(isinstance(value, (int, np.integer))
                       and not isinstance(value, (bool, np.bool_)) and 0 <= value < len(classes))
            continue
        targets = {class_key(c) for c in classes} - {None}
        out.append(key(value) is not None and key(value) in targets)
    return tuple(out)


def label_summary(y: np.ndarray, classes: np.ndarray) -> tuple[int, int, tuple[bool, ...]]:
    """``(count, first_row, slips)`` of the labels of ``y`` outside ``classes`` (numpy).

    ``slips[j]`` says whether :data:`_SLIPS` ``[j]`` explains the first such label (all False
    when there are none).  ``count`` only says whether there are any: no message prints it.
    Summaries of consecutive chunks combine (:func:`combine_label_summaries`), so a dask ``y``
    is checked in one gather.
    """
    unknown = ~np.isin(y, classes)
    count = int(np.count_nonzero(unknown))
    if not count:
        return 0, -1, (False,) * len(_SLIPS)
    first = int(np.flatnonzero(unknown)[0])
    value = np.asarray(y)[first]
    value = value.item() if isinstance(value, np.generic) else value
    try:
        slips = _slips_explaining(value, np.asarray(classes).tolist())
    except TypeError:  # an unhashable label: no hint
        slips = (False,) * len(_SLIPS)
    return count, first, slips


def combine_label_summaries(summaries, offsets) -> tuple[int, int, tuple[bool, ...]]:
    """One summary from those of consecutive chunks starting at rows ``offsets``: the first
    chunk holding a label outside the classes gives the row and the slips."""
    count, first, slips = 0, -1, (False,) * len(_SLIPS)
    for (c, f, s), offset in zip(summaries, offsets):
        if c and first < 0:
            first, slips = offset + f, tuple(s)
        count += c
    return count, first, slips


def unknown_labels_message(classes, first_row: int, slips) -> str:
    """The message for a label outside the declared classes, with the first slip's hint.

    It names the declared classes (public) and the first such row, never a label of the data
    nor how many rows there are: it is a function of that first row alone, so two refused
    neighbours that differ in a later row get the same message (red team, session 30).

    Examples
    --------
    >>> print(unknown_labels_message(np.array([0, 1]), 7, (False,) * 3 + (True,) * 3))
    ... # doctest: +NORMALIZE_WHITESPACE
    y contains a label that is not in classes=[0, 1] (the first at row 7). It is a number
    written as text and the declared classes are numbers: convert y to numbers (for example
    y.astype(float)) before fitting.
    """
    classes = np.asarray(classes)
    msg = (f"y contains a label that is not in classes={classes.tolist()} (the first at row "
           f"{first_row}).")
    for (name, _, _, hint), fired in zip(_SLIPS, slips):
        if fired:
            numeric = _numeric_classes(classes.tolist())
            fix = (f"declare the classes as numbers (classes={numeric})" if numeric is not None
                   else "convert the labels to the text of the classes")
            codes = list(range(len(classes)))
            return f"{msg} {hint.format(fix=fix + '.', codes=codes)}"
    return msg


def _is_missing(value) -> bool:
    if value is None:
        return True
    if isinstance(value, (str, bytes)) or np.ndim(value) != 0:
        return False
    import pandas as pd  # (a dependency) reads NaN, pandas.NA and NaT alike

    return bool(pd.isna(value))


def check_declared_classes(classes, owner: str | None = None) -> None:
    """Refuse declared ``classes`` holding a missing value or mixing text and numbers.

    numpy would turn ``[1, "a", 2]`` into the text ``['1', '2', 'a']``, which no number label
    matches, and a NaN class can never hold a label; both are named here, before ``y`` is
    compared with them.  Other shapes (nested, fewer than two) are left to the callers.

    Examples
    --------
    >>> check_declared_classes([0, 1, float("nan")], "Est")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The 'classes' parameter of Est holds a missing value (None or NaN) at ...
    """
    try:
        values = list(classes)
    except TypeError:
        return
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    name = f"The 'classes' parameter{' of ' + owner if owner else ''}"
    missing = [j for j, v in enumerate(values) if _is_missing(v)]
    if missing:
        raise ValueError(f"{name} holds a missing value (None or NaN) at position {missing[0]}: "
                         f"declare only real labels. Got {values!r} instead.")
    text = [isinstance(v, (str, bytes)) for v in values]
    if any(text) and not all(text):
        raise TypeError(f"{name} mixes text and numbers: declare every class as text or every "
                        "class as a number, of the same kind as the labels of y (numpy would "
                        f"turn them all into text). Got {values!r} instead.")


def check_declared_labels(y, classes, owner: str | None = None) -> np.ndarray:
    """Raise ``ValueError`` if ``y`` holds a label outside the declared ``classes``.

    The classes themselves are checked first (:func:`check_declared_classes`; ``owner``
    names the estimator in that message).  Returns the declared classes, sorted and distinct.
    The message names the first such row and the declared classes, and, when a slip explains
    the label there (surrounding spaces, case, numbers written as text or the reverse, bytes),
    what to change (:data:`_SLIPS`); it never prints a label nor a count
    (:func:`unknown_labels_message`).  A dask ``y`` is summarised chunk by chunk and checked
    with one gather of a small tuple per chunk.

    Examples
    --------
    >>> check_declared_labels(np.array([1.0, 0.0, 1.0]), [0, 1]).tolist()  # 1.0 is 1
    [0, 1]
    >>> check_declared_labels(np.array(["yes", "no "]), ["no", "yes"])
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: y contains a label that is not in classes=['no', 'yes'] (the first at row 1).
    It matches a declared class once the spaces around it are removed: strip the labels, for
    example df[col].str.strip() (pandas.read_csv(..., skipinitialspace=True) removes only the
    spaces after a separator, not those at the end of a cell).
    """
    check_declared_classes(classes, owner)
    classes = np.unique(np.asarray(classes))
    from dpboost.round_ops import is_dask_array

    if is_dask_array(y):
        from dpboost.distributed import gather, row_offsets

        parts = y.map_blocks(lambda b: _boxed(label_summary(b, classes)), dtype=object,
                             chunks=((1,) * y.numblocks[0],),
                             meta=np.empty((0,), dtype=object))
        summary = combine_label_summaries(gather(parts).tolist(), row_offsets(y.chunks[0]))
    else:
        summary = label_summary(np.asarray(y), classes)
    if summary[0]:
        raise ValueError(unknown_labels_message(classes, *summary[1:]))
    return classes


def _boxed(value) -> np.ndarray:
    out = np.empty((1,), dtype=object)
    out[0] = value
    return out


def check_column_order(X, names) -> None:
    """Refuse a table (anything with ``columns``) whose columns are not ``names`` in that
    order, as scikit-learn refuses one at a fitted estimator's ``predict``; arrays and
    ``names=None`` pass.  A model saved from a fit on a DataFrame kept no names and, loaded,
    scored reordered columns silently (red team, session 37: accuracy 1.0 -> 0.367)."""
    columns = getattr(X, "columns", None)
    found = None if columns is None or names is None else [str(c) for c in columns]
    if found is None or found == list(names):
        return
    missing = [n for n in names if n not in found]
    raise ValueError(f"X's columns must be the model's features in the order it was fitted "
                     f"with, {list(names)[:10]}: " + (f"{missing[:5]} missing" if missing else
                                                       "reordered, or others added") + ".")
