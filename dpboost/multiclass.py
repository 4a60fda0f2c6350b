r"""Private multiclass boosting: one kappa-dense measure, all K class centres released jointly.

A round of the joint booster is LazyBregBoost (Algorithm 4) over examples with a *multiclass*
gain, and a weak learner that releases the ``K x d`` matrix of weighted class sums

.. math:: Z = \sum_i \hat\mu(i)\, e_{y_i} \otimes x_i,
   \qquad z_k = \sum_{i: y_i = k} \hat\mu(i) x_i,

through the same floating-point-safe discrete Gaussian release as the binary learner
(:class:`dpboost.mechanisms.LatticeGaussian`, dimension ``K d``).  The hypothesis scores class
``k`` by ``s_k(x) = clip(x . z_k / R^2, -1, 1)`` and predicts the argmax; its gain on ``(x, y)`` is
``(1 + clip(s_y - max_{k != y} s_k, -1, 1)) / 2`` in ``[0, 1]``, so LB-NxM's smoothness and
slickness (Theorem 24, Lemma 25) hold unchanged.  The final model is ``W = mean_t Z_t``.

**Sensitivity 2R/(kappa n), whatever K.**  Write ``v_i = e_{y_i} (x) x_i``; then
``||v_i|| = ||x_i|| <= R`` and ``Z = sum_i mu_hat(i) v_i``, exactly the binary centre
``sum_i mu_hat(i) y_i x_i`` with ``y_i x_i`` replaced by ``v_i``.  The binary proof
(:class:`dpboost.weak_learners.GaussianCenteringHalfspace`) uses only ``||y_i x_i|| <= R`` and
that neighbours' gains agree off the replaced row (true here: row ``j``'s multiclass gain depends
on ``(x_j, y_j)`` and the hypotheses alone), so it gives ``||Z - Z'||_F <= 2R/(kappa n)``.  The
bound is attained: a row of class ``k`` with ``x' = -x`` that the history misclassifies (capped
in both datasets) moves ``z_k`` by ``2R/(kappa n)`` (:func:`multiclass_round_pair`).  A row that
changes class moves two blocks by orthogonal vectors, at most ``sqrt(2) R / (kappa n)`` plus
the measure's shift, still within the bound.  One-vs-rest, by contrast, changes all K binary
problems at once: its K releases compose and its noise grows by ``sqrt(K)``.

One round is therefore ``DiscreteGaussianEvent(z)``; T rounds compose to the same event as a
binary run, calibrated once.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Algorithm 4, Theorem 24, Lemma 25, Theorem 27.
C. Canonne, G. Kamath, T. Steinke. "The Discrete Gaussian for Differential Privacy." NeurIPS
2020, Theorem 14.
"""

from __future__ import annotations

import math

import numpy as np

from accounting._validation import house_message
from dpboost._validation import (check_choice, check_declared_classes, check_declared_labels,
                                 check_scalar, warn_inferred_classes, warn_unsorted_classes)
from dpboost.lazy_breg import LazyBregBoost
from dpboost.mechanisms import LatticeGaussian, blocked_centre, centre_error_bound
from dpboost.round_ops import is_dask_array

__all__ = [
    "JointCentering",
    "JointGaussianCentering",
    "MulticlassHypothesis",
    "MulticlassLazyBregBoost",
    "boost_joint",
    "boost_one_vs_rest",
    "class_sums",
    "multiclass_gain",
    "multiclass_round_pair",
    "multiclass_rounds",
]


def multiclass_gain(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``(1 + clip(s_y - max_{k != y} s_k, -1, 1)) / 2`` per row, in ``[0, 1]``.

    ``scores`` has shape ``(n, K)`` (already clipped to ``[-1, 1]``); ``y`` holds class indices.

    Examples
    --------
    >>> multiclass_gain(np.array([[0.5, -0.5, 0.0], [0.0, 1.0, 1.0]]), np.array([0, 2])).tolist()
    [0.75, 0.5]
    """
    scores = np.asarray(scores, dtype=np.float64)
    rows = np.arange(scores.shape[0])
    own = scores[rows, y]
    others = scores.copy()
    others[rows, y] = -np.inf
    margin = np.clip(own - others.max(axis=1), -1.0, 1.0)
    return 0.5 * (1.0 + margin)


class MulticlassHypothesis:
    """Class scores ``x -> clip(x . w_k, -1, 1)`` for the rows ``w_k`` of ``coef`` (K, d)."""

    __slots__ = ("coef",)

    def __init__(self, coef: np.ndarray) -> None:
        self.coef = np.asarray(coef, dtype=np.float64)

    def __call__(self, X: np.ndarray) -> np.ndarray:
        dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.float64
        return np.clip(X @ self.coef.T.astype(dtype, copy=False), -1.0, 1.0)


class MulticlassLazyBregBoost(LazyBregBoost):
    """LB-NxM(kappa, lambda) with the multiclass gain (Algorithm 4; see the module docstring).

    The same producer as :class:`dpboost.lazy_breg.LazyBregBoost` (its gain cache and its pure
    :meth:`recompute`); only the per-row gain differs: :func:`multiclass_gain` of the class
    scores, in ``[0, 1]``, so smoothness and slickness hold unchanged.
    """

    def gain(self, h, X, y):
        if is_dask_array(X):  # chunk by chunk (dpboost.distributed_multiclass)
            from dpboost.distributed_multiclass import dask_multiclass_gain

            return dask_multiclass_gain(h.coef, X, y)
        return multiclass_gain(h(X), y)


def class_sums(X: np.ndarray, y: np.ndarray, weights: np.ndarray, n_classes: int) -> np.ndarray:
    """``Z[k] = sum_{i: y_i = k} w_i x_i`` in float64 by :func:`~dpboost.mechanisms.blocked_centre`.

    Rows are expected grouped by class (``y`` sorted; the estimator sorts once before
    boosting, which changes nothing about the multiset the privacy analysis is over), so each
    class is one contiguous slice and the whole matrix costs one pass over ``X``.  Any row order
    gives the same result up to the public error bound.
    """
    if is_dask_array(X):  # one pass over the chunks, same error bound
        from dpboost.distributed_multiclass import dask_class_sums

        return dask_class_sums(X, y, weights, n_classes)
    y = np.asarray(y)
    w = np.asarray(weights, dtype=np.float64)
    Z = np.zeros((n_classes, X.shape[1]), dtype=np.float64)
    if np.all(y[:-1] <= y[1:]):
        bounds = np.searchsorted(y, np.arange(n_classes + 1))
        for k in range(n_classes):
            lo, hi = bounds[k], bounds[k + 1]
            if hi > lo:
                Z[k] = blocked_centre(X[lo:hi], w[lo:hi])
    else:
        for k in range(n_classes):
            rows = np.flatnonzero(y == k)
            if rows.size:
                Z[k] = blocked_centre(X[rows], w[rows])
    return Z


class JointCentering:
    """NON-private joint weak learner: ``Z = sum_i mu_hat(i) e_{y_i} (x) x_i`` (K class sums)."""

    def __init__(self, n_classes: int, norm_bound: float = 1.0) -> None:
        self.n_classes = check_scalar(n_classes, "n_classes", "JointCentering", kind="int",
                                      low=2, closed="left")
        self.norm_bound = check_scalar(norm_bound, "norm_bound", "JointCentering", low=0)

    def fit(self, X, y, mu_hat, *, rng: np.random.Generator) -> MulticlassHypothesis:
        return MulticlassHypothesis(class_sums(X, y, mu_hat, self.n_classes)
                                    / self.norm_bound**2)

    def privacy_event(self, n: int):
        from accounting import NonPrivateEvent

        return NonPrivateEvent()


class JointGaussianCentering(JointCentering):
    r"""Private joint weak learner: the K class sums released by one safe discrete Gaussian.

    Parameters
    ----------
    noise_multiplier : float > 0
        ``z``: one call is ``DiscreteGaussianEvent(z)`` (``1/(2 z^2)``-zCDP), whatever ``K``.
    kappa : float in (0, 1)
    n_classes : int >= 2
    norm_bound : float > 0, default 1.0
    sensitivity : {"tight", "paper"}, default "tight"
        ``2R/(kappa n)`` (proof in the module docstring) or ``4R/(kappa n)``.

    Examples
    --------
    >>> wl = JointGaussianCentering(2.0, 0.25, n_classes=26)
    >>> wl.sensitivity(100)   # no factor of K or sqrt(K)
    0.08
    """

    def __init__(self, noise_multiplier: float, kappa: float, n_classes: int,
                 norm_bound: float = 1.0, sensitivity: str = "tight") -> None:
        super().__init__(n_classes, norm_bound)
        owner = "JointGaussianCentering"
        self.noise_multiplier = check_scalar(noise_multiplier, "noise_multiplier", owner, low=0)
        self.kappa = check_scalar(kappa, "kappa", owner, low=0, high=1)
        self.sensitivity_mode = check_choice(sensitivity, "sensitivity", owner, ("tight", "paper"))

    def sensitivity(self, n: int) -> float:
        """Joint L2 (Frobenius) sensitivity of ``Z``: ``2R/(kappa n)`` or ``4R/(kappa n)``."""
        factor = 2.0 if self.sensitivity_mode == "tight" else 4.0
        return factor * self.norm_bound / (self.kappa * n)

    def mechanism(self, n: int, d: int) -> LatticeGaussian:
        """The release of one round: ``K d`` coordinates, from public quantities only."""
        return LatticeGaussian(sensitivity=self.sensitivity(n),
                               noise_multiplier=self.noise_multiplier,
                               dimension=self.n_classes * d,
                               error_bound=centre_error_bound(n, self.norm_bound))

    def privacy_event(self, n: int):
        from accounting import DiscreteGaussianEvent

        return DiscreteGaussianEvent(noise_multiplier=self.noise_multiplier)

    def fit(self, X, y, mu_hat, *, rng: np.random.Generator) -> MulticlassHypothesis:
        n, d = X.shape
        Z = class_sums(X, y, mu_hat, self.n_classes)
        released = self.mechanism(n, d).release(Z.ravel(), rng=rng)
        return MulticlassHypothesis(released.reshape(self.n_classes, d) / self.norm_bound**2)


def multiclass_round_pair(n: int, kappa: float, n_classes: int, norm_bound: float = 1.0,
                          learning_rate: float = 1.0):
    """Worst-case neighbours for one joint round: ``||Z - Z'||_F = 2R/(kappa n)`` exactly.

    Rows ``j != 0`` are ``R e_2`` of class 1; row 0 is class 0 with ``x = R e_1`` (D) or
    ``x = -R e_1`` (D').  The history gives class 1 score 1 on ``e_2`` rows (gain 1) and scores
    row 0 equally in every class (gain 1/2 in both datasets), repeated until LB-NxM caps row 0
    at 1 in both; the other rows then weigh the same, and only ``z_0`` moves, by
    ``2R/(kappa n)``.  Returns ``(X, X_prime, y, hypotheses)``.
    """
    if kappa * n <= 1.0:
        raise ValueError(f"multiclass_round_pair needs kappa * n > 1; got kappa={kappa}, n={n}.")
    X = np.zeros((n, 2))
    X[0, 0] = norm_bound
    X[1:, 1] = norm_bound
    X_prime = X.copy()
    X_prime[0, 0] = -norm_bound
    y = np.ones(n, dtype=np.int64)
    y[0] = 0
    coef = np.zeros((n_classes, 2))
    coef[1, 1] = 2.0 / norm_bound
    k = math.ceil(2.0 * math.log((n - 1) / (kappa * n - 1)) / learning_rate) + 1
    return X, X_prime, y, [MulticlassHypothesis(coef)] * max(k, 1)


def boost_joint(X: np.ndarray, y: np.ndarray, n_classes: int, *, n_rounds: int, kappa: float,
                learning_rate: float, weak_learner, rng: np.random.Generator,
                callback=None) -> np.ndarray:
    """Run the joint booster for ``n_rounds`` rounds; return the released ``(T, K, d)`` centres.

    ``y`` holds class indices in ``[0, K)``.  Rows are sorted by class once (a permutation: the
    privacy analysis is over the multiset of rows) so each round's class sums are one pass.
    ``callback(t, mu, h)``: as in :func:`dpboost.boost.boost` (progress, diagnostics).
    """
    from dpboost.boost import boost

    if is_dask_array(X):  # no sort: the chunked class sums take any row order
        Xs, ys = X, y
    else:
        order = np.argsort(y, kind="stable")
        Xs, ys = X[order], np.asarray(y)[order]
    H = boost(Xs, ys, measure_producer=MulticlassLazyBregBoost(kappa, learning_rate),
              weak_learner=weak_learner, n_rounds=n_rounds, rng=rng, callback=callback)
    return np.array([h.coef for h in H], dtype=np.float64).reshape(n_rounds, n_classes,
                                                                  X.shape[1])


def boost_one_vs_rest(X: np.ndarray, y: np.ndarray, n_classes: int, *, n_rounds: int,
                      kappa: float, learning_rate: float, make_learner,
                      rng: np.random.Generator, callback=None) -> np.ndarray:
    """K binary LazyBregBoost runs (class k against the rest); return ``(T, K, d)`` halfspaces.

    ``make_learner()`` builds each binary weak learner; ``callback(k)`` (optional) returns the
    :func:`dpboost.boost.boost` callback of problem ``k``.  A replaced row changes all K binary
    problems, so the K runs compose: the caller gives each ``1/K`` of the zCDP budget (noise
    multiplier ``z sqrt(K)``), which is why one-vs-rest's noise grows with ``sqrt(K)``.
    """
    from dpboost.boost import boost
    from dpboost.lazy_breg import LazyBregBoost

    coefs = np.empty((n_rounds, n_classes, X.shape[1]))
    for k, stream in zip(range(n_classes), rng.spawn(n_classes)):
        y_pm = ((y == k).astype(np.int8) * 2 - 1 if is_dask_array(y)
                else np.where(np.asarray(y) == k, 1, -1).astype(np.int8))
        H = boost(X, y_pm, measure_producer=LazyBregBoost(kappa, learning_rate),
                  weak_learner=make_learner(), n_rounds=n_rounds, rng=stream,
                  callback=None if callback is None else callback(k))
        coefs[:, k, :] = np.array([h.coef for h in H])
    return coefs


# ---------------------------------------------------------------------------------------------
# the estimator's multiclass path (PrivateHalfspaceClassifier / BoostedHalfspaceClassifier)
# ---------------------------------------------------------------------------------------------
#: Density of the joint booster's measures when ``kappa`` is not given.  Class balance does not
#: decide it as in the binary case (every class has its own centre); 0.5 was best or within
#: 0.02 of the best in {0.25, 0.3, 0.5} on digits and letter at epsilon 1 and 5 (prototype,
#: benchmarks/bench_multiclass.py), and a smaller kappa multiplies the noise by 1/kappa.
MULTICLASS_KAPPA = 0.5
#: Fewest rounds of a multiclass fit when T is learned.  The binary floor (30) protects data with
#: a strong margin; the joint booster's K class sums share each round's noise, and at a low
#: signal-to-noise ratio fewer rounds won: digits at epsilon = 1 (4 splits) averaged 0.42 with
#: T = 10 against 0.33 with T = 30.
MULTICLASS_MIN_ROUNDS = 10


def multiclass_rounds(kappa: float, n: int, width: int, rho_rounds: float) -> int:
    """``T = clip(round(2 kappa n sqrt(2 rho) / sqrt(width)), 10, T_max(n, width))``.

    The binary rule of :func:`dpboost.defaults.adaptive_rounds` with the released dimension
    ``width`` (``K d`` for the joint release, ``d`` per one-vs-rest problem) and a floor of 10.

    Examples
    --------
    >>> multiclass_rounds(0.5, 1437, 650, 0.022)   # digits at epsilon = 1
    12
    """
    from dpboost.defaults import ROUNDS_PER_SNR, max_rounds

    q = kappa * n * math.sqrt(2.0 * rho_rounds) / math.sqrt(max(width, 1))
    return int(min(max_rounds(n, width), max(MULTICLASS_MIN_ROUNDS, round(ROUNDS_PER_SNR * q))))


def declared_n_classes(estimator) -> int | None:
    """The number of classes declared with ``classes=`` (None when not declared).

    Every fit and every ``planned_privacy_event()`` of the halfspace estimators reads the
    declaration here first, so the parameters that choose the multiclass path are checked
    here too: ``multiclass`` (also for a binary fit, which ignores it) and ``classes`` (a flat
    list of labels that sort together; a nested list was flattened into more classes).
    """
    owner = type(estimator).__name__
    check_choice(getattr(estimator, "multiclass", "joint"), "multiclass", owner,
                 ("joint", "ovr"))
    if estimator.classes is None:
        return None
    expected = "a flat list of labels"
    if isinstance(estimator.classes, (str, bytes, dict)):
        raise TypeError(house_message("classes", owner, expected, estimator.classes))
    check_declared_classes(estimator.classes, owner)
    try:
        classes = np.unique(np.asarray(estimator.classes))
    except (TypeError, ValueError):  # None next to a number, ragged lists
        raise TypeError(house_message("classes", owner, expected,
                                      estimator.classes)) from None
    if np.ndim(estimator.classes) != 1:
        raise ValueError(house_message("classes", owner, expected, estimator.classes))
    if classes.size != len(estimator.classes):  # np.unique merged them: refuse, as a schema
        raise ValueError(f"The 'classes' parameter of {owner} lists a label more than once "
                         f"({list(estimator.classes)!r}); declare each class once.")
    return int(classes.size)


def encode_classes(estimator, y, *, warn: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(classes_, y_index)``: the declared (or, with a PrivacyLeakWarning, observed) classes."""
    owner = type(estimator).__name__
    y = np.asarray(y)
    if estimator.classes is not None:
        classes = check_declared_labels(y, estimator.classes)
        warn_unsorted_classes(owner, estimator.classes)
    else:
        classes = np.unique(y)
        if warn:
            warn_inferred_classes(owner, classes, fix="classes=[...] (which also makes "
                                  "planned_privacy_event() match the spend)")
    return classes, np.searchsorted(classes, y)


def multiclass_plan(estimator, settings: dict, n_classes: int):
    """The budget of a multiclass fit, from the parameters and ``K`` alone.

    The kappa is not learned.  When the estimator calibrates, the calibration's 5% share buys
    the softmax temperature (:mod:`dpboost.private_temperature`), and a joint practical fit's
    count share a class histogram (:mod:`dpboost.multiclass_prior`).  In practical
    mode the private input centre, whitening (released only when ``n`` is large enough:
    :func:`dpboost.whitening.worthwhile`, else its share goes to the rounds) and input scale of
    the binary fit take their declared shares.  One-vs-rest is not whitened: its K binary
    scores have no calibration of their own, and on whitened rows their argmax lost
    (benchmarks/bench_multiclass.py, 3 seeds: letter 0.239 -> 0.217 and 0.227 -> 0.115 at
    epsilon = 1 and 5, margin-10 0.693 -> 0.550 at epsilon = 5), where the joint booster gained
    (letter 0.520 -> 0.577 and 0.596 -> 0.658).  One-vs-rest makes ``K T`` releases.
    """
    from dpboost.budget_plan import plan_run

    s = settings
    ovr = check_choice(getattr(estimator, "multiclass", "joint"), "multiclass",
                       type(estimator).__name__, ("joint", "ovr")) == "ovr"
    releases = None if s["T"] is None else s["T"] * (n_classes if ovr else 1)
    calibrate = estimator._calibrates()  # a softmax temperature (dpboost.private_temperature)
    # T alone keeps the learned input map, as binary fits do; T and kappa pin the plain one
    learn = s["mode"] == "practical" and (s["T"] is None or calibrate or s["kappa"] is None)
    prior = learn and calibrate and not ovr  # a private class histogram (multiclass_prior)
    plan = plan_run(s["epsilon"], s["delta"], n_rounds=releases, learn_kappa=prior,
                    calibration=calibrate, method=s["accounting"], learn_scale=learn,
                    centre=learn, whiten=learn and not ovr)
    return plan.with_temperature() if calibrate else plan


def fit_multiclass(estimator, X: np.ndarray, y: np.ndarray, settings: dict | None):
    """Fit ``K >= 3`` classes (joint booster, or one-vs-rest) for the halfspace estimators.

    ``settings`` is the private estimator's resolved settings (None for the non-private
    :class:`~dpboost.estimator.BoostedHalfspaceClassifier`).  Sets ``classes_``,
    ``hypothesis_coefs_`` (T, K, d), ``coef_`` (K, d), ``intercept_`` (K,), and for the private
    estimator ``privacy_event_`` and ``privacy_report_``.
    """
    from dpboost._validation import check_random_state, warn_if_clipped
    from dpboost.clipping import clip_rows
    from dpboost.defaults import private_norm_scale
    from dpboost.halfspace_base import one_blas_thread
    from dpboost.multiclass_centre import shrunk_input_map  # (dpboost.input_map's, shrunk)
    from dpboost.multiclass_diagnostics import MeasureWatch, multiclass_diagnostics
    from dpboost.multiclass_discriminant import calibrate_scores
    from dpboost.multiclass_prior import fit_prior
    from dpboost.progress import round_callback
    from dpboost.weak_learners import CenteringHalfspace

    private = settings is not None
    owner = type(estimator).__name__
    mode = check_choice(getattr(estimator, "multiclass", "joint"), "multiclass", owner,
                        ("joint", "ovr"))
    if private:
        s = settings
        R, lr = s["R"], s["lr"]
        kappa = s["kappa"] if s["kappa"] is not None else MULTICLASS_KAPPA
    else:
        R, lr, kappa = estimator.norm_bound, estimator.learning_rate, estimator.kappa
    diagnose = private and bool(estimator.diagnostics)
    dask = is_dask_array(X)
    if dask:  # declared classes, rows clipped chunk by chunk (dpboost.distributed_multiclass)
        from dpboost.distributed import clip_rows_dask, private_norm_scale_dask
        from dpboost.distributed_multiclass import prepare_fit_multiclass

        clip, norm_scale = clip_rows_dask, private_norm_scale_dask
        X, y_idx, classes = prepare_fit_multiclass(estimator, X, y, R)
    else:
        clip, norm_scale = clip_rows, private_norm_scale
        classes, y_idx = encode_classes(estimator, y, warn=private)
        if not private or estimator.diagnostics:  # noise-free: private fits only when asked
            warn_if_clipped(X, R, owner)
        X = clip_rows(X, R)
    K = classes.size
    n, d = X.shape
    estimator._check_density(kappa, n)
    scale, imap, temperature, prior, counts, chosen = 1.0, None, None, None, None, None
    with one_blas_thread():
        if not private:
            T = int(estimator.n_rounds)
            rng = np.random.default_rng(0)
            coefs = (boost_joint(X, y_idx, K, n_rounds=T, kappa=kappa, learning_rate=lr,
                                 weak_learner=JointCentering(K, R), rng=rng) if mode == "joint"
                     else boost_one_vs_rest(X, y_idx, K, n_rounds=T, kappa=kappa,
                                            learning_rate=lr, rng=rng,
                                            make_learner=lambda: CenteringHalfspace(R)))
        else:
            plan = multiclass_plan(estimator, s, K)
            rng = check_random_state(estimator.random_state, owner=owner)
            plan.check_drawable(n, d, s["T"], K, joint=mode == "joint")  # before any release
            estimator._start_releases()
            # (streams 4-7 come after the first three: a fit without them draws as before)
            rng_norms, rng_boost, rng_mean, rng_white, rng_temp, rng_prior, rng_pre = rng.spawn(7)
            estimator.input_whitening_ = None
            if plan.rho_mean:  # the private centre (and whitening) of dpboost.input_map
                imap, plan, estimator.input_whitening_, X = shrunk_input_map(  # pre-scaled
                    X, R, plan, rng_mean=rng_mean, rng_whitening=rng_white, rng_prescale=rng_pre)
                X = clip(imap.transform(X), R)
                d = X.shape[1]
            if plan.rho_norms:
                scale = norm_scale(X, R, plan.rho_norms, rng=rng_norms)
                X = clip(X * scale, R) if scale > 1.0 else X
            per_problem = plan.rho_rounds / (1 if mode == "joint" else K)
            width = K * d if mode == "joint" else d
            T = s["T"] if s["T"] is not None else multiclass_rounds(kappa, n, width, per_problem)
            releases = T if mode == "joint" else K * T
            z = plan.rounds_noise_multiplier(releases)
            watch = MeasureWatch(kappa, n, 1 if mode == "joint" else K, T) if diagnose else None
            progress, close = round_callback(owner, n, estimator.n_features_in_, T, n_classes=K,
                                             verbose=estimator.verbose, multiclass=mode, dask=dask)
            callback = _round_callback(progress, watch)
            try:
                if mode == "joint":
                    learner = JointGaussianCentering(z, kappa, K, R, s["sensitivity"])
                    coefs = boost_joint(X, y_idx, K, n_rounds=T, kappa=kappa, learning_rate=lr,
                                        weak_learner=learner, rng=rng_boost,
                                        callback=None if callback is None else callback(0))
                    mech = learner.mechanism(n, d)
                else:
                    from dpboost.weak_learners import GaussianCenteringHalfspace

                    def make():
                        return GaussianCenteringHalfspace(z, kappa, R, s["sensitivity"])

                    coefs = boost_one_vs_rest(X, y_idx, K, n_rounds=T, kappa=kappa,
                                              learning_rate=lr, make_learner=make,
                                              rng=rng_boost, callback=callback)
                    mech = make().mechanism(n, d)
            finally:
                close()
            event = plan.event(releases)
            released, noise_sd = coefs, mech.sigma / (R * R * math.sqrt(T))
            if plan.rho_count:  # class prior (dpboost.multiclass_prior): balanced centres
                coefs, prior, counts = fit_prior(coefs, y_idx, K, plan.rho_count, noise_sd,
                                                 rng=rng_prior)
            prior_step = prior  # the prior's own log pi (the drawn scores may not carry it)
            if plan.temperature:  # temperature and scores (dpboost.multiclass_discriminant)
                chosen = calibrate_scores(
                    X, y_idx, coefs, prior, counts, released=released, noise_sd=noise_sd,
                    white=estimator.input_whitening_, scale=scale, R=R, rng=rng_temp,
                    constant=0.0 if imap is None else imap.constant, rho=plan.threshold_rho())
                prior, temperature = chosen.offsets, chosen.temperature
            if diagnose:  # NON-private (dpboost.multiclass_diagnostics); the model is as without
                estimator.diagnostics_ = multiclass_diagnostics(
                    X, y_idx, coefs, watch, mode=mode, kappa=kappa, gamma=s["gamma"], drawn=(
                        None if temperature is None else (chosen.coefs, temperature.factor, prior)))
    estimator.classes_ = classes
    estimator.released_centres_ = coefs if not private else released  # as drawn (grid)
    hypotheses = estimator.hypothesis_coefs_ = coefs if chosen is None else chosen.coefs
    estimator.hypothesis_intercepts_ = estimator.input_centre_ = None
    estimator.boosted_coef_ = hypotheses.mean(axis=0)
    estimator.input_scale_ = scale
    estimator.score_scale_ = scale
    estimator.coef_ = estimator.boosted_coef_ * scale
    estimator.intercept_ = np.zeros(K)
    if imap is not None:  # one halfspace per class over the user's features (post-processing)
        estimator.input_centre_ = imap.mean
        estimator.hypothesis_coefs_, estimator.hypothesis_intercepts_ = imap.fold(hypotheses)
        w, b = imap.fold(estimator.boosted_coef_)
        estimator.coef_, estimator.intercept_ = w * scale, b * scale
    if temperature is not None:  # calibrated log-odds: predict_proba = softmax (post-processing)
        estimator.score_scale_ = scale * temperature.factor
        estimator.coef_ = estimator.coef_ * temperature.factor
        estimator.intercept_ = estimator.intercept_ * temperature.factor
        if prior is not None:  # + log pi_k: the temperature was drawn for these logits
            estimator.intercept_ = estimator.intercept_ + prior
    estimator.calibration_ = temperature
    if not private:
        from accounting import NonPrivateEvent

        estimator.privacy_event_ = NonPrivateEvent()
        return estimator
    from accounting import ZCDPAccountant
    from dpboost.multiclass_prior import class_prior_entry, rename_count
    from dpboost.privacy_report import add_multiclass_noise, noise_source, whitening_entry

    acc = ZCDPAccountant().compose(event)
    epsilons = acc.epsilons(s["delta"])
    epsilons["best"] = acc.get_epsilon(s["delta"], method="best")
    estimator.privacy_event_ = event
    estimator.privacy_report_ = {
        "rho": acc.rho, "mu": None, "delta": s["delta"], "epsilon": epsilons,
        "multiclass": mode, "n_classes": int(K), "sigma": mech.sigma, "noise_multiplier": z,
        "noise_multiplier_rule": ("one joint release of all K centres per round (sensitivity "
                                  "independent of K)" if mode == "joint" else
                                  "one-vs-rest: K binary runs share the rounds' rho "
                                  "(noise x sqrt(K))"),
        "sensitivity": mech.effective_sensitivity,
        "sensitivity_exact_arithmetic": mech.sensitivity,
        "float_error_bound": mech.error_bound, "grid_granularity": mech.granularity,
        "mechanism": "discrete Gaussian on a public grid (Canonne, Kamath & Steinke 2020)",
        "mechanisms": rename_count(plan.mechanisms(releases)),
        "sensitivity_rule": s["sensitivity"], "n_rounds": T,
        "n_rounds_rule": ("given" if s["T"] is not None else
                          "clip(round(2 kappa n sqrt(2 rho_rounds) / sqrt(width)), 10, T_max)"),
        "kappa": kappa,
        "kappa_rule": "given" if s["kappa"] is not None else f"{MULTICLASS_KAPPA} (multiclass)",
        "class_prior": class_prior_entry(counts, prior_step, temperature is not None and (
            chosen is None or chosen.scores == "boosted centres")),
        "input_centre": None if imap is None else imap.mean.tolist(),
        "input_whitening": None if mode == "ovr" else whitening_entry(estimator, plan),
        "calibration": None if temperature is None else {
            "temperature": temperature.temperature, "score_bound": temperature.bound,
            "n_candidates": temperature.n_candidates, "epsilon_0": temperature.epsilon_0,
            "scores": chosen.scores,
            "rule": "predict_proba = softmax(tau s(x) / B + b), B = R max_k ||w_k||, (scores, "
                    "tau) drawn by the exponential mechanism over the boosted centres (and "
                    "the centres without the class prior when it applies, and, when the "
                    "whitening was used, two regularised discriminants built from the "
                    "released centres, covariance and class counts: "
                    "dpboost.multiclass_discriminant; the first weighted 8 times each other) "
                    "x 2^(j/2), j = 0..32, utility the Brier score as a gain (plus correct "
                    "rows when there are several score families; "
                    "dpboost.private_temperature); folded into coef_ and intercept_"},
        "input_scale": scale, "learning_rate": lr, "norm_bound": R, "n_samples": n,
        "accounting_method": plan.method, "mode": s["mode"],
        "labels_inferred_from_data": estimator.classes is None,
        "noise_source": noise_source(estimator.random_state),
    }
    add_multiclass_noise(estimator.privacy_report_, released, type(estimator).__name__)
    return estimator


def _round_callback(progress, watch):
    """``callback(k)``: problem ``k``'s round callback (the progress bar, the measure watch)."""
    if progress is None and watch is None:
        return None

    def for_problem(k):
        seen = None if watch is None else watch.callback(k)

        def callback(t, mu, h):
            if seen is not None:
                seen(t, mu, h)
            if progress is not None:
                progress(t, mu, h)

        return callback

    return for_problem
