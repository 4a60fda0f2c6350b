r"""The boosting round on dask arrays: data bigger than one machine, same private fit.

The round itself is not here: :func:`dpboost.boost.boost` with
:class:`~dpboost.lazy_breg.LazyBregBoost` and
:class:`~dpboost.weak_learners.GaussianCenteringHalfspace` runs unchanged on a row-chunked
dask array, through the operations of :mod:`dpboost.round_ops`.  This module holds their dask
implementations and what an estimator needs around them (checking and clipping a dask ``X``
from public quantities only, encoding labels, scoring).

**Per round on dask.**  The newest hypothesis's gain is added chunk by chunk and the ``n``-vector
of cumulative gains is persisted on the workers (never gathered); the projection is found by a
few reductions over it (:mod:`dpboost.distributed_projection`); the centre
``X^T (mu_hat * y)`` is reduced on the workers to one float64 vector per global block of
:data:`~dpboost.mechanisms.CENTRE_BLOCK_ROWS` rows (:func:`~dpboost.mechanisms.block_partials`),
and only those ``ceil(n / B) * d`` numbers reach the client, which adds them with the same
pairwise tree as the in-memory :func:`~dpboost.mechanisms.blocked_centre`; then the noise is
drawn **once, on the client**, by the learner's :class:`~dpboost.mechanisms.LatticeGaussian`.

**Out of core.**  Every per-chunk step is a blockwise task, so dask fuses the read of a chunk
with its clipping, the margins and the gain (first pass), and with the weights and the block
pieces (second pass): a worker holds one chunk of ``X`` per task, and only ``n``-vectors (the
gains, ``mu``) persist.  Read from a spool (:mod:`dpboost.distributed_spool`), a chunk is
mapped from the page cache instead of decoding Parquet again; a round is three or four round
trips (one or two histograms of the gains, the root's bin, the centre pieces).

**Why the privacy analysis and report do not change.**  The released quantity is the same
(``z = sum_i mu_hat(i) y_i x_i`` for the measure of Lemma 9, sensitivity ``2R/(kappa n)`` in
exact arithmetic), rounded to the same public grid with the same discrete Gaussian; only the
order of the floating-point additions differs.  The safe mechanism charges a public error bound
``E`` that holds for any order inside a block and for the pairwise tree across blocks, and a
chunk boundary inside a block only splits it into pieces that are added back (every term still
passes through at most ``B + 1`` roundings, within :func:`~dpboost.mechanisms.centre_error_bound`).
So ``E``, the grid, the noise and the privacy event are identical to the in-memory path; chunk
sizes never enter them.

**Equal results.**  The two backends compute the centre to within a few ulps of each other,
and ``round(f / g)`` on the public grid ``g`` then agrees except when the two float centres
straddle a rounding boundary ``(k + 1/2) g``, where the released coordinate differs by exactly
one grid step (the noise, an integer draw that does not depend on the value, is the same).

**Faults.**  Everything computed on the workers is a deterministic function of the data and
the released hypotheses, so when a worker dies dask recomputes the lost pieces and the round's
centre is the same; the noise is drawn only after the centre has reached the client, by client
code that dask never retries.  If dask gives up, :func:`gather` raises
:class:`DistributedFitError` and ``fit`` stores no model.
"""

from __future__ import annotations

import numpy as np

from dpboost.clipping import clip_rows, working_dtype
from dpboost.mechanisms import CENTRE_BLOCK_ROWS, block_partials, pairwise_sum
from dpboost.round_ops import is_dask_array

__all__ = [
    "DistributedFitError",
    "check_dask_X",
    "check_dask_X_y",
    "class_probabilities",
    "clip_rows_dask",
    "dask_centre",
    "dask_zero_gain",
    "decision_scores",
    "encode_labels_dask",
    "gather",
    "is_dask_array",
    "local_cluster",
    "predict_labels",
]


class DistributedFitError(RuntimeError):
    """A dask computation of a round failed (e.g. workers lost beyond dask's retries).

    Raised before the round's noise is drawn: no model is produced and no noise is spent twice.
    """


def gather(*objs):
    """Compute dask objects and bring the (small) results to the client.

    Every value the boosting round brings to the client passes through here: histograms,
    the distinct gains of one bin, and per-block centre pieces, never an ``n``-vector.
    """
    import dask

    try:
        out = dask.compute(*objs)
    except Exception as exc:  # worker death beyond retries, cancelled futures, ...
        if type(exc).__module__.split(".")[0] not in ("distributed", "dask"):
            raise
        raise DistributedFitError(
            f"A dask computation failed ({type(exc).__name__}: {exc}). No model was produced "
            "and no noise was drawn for the round (or the read of the data) it was computing; "
            "if workers were killed for memory, give them more (--memory-limit) or fewer "
            "(--workers)."
        ) from exc
    return out[0] if len(objs) == 1 else out


def local_cluster(n_workers: int, memory_limit: str | int = "auto", *, quiet: bool = False):
    """A ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker processes.

    The workers keep glibc's default ``malloc`` trimming: dask's default
    ``MALLOC_TRIM_THRESHOLD_=65536`` makes every temporary above 64 KiB a fresh ``mmap`` and its
    pages fresh page faults, which made the per-chunk work of a round 2.5-10x slower on the
    benchmark machine (a histogram pass of 131,072 gains: 6.7 ms instead of 2.7 ms).  Without a
    dashboard the scheduler still serves HTTP, on port 8787 by default, and warns in three
    lines when that port is taken (another cluster, another run): it takes a free port.

    ``quiet=True`` (the command line, whose contract is one line on stderr for an error): the
    workers print nothing.  ``silence_logs`` raises the level of distributed's log handlers
    here and in every worker (restarted ones too), and ``PYTHONWARNINGS=ignore`` is set in each
    worker's environment before it starts; otherwise a worker's "Compute Failed" with the
    task's traceback would print before the error line.
    """
    import logging

    import dask
    from distributed import LocalCluster

    environ = "distributed.nanny.pre-spawn-environ"
    config = {f"{environ}.MALLOC_TRIM_THRESHOLD_": None}
    quiet_kwargs = {}
    if quiet:
        config[f"{environ}.PYTHONWARNINGS"] = "ignore"
        quiet_kwargs["silence_logs"] = logging.CRITICAL
    with dask.config.set(config):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                            dashboard_address=None, memory_limit=memory_limit,
                            scheduler_kwargs={"dashboard_address": ":0"}, **quiet_kwargs)


def row_offsets(chunks: tuple[int, ...]) -> list[int]:
    """The first row of every chunk (public: the chunking depends on ``n`` and the user)."""
    return np.concatenate([[0], np.cumsum(chunks)[:-1]]).astype(int).tolist()


def dask_zero_gain(X):
    """Zeros on the row chunks of ``X``, persisted."""
    import dask.array as da

    return da.zeros(X.shape[0], chunks=(X.chunks[0],), dtype=np.float64).persist()


def _chunk_partials(x: np.ndarray, w: np.ndarray, offsets: list[int], block_id=None
                    ) -> np.ndarray:
    """:func:`block_partials` of one chunk (``w`` a column), as a 1 x 1 object array."""
    out = np.empty((1, 1), dtype=object)
    out[0, 0] = block_partials(x, w[:, 0], offsets[block_id[0]])
    return out


def dask_centre(X, weights) -> np.ndarray:
    """``X^T weights`` for a row-chunked dask ``X``: per-block pieces on the workers, pairwise sum.

    Chunk ``c`` starting at row ``s`` returns :func:`~dpboost.mechanisms.block_partials` of its
    rows (cut at global multiples of ``B``); the client adds the pieces of each block in chunk
    order and then the blocks with :func:`~dpboost.mechanisms.pairwise_sum`.  With chunks that
    are multiples of ``B`` the result is bit for bit the in-memory :func:`blocked_centre` on the
    same memory (on workers OpenBLAS's order may depend on a chunk's alignment: a few ulps).
    The per-chunk task is blockwise, so dask fuses it with whatever produces the chunk (a
    spooled read, the clipping, the weights): a worker holds one chunk of ``X`` per task.
    """
    import dask.array as da

    if X.numblocks[1] != 1:
        X = X.rechunk({1: -1})
    weights = weights.rechunk((X.chunks[0],))
    # one (1, 1) piece per chunk, no axis dropped: dask fuses a blockwise task without a
    # contraction with the tasks that produce its inputs
    parts = da.map_blocks(_chunk_partials, X, weights[:, None], row_offsets(X.chunks[0]),
                          chunks=((1,) * X.numblocks[0], (1,)), dtype=object,
                          meta=np.empty((0, 0), dtype=object))
    results = gather(parts)[:, 0]
    blocks: dict[int, np.ndarray] = {}
    for b0, P in results:  # chunk order: the pieces of one block are added left to right
        for k, piece in enumerate(P):
            blocks[b0 + k] = blocks[b0 + k] + piece if b0 + k in blocks else piece
    if not blocks:
        return np.zeros(X.shape[1], dtype=np.float64)
    return pairwise_sum([blocks[b] for b in sorted(blocks)])


# ---------------------------------------------------------------------------------------------
# what the estimator needs around the round
# ---------------------------------------------------------------------------------------------
def _row_chunked(X, owner: str):
    import dask.array as da

    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D dask array for X in {owner}. Got {X.ndim} dimensions "
                         "instead.")
    if any(np.isnan(c) for c in X.chunks[0]):
        raise ValueError(f"The row chunk sizes of X in {owner} must be known (e.g. "
                         "dataframe.to_dask_array(lengths=True)). Got unknown sizes instead.")
    if X.dtype not in (np.float32, np.float64):
        X = X.astype(np.float64)
    if X.numblocks[1] != 1:
        X = X.rechunk({1: -1})
    return da.asarray(X)


def _check_finite_chunk(block: np.ndarray) -> np.ndarray:
    bad = ~np.isfinite(block).all(axis=1)
    return np.array([int(np.flatnonzero(bad)[0]) if bad.any() else -1])


def check_dask_X(X, owner: str = "dpboost", *, n_features: int | None = None):
    """Check a dask ``X`` (2-D, known row chunks, finite), one chunk along the columns.

    One pass over the data (only one integer per chunk comes back).  ``n_features`` is checked
    against a fitted estimator's ``n_features_in_``.
    """
    X = _row_chunked(X, owner)
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"X has {X.shape[1]} features, but {owner} is expecting {n_features} "
                         "features as input.")
    if X.shape[0] < 1:
        raise ValueError(f"Found array with 0 sample(s) while a minimum of 1 is required by "
                         f"{owner}.")
    firsts = gather(X.map_blocks(_check_finite_chunk, chunks=((1,) * X.numblocks[0],),
                                 drop_axis=1, dtype=np.int64))
    bad = np.flatnonzero(firsts >= 0)
    if bad.size:
        row = row_offsets(X.chunks[0])[int(bad[0])] + int(firsts[bad[0]])
        raise ValueError(f"Input X contains NaN or infinity (first at row {row}).")
    return X


def check_dask_X_y(X, y, owner: str = "dpboost"):
    """Check ``X`` (:func:`check_dask_X`) and ``y`` (1-D, same length), ``y`` on ``X``'s chunks."""
    import dask.array as da

    X = check_dask_X(X, owner)
    y = y if is_dask_array(y) else da.from_array(np.asarray(y), chunks=(X.chunks[0],))
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{X.shape[0]}, {y.shape[0]}].")
    return X, y.rechunk((X.chunks[0],))


def encode_labels_dask(y, classes) -> tuple[np.ndarray, object]:
    """Labels in {-1, +1} (+1 for the larger of the two declared ``classes``), as int8 dask.

    ``classes`` must be given (inferring them would read the data); a label outside them
    raises the in-memory fit's error (:func:`dpboost._validation.check_declared_labels`: the
    first row, the declared classes and a hint, never a label nor a count), from one small
    summary per chunk.
    """
    from dpboost._validation import check_declared_labels

    classes = np.unique(np.asarray(classes))
    if classes.ndim != 1 or classes.size != 2:
        raise ValueError("The 'classes' parameter must be a list of at least two distinct "
                         "labels (two for a binary fit, three or more for multiclass). Got "
                         f"{classes!r} instead.")
    classes = check_declared_labels(y, classes)
    return classes, (y == classes[1]).astype(np.int8) * 2 - 1


def _clip_chunk(block: np.ndarray, norm_bound: float) -> np.ndarray:
    """:func:`dpboost.clipping.clip_rows` of one chunk, with a fast path for float32.

    ``clip_rows`` squares in float64 (an upcast: 5x a BLAS pass over a float32 chunk, paid
    at every read of a spooled chunk).  Squared norms summed in float32 are within relative
    ``gamma = (d + 1) u / (1 - (d + 1) u)``, ``u = 2^-24``, of the exact ones for any order
    of the additions (Higham 2002, Sec. 3.1 and 4.2), so when every one is at most
    ``R^2 (1 - 2 gamma)`` no row's norm reaches ``R`` (by a margin far above float64
    rounding) and ``clip_rows`` would return the chunk unchanged: so is it here.  Otherwise
    (or for NaN, overflow, float64) ``clip_rows`` decides, so the result is always identical.
    """
    import math

    d = block.shape[1] if block.ndim == 2 else 0
    m = (d + 1) * 2.0**-24
    if working_dtype(block.dtype, norm_bound) == np.float32 and block.shape[0] and m < 0.25:
        gamma = m / (1.0 - m)
        with np.errstate(all="ignore"):
            squares = np.einsum("ij,ij->i", block, block)
        if math.sqrt(float(squares.max())) <= norm_bound * math.sqrt(1.0 - 2.0 * gamma):
            return block  # (NaN and inf compare False)
    return clip_rows(block, norm_bound)


def clip_rows_dask(X, norm_bound: float):
    """:func:`dpboost.clipping.clip_rows` chunk by chunk (each row scaled alone: lazy, exact),
    in :func:`dpboost.clipping.working_dtype`."""
    X = X.astype(working_dtype(X.dtype, float(norm_bound)))
    return X.map_blocks(_clip_chunk, float(norm_bound), dtype=X.dtype)


def decision_scores(X, coef: np.ndarray, intercept=0.0):
    """``X @ coef + intercept`` in X's precision, lazily (a dask array of shape (n,)).

    The rows are scored as given: a fitted model's rows are clipped to its norm bound first
    (:func:`dpboost.clipping.clip_for_scoring`, as :func:`decision_function` and
    ``dpboost predict`` do).

    A multiclass ``coef`` of shape (K, d) (``intercept`` of shape (K,)) gives the (n, K)
    scores ``X @ coef.T + intercept``, one column per class.  Each row block is scored whole
    by :func:`dpboost.scores.linear_scores`, as in memory: a finite row near the float limit
    scores ``+-inf``, never NaN.
    """
    import dask.array as da

    from dpboost.scores import linear_scores

    w = np.asarray(coef).astype(X.dtype)
    w = w.T if w.ndim == 2 else w

    def score(block):
        return linear_scores(block, w) + intercept

    dtype = score(np.zeros((1, X.shape[1]), dtype=X.dtype)).dtype
    if w.ndim == 2:
        return da.blockwise(score, "ik", X, "ij", new_axes={"k": w.shape[1]},
                            concatenate=True, dtype=dtype)
    return da.blockwise(score, "i", X, "ij", concatenate=True, dtype=dtype)


def _labels_of(scores: np.ndarray, classes: np.ndarray) -> np.ndarray:
    if scores.ndim == 2:  # multiclass: the class of the largest score
        return classes[np.argmax(scores, axis=1)]
    return classes[(scores > 0).astype(int)]


def predict_labels(scores, classes: np.ndarray, X=None, coef=None, intercept=None):
    """``classes[1]`` where ``scores > 0`` else ``classes[0]``, lazily.

    For (n, K) multiclass scores: the class of the largest score in each row.  Given the rows
    ``X`` and the model's ``coef`` (K, d) and ``intercept`` too, a row whose class scores
    overflowed is ordered by :func:`dpboost.scores.largest_class`, as in memory.
    """
    import dask.array as da

    from dpboost.scores import largest_class

    classes = np.asarray(classes)
    if scores.ndim == 2 and X is not None:
        w = np.asarray(coef, dtype=np.float64).T

        def labels(xb, sb):
            return classes[largest_class(xb, sb, w, intercept)]

        return da.blockwise(labels, "i", X, "ij", scores, "ik", concatenate=True,
                            dtype=classes.dtype)
    if scores.ndim == 2:
        return scores.map_blocks(_labels_of, classes, drop_axis=1, dtype=classes.dtype)
    return scores.map_blocks(_labels_of, classes, dtype=classes.dtype)


def class_probabilities(X, scores, coef, intercept):
    """The softmax of (n, K) ``scores``, lazily; a row whose scores overflowed is one-hot at
    its largest class (:func:`dpboost.scores.class_probabilities`, as in memory)."""
    import dask.array as da

    from dpboost.scores import class_probabilities as in_memory

    w = np.asarray(coef, dtype=np.float64).T

    def proba(xb, sb):
        return in_memory(xb, sb, w, intercept)

    return da.blockwise(proba, "ik", X, "ij", scores, "ik", concatenate=True,
                        dtype=np.float64)


def fit_chunk_rows(n: int, d: int, itemsize: int, target_bytes: int = 64 << 20) -> int:
    """A row chunk of about ``target_bytes`` that is a multiple of the centre block size.

    Chunks that are multiples of :data:`~dpboost.mechanisms.CENTRE_BLOCK_ROWS` make the dask
    centre bit for bit the in-memory one; any chunking is private and correct.
    """
    rows = max(1, target_bytes // max(1, d * itemsize))
    rows = max(CENTRE_BLOCK_ROWS, rows // CENTRE_BLOCK_ROWS * CENTRE_BLOCK_ROWS)
    return int(min(rows, max(1, n)))


# ---------------------------------------------------------------------------------------------
# estimator hooks (what PrivateHalfspaceClassifier.fit / predict call for a dask X)
# ---------------------------------------------------------------------------------------------
def prepare_fit(estimator, X, y, norm_bound: float, *, warn: bool = True):
    """Check, encode and clip a dask ``(X, y)`` for ``estimator.fit``: ``(X, y_pm)``, both lazy.

    Sets ``n_features_in_`` and ``classes_``.  The labels are read only to check them against
    the declared ``classes`` (or, when none are declared, to infer them with the estimator's
    :class:`~dpboost.exceptions.PrivacyLeakWarning`); rows are clipped to ``norm_bound`` chunk
    by chunk, from the public bound only.
    """
    from dpboost._validation import warn_inferred_classes, warn_unsorted_classes

    owner = type(estimator).__name__
    X, y = check_dask_X_y(X, y, owner)
    estimator.n_features_in_ = X.shape[1]
    classes = getattr(estimator, "classes", None)
    if classes is None:
        classes = np.unique(gather(y.map_blocks(np.unique, dtype=y.dtype)))
        if classes.size != 2:
            raise ValueError(f"{owner} on a dask array infers two classes at most; y holds "
                             f"{classes.size} distinct labels. Declare classes=[...] (three or "
                             "more train the multiclass booster on dask).")
        if warn:
            warn_inferred_classes(owner, classes, stacklevel=3)
    else:
        warn_unsorted_classes(owner, classes, stacklevel=3)
    estimator.classes_, y_pm = encode_labels_dask(y, classes)
    return clip_rows_dask(X, norm_bound), y_pm


def _norm_bin_counts(block: np.ndarray, norm_bound: float) -> np.ndarray:
    from dpboost.defaults import norm_bin_counts

    return norm_bin_counts(block, norm_bound)[None, :]


def private_norm_scale_dask(X, norm_bound: float, rho: float, *,
                            rng: np.random.Generator) -> float:
    """:func:`dpboost.defaults.private_norm_scale` on a dask ``X``: exact integer counts per chunk.

    The same bins (:func:`~dpboost.defaults.norm_bin_counts` per chunk) and the same release
    (:func:`~dpboost.defaults.norm_scale_from_counts`, one definition for both backends); only
    ``NORM_BINS`` integers reach the client.
    """
    from dpboost.defaults import NORM_BINS, norm_scale_from_counts

    per_chunk = X.map_blocks(_norm_bin_counts, float(norm_bound),
                             chunks=((1,) * X.numblocks[0], (NORM_BINS,)), dtype=np.int64)
    counts = gather(per_chunk.sum(axis=0))
    return norm_scale_from_counts(counts, X.shape[0], rho, rng=rng)


def positive_count(y_pm) -> int:
    """The number of ``+1`` labels, counted on the workers."""
    return int(gather((y_pm > 0).sum()))


def scores_for_calibration(X, unit: np.ndarray, y_pm) -> tuple[np.ndarray, np.ndarray]:
    """``(X @ unit, y_pm)`` gathered as numpy for private Platt scaling (``9 n`` bytes).

    Platt's histogram needs one score per row; gathering them is the one ``n``-vector this
    module brings to the client (a per-chunk histogram would avoid it: see the issue notes).
    """
    u, yy = gather(decision_scores(X, unit).astype(np.float64), y_pm)
    return np.asarray(u, dtype=np.float64), np.asarray(yy)


def _scored_rows(estimator, X):
    """The checked dask rows of a fitted estimator, clipped chunk by chunk to its
    ``norm_bound_`` as its training rows were (:func:`dpboost.clipping.clip_for_scoring`:
    post-processing, no privacy cost); lazy."""
    from sklearn.utils.validation import check_is_fitted

    from dpboost.clipping import clip_for_scoring

    check_is_fitted(estimator)
    X = check_dask_X(X, type(estimator).__name__, n_features=estimator.n_features_in_)
    return clip_for_scoring(X, estimator.norm_bound_)


def decision_function(estimator, X):
    """The estimator's ``decision_function`` on a dask ``X``: lazy
    ``clip(X) @ coef_ + intercept_``, each row clipped to ``norm_bound_`` as in memory."""
    return decision_scores(_scored_rows(estimator, X), estimator.coef_, estimator.intercept_)


def predict(estimator, X):
    """The estimator's ``predict`` on a dask ``X``, lazily: labels of the clipped rows' scores
    (multiclass ties between overflowed scores broken on the same clipped rows)."""
    X = _scored_rows(estimator, X)
    scores = decision_scores(X, estimator.coef_, estimator.intercept_)
    return predict_labels(scores, estimator.classes_, X, estimator.coef_, estimator.intercept_)


def staged_decision_function(estimator, X):
    """Lazy running-mean scores of the clipped rows after each round (as in memory)."""
    X = _scored_rows(estimator, X)
    offsets, base = estimator._stage_offsets()  # per-round offsets of a centred fit
    running = None
    for t, w in enumerate(estimator.hypothesis_coefs_, start=1):
        w = w.astype(X.dtype)
        step = (X @ (w.T if w.ndim == 2 else w)).astype(np.float64)  # multiclass: (n, K)
        if offsets is not None:
            step = step + offsets[t - 1]
        running = (step if running is None else running + step).persist()
        yield running / t * estimator.score_scale_ + base


def predict_proba(estimator, X):
    """``[1 - p, p]`` with ``p = sigmoid(decision_function)``, lazily (multiclass: softmax,
    one-hot where the scores overflowed, as in memory)."""
    import dask.array as da
    from scipy.special import expit

    X = _scored_rows(estimator, X)
    scores = decision_scores(X, estimator.coef_, estimator.intercept_)
    if scores.ndim == 2:
        return class_probabilities(X, scores.astype(np.float64), estimator.coef_,
                                   estimator.intercept_)
    p = scores.map_blocks(expit, dtype=np.float64)
    return da.stack([1.0 - p, p], axis=1)
