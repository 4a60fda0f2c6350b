"""scikit-learn estimators: HS-StL (Algorithm 5) and its non-private twin.

HS-StL is ``PrivateHalfspaceClassifier``.

``PrivateHalfspaceClassifier`` runs Boost with LazyBregBoost (LB-NxM) and the Gaussian centering
weak learner for a number of rounds ``T`` fixed before training, with the smallest noise that
makes the ``T`` rounds together ``(target_epsilon, target_delta)``-DP.  The output is one
halfspace, ``w = mean_t z_hat_t`` (a proper learner); only ``w``, the per-round ``z_hat_t`` and
what is computed from them and public quantities carry the privacy guarantee.

References
----------
M. Bun, M. L. Carmosino, J. Sorrell. "Efficient, Noise-Tolerant, and Private Learning via
Boosting." COLT 2020. Algorithm 5, Theorems 24, 27, 30, Lemma 38.
"""

from __future__ import annotations


import numpy as np
from sklearn.utils.metaestimators import available_if

from accounting import NonPrivateEvent, calibrate_noise
from accounting.calibration import MAX_TARGET_EPSILON as MAX_EPS, MIN_TARGET_EPSILON as MIN_EPS
from dpboost._validation import (check_choice, check_norm_bound, check_random_state,
                                 check_scalar, warn_if_clipped)
from dpboost.budget_plan import plan_run
from dpboost.clipping import clip_any, clip_rows
from dpboost.defaults import (
    adaptive_kappa,
    adaptive_rounds,
    class_balancing_gain,
    private_count,
    private_norm_scale,
)
from dpboost.halfspace_base import _BoostedHalfspaceBase
from dpboost.input_map import private_input_map
from dpboost.multiclass import declared_n_classes, fit_multiclass, multiclass_plan
from dpboost.privacy_report import build_report
from dpboost.private_platt import private_platt, worthwhile
from dpboost.private_threshold import private_threshold
from dpboost.progress import round_callback
from dpboost.round_ops import is_dask_array
from dpboost.scores import class_probabilities, probabilities
from dpboost.theory import algorithm5_parameters
from dpboost.weak_learners import CenteringHalfspace, GaussianCenteringHalfspace

__all__ = ["BoostedHalfspaceClassifier", "PrivateHalfspaceClassifier", "clip_rows"]

#: Practical-mode defaults of PrivateHalfspaceClassifier (experiment in its docstring).
DEFAULT_N_ROUNDS = 100
DEFAULT_KAPPA = 0.25
DEFAULT_LEARNING_RATE = 5.0
#: Largest lambda: the model barely moves past 1e3; near 1e306 a fit overflowed, row-dependently.
MAX_LEARNING_RATE = 1e6
#: Smallest lambda: below ~1e-306 the class prior ln(r)/lambda overflowed after the first release
MIN_LEARNING_RATE = 1e-9
MAX_ROUNDS = 10**6  #: most rounds (margin=0.001 planned 3.8e9 and ran silently for hours)


def _is_multiclass(estimator, y) -> bool:
    """Three or more classes: declared with ``classes=``, else seen in ``y`` (which warns)."""
    declared = declared_n_classes(estimator)
    return (declared if declared is not None else np.unique(y).size) > 2


class PrivateHalfspaceClassifier(_BoostedHalfspaceBase):
    r"""(epsilon, delta)-DP halfspace learner by boosting (HS-StL, Algorithm 5).

    Boost (Algorithm 1) with LazyBregBoost measures (Algorithm 4) and the Gaussian centering weak
    learner (Theorem 27), ``T`` rounds fixed before training.  Returns one halfspace
    ``coef_ = (1/T) sum_t z_hat_t`` (a proper learner).

    Parameters
    ----------
    target_epsilon : float > 0
    target_delta : float in (0, 1)
        The privacy budget of the whole training run (replace-one neighbours, ``n`` public).
    margin : float in (0, 1], optional
        ``tau``.  Given: **theory mode**, ``kappa = accuracy/4``, ``gamma = tau/8``,
        ``learning_rate = gamma/4`` and ``n_rounds = ceil(16 log(1/kappa)/gamma^2)`` from
        :func:`dpboost.theory.algorithm5_parameters` (Theorem 24, Lemma 38).  Algorithm 5's text
        writes ``lambda = tau/8``; the proof of Theorem 24 (Lemma 38) needs ``lambda = gamma/4 =
        tau/32``, which is what is used.  Explicitly given ``n_rounds``, ``kappa`` or
        ``learning_rate`` override these values (and then the utility guarantee does not apply).
    accuracy : float in (0, 1), default 0.1
        ``alpha`` (theory mode only).
    failure_probability : float in (0, 1), default 0.05
        ``beta`` (theory mode only; enters ``sigma_util``).
    n_rounds, kappa, learning_rate : optional
        **Practical mode** (``margin=None``): ``T``, the density ``kappa`` and ``lambda``
        (default 5; from 1e-9 to 1e6).  Not given, ``kappa`` and ``T`` are learned privately
        (:mod:`dpboost.defaults`): ``kappa = max(min(0.25, 2 p), min(2 p, 0.3, 100 k_1),
        min(0.75, 10 k_1))``, ``p`` the private minority rate and
        ``k_1 = sqrt(d) / (n sqrt(2 rho_T))``, the first measure class-balanced
        (:func:`dpboost.defaults.class_balancing_gain`), and
        ``T = clip(round(2 kappa n sqrt(2 rho_T) / sqrt(d)), 30, min(T_max, 300))`` (Notes).
        When anything is learned, the rows are also centred on a private mean (and, where ``n`` is
        large enough, whitened: :mod:`dpboost.whitening`) and given a constant coordinate
        before boosting (:mod:`dpboost.input_map`), folded back into ``coef_`` and
        ``intercept_``.
    norm_bound : float in [1e-100, 1e100], default 1.0
        ``R``.  Rows with ``||x|| > R`` are clipped row by row to norm ``R``; the noise is
        calibrated to ``R``, never to the data.  The range keeps ``R**2`` (used by the
        mechanisms) far from float64 overflow and underflow
        (:data:`dpboost._validation.NORM_BOUND_RANGE`); rescale the features by a public
        constant for rows outside it.
    classes : array-like of two labels, optional
        The two labels.  If omitted they are inferred from ``y`` with a
        :class:`~dpboost.exceptions.PrivacyLeakWarning` (the label set leaks).
    accounting : {"best", "cks", "paper"}, default "best"
        Conversion used to calibrate the noise (see :func:`accounting.calibrate_noise`).  The
        release is a discrete Gaussian (floating-point safe), accounted through zCDP, so
        ``"exact"`` (the continuous Gaussian's GDP profile) raises ``UnsupportedEventError``.
    sensitivity : {"tight", "paper"}, default "tight"
        Per-round L2 sensitivity ``2R/(kappa n)`` (proof in
        :class:`~dpboost.weak_learners.GaussianCenteringHalfspace`) or the paper's ``4R/(kappa n)``.
    calibration : {"auto", "private", "none"} or None, default "auto"
        ``"private"``: spend 5% of rho on a private score histogram and fit Platt scaling to
        it (:mod:`dpboost.private_platt`): the intercept, and calibrated :meth:`predict_proba`.
        ``"auto"``: the same in practical mode when ``kappa`` or ``n_rounds`` is learned and
        ``n sqrt(rho_cal) >= 100``; below it the same share buys a private cut of the score
        instead (:mod:`dpboost.private_threshold`: the exponential mechanism over public cuts,
        which needs no histogram, and a slope for :meth:`predict_proba`).  None in theory mode or
        when both ``kappa`` and ``n_rounds`` are given (then, as before, the rounds get the
        whole budget).  ``"none"``/None: the homogeneous halfspace.
    diagnostics : bool, default False
        Compute ``diagnostics_`` (NON-PRIVATE statistics of the training data), for binary
        and multiclass fits, in memory and on dask; the model is bit-identical without it.
    multiclass : {"joint", "ovr"}, default "joint"
        With three or more classes: ``"joint"`` releases all K class centres of a round in one
        discrete Gaussian whose sensitivity does not grow with K (:mod:`dpboost.multiclass`);
        ``"ovr"`` runs K binary boosters sharing the budget (noise x sqrt(K)), for comparison.
        ``coef_`` is then (K, d), ``decision_function`` (n, K), ``predict`` the argmax.
    verbose : bool or int, default 0
        Print the planned rounds and an estimated time to stderr before boosting, and a
        progress bar for runs estimated over 3 s (:mod:`dpboost.progress`); multiclass fits
        name the booster (joint, or K one-vs-rest runs).
    random_state : None, int or numpy.random.Generator
        ``None`` draws fresh OS entropy at every fit (what privacy needs); a seed makes the noise
        predictable to whoever knows it (reproducibility only).  A clone, pickle or copy of a
        Generator's estimator gets an independent child stream; clones of an int seed repeat
        the noise and warn once (:class:`~dpboost.halfspace_base.IndependentNoiseCloneMixin`).

    Attributes
    ----------
    coef_, intercept_ : ndarray of shape (n_features,), float
        The private halfspace: ``w = mean_t z_hat_t`` and 0.0 without calibration; with it,
        ``score_scale_ * w`` and Platt's offset, so ``X @ coef_ + intercept_`` is the log-odds.
    boosted_coef_, score_scale_, calibration_, input_scale_ :
        With calibration: the uncalibrated ``w`` (on the scaled rows), the factor applied to
        ``X @ w`` and the :class:`~dpboost.private_platt.PlattFit` (else ``calibration_`` is
        None); ``input_scale_`` is the private input scale folded into ``coef_`` (1.0 when
        not learned, :func:`dpboost.defaults.private_norm_scale`).
    threshold_ : ThresholdFit or None
        On data too small for the histogram (``calibration="auto"``): the private cut and slope
        of the score (:func:`dpboost.private_threshold.private_threshold`); ``score_scale_`` and
        ``intercept_`` then make ``X @ coef_ + intercept_`` the log-odds ``a (u - t)``.
    hypothesis_coefs_ : ndarray of shape (n_rounds, n_features)
        The noisy centres ``z_hat_t / R^2`` over the user's features (private output; used by
        :meth:`staged_decision_function`).
    hypothesis_intercepts_, input_centre_ : ndarray or None
        With the private input map (:mod:`dpboost.input_map`): round ``t``'s hypothesis is
        ``X @ hypothesis_coefs_[t] + hypothesis_intercepts_[t]`` and ``input_centre_`` the
        private mean of the rows (``boosted_coef_`` is then over the ``d + 1`` coordinates).
    released_centres_ : ndarray of shape (n_rounds, d or d + 1)
        The rounds' releases exactly as drawn, ``z_hat_t / R^2`` on the public grid (over the
        mapped coordinates when the rows were centred); everything else is post-processing.
    input_whitening_ : dpboost.whitening.Whitening or None
        The private shrinkage whitening of the input map when ``n`` was large enough to release
        it (:func:`dpboost.whitening.worthwhile`; its 5% share otherwise goes to the rounds);
        its ``applied`` says whether the map used ``M`` (not where the ridge swamps it).
    classes_, n_features_in_ :
        As in scikit-learn.
    privacy_event_ : accounting.DPEvent
        ``SelfComposedEvent(DiscreteGaussianEvent(noise_multiplier), count=n_rounds)`` for the
        rounds alone, else a ``ComposedEvent`` of (count of positives, rounds, score histogram),
        each a discrete Gaussian (:mod:`dpboost.budget_plan`).
    privacy_report_ : dict
        ``rho`` (zCDP), ``mu`` (GDP; None for the discrete Gaussian release), ``delta``, ``epsilon``
        (dict by method plus ``"best"``), ``sigma`` (absolute noise scale per coordinate per round),
        ``noise_ratio``, ``signal_ratio`` (:mod:`dpboost.privacy_report`), ``noise_multiplier``,
        ``sensitivity`` (the effective ``Delta'`` the noise is calibrated to),
        ``sensitivity_exact_arithmetic`` (``2R/(kappa n)``), ``float_error_bound``,
        ``grid_granularity``, ``mechanism``, ``n_rounds``, ``kappa``, ``learning_rate``,
        ``norm_bound``, ``n_samples``, ``sigma_util`` (theory mode: Algorithm 5's utility noise
        level ``tau/(8 c sqrt(log(3T/beta)))``, ``c = sqrt(2)``; else None),
        ``sigma_at_most_sigma_util`` (theory mode; else None), ``utility_guarantee_applies`` (theory
        mode: ``sigma <= sigma_util`` and the Algorithm 5 settings not overridden; else None),
        ``sensitivity_rule``, ``accounting_method``, ``mode``, ``labels_inferred_from_data``,
        ``noise_source`` (fresh, seeded or a Generator: :func:`.privacy_report.noise_source`); and
        ``mechanisms`` (every mechanism that touched the data: name, event, rho, share),
        ``budget_shares``, ``kappa_rule``, ``n_rounds_rule``, ``noisy_positive_count``,
        ``calibration`` (slope, offset, bins), ``threshold`` (the small-data cut and slope, else
        None) and ``predict_proba`` (how the probabilities were obtained).  ``rho``/``epsilon`` are
        for the whole run.
    diagnostics_ : dict
        Only with ``diagnostics=True``; labelled non-private: fraction of training points with
        ``y H(x) <= gamma`` (``gamma = tau/8`` in theory mode, 0 otherwise) beside Theorem 24's
        bound ``kappa``, the largest ``mu_hat(i) kappa n`` over rounds (<= 1 by smoothness) and
        the training accuracy.  Multiclass fits (:mod:`dpboost.multiclass_diagnostics`) hold
        the same keys, with ``H``'s margin the multiclass one (``mean_t clip(s_y - max_{k != y}
        s_k, -1, 1)``; one-vs-rest: the largest over the K class-vs-rest problems), plus
        ``multiclass``, ``n_classes``, ``training_accuracy_by_round`` (the running-mean model's
        argmax after each round), ``fraction_at_cap_by_round`` (rows with ``mu(i) = 1``; mean
        over the K problems for one-vs-rest) and, for one-vs-rest, ``by_class`` (each problem's
        margin fraction, largest ``mu_hat kappa n`` and cap fractions by round).

    Notes
    -----
    The noise is always the smallest that meets ``(target_epsilon, target_delta)`` for this
    ``n``, ``kappa``, ``T`` and sensitivity: ``noise_multiplier`` from
    ``calibrate_noise(target_epsilon, target_delta, count=T, mechanism="discrete_gaussian")``,
    ``sigma = noise_multiplier * Delta'`` with ``Delta' = 2R/(kappa n) + 2E + g sqrt(d)`` (the
    floating-point error bound and the grid of the safe release,
    :mod:`dpboost.mechanisms`).  If ``sigma > sigma_util`` the utility guarantee lapses; privacy
    never does.  Only ``coef_``/``hypothesis_coefs_`` (and what is computed from them with public
    quantities) are covered by the guarantee; ``classes_`` is covered only when ``classes=`` is
    given; ``diagnostics_`` is not covered.  Scaling data into the ball is a preprocessing choice
    outside the guarantee unless its constants are public.  Floating-point arithmetic is *not*
    assumed exact: every released centre is an exact double on a public grid with exact discrete
    Gaussian noise, and the floating-point error of the centre is a public bound included in the
    sensitivity (:mod:`dpboost.mechanisms`).  float32 input keeps its margins pass in float32;
    the released centre is always accumulated in float64.
    BLAS is limited to one thread during boosting (the mat-vecs are memory-bound).

    Practical defaults learn ``kappa`` and ``T`` privately and calibrate the scores privately;
    the root causes they fix are measured in :mod:`dpboost.defaults` (``kappa`` above the
    minority rate: the measure cannot weigh the minority class, held-out AUC 0.32 on letter "A"
    vs rest) and :mod:`dpboost.private_platt` (the offset of ``w`` is the measures' class
    balance, not an error-minimising threshold: ``lambda = 20`` gives 38% positives and accuracy
    0.79 on a9a at an unchanged AUC).  Giving both ``kappa`` and ``n_rounds`` pins the plain
    algorithm (whole budget on the rounds), so ``n_rounds=100, kappa=0.25`` gives the previous
    defaults exactly.

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Algorithm 5, Theorems 24, 27, 30, Lemma 38.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(4000, 5)) / 4  # rows mostly inside norm_bound = 1
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.9, clf.privacy_report_["epsilon"]["best"] <= 1.0
    (True, True)
    """

    def __init__(
        self,
        target_epsilon,
        target_delta,
        *,
        margin=None,
        accuracy=0.1,
        failure_probability=0.05,
        n_rounds=None,
        kappa=None,
        learning_rate=None,
        norm_bound=1.0,
        classes=None,
        accounting="best",
        sensitivity="tight",
        calibration="auto",
        diagnostics=False,
        verbose=0,
        multiclass="joint",
        random_state=None,
    ):
        self.target_epsilon = target_epsilon
        self.target_delta = target_delta
        self.margin = margin
        self.accuracy = accuracy
        self.failure_probability = failure_probability
        self.n_rounds = n_rounds
        self.kappa = kappa
        self.learning_rate = learning_rate
        self.norm_bound = norm_bound
        self.classes = classes
        self.accounting = accounting
        self.sensitivity = sensitivity
        self.calibration = calibration
        self.diagnostics = diagnostics
        self.verbose = verbose
        self.multiclass = multiclass
        self.random_state = random_state

    def _calibrates(self) -> bool:
        """Whether ``fit`` calibrates privately.

        ``"auto"``: in practical mode unless both ``kappa`` and ``n_rounds`` are given (pinned
        settings run the plain algorithm with the whole budget on the rounds, as before).
        """
        if self.calibration is None or self.calibration == "none":
            return False
        if self.calibration == "auto":
            return self.margin is None and (self.kappa is None or self.n_rounds is None)
        return self.calibration == "private"

    def _settings(self) -> dict:
        """Validate the parameters and resolve (n_rounds, kappa, learning_rate) and the mode."""
        owner = type(self).__name__
        s = {
            "epsilon": check_scalar(self.target_epsilon, "target_epsilon", owner, low=MIN_EPS,
                                   high=MAX_EPS, closed="both"),  # calibrate_noise's range
            "delta": check_scalar(self.target_delta, "target_delta", owner, low=0, high=1),
            "alpha": check_scalar(self.accuracy, "accuracy", owner, low=0, high=1),
            "beta": check_scalar(self.failure_probability, "failure_probability", owner,
                                 low=0, high=1),
            "R": check_norm_bound(self.norm_bound, owner),
            "accounting": check_choice(self.accounting, "accounting", owner,
                                       ("best", "exact", "cks", "paper")),
            "sensitivity": check_choice(self.sensitivity, "sensitivity", owner,
                                        ("tight", "paper")),
        }
        if self.calibration is not None:
            check_choice(self.calibration, "calibration", owner, ("auto", "private", "none"))
        if not isinstance(self.diagnostics, (bool, np.bool_)):
            raise TypeError(f"The 'diagnostics' parameter of {owner} must be a bool. "
                            f"Got {self.diagnostics!r} instead.")
        if not isinstance(self.verbose, (bool, np.bool_, int, np.integer)) or self.verbose < 0:
            raise TypeError(f"The 'verbose' parameter of {owner} must be a bool or an int >= 0. "
                            f"Got {self.verbose!r} instead.")
        T = (None if self.n_rounds is None else
             check_scalar(self.n_rounds, "n_rounds", owner, kind="int", low=1,
                          high=MAX_ROUNDS, closed="both"))
        kappa = None if self.kappa is None else check_scalar(self.kappa, "kappa", owner,
                                                             low=0, high=1)
        lr = (None if self.learning_rate is None else
              check_scalar(self.learning_rate, "learning_rate", owner, low=MIN_LEARNING_RATE,
                           high=MAX_LEARNING_RATE, closed="both"))
        if self.margin is not None:
            tau = check_scalar(self.margin, "margin", owner, low=0, high=1, closed="right")
            p = algorithm5_parameters(margin=tau, accuracy=s["alpha"])
            s["mode"] = "theory"
            s["overridden"] = any(v is not None for v in (T, kappa, lr))
            s["tau"], s["gamma"] = tau, p.gamma
            if T is None and p.n_rounds > MAX_ROUNDS:
                raise ValueError(f"margin={tau:g} needs T = {p.n_rounds:,} rounds (Algorithm 5), "
                                 f"over {MAX_ROUNDS:,}: declare a larger margin or n_rounds.")
            T = p.n_rounds if T is None else T
            kappa = p.kappa if kappa is None else kappa
            lr = p.learning_rate if lr is None else lr
        else:
            # Practical mode: kappa and T not given are learned (dpboost.defaults).
            s["mode"], s["overridden"], s["tau"], s["gamma"] = "practical", False, None, 0.0
            lr = DEFAULT_LEARNING_RATE if lr is None else lr
        s["T"], s["kappa"], s["lr"] = T, kappa, lr
        s["calibration"] = self._calibrates()
        return s

    def _plan(self):
        s = self._settings()
        K = declared_n_classes(self) or 2
        if K > 2:  # K >= 3 declared: dpboost.multiclass
            return s, multiclass_plan(self, s, K)
        adaptive = s["kappa"] is None or s["T"] is None or s["calibration"]
        plan = plan_run(s["epsilon"], s["delta"], n_rounds=s["T"],
                        learn_kappa=s["kappa"] is None, calibration=s["calibration"],
                        method=s["accounting"],
                        learn_scale=s["mode"] == "practical" and bool(adaptive),
                        centre=s["mode"] == "practical" and bool(adaptive),
                        whiten=s["mode"] == "practical" and bool(adaptive),
                        calibrate=calibrate_noise)
        return s, plan

    def planned_privacy_event(self):
        """The privacy event :meth:`fit` will spend, from the parameters alone (no data).

        Every mechanism's budget depends only on the parameters (:mod:`dpboost.budget_plan`),
        so a budget ledger can ``check`` a run, or a whole grid search, before any data is
        read, and reserve it so that no concurrent run spends the same budget meanwhile::

            ledger.preflight(); rid = ledger.reserve(est.planned_privacy_event(), "fit")
            est.fit(X, y); ledger.settle(rid, "fit")

        When ``T`` is learned, the rounds appear as ``ZCDPEvent(rho_rounds)``: the same cost
        as the ``T`` rounds ``fit`` will run, whatever ``T`` turns out to be.
        """
        return self._plan()[1].event()

    def fit(self, X, y):
        """Train the private halfspace on ``X`` (rows clipped to ``norm_bound``) and ``y``."""
        # Privacy is fixed from public quantities before the data is looked at.
        s, plan = self._plan()
        from dpboost.sklearn_wrappers import warn_if_in_search  # (a search, a Pipeline)

        warn_if_in_search(type(self).__name__)
        self._forget_fit()
        self._fit_calibrates = s["calibration"]  # predict_proba follows the fit, not set_params
        if is_dask_array(X):  # row-chunked dask array: the same rounds on dask
            from dpboost import distributed

            if (declared_n_classes(self) or 0) > 2:  # (dpboost.distributed_multiclass)
                return fit_multiclass(self, X, y, s)
            X, y_pm = distributed.prepare_fit(self, X, y, s["R"])
        else:
            X, y = self._validate_X_y(X, y)
            if _is_multiclass(self, y):  # one joint release of all K centres per round
                return fit_multiclass(self, X, y, s)
            y_pm = self._encode_labels(y, warn=True)
            if self.diagnostics:  # a noise-free bit of the data: only when asked for
                warn_if_clipped(X, s["R"], type(self).__name__)
            X = clip_rows(X, s["R"])
        n = X.shape[0]
        if s["kappa"] is not None:
            self._check_density(s["kappa"], n)
        rng = check_random_state(self.random_state, owner=type(self).__name__)
        plan.check_drawable(n, X.shape[1], s["T"])  # an absurdly small epsilon: no release yet
        self._start_releases()
        legacy = plan.legacy_noise_multiplier is not None
        rng_count, rng_boost, rng_cal, rng_norms, rng_mean, rng_white = (
            (None, rng, None, None, None, None) if legacy else rng.spawn(6))
        imap = self.input_whitening_ = None
        if plan.rho_mean:  # a private centre (and whitening), a constant coordinate
            imap, plan, self.input_whitening_, X = private_input_map(  # (dpboost.input_map)
                X, s["R"], plan, rng_mean=rng_mean, rng_whitening=rng_white)
            X = clip_any(imap.transform(X), s["R"])
        d = X.shape[1]
        scale = 1.0
        if plan.rho_norms:  # a private input scale (dpboost.defaults.private_norm_scale)
            if is_dask_array(X):
                from dpboost import distributed

                scale = distributed.private_norm_scale_dask(X, s["R"], plan.rho_norms,
                                                            rng=rng_norms)
            else:
                scale = private_norm_scale(X, s["R"], plan.rho_norms, rng=rng_norms)
            if scale > 1.0 and imap is not None and not is_dask_array(X):
                X *= scale  # the mapped rows are this fit's own copy: no third n x d array
                X = clip_rows(X, s["R"])
            elif scale > 1.0:
                X = clip_any(X * scale, s["R"])
        if plan.rho_calibration and self.calibration == "auto" and not worthwhile(
                n, plan.rho_calibration):
            plan = plan.with_threshold_only()  # too little data: a private cut, same budget
        kappa, noisy_count = s["kappa"], None
        if kappa is None:  # the minority rate, privately (dpboost.defaults)
            noisy_count = private_count(np.asarray(y_pm) if is_dask_array(y_pm) else y_pm,
                                        plan.rho_count, rng=rng_count)[0]
            # on centred rows a denser measure is safe and pays on small data (SNR floor)
            kappa = (adaptive_kappa(noisy_count, n, d, plan.rho_rounds) if imap is not None
                     else adaptive_kappa(noisy_count, n))
        # the class-balancing prior: post-processing of the private count (dpboost.defaults).
        # Only when the private calibration sets the threshold: without it the offset of w is
        # the measures' class balance, and a balanced measure predicts the classes about
        # equally often (german credit, epsilon = 2: 50% positives, accuracy 0.56 vs 0.65).
        class_gain = ((0.0, 0.0) if noisy_count is None or not plan.rho_calibration
                      else class_balancing_gain(noisy_count, n, s["lr"]))
        T = s["T"] if s["T"] is not None else adaptive_rounds(kappa, n, d, plan.rho_rounds)
        learner = GaussianCenteringHalfspace(plan.rounds_noise_multiplier(T), kappa, s["R"],
                                             s["sensitivity"])
        event = plan.event(T)
        progress, close = round_callback(type(self).__name__, n, self.n_features_in_, T,
                                         self.verbose, dask=is_dask_array(X))
        try:
            self._run(X, y_pm, kappa=kappa, learning_rate=s["lr"], n_rounds=T,
                      weak_learner=learner, rng=rng_boost, diagnostics=bool(self.diagnostics),
                      gamma=s["gamma"], progress=progress, class_gain=class_gain)
        finally:
            close()
        self.calibration_ = self.threshold_ = None
        self.boosted_coef_ = w = self.coef_
        if plan.rho_calibration:
            self._calibrate(X, y_pm, s["R"], plan, rng_cal)
        # the input scale is folded in, so scores stay linear in the unscaled rows:
        # coef_ = mean_t z_hat_t * score_scale_ exactly (post-processing of the releases)
        self.input_scale_ = scale
        self.score_scale_ *= scale
        if self.score_scale_ != 1.0:
            self.coef_ = w * self.score_scale_
        self.input_centre_ = None
        self.released_centres_ = self.hypothesis_coefs_  # as released: on the public grid
        if imap is not None:  # back to the user's features: one halfspace with an intercept
            self.input_centre_ = imap.mean
            self.hypothesis_coefs_, self.hypothesis_intercepts_ = imap.fold(self.hypothesis_coefs_)
            w_in, b_in = imap.fold(w)
            self.coef_ = w_in * self.score_scale_
            self.intercept_ = float(self.intercept_ + self.score_scale_ * b_in)
        self.privacy_event_ = event
        self.privacy_report_ = self._report(s, plan, learner, event, n, T, kappa, noisy_count)
        return self

    def _calibrate(self, X, y_pm, R, plan, rng) -> None:
        """Private Platt scaling of ``u = x . w / (R ||w||)`` (:mod:`dpboost.private_platt`),
        or on small data a private cut of ``u`` (:mod:`dpboost.private_threshold`)."""
        w = self.coef_
        norm = float(np.linalg.norm(w))
        unit = w / (R * norm) if norm > 0 else w
        if is_dask_array(X):
            from dpboost import distributed

            u, y_pm = distributed.scores_for_calibration(X, unit, y_pm)
        else:
            u = np.asarray(X @ unit.astype(X.dtype), dtype=np.float64)
        if plan.threshold_only:  # log-odds a (u - t): a private cut t and slope a
            cut = private_threshold(u, y_pm, plan.threshold_rho(), X.shape[1], rng=rng)
            a = cut.probability_slope  # the drawn slope, pulled toward a public one
            self.score_scale_ = a / (R * norm) if norm > 0 else a
            self.intercept_ = -a * cut.threshold
            self.threshold_ = cut
            return
        fit = private_platt(u, y_pm, plan.rho_calibration, rng=rng)
        self.score_scale_ = fit.slope / (R * norm) if norm > 0 else fit.slope
        self.intercept_ = fit.offset
        self.calibration_ = fit

    @available_if(lambda self: getattr(self, "_fit_calibrates", self._calibrates()))
    def predict_proba(self, X) -> np.ndarray:
        """Calibrated probabilities ``[1 - p, p]``, ``p = sigmoid(decision_function(X))``.

        Available when the fit calibrates (``calibration="auto"`` in practical mode, or
        ``"private"``): ``p`` is Platt's model fitted to a *private* histogram of the training
        scores (:mod:`dpboost.private_platt`); its cost is in ``privacy_report_``.  When
        ``"auto"`` skipped the histogram because ``n`` is too small
        (:func:`dpboost.private_platt.worthwhile`), ``p = sigmoid(a (u - t))`` with a cut ``t``
        and a slope ``a`` drawn privately (:mod:`dpboost.private_threshold`: the slope by its
        Brier score) and ``privacy_report_["predict_proba"]`` says so.  Multiclass: the softmax
        of the scores, tempered privately by the Brier score (:mod:`dpboost.private_temperature`).
        """
        if is_dask_array(X):
            from dpboost import distributed

            return distributed.predict_proba(self, X)
        X = self._scored_rows(X)  # clipped as in training (post-processing)
        scores = self._scores(X)
        if scores.ndim == 2:  # multiclass: the softmax of the tempered scores
            return class_probabilities(X, scores, self.coef_.T, self.intercept_)
        return probabilities(scores)

    def _report(self, s, plan, learner, event, n, T, kappa, noisy_count) -> dict:
        return build_report(self, s, plan, learner, event, n, T, kappa, noisy_count)


class BoostedHalfspaceClassifier(_BoostedHalfspaceBase):
    """NON-private centering boost: the same skeleton (LazyBregBoost + centering), no noise.

    A baseline for :class:`PrivateHalfspaceClassifier` (same parameters, same output form).
    It offers no privacy: ``privacy_event_`` is ``NonPrivateEvent()``.

    Parameters
    ----------
    n_rounds : int, default 100
    kappa : float in (0, 1), default 0.25
    learning_rate : float in [1e-9, 1e6], default 5.0
    norm_bound : float in [1e-100, 1e100], default 1.0
        Rows are clipped to this norm, as in the private estimator.
    classes : array-like of two labels, optional

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Algorithms 1, 2, 4; Servedio (2003).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.5, 0.1], [-0.4, 0.2], [0.3, -0.3], [-0.6, 0.0]])
    >>> BoostedHalfspaceClassifier(n_rounds=5, kappa=0.5).fit(X, [1, 0, 1, 0]).predict(X).tolist()
    [1, 0, 1, 0]
    """

    def __init__(self, n_rounds=DEFAULT_N_ROUNDS, kappa=DEFAULT_KAPPA,
                 learning_rate=DEFAULT_LEARNING_RATE, norm_bound=1.0, classes=None):
        self.n_rounds = n_rounds
        self.kappa = kappa
        self.learning_rate = learning_rate
        self.norm_bound = norm_bound
        self.classes = classes

    def fit(self, X, y):
        """Train the (non-private) boosted halfspace."""
        owner = type(self).__name__
        T = check_scalar(self.n_rounds, "n_rounds", owner, kind="int", low=1, high=MAX_ROUNDS,
                         closed="both")
        kappa = check_scalar(self.kappa, "kappa", owner, low=0, high=1)
        lr = check_scalar(self.learning_rate, "learning_rate", owner, low=MIN_LEARNING_RATE,
                          high=MAX_LEARNING_RATE, closed="both")
        R = check_norm_bound(self.norm_bound, owner)
        self._forget_fit()
        if is_dask_array(X):
            from dpboost import distributed

            if (declared_n_classes(self) or 0) > 2:
                return fit_multiclass(self, X, y, None)
            X, y_pm = distributed.prepare_fit(self, X, y, R, warn=False)
        else:
            X, y = self._validate_X_y(X, y)
            if _is_multiclass(self, y):
                return fit_multiclass(self, X, y, None)
            y_pm = self._encode_labels(y, warn=False)
            warn_if_clipped(X, R, type(self).__name__)
            X = clip_rows(X, R)
        self._check_density(kappa, X.shape[0])
        self.privacy_event_ = NonPrivateEvent()
        self._run(X, y_pm, kappa=kappa, learning_rate=lr, n_rounds=T,
                  weak_learner=CenteringHalfspace(R), rng=np.random.default_rng(0),
                  diagnostics=False, gamma=0.0)
        return self
