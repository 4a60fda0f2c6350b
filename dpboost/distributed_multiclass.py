r"""The multiclass round on dask arrays: the joint booster (and one-vs-rest) beside the binary one.

The round is not here: :func:`dpboost.multiclass.boost_joint` runs
:func:`dpboost.boost.boost` with :class:`~dpboost.multiclass.MulticlassLazyBregBoost` and
:class:`~dpboost.multiclass.JointGaussianCentering` unchanged on a row-chunked dask array, as
the binary round does (:mod:`dpboost.distributed`).  This module holds the two operations
whose numpy versions do not apply to a dask array, and the checks around them:

* :func:`dask_multiclass_gain`: the per-row gain of :func:`~dpboost.multiclass.multiclass_gain`
  of a hypothesis's class scores, chunk by chunk (lazy; the cumulative gain is persisted on the
  workers by :func:`dpboost.round_ops.add_gain`, never gathered);
* :func:`dask_class_sums`: the ``K`` class sums ``Z[k] = sum_{i: y_i = k} mu_hat(i) x_i`` of a
  round, one pass over the chunks: each chunk returns, per class, the per-block pieces of
  :func:`~dpboost.mechanisms.block_partials` of its rows of that class (``O(n d)`` in all),
  and the client adds them exactly as :func:`dpboost.distributed.dask_centre` adds one
  centre.

**What a round releases does not change.**  The released value is the same ``K x d`` matrix of
class sums, released by the same :meth:`~dpboost.multiclass.JointGaussianCentering.mechanism`
(joint sensitivity ``2R/(kappa n)``, the same public grid, the same discrete Gaussian, drawn
once on the client).  Its public float error bound still holds: class ``k``'s sum keeps the
global blocks of ``n`` rows (a block's class-``k`` rows are a subset of the block, reduced as
the block would be, and the blocks are added by the same pairwise tree), so each term passes
through at most the roundings :func:`~dpboost.mechanisms.centre_error_bound` counts for ``n``
rows and class ``k`` errs in L2 by at most
``gamma_m sum_{i: y_i = k} w_i ||x_i||``; every row belongs to one class, so the Frobenius
error of all ``K`` sums is at most ``gamma_m sum_i w_i ||x_i||``, the bound charged in memory.
The privacy event, the report and the model are the in-memory ones; only the order of the
floating-point additions differs (so a released coordinate can differ by one grid step where
the two float sums straddle a rounding boundary).

**Labels.**  On dask the classes must be declared (``classes=`` or the schema's label): reading
them from ``y`` would release the set of labels present.  A label outside the declared classes
is one error, summarised per chunk and gathered once.
"""

from __future__ import annotations

import numpy as np

from dpboost.mechanisms import CENTRE_BLOCK_ROWS, block_partials, pairwise_sum

__all__ = ["dask_class_sums", "dask_multiclass_gain", "encode_classes_dask",
           "prepare_fit_multiclass"]


def encode_classes_dask(y, classes) -> tuple[np.ndarray, object]:
    """``(classes_, y_index)``: the declared classes (sorted) and ``y`` as class indices (lazy).

    A label outside ``classes`` raises one ``ValueError``
    (:func:`dpboost._validation.check_declared_labels`: one small summary per chunk is
    gathered).
    """
    from dpboost._validation import check_declared_labels

    classes = check_declared_labels(y, classes)
    return classes, y.map_blocks(_class_index, classes, dtype=np.int64)


def _class_index(block: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return np.searchsorted(classes, block).astype(np.int64)


def prepare_fit_multiclass(estimator, X, y, norm_bound: float):
    """Check, encode and clip a dask ``(X, y)`` of ``K >= 3`` declared classes.

    Returns ``(X clipped, y as class indices, classes_)``, lazily; sets ``n_features_in_``.
    The classes must be declared (``classes=``); rows are clipped to ``norm_bound`` chunk by
    chunk, from the public bound only.
    """
    from dpboost._validation import warn_unsorted_classes
    from dpboost.distributed import check_dask_X_y, clip_rows_dask

    owner = type(estimator).__name__
    if estimator.classes is None:
        raise ValueError(f"{owner} on a dask array needs declared classes (classes=[...]): "
                         "reading them from y would release the set of labels present.")
    X, y = check_dask_X_y(X, y, owner)
    estimator.n_features_in_ = X.shape[1]
    classes, y_index = encode_classes_dask(y, estimator.classes)
    warn_unsorted_classes(owner, estimator.classes)
    return clip_rows_dask(X, norm_bound), y_index, classes


def _gain_chunk(x: np.ndarray, y: np.ndarray, coef: np.ndarray) -> np.ndarray:
    from dpboost.multiclass import MulticlassHypothesis, multiclass_gain

    return multiclass_gain(MulticlassHypothesis(coef)(x), y[:, 0])


def dask_multiclass_gain(coef: np.ndarray, X, y_index):
    """:func:`~dpboost.multiclass.multiclass_gain` of the scores ``clip(X coef^T, -1, 1)``, lazily.

    ``coef`` is a released hypothesis's ``(K, d)`` matrix; the result is a dask ``(n,)``
    float64 array on ``X``'s row chunks.
    """
    import dask.array as da

    y_index = y_index.rechunk((X.chunks[0],))
    return da.map_blocks(_gain_chunk, X, y_index[:, None], np.asarray(coef, dtype=np.float64),
                         drop_axis=1, chunks=(X.chunks[0],), dtype=np.float64,
                         meta=np.empty((0,), dtype=np.float64))


def _chunk_class_partials(x: np.ndarray, w: np.ndarray, y: np.ndarray, offsets: list[int],
                          n_classes: int, block_id=None) -> np.ndarray:
    """Per class and global block, :func:`block_partials` of the chunk's rows of that class.

    One pass: the rows of each global block piece are grouped by class (a stable argsort of
    at most ``B`` labels) and each group is reduced alone, so a round costs ``O(n d)`` as in
    memory, not ``K`` passes.  A group is a subset of one block's rows, reduced as that block
    would be.  Returns a 1 x 1 object array holding ``(b0, P)`` with ``P`` of shape
    ``(K, pieces, d)``.
    """
    B = CENTRE_BLOCK_ROWS
    first, n = offsets[block_id[0]], x.shape[0]
    labels, weights = y[:, 0], w[:, 0]
    b0 = first // B
    n_blocks = 0 if n == 0 else (first + n - 1) // B - b0 + 1
    P = np.zeros((n_classes, n_blocks, x.shape[1]), dtype=np.float64)
    for j in range(n_blocks):
        start = (b0 + j) * B  # the global block's first row
        lo, hi = max(0, start - first), min(n, start + B - first)
        order = lo + np.argsort(labels[lo:hi], kind="stable")
        bounds = np.searchsorted(labels[order], np.arange(n_classes + 1))
        for k in range(n_classes):
            rows = order[bounds[k]:bounds[k + 1]]
            if rows.size:
                P[k, j] = block_partials(x[rows], weights[rows], start)[1][0]
    out = np.empty((1, 1), dtype=object)
    out[0, 0] = (b0, P)
    return out


def dask_class_sums(X, y_index, weights, n_classes: int) -> np.ndarray:
    """``Z[k] = sum_{i: y_i = k} w_i x_i`` for a row-chunked dask ``X``, in one pass.

    The client adds the pieces of each global block in chunk order, then the blocks with
    :func:`~dpboost.mechanisms.pairwise_sum`, class by class: the order of
    :func:`dpboost.distributed.dask_centre`, within the same public error bound (module
    docstring).
    """
    import dask.array as da

    from dpboost.distributed import gather, row_offsets

    if X.numblocks[1] != 1:
        X = X.rechunk({1: -1})
    rows = (X.chunks[0],)
    parts = da.map_blocks(_chunk_class_partials, X, da.asarray(weights).rechunk(rows)[:, None],
                          y_index.rechunk(rows)[:, None], row_offsets(X.chunks[0]), n_classes,
                          chunks=((1,) * X.numblocks[0], (1,)), dtype=object,
                          meta=np.empty((0, 0), dtype=object))
    blocks: dict[int, np.ndarray] = {}
    for b0, P in gather(parts)[:, 0]:  # P: (K, pieces, d)
        for j in range(P.shape[1]):
            blocks[b0 + j] = blocks[b0 + j] + P[:, j] if b0 + j in blocks else P[:, j]
    Z = np.zeros((n_classes, X.shape[1]), dtype=np.float64)
    if blocks:
        ordered = [blocks[b] for b in sorted(blocks)]
        for k in range(n_classes):
            Z[k] = pairwise_sum([B[k] for B in ordered])
    return Z
