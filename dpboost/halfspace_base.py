"""What both halfspace estimators share: labels, the boosting loop, prediction and stages.

:class:`~dpboost.estimator.PrivateHalfspaceClassifier` and
:class:`~dpboost.estimator.BoostedHalfspaceClassifier` differ only in their weak learner and in
how they settle their parameters; the label handling (binary; three or more classes go to
:mod:`dpboost.multiclass`), the boosting loop with its diagnostics, and the prediction and
staged methods (numpy, multiclass, and dask arrays through :mod:`dpboost.distributed`) live here.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Algorithms 1, 2 and 4, Theorem 24.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import numbers
import warnings
from collections.abc import Iterator

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data
from threadpoolctl import ThreadpoolController

from dpboost._validation import (check_declared_labels, check_finite_rows,
                                 check_label_cells, check_norm_bound, warn_inferred_classes,
                                 warn_unsorted_classes)
from dpboost.boost import boost
from dpboost.clipping import clip_for_scoring
from dpboost.exceptions import SeededCloneWarning
from dpboost.lazy_breg import LazyBregBoost
from dpboost.round_ops import is_dask_array, zero_gain
from dpboost.scores import largest_class, linear_scores

__all__ = ["IndependentNoiseCloneMixin", "_BoostedHalfspaceBase", "hide_cells_in_errors",
           "one_blas_thread", "one_way_child"]


@functools.lru_cache(maxsize=1)
def _controller() -> ThreadpoolController:
    return ThreadpoolController()  # scans the loaded BLAS libraries once (about 0.4 ms a scan)


def one_blas_thread():
    """Context manager: BLAS limited to one thread (a round's mat-vecs are memory-bound)."""
    return _controller().limit(limits=1, user_api="blas")


#: Whether the int-seed clone warning was shown in this process (tests reset it).
_seeded_clone_warned = [False]


@contextlib.contextmanager
def hide_cells_in_errors():
    """numpy's and scikit-learn's errors about X print its cells, which are private data:
    "could not convert string to float: 'u'", "Expected 2D array, got 1D array instead:
    array=[ 0.12345679 ...]", "Complex data not supported [[ 0.12345679+0.j ...]]" (red team,
    session 37).  Say what to do instead, without them; numpy's DTypePromotionError on a
    column of dates (which prints no cell) is said in words too."""
    try:
        yield
    except (ValueError, TypeError) as exc:  # DTypePromotionError is a TypeError
        text = str(exc)
        if isinstance(exc, ValueError) and "could not convert" in text:
            raise ValueError("X holds text (a string or categorical column): the estimators "
                             "take numbers; encode a table with dpboost.tabular."
                             "TabularEncoder and a schema of public facts.") from None
        if isinstance(exc, ValueError) and "Expected 2D array, got 1D array" in text:
            raise ValueError("X must be 2-D (rows x features) and is 1-D. Reshape your data: "
                             "X.reshape(-1, 1) for one feature, X.reshape(1, -1) for one row "
                             "(its values are not shown: they are private).") from None
        if isinstance(exc, ValueError) and "Complex data not supported" in text:
            raise ValueError("Complex data not supported: the estimators take real numbers "
                             "(its values are not shown: they are private).") from None
        if isinstance(exc, np.exceptions.DTypePromotionError):
            raise TypeError("X holds dates or times beside numbers: the estimators take "
                            "numbers; encode a table with dpboost.tabular.TabularEncoder and a "
                            "schema of public facts (a date is not a type there: turn it into "
                            "a number of public meaning, such as a year).") from None
        raise


def one_way_child(generator: np.random.Generator) -> np.random.Generator:
    """A child stream of ``generator`` that gives away neither its parent nor its siblings.

    ``generator.spawn(1)[0]`` holds ``SeedSequence(entropy, spawn_key)`` with the parent's own
    entropy: a grid search's template pickled with such a child let anyone regenerate every
    sibling stream, the one the released ``best_estimator_`` drew its noise from included
    (spawn key ``(0, 4)``, bit for bit; red team, session 37), even with
    ``random_state=default_rng()`` (fresh OS entropy).  Here the child is seeded with the
    SHA-256 of the spawned child's ``(entropy, spawn_key, pool_size)``: still a function of
    the parent's seed (reproducible) and distinct for each spawn, but its own state names no
    other stream.
    """
    seq = generator.spawn(1)[0].bit_generator.seed_seq  # advances the parent's spawn counter
    digest = hashlib.sha256(repr((seq.entropy, seq.spawn_key, seq.pool_size)).encode()).digest()
    return np.random.Generator(type(generator.bit_generator)(
        np.random.SeedSequence(int.from_bytes(digest, "big"))))


class IndependentNoiseCloneMixin:
    """``sklearn.clone`` hook: a clone draws noise independent of its original's.

    ``clone`` deep-copies parameters, so a clone of an estimator holding a
    ``numpy.random.Generator`` would hold an identical copy of its state: two clones fitted on
    neighbouring data (``cross_validate`` folds, ``GridSearchCV`` candidates) would draw the same
    noise, which cancels in the difference of their releases.  Here a clone instead gets a child
    stream (:func:`one_way_child`, a digest of ``random_state.spawn(1)[0]``'s seed):
    independent of the parent and of every other clone, still reproducible from the parent's
    seed (the parent's spawn counter advances, so successive clones differ), and naming no
    other stream.  An int ``random_state`` is reproducibility by request: clones
    repeat the noise, and a :class:`~dpboost.exceptions.SeededCloneWarning` says so once per
    process.  ``None`` stays ``None`` (fresh OS entropy at every fit).

    The same mixin keeps a *fitted* estimator's pickle (and deep copy) free of a ``Generator``
    ``random_state``: its ``SeedSequence`` and its state after the fit replay the noise of every
    release (PCG64 steps backwards as well as forwards), so a published pickle would publish
    the noise.  The pickle holds ``None`` instead; the estimator in memory is left as given.
    An unfitted one's pickle (and deep copy) gets a child stream, as a clone does: it kept the
    parent's state until session 18, so ``joblib.Parallel`` fitting one estimator on two
    neighbouring datasets drew the same noise twice (the coefficients differed by 0.025,
    against 62.7 for two clones: the changed row showed through).  An int seed is kept: it
    is reproducibility by request.
    """

    def __getstate__(self):
        state = super().__getstate__()
        fitted = any(k.endswith("_") and not k.startswith("__") for k in state)
        random_state = state.get("random_state")
        if isinstance(random_state, np.random.Generator):
            state = {**state, "random_state": None if fitted else one_way_child(random_state)}
        return state

    def __sklearn_clone__(self):
        new = super().__sklearn_clone__()
        random_state = getattr(self, "random_state", None)
        if isinstance(random_state, np.random.Generator):
            new.random_state = one_way_child(random_state)
        elif (isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)
              and not _seeded_clone_warned[0]):
            _seeded_clone_warned[0] = True
            warnings.warn(
                f"{type(self).__name__} with an int random_state={int(random_state)} was cloned: "
                "clones with an int random_state draw identical noise, so fits on overlapping "
                "or neighbouring data (cross-validation folds, grid-search candidates) are not "
                "independent private releases. A seed is for reproducibility only; pass "
                "random_state=numpy.random.default_rng(seed) (each clone gets an independent "
                "child stream) or None.",
                SeededCloneWarning, stacklevel=3)
        return new


class _BoostedHalfspaceBase(IndependentNoiseCloneMixin, ClassifierMixin, BaseEstimator):
    """Shared label handling, prediction and staging for the boosted halfspace classifiers."""

    _owner = "BoostedHalfspace"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True  # K >= 3 classes: dpboost.multiclass
        tags.input_tags.allow_nan = False
        return tags

    # -- fitting helpers ------------------------------------------------------------------
    def _forget_fit(self) -> None:
        """Drop every fitted attribute of an earlier fit (public names ending in ``_``), and
        record the norm bound the new fit clips its rows to (:attr:`norm_bound_`).

        A refit must not keep what the earlier one released: a binary fit's ``threshold_`` or
        ``input_whitening_`` beside a multiclass model, or ``diagnostics_`` (non-private)
        after a refit with ``diagnostics=False``.
        """
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)
        self._release_started = False
        # the bound this fit clips its rows to (both fits call this after checking it):
        # prediction clips to it, even if set_params changes norm_bound afterwards
        self._fit_norm_bound = check_norm_bound(self.norm_bound, type(self).__name__)

    def _start_releases(self) -> None:
        """Mark the point of ``fit`` after which private output may be released: the input
        checks have passed (a ``ValueError``/``TypeError`` before it is bad input that released
        nothing; any failure after it, of any type, may follow a release).  ``dpboost train
        --ledger`` reads it to keep or cancel its reservation."""
        self._release_started = True

    def _validate_X_y(self, X, y):
        check_label_cells(y)  # a missing label, text mixed with numbers: the row, not numpy's
        with hide_cells_in_errors():
            X, y = validate_data(
                self, X, y, dtype=[np.float64, np.float32], ensure_all_finite=False,
                ensure_min_samples=1,
            )
        check_finite_rows(X)
        if self.classes is None:  # declared: a label outside them gets check_declared_labels'
            check_classification_targets(y)
        return X, y

    def _encode_labels(self, y, *, warn: bool) -> np.ndarray:
        """Set ``classes_`` and return labels in {-1, +1} (+1 for ``classes_[1]``)."""
        owner = type(self).__name__
        if self.classes is not None:
            classes = np.unique(np.asarray(self.classes))
            if classes.ndim != 1 or classes.size != 2:
                raise ValueError(
                    f"The 'classes' parameter of {owner} must be a list of at least two distinct "
                    f"labels (two for a binary fit, three or more for multiclass). Got "
                    f"{self.classes!r} instead."
                )
            check_declared_labels(y, classes)
            warn_unsorted_classes(owner, self.classes)  # classes_[1], the positive, is sorted
        else:
            y_type = type_of_target(y, input_name="y", raise_unknown=True)
            classes = np.unique(y)
            if classes.size < 2:
                raise ValueError(
                    f"{owner} can't train when only one class is present in y; declare both "
                    "labels with classes=[negative, positive]."
                )
            if y_type != "binary":
                raise ValueError(
                    "Only binary classification is supported. The type of the target is "
                    f"{y_type}."
                )
            if warn:
                warn_inferred_classes(owner, classes)
        self.classes_ = classes
        return np.where(y == classes[1], 1, -1).astype(np.int8)

    def _check_density(self, kappa: float, n: int) -> None:
        if kappa * n < 1:
            raise ValueError(
                f"The 'kappa' parameter of {type(self).__name__} must be a float in "
                f"[1/n_samples, 1) = [{1 / n:g}, 1) for n_samples={n} (kappa * n_samples >= 1). "
                f"Got {kappa!r} instead."
            )

    def _run(self, X, y_pm, *, kappa, learning_rate, n_rounds, weak_learner, rng, diagnostics,
             gamma, progress=None, class_gain=(0.0, 0.0)):
        """Boost, store the per-round coefficients and their mean, and optional diagnostics.

        ``class_gain``: the public class prior of :class:`~dpboost.lazy_breg.LazyBregBoost`
        (kept as ``class_gain_``).
        """
        nxm = LazyBregBoost(kappa, learning_rate, class_gain)
        self.class_gain_ = tuple(float(g) for g in class_gain)
        n = X.shape[0]
        max_ratio = [0.0]

        def watch(t, mu, h):
            if diagnostics:
                max_ratio[0] = max(max_ratio[0], float(mu.max() / mu.sum()) * kappa * n)
            if progress is not None:
                progress(t, mu, h)

        # One BLAS thread: a round is two memory-bound mat-vecs, and extra threads only
        # contend (measured 0.6 ms vs 7 ms per 50,000 x 20 product on a shared 2-core machine).
        with one_blas_thread():
            H = boost(X, y_pm, measure_producer=nxm, weak_learner=weak_learner,
                      n_rounds=n_rounds, rng=rng,
                      callback=watch if diagnostics or progress is not None else None)
        self.hypothesis_coefs_ = np.array([h.coef for h in H], dtype=np.float64).reshape(
            n_rounds, X.shape[1])
        self.coef_ = self.hypothesis_coefs_.mean(axis=0)
        self.hypothesis_intercepts_ = None
        self.intercept_ = 0.0
        self.score_scale_ = 1.0
        if diagnostics:
            # Include the last hypothesis in the cumulative gain: y H(x) = 2 (L - L_0) / T - 1
            # where H = mean_t clip(h_t) is Theorem 24's aggregated hypothesis and L_0 the
            # class prior the gain starts from (it is no hypothesis's).
            nxm.measure(X, y_pm, H)
            played = nxm.cumulative_gain - zero_gain(X, y_pm, nxm.class_gain)
            margins = 2.0 * played / n_rounds - 1.0
            pred = np.where(X @ self.coef_.astype(X.dtype) > 0, 1, -1)
            self.diagnostics_ = {
                "non_private": True,
                "note": ("computed from the training data WITHOUT privacy, for the data owner "
                         "only; not covered by the guarantee; do not release"),
                "gamma": gamma,
                "fraction_margin_at_most_gamma": float(np.mean(margins <= gamma)),
                "theorem24_bound": kappa,
                "max_mu_hat_times_kappa_n": max_ratio[0],
                "training_accuracy": float(np.mean(pred == y_pm)),
            }

    # -- prediction -----------------------------------------------------------------------
    def _validate_X_predict(self, X):
        check_is_fitted(self)
        with hide_cells_in_errors():
            X = validate_data(self, X, dtype=[np.float64, np.float32], reset=False,
                              ensure_all_finite=False)
        check_finite_rows(X, when="predicting")
        return X

    @property
    def norm_bound_(self) -> float:
        """The norm bound the fit clipped its training rows to: prediction clips rows to it.

        ``norm_bound`` as it was at ``fit`` (a later ``set_params`` does not change the fitted
        model).  A public parameter, so recording it (and saving it with the model,
        :mod:`dpboost.model_io`) releases nothing about the data.
        """
        check_is_fitted(self)
        bound = getattr(self, "_fit_norm_bound", None)  # (None: pickled before session 21)
        return check_norm_bound(self.norm_bound, type(self).__name__) if bound is None else bound

    def _scored_rows(self, X):
        """Checked rows, clipped to :attr:`norm_bound_` as the training rows were
        (:func:`dpboost.clipping.clip_for_scoring`: post-processing, no privacy cost)."""
        return clip_for_scoring(self._validate_X_predict(X), self.norm_bound_)

    def _scores(self, X) -> np.ndarray:
        w = self.coef_.astype(X.dtype)
        w = w.T if w.ndim == 2 else w  # multiclass: (d, K), scores (n, K)
        return linear_scores(X, w) + self.intercept_

    def decision_function(self, X) -> np.ndarray:
        """``clip(X) @ coef_ + intercept_``: positive means ``classes_[1]`` (log-odds when
        calibrated).

        Each row is clipped to :attr:`norm_bound_` first, as the fit clipped its training rows
        (:func:`dpboost.clipping.clip_for_scoring`); rows inside the ball are scored as given.
        Clipping is a fixed public per-row map applied to released weights: post-processing,
        no privacy cost.
        """
        if is_dask_array(X):  # lazy dask array of scores ((n,) or (n, K))
            from dpboost import distributed

            return distributed.decision_function(self, X)
        return self._scores(self._scored_rows(X))

    def predict(self, X) -> np.ndarray:
        """Predicted labels: ``classes_[1]`` where the decision function is positive
        (multiclass: the class of the largest score); rows clipped as in
        :meth:`decision_function`."""
        if is_dask_array(X):
            from dpboost import distributed

            return distributed.predict(self, X)
        X = self._scored_rows(X)
        scores = self._scores(X)
        if scores.ndim == 2:  # (ties between overflowed scores: dpboost.scores)
            return self.classes_[largest_class(X, scores, self.coef_.T, self.intercept_)]
        return self.classes_[(scores > 0).astype(int)]

    def staged_decision_function(self, X) -> Iterator[np.ndarray]:
        """Yield, after each round ``t``, the decision function of the running-mean halfspace.

        ``w_t = (1/t) sum_{s <= t} z_hat_s``, scored as ``score_scale_ (X @ w_t) + intercept_``
        (the final calibration applied to every stage) on the rows clipped to
        :attr:`norm_bound_`; the last stage equals :meth:`decision_function`.  The per-round
        ``z_hat`` and the calibration are released private output, so this costs no extra
        privacy.
        """
        if is_dask_array(X):
            from dpboost import distributed

            yield from distributed.staged_decision_function(self, X)
            return
        X = self._scored_rows(X)
        coefs = self.hypothesis_coefs_
        offsets, base = self._stage_offsets()
        running = np.zeros((X.shape[0],) + coefs.shape[1:-1], dtype=np.float64)
        for t, w in enumerate(coefs, start=1):
            w = w.astype(X.dtype)
            running += X @ (w.T if w.ndim == 2 else w)
            if offsets is not None:
                running += offsets[t - 1]
            yield running / t * self.score_scale_ + base

    def _stage_offsets(self):
        """Per-round offsets of the hypotheses (centred fits) and the stages' common intercept.

        A fit on centred rows (:mod:`dpboost.input_map`) folds round ``t``'s hypothesis into
        ``X @ hypothesis_coefs_[t] + hypothesis_intercepts_[t]``; ``intercept_`` then holds
        ``score_scale_`` times their mean plus the calibration's offset.
        """
        offsets = getattr(self, "hypothesis_intercepts_", None)
        if offsets is None:
            return None, self.intercept_
        return offsets, self.intercept_ - self.score_scale_ * np.mean(offsets, axis=0)
