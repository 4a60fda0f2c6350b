"""Data for dpboost: synthetic large-margin distributions, label noise, and file loaders.

* :func:`make_margin_data` draws a sample from a tau-good distribution on the unit ball
  (Section 5.1 of Bun, Carmosino & Sorrell 2020): every point has ``|u . x| >= margin`` for a
  hidden random unit vector ``u`` and is labelled ``sign(u . x)``.  Two kinds are offered:
  ``"symmetric"`` (uniform on the ball outside the margin slab) and ``"skewed"`` (a
  distribution on which the single centroid ``E[y x]`` stays at about 20% error for any
  sample size, while boosting can reach a few percent).
* :func:`add_label_noise` applies random classification noise (Angluin & Laird 1987).
* :func:`load_csv`, :func:`load_libsvm` and :func:`load_dataset` read local files into a dense
  float64 matrix and the labels as found in the file.  Nothing is ever downloaded.

References
----------
Bun, M., Carmosino, M. L. and Sorrell, J. (2020). Efficient, noise-tolerant, and private learning
via boosting. COLT 2020. Section 5.1 (tau-good distributions, random classification noise).
"""

from __future__ import annotations

import os
import re
import warnings
import zlib
from pathlib import Path

import numpy as np

from dpboost._validation import check_choice, check_finite_rows, check_random_state, check_scalar
from dpboost.cell_text import first_non_number, is_decimal_number
from dpboost.csv_errors import check_stream, decode_error, no_such_file, open_text
from dpboost.exceptions import PrivacyLeakWarning

__all__ = [
    "add_label_noise",
    "detect_format",
    "load_csv",
    "load_dataset",
    "load_features",
    "load_libsvm",
    "make_margin_data",
]

#: Share of the sample that the centroid misclassifies on ``kind="skewed"`` data.
SKEWED_MINORITY = 0.2


# --------------------------------------------------------------------------------------------
# synthetic data
# --------------------------------------------------------------------------------------------
def _random_unit(d: int, rng: np.random.Generator) -> np.ndarray:
    u = rng.standard_normal(d)
    return u / np.linalg.norm(u)


def _orthogonal_directions(n: int, basis: np.ndarray, d: int,
                           rng: np.random.Generator) -> np.ndarray:
    """n uniformly random unit vectors orthogonal to the orthonormal rows of ``basis``."""
    g = rng.standard_normal((n, d))
    g -= (g @ basis.T) @ basis
    norms = np.linalg.norm(g, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    return g / norms


def _symmetric(n: int, d: int, margin: float, u: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    """Uniform on the unit ball conditioned on ``|u . x| >= margin`` (sampled exactly)."""
    # For x uniform on the d-ball, (u . x)^2 ~ Beta(1/2, (d + 1)/2); truncate it to
    # [margin^2, 1] by inverse survival (accurate in the far tail), then draw the rest of x
    # uniformly in the (d-1)-ball of radius sqrt(1 - a^2) orthogonal to u.
    from scipy import stats  # imported here: scipy.stats costs ~1-2 s at CLI start-up

    beta = stats.beta(0.5, (d + 1) / 2.0)
    tail = beta.sf(margin**2)
    if not tail > 0.0:  # margin so large that the tail underflows: put mass at |a| = margin
        a2 = np.full(n, margin**2)
    else:
        a2 = beta.isf(rng.uniform(0.0, 1.0, n) * tail)
        a2 = np.clip(a2, margin**2, 1.0)
    a = np.sqrt(a2) * rng.choice((-1.0, 1.0), size=n)
    X = a[:, None] * u[None, :]
    if d > 1:
        radius = np.sqrt(np.maximum(1.0 - a2, 0.0)) * rng.uniform(0.0, 1.0, n) ** (1.0 / (d - 1))
        X += radius[:, None] * _orthogonal_directions(n, u[None, :], d, rng)
    return X


def _skewed(n: int, d: int, margin: float, u: np.ndarray,
            rng: np.random.Generator) -> np.ndarray:
    """A tau-good distribution on which the centroid errs on the 20% minority (see docs)."""
    e = _orthogonal_directions(1, u[None, :], d, rng)[0]
    sign = rng.choice((-1.0, 1.0), size=n)                      # the label sign(u . x)
    a = rng.uniform(margin, min(2.0 * margin, 1.0), n)          # |u . x| in [tau, 2 tau]
    minority = rng.uniform(0.0, 1.0, n) < SKEWED_MINORITY
    rest = np.sqrt(np.maximum(1.0 - a**2, 0.0))
    spread = 0.3 * rest * rng.uniform(0.0, 1.0, n) if d > 2 else np.zeros(n)
    b = np.sqrt(np.maximum(rest**2 - spread**2, 0.0)) * rng.uniform(0.9, 1.0, n)
    b = np.where(minority, -b, b)                               # minority leans the other way
    X = (sign * a)[:, None] * u[None, :] + (sign * b)[:, None] * e[None, :]
    if d > 2:
        X += spread[:, None] * _orthogonal_directions(n, np.vstack([u, e]), d, rng)
    return X


def make_margin_data(
    n: int,
    d: int,
    margin: float,
    noise_rate: float = 0.0,
    random_state: int | np.random.Generator | None = None,
    *,
    kind: str = "symmetric",
    return_direction: bool = False,
):
    """Draw ``n`` labelled points from a ``margin``-good distribution on the unit ball.

    A hidden unit vector ``u`` is drawn uniformly from the sphere; every point satisfies
    ``||x||_2 <= 1`` and ``|u . x| >= margin``, and its clean label is ``sign(u . x)``.
    With ``noise_rate > 0`` each label is then flipped independently with that probability
    (random classification noise), so the sample is no longer separable.

    Parameters
    ----------
    n : int
        Number of points (>= 1).
    d : int
        Dimension (>= 1; >= 2 for ``kind="skewed"``).
    margin : float
        The margin tau in (0, 1] (in (0, 0.25] for ``kind="skewed"``).
    noise_rate : float, default=0.0
        Probability in [0, 0.5] of flipping each label.
    random_state : int, numpy.random.Generator or None
        Source of randomness (None: fresh OS entropy).
    kind : {"symmetric", "skewed"}
        ``"symmetric"``: uniform on the unit ball conditioned on ``|u . x| >= margin`` (the
        squared projection is drawn from a truncated Beta(1/2, (d+1)/2), the rest uniformly in
        the orthogonal ball), labels balanced.  A single private centroid ``E[y x]`` already
        points close to ``u`` here.

        ``"skewed"``: every point lies near the margin, ``|u . x| = a`` uniform in
        ``[margin, 2 margin]``, and carries a large component ``b ~ 0.9 sqrt(1 - a^2)``
        along a second hidden direction ``e`` orthogonal to ``u``, plus a small spread
        (at most 30% of the remaining radius) in the other directions.  80% of the points
        (the majority) have ``y (e . x) = +b``, 20% (the minority) have ``y (e . x) = -b``.
        The centroid is then ``E[y x] ~ 1.5 margin u + 0.6 b e``, which misclassifies the
        whole minority whenever ``margin <= 0.25``: about 20% error for every ``n``.  After
        one round a boosting algorithm puts its weight on the minority, whose centroid leans
        along ``-e``, and the combination recovers ``u``.
    return_direction : bool, default=False
        Also return the hidden direction ``u`` (for tests and demonstrations).

    Returns
    -------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), values in {-1, +1} (int64)
    u : ndarray of shape (d,), only when ``return_direction=True``

    References
    ----------
    Bun, Carmosino & Sorrell (2020), Section 5.1: a distribution D on B_d(1) is tau-good for u
    when ``|u . x| >= tau`` on its support; random classification noise at rate eta.

    Examples
    --------
    >>> X, y, u = make_margin_data(200, 5, 0.1, random_state=0, return_direction=True)
    >>> bool(np.all(np.abs(X @ u) >= 0.1) and np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12))
    True
    >>> bool(np.all(y == np.sign(X @ u)))
    True
    """
    owner = "make_margin_data"
    n = check_scalar(n, "n", owner, kind="int", low=1, closed="left")
    d = check_scalar(d, "d", owner, kind="int", low=1, closed="left")
    margin = check_scalar(margin, "margin", owner, low=0.0, high=1.0, closed="right")
    noise_rate = check_scalar(noise_rate, "noise_rate", owner, low=0.0, high=0.5, closed="both")
    kind = check_choice(kind, "kind", owner, ("symmetric", "skewed"))
    if kind == "skewed" and d < 2:
        raise ValueError(f"The 'd' parameter of {owner} must be an int in [2, inf) when "
                         f"kind='skewed'. Got {d!r} instead.")
    if kind == "skewed" and margin > 0.25:
        raise ValueError(f"The 'margin' parameter of {owner} must be a float in (0, 0.25] when "
                         f"kind='skewed' (larger margins leave the centroid accurate). "
                         f"Got {margin!r} instead.")
    rng = check_random_state(random_state, "random_state", owner)
    data_rng, noise_rng = rng.spawn(2)
    u = _random_unit(d, data_rng)
    X = (_symmetric if kind == "symmetric" else _skewed)(n, d, margin, u, data_rng)
    # enforce both guarantees exactly despite rounding: |u.x| >= margin, then ||x|| <= 1 by
    # shrinking only the part orthogonal to u
    a = X @ u
    V = X - a[:, None] * u[None, :]
    a = np.where(a >= 0.0, np.maximum(a, margin), np.minimum(a, -margin))
    a = np.clip(a, -1.0, 1.0)
    v_norm = np.linalg.norm(V, axis=1)
    room = np.sqrt(np.maximum(1.0 - a**2, 0.0)) * (1.0 - 1e-12)
    shrink = np.where(v_norm > room, room / np.where(v_norm > 0, v_norm, 1.0), 1.0)
    X = a[:, None] * u[None, :] + shrink[:, None] * V
    y = np.where(X @ u >= 0.0, 1, -1).astype(np.int64)
    if noise_rate > 0.0:
        y = add_label_noise(y, noise_rate, random_state=noise_rng)
    return (X, y, u) if return_direction else (X, y)


def add_label_noise(y, rate: float, random_state: int | np.random.Generator | None = None):
    """Flip each label in {-1, +1} independently with probability ``rate``.

    Random classification noise (Angluin & Laird 1987), the noise model under which the
    halfspace learner of Bun, Carmosino & Sorrell (2020, Theorem 24 and Section 5) still
    generalises at rates O(alpha tau).  The flips do not depend on the data, so a private
    learner run on the noisy sample keeps its privacy guarantee.

    Parameters
    ----------
    y : array-like of shape (n,), values in {-1, +1}
    rate : float in [0, 0.5]
    random_state : int, numpy.random.Generator or None

    Returns
    -------
    ndarray of shape (n,), same dtype as ``y`` (a new array; ``y`` is not modified).

    References
    ----------
    Angluin, D. and Laird, P. (1987). Learning from noisy examples. Machine Learning 2(4).
    Bun, Carmosino & Sorrell (2020), Section 5.1.

    Examples
    --------
    >>> add_label_noise(np.array([1, -1, 1]), 0.0, random_state=0)
    array([ 1, -1,  1])
    """
    owner = "add_label_noise"
    rate = check_scalar(rate, "rate", owner, low=0.0, high=0.5, closed="both")
    rng = check_random_state(random_state, "random_state", owner)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"The 'y' parameter of {owner} must be a 1-d array. "
                         f"Got shape {y.shape} instead.")
    if not np.isin(y, (-1, 1)).all():
        raise ValueError(f"The 'y' parameter of {owner} must hold labels in {{-1, +1}}. "
                         f"Got values {np.unique(y)[:5].tolist()} instead.")
    flip = rng.uniform(0.0, 1.0, y.shape[0]) < rate
    return np.where(flip, -y, y).astype(y.dtype, copy=False)


# --------------------------------------------------------------------------------------------
# loaders
# --------------------------------------------------------------------------------------------
def _label_index(label, names: list[str] | None, width: int, path: Path) -> int:
    if label is None:
        return width - 1
    if isinstance(label, (bool, np.bool_)):
        raise TypeError(f"The 'label' parameter of load_csv must be a column name or an int "
                        f"index. Got {label!r} instead.")
    if isinstance(label, (int, np.integer)):
        if not -width <= int(label) < width:
            raise ValueError(f"The 'label' parameter of load_csv must be a column index in "
                             f"[{-width}, {width}) for {path} ({width} columns). "
                             f"Got {label!r} instead.")
        return int(label) % width
    if isinstance(label, str):
        if names is None:
            if label.lstrip("-").isdigit():  # "0" from a command line means index 0
                return _label_index(int(label), names, width, path)
            raise ValueError(f"Label column {label!r} was given by name but {path} has no "
                             "header row; pass the column index instead.")
        if label not in names:
            if label.lstrip("-").isdigit():
                return _label_index(int(label), names, width, path)
            raise ValueError(f"Label column {label!r} not found in {path}; columns are "
                             f"{names}.")
        return names.index(label)
    raise TypeError(f"The 'label' parameter of load_csv must be a column name or an int index. "
                    f"Got {label!r} instead.")


def _parse_labels(cells) -> np.ndarray:
    try:
        values = np.array(cells, dtype=np.float64)
    except ValueError:
        return np.array(cells, dtype=str)
    exact_int = np.isfinite(values) & (np.abs(values) < 2.0**53) & (values == np.round(values))
    if exact_int.all():  # integers that a float64 holds exactly; larger ones stay floats
        return values.astype(np.int64)
    return values


def load_csv(path: str | os.PathLike, label: str | int | None = None, *,
             header: bool | str = "infer", delimiter: str | None = None):
    """Read a numeric CSV file (optionally gzip-compressed) into a float64 matrix and labels.

    The file is parsed by pyarrow (:func:`dpboost.readers.read_table`, about 10 times faster
    than the Python parser it replaced; ``benchmarks/bench_io.py``); the errors below name the
    line and column.  For files with string categories, empty cells or an ID column, declare a
    schema and use :class:`dpboost.tabular.TabularEncoder` instead.

    Parameters
    ----------
    path : str or path-like
        A CSV file (comma, semicolon, tab, pipe or whitespace separated), or a gzip-compressed one
        (detected from its first bytes).
    label : str, int or None, default=None
        The label column: a name from the header row, or an int index (negative counts from
        the end).  None means the last column.  A digit string such as ``"0"`` that is not a
        header name is taken as an index (handy from the command line).
    header : bool or "infer", default="infer"
        Whether the first row holds column names.  ``"infer"``: yes if a cell of the first row
        is not a number where the second row has a number.
    delimiter : str or None, default=None
        Ignored (kept for compatibility): the separator is detected from the first line.

    Returns
    -------
    X : ndarray of shape (n, d), float64
        Every column except the label.  ``d`` is the width of the header (or of every row of
        a headerless file; a row of another width is an error), the same for any neighbouring
        file of the same layout.
    y : ndarray of shape (n,)
        The labels as found in the file: int64 if all are integers, float64 if numbers,
        str otherwise.  Mapping them to {-1, +1} is the caller's job.

    Raises
    ------
    ValueError
        Empty file or no data rows; a row whose length differs from the first row's (the
        message names the line); a non-numeric or empty cell outside the label column (the
        message names the column and line); NaN or infinity (names the first bad row).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "toy.csv"
    >>> _ = p.write_text("a,b,y\\n0.1,0.2,1\\n0.3,0.4,-1\\n")
    >>> X, y = load_csv(p, label="y")
    >>> X.shape, y.tolist()
    ((2, 2), [1, -1])
    """
    return _load_csv(path, label, header=header, with_label=True)


def _load_csv(path, label, *, header, with_label, names_out=None, text_labels=False):
    from dpboost.csv_errors import non_number_error
    from dpboost.readers import field_count, header_names, line_of, read_table, table_format

    path = Path(path)
    if header not in (True, False, "infer"):
        raise ValueError(f"The 'header' parameter of load_csv must be True, False or 'infer'. "
                         f"Got {header!r} instead.")
    if not (path.is_file() or path.is_dir() and table_format(path) == "parquet"):
        raise no_such_file(path, parquet_folders=True)
    names = header_names(path, header)
    has_header = names is not None
    width = len(names) if has_header else field_count(path)
    if with_label and width < 2:
        raise ValueError(f"{path} has a single column; need at least one feature and a label.")
    j_label = _label_index(label, names, width, path) if with_label else -1
    all_names = names if has_header else [str(j) for j in range(width)]
    text = [all_names[j_label]] if with_label else []
    frame = read_table(path, header=has_header, text_columns=text, na_values=None)
    feature_names = [name for j, name in enumerate(all_names) if j != j_label]
    if all(frame[name].dtype.kind in "iuf" for name in feature_names):  # the fast path
        X = np.ascontiguousarray(frame[feature_names].to_numpy(dtype=np.float64))
        return _finish_csv(path, frame, X, all_names, j_label, has_header, with_label,
                           names_out, width, text_labels)
    features = []
    for j, name in enumerate(all_names):
        if j == j_label:
            continue
        col = frame[name]
        values = bad = None
        if col.dtype.kind in "iuf":
            values = col.to_numpy(dtype=np.float64)  # NaN here was written "nan"
        else:
            bad = first_non_number(col)
        if bad is not None:
            row, kind = bad  # the line, never the cell
            what = f"column {name!r} (index {j})" if has_header else f"column {j}"
            raise non_number_error(path, what, kind, line_of(path, row, header=has_header),
                                   has_header)  # or a repeated header row, named so
        if values is None:
            values = col.astype(str).astype(np.float64).to_numpy()
        features.append(values)
    n = len(frame)
    X = np.column_stack(features) if features else np.empty((n, 0))
    X = np.ascontiguousarray(X, dtype=np.float64)
    return _finish_csv(path, frame, X, all_names, j_label, has_header, with_label, names_out,
                       width, text_labels)


def _finish_csv(path, frame, X, all_names, j_label, has_header, with_label, names_out, width,
                text_labels=False):
    from dpboost.readers import line_of

    _check_finite(X, path, lambda row: line_of(path, row, header=has_header))
    if names_out is not None:
        names_out[:] = [all_names[j] for j in range(width) if j != j_label] if has_header \
            else []
    if not with_label:
        return X, None
    cells = frame[all_names[j_label]]
    empty = (cells.isna() | (cells.astype(str) == "")).to_numpy()
    if empty.any():
        bad = int(np.flatnonzero(empty)[0])
        raise ValueError(f"{path}: the label column is empty at line "
                         f"{line_of(path, bad, header=has_header)}.")
    if text_labels:  # declared classes match each cell as written (cli.train._read_numeric)
        return X, np.array([str(v).strip() for v in cells.tolist()], dtype=str)
    y = _parse_labels(cells.astype(str).tolist())
    if y.dtype == np.float64 and not np.all(np.isfinite(y)):
        bad = int(np.flatnonzero(~np.isfinite(y))[0])
        raise ValueError(f"{path}: label is NaN or infinity in row {bad} (line "
                         f"{line_of(path, bad, header=has_header)}).")
    return X, y


def _check_finite(X: np.ndarray, path: Path, line=None) -> None:
    try:
        check_finite_rows(X, name=str(path))
    except ValueError:
        bad = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        where = f"row {bad}" + (f" (line {line(bad)})" if line is not None else "")
        raise ValueError(f"{path} contains NaN or infinity (first bad row: {where}); remove "
                         "or impute those rows first.") from None


def load_libsvm(path: str | os.PathLike, n_features: int | None = None, *,
                index_base: int | None = None):
    """Read a LIBSVM / svmlight file into a dense float64 matrix and its raw labels.

    Uses :func:`sklearn.datasets.load_svmlight_file` (``.gz``/``.bz2`` too) and densifies it.
    The number of features and the index base must be **public**: a model's shape must never
    depend on which features one row happens to use.  Without ``n_features`` the dimension is
    the largest index in the file, and without ``index_base`` whether indices start at 0 or 1
    is guessed from the file; either way a :class:`~dpboost.exceptions.PrivacyLeakWarning`
    says what was read from the data.  (Two neighbouring files, one row using feature 7, or
    feature 0, gave 3, 7 and 4 columns before this was declared.)

    Parameters
    ----------
    path : str or path-like
    n_features : int or None
        Number of columns, declared from public knowledge (e.g. the data's documentation).
        An index beyond it is an error.
    index_base : {0, 1} or None
        Whether feature indices start at 0 or at 1 (LIBSVM's convention is 1).  An index 0 in
        a 1-based file is an error.

    Returns
    -------
    X : ndarray of shape (n, n_features), float64
    y : ndarray of shape (n,), float64 (the labels as written in the file)

    Raises
    ------
    ValueError
        Empty or malformed file, an index outside the declared range, NaN or infinity
        (names the first bad row).
    """
    from sklearn.datasets import load_svmlight_file

    path = Path(path)
    if n_features is not None:
        n_features = check_scalar(n_features, "n_features", "load_libsvm", kind="int", low=1,
                                  closed="left")
    if index_base is not None and (isinstance(index_base, bool) or index_base not in (0, 1)):
        raise ValueError(f"The 'index_base' parameter of load_libsvm must be 0, 1 or None. "
                         f"Got {index_base!r} instead.")
    if not path.is_file():
        raise no_such_file(path)
    try:  # to the first non-blank line; a damaged gzip stream: decode_error's line
        with open_text(path) as handle:
            empty = not any(line.strip() for line in handle)
    except UnicodeDecodeError as exc:
        raise decode_error(path, exc) from None
    if empty:
        raise ValueError(f"{path} is empty: no rows to read.")
    zero_based = "auto" if index_base is None else index_base == 0
    try:
        X, y = load_svmlight_file(str(path), n_features=n_features, dtype=np.float64,
                                  zero_based=zero_based)
    except (OSError, EOFError, zlib.error) as exc:  # gzip's text holds the file's checksum
        raise decode_error(path, exc) from None
    except (ValueError, OverflowError) as exc:  # overflow: an index of 2**31 or more
        check_stream(path)  # a damaged gzip stream first decompresses to garbage
        text = " ".join(str(exc).split())
        if isinstance(exc, OverflowError) and not n_features:
            text = "a feature index is 2**31 or more"
        elif "n_features was set to" in text or isinstance(exc, OverflowError):
            text = (f"a feature index exceeds the declared n_features = {n_features} "
                    f"(index base {index_base if index_base is not None else 'guessed'})")
        elif "Invalid index 0" in text:
            text = "it uses feature index 0 but index_base = 1 was declared"
        else:  # sklearn quotes the bad token (a figure of the data): say which kind, not it
            text = re.sub(r"\s*:?\s*b?'[^']*'", " (a field of the file; not shown)", text)
        raise ValueError(f"{path} is not a valid LIBSVM file: {text}.") from None
    X = np.asarray(X.toarray(), dtype=np.float64)
    if X.shape[0] == 0:
        raise ValueError(f"{path} is empty: no rows to read.")
    leaked = []
    if n_features is None:
        leaked.append(f"the number of features ({X.shape[1]}, the largest index in the file)")
    if index_base is None:
        leaked.append("the index base (0 or 1, guessed from the smallest index in the file)")
    if leaked:
        warnings.warn(f"load_libsvm read {' and '.join(leaked)} from {path.name}: a model "
                      "trained on it has a shape that depends on single rows. Declare "
                      "n_features= and index_base= from public knowledge.",
                      PrivacyLeakWarning, stacklevel=2)
    _check_finite(X, path)
    if not np.all(np.isfinite(y)):
        bad = int(np.flatnonzero(~np.isfinite(y))[0])
        raise ValueError(f"{path}: label is NaN or infinity in row {bad}.")
    return X, np.asarray(y, dtype=np.float64)


_CSV_SUFFIXES = (".csv", ".csv.gz", ".tsv", ".tsv.gz")
_LIBSVM_SUFFIXES = (".svm", ".libsvm", ".svmlight", ".svm.gz", ".libsvm.gz", ".svmlight.gz")


def _looks_like_libsvm(path: Path) -> bool:
    """Whether the first non-blank line reads ``label idx:value ...`` (its comment aside; text
    that is not UTF-8 is not LIBSVM: the table reader then names its line)."""
    try:
        with open_text(path) as handle:
            line = next((ln for ln in (raw.split("#", 1)[0] for raw in handle) if ln.strip()), "")
    except (UnicodeDecodeError, OSError, EOFError):  # not text, or a damaged gzip stream
        return False
    tokens = line.split()
    return (bool(tokens) and "," not in line and is_decimal_number(tokens[0])
            and all(":" in t for t in tokens[1:]))


def load_dataset(path: str | os.PathLike, label: str | int | None = None, *,
                 n_features: int | None = None, index_base: int | None = None):
    """Load a local CSV or LIBSVM file, choosing the reader by extension, then by content.

    ``.csv``/``.csv.gz``/``.tsv`` go to :func:`load_csv`; ``.svm``, ``.libsvm``,
    ``.svmlight`` (optionally ``.gz``) go to :func:`load_libsvm`.  Any other name is read as
    LIBSVM if its first non-blank line looks like ``label idx:value ...``, else as CSV.

    Parameters
    ----------
    path : str or path-like
    label : str, int or None
        CSV label column (see :func:`load_csv`); ignored for LIBSVM files.
    n_features, index_base : int or None
        LIBSVM dimension and index base, declared from public knowledge (see
        :func:`load_libsvm`, which warns ``PrivacyLeakWarning`` without them); ignored for
        CSV files.

    Returns
    -------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), labels as found in the file
    """
    path = Path(path)
    if detect_format(path) == "libsvm":
        return load_libsvm(path, n_features=n_features, index_base=index_base)
    return load_csv(path, label=label)


def detect_format(path: str | os.PathLike) -> str:
    """``"csv"`` or ``"libsvm"``: by extension (see :func:`load_dataset`), else by content."""
    path = Path(path)
    if not path.is_file():
        raise no_such_file(path)
    name = path.name.lower()
    if name.endswith(_CSV_SUFFIXES):
        return "csv"
    if name.endswith(_LIBSVM_SUFFIXES) or _looks_like_libsvm(path):
        return "libsvm"
    return "csv"


def load_features(path: str | os.PathLike, label: str | int | None = None, *,
                  n_features: int | None = None, index_base: int | None = None) -> np.ndarray:
    """Load only the feature matrix of a local CSV or LIBSVM file (for prediction).

    A CSV file is read without a label column unless ``label`` names one, which is then
    dropped; a LIBSVM file's labels are always dropped.  The reader is chosen as in
    :func:`load_dataset`.

    Parameters
    ----------
    path : str or path-like
    label : str, int or None
        CSV column to drop (None: every column is a feature).
    n_features, index_base : int or None
        LIBSVM dimension and index base (e.g. the model's ``n_features_in_``).

    Returns
    -------
    X : ndarray of shape (n, d), float64
    """
    path = Path(path)
    if detect_format(path) == "libsvm":
        return load_libsvm(path, n_features=n_features, index_base=index_base)[0]
    return _load_csv(path, label, header="infer", with_label=label is not None)[0]
