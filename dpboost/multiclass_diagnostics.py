r"""NON-private training statistics of a multiclass fit (``diagnostics=True``).

In memory or on dask.

The multiclass counterpart of the binary ``diagnostics_``
(:meth:`dpboost.halfspace_base._BoostedHalfspaceBase._run`): computed from the training data
WITHOUT privacy, for the data owner only, never written into a model file.  Nothing here
touches the fit's random stream or its releases: the measures are read in the boosting loop's
callback (which cannot change the run) and everything else is computed after the run from the
released per-round centres, so a fit with diagnostics gives the bit-identical model.

* :class:`MeasureWatch`: per round (and, for one-vs-rest, per class-vs-rest problem) the
  largest ``mu_hat(i) kappa n`` (at most 1 by smoothness, Theorem 24) and the fraction of rows
  at the measure's cap ``mu(i) = 1``.  On dask one small gather per round, as in the binary fit.
* :func:`training_statistics`: the training accuracy of the running-mean hypothesis after every
  round (its argmax is the model's prediction, :meth:`staged_decision_function`) and the
  fraction of rows whose margin under Theorem 24's aggregated hypothesis is at most ``gamma``:
  the joint booster's multiclass margin ``mean_t clip(s_y - max_{k != y} s_k, -1, 1)``
  (``2 L / T - 1`` for its cumulative gain ``L``), or, for one-vs-rest, each binary problem's
  ``mean_t y_k clip(x . w_{t,k}, -1, 1)``.  One pass over the rows per round; on dask one
  gather in all.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Theorem 24.
"""

from __future__ import annotations

import numpy as np

from dpboost.round_ops import is_dask_array

__all__ = ["MeasureWatch", "multiclass_diagnostics", "training_statistics"]

NOTE = ("computed from the training data WITHOUT privacy, for the data owner only; not covered "
        "by the guarantee; do not release")


def _measure_stats(mu) -> tuple[float, int, float]:
    """``(max, rows at the cap, total)`` of one measure (one gather for a dask measure)."""
    if is_dask_array(mu):
        from dpboost.distributed import gather

        top, capped, total = gather(mu.max(), (mu >= 1.0).sum(), mu.sum())
    else:
        top, capped, total = mu.max(), np.count_nonzero(mu >= 1.0), mu.sum()
    return float(top), int(capped), float(total)


class MeasureWatch:
    """Reads every round's measure: the largest ``mu_hat(i) kappa n`` and the share at the cap.

    ``watch.callback(k)`` is the ``callback(t, mu, h)`` of :func:`dpboost.boost.boost` for
    problem ``k`` (0 for the joint booster; the class for one-vs-rest).
    """

    def __init__(self, kappa: float, n: int, n_problems: int, n_rounds: int) -> None:
        self.kappa, self.n = kappa, n
        self.max_ratio = np.zeros(n_problems)
        self.at_cap = np.zeros((n_problems, n_rounds))

    def callback(self, k: int):
        def watch(t, mu, h):
            top, capped, total = _measure_stats(mu)
            self.max_ratio[k] = max(self.max_ratio[k], top / total * self.kappa * self.n)
            self.at_cap[k, t] = capped / self.n

        return watch


def _block_statistics(x: np.ndarray, y: np.ndarray, coefs: np.ndarray, ovr: bool,
                      gamma: float, drawn=None) -> tuple[np.ndarray, np.ndarray]:
    """Per round, the rows the running mean classifies right; per problem, margins <= gamma.

    ``drawn``: ``(hypotheses, factor, offsets)`` of the scores the temperature's draw kept
    (:mod:`dpboost.multiclass_discriminant`); the accuracy is then that of the model, the
    class of the largest ``factor * mean_t s_t(x) + offsets``, while the margins stay the
    booster's."""
    from dpboost.multiclass import multiclass_gain

    T, K, _ = coefs.shape
    dtype = x.dtype if x.dtype in (np.float32, np.float64) else np.float64
    running = np.zeros((x.shape[0], K))
    margin = np.zeros((x.shape[0], K) if ovr else x.shape[0])
    signs = np.where(y[:, None] == np.arange(K), 1.0, -1.0) if ovr else None
    correct = np.zeros(T, dtype=np.int64)
    if drawn is not None:
        hyp, factor, offsets = drawn
        hyp, model = np.asarray(hyp, dtype=dtype), np.zeros((x.shape[0], K))
        offsets = 0.0 if offsets is None else offsets
    for t in range(T):
        s = x @ coefs[t].T.astype(dtype, copy=False)  # the scores of the hypotheses
        running += s
        if drawn is None:
            correct[t] = np.count_nonzero(np.argmax(running, axis=1) == y)
        else:
            model += x @ hyp[t].T
            correct[t] = np.count_nonzero(np.argmax(factor * model / (t + 1) + offsets,
                                                    axis=1) == y)
        clipped = np.clip(s, -1.0, 1.0)
        margin += signs * clipped if ovr else 2.0 * multiclass_gain(clipped, y) - 1.0
    low = np.count_nonzero(margin / T <= gamma, axis=0)
    return correct, np.atleast_1d(low)


def _chunk_statistics(x, y, coefs, ovr, gamma, drawn=None):
    """One chunk's :func:`_block_statistics`, boxed (``y`` arrives as a column)."""
    out = np.empty((1,), dtype=object)
    out[0] = _block_statistics(x, y[:, 0], coefs, ovr, gamma, drawn)
    return out


def training_statistics(X, y_index, coefs: np.ndarray, *, ovr: bool, gamma: float,
                        drawn=None):
    """``(correct by round (T,), rows with margin <= gamma per problem (1 or K,))``.

    ``X`` holds the rows as boosted (clipped, and mapped when the fit centred them),
    ``y_index`` the class indices, ``coefs`` the released ``(T, K, d)`` centres, ``drawn``
    the model's scores when a temperature was drawn (:func:`_block_statistics`).  A dask
    ``X`` is reduced chunk by chunk and gathered once.
    """
    coefs = np.asarray(coefs, dtype=np.float64)
    if not is_dask_array(X):
        return _block_statistics(X, np.asarray(y_index), coefs, ovr, gamma, drawn)
    import dask.array as da

    from dpboost.distributed import gather

    if X.numblocks[1] != 1:
        X = X.rechunk({1: -1})
    y_index = y_index.rechunk((X.chunks[0],))
    parts = da.map_blocks(_chunk_statistics, X, y_index[:, None], coefs, ovr, gamma, drawn,
                          drop_axis=1, chunks=((1,) * X.numblocks[0],), dtype=object,
                          meta=np.empty((0,), dtype=object))
    pieces = list(gather(parts))
    return sum(p[0] for p in pieces), sum(p[1] for p in pieces)


def multiclass_diagnostics(X, y_index, coefs: np.ndarray, watch: MeasureWatch, *, mode: str,
                           kappa: float, gamma: float, drawn=None) -> dict:
    """``diagnostics_`` of a multiclass fit (keys in the estimator's docstring).

    ``drawn``: ``(hypotheses, factor, offsets)`` of the model when a temperature was drawn;
    the training accuracies are then the model's (a red team found them to be the boosted
    centres' alone, 0.35 against the model's 0.90, when the draw kept other scores: session
    39).  The margins are the booster's either way."""
    ovr = mode == "ovr"
    T, K, _ = coefs.shape
    n = X.shape[0]
    correct, low = training_statistics(X, y_index, coefs, ovr=ovr, gamma=gamma, drawn=drawn)
    accuracy = (np.asarray(correct) / n).tolist()
    fraction_low = np.asarray(low) / n
    out = {
        "non_private": True,
        "note": NOTE,
        "multiclass": mode,
        "n_classes": int(K),
        "gamma": gamma,
        "fraction_margin_at_most_gamma": float(fraction_low.max()),
        "theorem24_bound": kappa,
        "max_mu_hat_times_kappa_n": float(watch.max_ratio.max()),
        "fraction_at_cap_by_round": watch.at_cap.mean(axis=0).tolist(),
        "training_accuracy": accuracy[-1],
        "training_accuracy_by_round": accuracy,
    }
    if ovr:
        out["by_class"] = {
            "fraction_margin_at_most_gamma": fraction_low.tolist(),
            "max_mu_hat_times_kappa_n": watch.max_ratio.tolist(),
            "fraction_at_cap_by_round": watch.at_cap.tolist(),
        }
    return out
