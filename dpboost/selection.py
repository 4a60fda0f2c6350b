r"""Private hyperparameter selection: the best of a random number of private runs (PS22).

:class:`PrivateSelection` tunes :class:`~dpboost.estimator.PrivateHalfspaceClassifier` on the
private data inside one ``(target_epsilon, target_delta)`` budget.  The base algorithm ``Q``

1. picks one configuration uniformly at random from ``candidates`` (public),
2. trains it on the training part of a data-independent random split with zCDP budget
   ``rho_train`` (the estimator's own mechanisms, accounted with CKS20),
3. scores it by the number of correct predictions on the held-out part plus discrete Gaussian
   noise (replace-one sensitivity 1, budget ``rho_score``; every row is in one part only, so
   ``Q`` is ``rho_Q = rho_train + rho_score``-zCDP by composition).

``Q`` runs ``K ~ D_{eta, gamma}`` times (truncated negative binomial; default ``eta = 0``, the
logarithmic distribution, with ``E[K]`` about 1.5 times the number of candidates) and only the
best run's model and configuration are released.  By Papernot & Steinke (2022, Theorem 2) this
is :class:`accounting.TNBSelectionEvent` ``(rho_Q, eta, gamma)``; ``rho_Q`` is the largest
value whose RDP curve converts (CKS20 Prop. 12) to at most ``target_epsilon`` at
``target_delta``, fixed before any data is read, so :meth:`planned_privacy_event` can be
checked against a ledger.  The fit's wall time reveals ``K`` (about a second per run) unless
``time_padding_share`` pads every fit to ``max(K, K_pad)`` runs (a ``delta`` share, and about
45 times ``E[K]`` runs at the defaults).  The price of tuning is real: at ``epsilon = 1``,
``delta = 1e-6`` with 5 candidates each run gets about a quarter of the ``rho`` a single
default fit gets.

Plain ``GridSearchCV`` over ``PrivateHalfspaceClassifier`` spends the whole budget on *every*
fit (and its selection is not private); the estimator warns once per process when it is fitted
from inside ``sklearn.model_selection`` (:func:`warn_if_in_search`).

References
----------
N. Papernot, T. Steinke. "Hyperparameter Tuning with Renyi Differential Privacy." ICLR 2022,
Theorem 2.  J. Liu, K. Talwar. "Private selection from private candidates." STOC 2019.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from accounting import TNBSelectionEvent, ZCDPAccountant, cks_epsilon
from accounting.selection import padding_runs, rdp_epsilon, selection_rdp
from dpboost._validation import (
    check_declared_labels,
    check_finite_rows,
    check_random_state,
    check_scalar,
    warn_inferred_classes,
    warn_unsorted_classes,
)
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.halfspace_base import IndependentNoiseCloneMixin, hide_cells_in_errors
from dpboost.mechanisms import lattice_variance, sample_discrete_gaussian
from dpboost.privacy_report import (
    noise_source,
    warn_if_delta_large,
    withhold_fit_warnings,
)
from dpboost.round_ops import is_dask_array
from dpboost.sklearn_wrappers import BudgetPerFitWarning, warn_if_in_search

__all__ = ["DEFAULT_CANDIDATES", "BudgetPerFitWarning", "PrivateSelection", "warn_if_in_search"]

DEFAULT_CANDIDATES = (
    {},
    {"learning_rate": 2.0},
    {"learning_rate": 10.0},
    {"n_rounds": 30},
    {"n_rounds": 300},
)
#: Share of each run's rho spent on the noisy validation score.
SCORE_SHARE = 0.1
#: Parameters of every run that the search itself sets (a candidate may not override them).
#: ``verbose`` and ``diagnostics`` stay off: a run's plan line on stderr (or its non-private
#: statistics) would tell how many runs there were (K) and every run's learned T.
_SET_BY_SEARCH = frozenset({"target_epsilon", "target_delta", "classes", "accounting",
                            "random_state", "verbose", "diagnostics"})


def _gamma_for(expected_runs: float, eta: float) -> float:
    """The ``gamma`` giving ``E[K] = expected_runs`` (bisection; ``E[K]`` falls as gamma grows)."""
    lo, hi = 1e-12, 1.0 - 1e-12
    for _ in range(200):
        mid = math.sqrt(lo * hi) if hi / lo > 4 else 0.5 * (lo + hi)
        if TNBSelectionEvent(1.0, eta, mid).expected_runs > expected_runs:
            lo = mid
        else:
            hi = mid
    return hi


def _base_rho(eps: float, delta: float, eta: float, gamma: float) -> float:
    """Largest ``rho_Q`` whose selection event is ``(eps, delta)``-DP (bisection, conservative)."""
    def epsilon(rho):
        ev = TNBSelectionEvent(rho, eta, gamma)
        return rdp_epsilon(lambda a: selection_rdp(ev, a), delta, "cks")

    # a relative margin of 1e-9: the float sum in rdp_epsilon rounds, and without it the
    # largest rho it accepts converts (in exact arithmetic) to up to 2 ulp above the target
    target = eps * (1.0 - 1e-9)
    lo, hi = 0.0, 1.0
    while epsilon(hi) <= target:
        hi *= 4.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if epsilon(mid) <= target:
            lo = mid
        else:
            hi = mid
    if lo == 0.0:
        raise ValueError(
            f"The budget epsilon={eps!r} is too small for private selection with E[K] = "
            f"{TNBSelectionEvent(1.0, eta, gamma).expected_runs:.3g} runs (the log E[K] term "
            "alone exceeds it); use fewer candidates or a single PrivateHalfspaceClassifier.")
    return lo


#: Most runs one search may draw.  A draw beyond it is refused, never truncated: Theorem 2
#: holds for ``K ~ D_{eta, gamma}``, not for ``min(K, cap)``.
MAX_RUNS = 100_000


def _sample_tnb(eta: float, gamma: float, rng: np.random.Generator) -> int:
    """One draw of ``K ~ D_{eta, gamma}`` by inverting its CDF (data-independent).

    The pmf by its recurrence ``P[K = k + 1] = P[K = k] (1 - gamma) (k + eta) / (k + 1)``
    (one step per ``k``; :func:`~accounting.selection.tnb_pmf` costs ``k`` steps).
    """
    from accounting.selection import tnb_pmf

    u = rng.random()
    k, p = 1, tnb_pmf(1, eta, gamma)
    cdf = p
    while cdf < u and k < MAX_RUNS:
        p *= (1.0 - gamma) * (k + eta) / (k + 1)
        k += 1
        cdf += p
    if cdf < u:
        raise ValueError(
            f"PrivateSelection drew more than {MAX_RUNS:,} runs (E[K] = "
            f"{TNBSelectionEvent(1.0, eta, gamma).expected_runs:.3g}); lower expected_runs or "
            "use fewer candidates. (The draw does not depend on the data.)")
    return k


class _Run:
    """One run of the base algorithm ``Q``: a random candidate, trained, privately scored.

    ``__call__(r)`` uses only the Generator ``r`` (one per run); the padding runs call it
    exactly as the real ones do.

    No run warns: a warning per run would release ``K``.  The run fits within
    :func:`~dpboost.privacy_report.withhold_fit_warnings` (its report's warnings and
    :func:`warn_if_in_search`), with the classes declared (no inferred-classes warning) and
    sorted (no unsorted-classes warning; ``classes_`` is sorted either way, and the released
    estimator gets them back as declared, the label order ``model_io`` saves), and without
    ``diagnostics`` (no clipped-rows warning), under ``np.errstate(all="ignore")`` (numpy's
    floating-point reports, per thread too).  Until session 28 the run was wrapped in
    ``warnings.catch_warnings()``, which swaps the process-wide filter list and is not
    thread-safe: two searches in two threads could leave every later warning of the process
    ignored, or show a run's warnings, and a search silenced other threads' warnings while a
    run fitted (``tests/utility/test_selection_threads.py``).
    """

    def __init__(self, X_tr, y_tr, X_val, y_val, cands, classes, eps_train, delta, lattice,
                 rho_train):
        self.X_tr, self.y_tr, self.X_val, self.y_val = X_tr, y_tr, X_val, y_val
        self.cands, self.classes, self.eps_train, self.delta = cands, classes, eps_train, delta
        self.sorted_classes = np.unique(np.asarray(classes))  # as fit sorts them
        self.t, self.m = lattice
        self.rho_train = rho_train

    def __call__(self, r: np.random.Generator):
        params = self.cands[int(r.integers(len(self.cands)))]
        est = PrivateHalfspaceClassifier(self.eps_train, self.delta, classes=self.sorted_classes,
                                         accounting="cks", random_state=r, **params)
        # this thread's only (a context variable), and numpy's floating-point reports too
        # (errstate is per thread): another library's warning would be shown once per run
        # under an "always" filter, so K
        with withhold_fit_warnings(), np.errstate(all="ignore"):
            est.fit(self.X_tr, self.y_tr)
        # the run's stream must not stay in a released estimator: its SeedSequence holds
        # the search's entropy, from which the split, every run's noise and K follow
        est.set_params(random_state=None, classes=self.classes)
        correct = int(np.count_nonzero(est.predict(self.X_val) == self.y_val))
        score = correct + int(sample_discrete_gaussian(self.t * self.m, 1, rng=r)[0])
        assert ZCDPAccountant().compose(est.privacy_event_).rho <= self.rho_train * (1 + 1e-9)
        return score, params, est


class PrivateSelection(IndependentNoiseCloneMixin, ClassifierMixin, BaseEstimator):
    """Tune PrivateHalfspaceClassifier privately: best of ``K`` random private runs (PS22).

    Parameters
    ----------
    target_epsilon, target_delta : float
        The budget of the whole selection (every run and the choice).
    candidates : sequence of dict, optional
        Keyword arguments of ``PrivateHalfspaceClassifier`` (public); default
        :data:`DEFAULT_CANDIDATES`.
    expected_runs : float, optional
        ``E[K]``; default ``1.5 * len(candidates)``.
    eta : float > -1, default 0.0
        Shape of the truncated negative binomial (0: logarithmic, 1: geometric).
    validation_fraction : float in (0, 1), default 0.25
        Part of the rows (a data-independent random split) used only for the noisy score.
    classes : list of labels, optional
        The public labels.  If omitted they are inferred from the whole ``y`` once, with a
        :class:`~dpboost.exceptions.PrivacyLeakWarning` (the label set leaks), and every run
        is given that same list.
    time_padding_share : float in (0, 1) or None, default None
        Hide ``K`` from the fit's wall time (opt-in).  Without it the time reveals ``K``: a run
        takes about 0.5-1.6 s at 20,000 rows, and over 12 seeds the fit time and ``K`` had
        correlation 0.99, while Theorem 2 needs ``K`` hidden (with ``K`` known the default
        plan's best run is (1, 2.6e-4)-DP, not (1, 1e-6)).  With a share ``s``,
        ``delta_t = s * target_delta`` is set aside before the search is calibrated (it gets
        ``delta_s = target_delta - delta_t``), ``K_pad`` is the smallest ``k`` with
        ``(1 + e^epsilon) P[K > k] <= delta_t`` (:func:`accounting.selection.padding_runs`,
        from the public ``eta``, ``gamma``), and ``fit`` executes ``max(K, K_pad)`` runs of
        the same kind on the same data (the extra ones discarded).  The cost is time: at the
        default plan (``epsilon = 1``, ``delta = 1e-6``, 5 candidates, ``eta = 0``,
        ``E[K] = 7.5``) and ``s = 0.1``, ``K_pad = 336``, so ``E[max(K, K_pad)] = 336.0`` runs
        against ``E[K] = 7.5`` (45 times the time); ``rho_Q`` falls by 0.6%.  ``eta = 1``:
        ``K_pad = 122`` (16 times; ``rho_Q`` 30% below ``eta = 0``'s); ``eta = 3``: 66 (8.8
        times, ``rho_Q`` 55% below).  A larger ``s`` barely helps (``s = 0.5``: 298 runs).
        Measured at 4,000 rows x 20: unpadded fits took 0.2-9.5 s for K = 1-24 (corr 0.999),
        padded ones (``s = 0.1``) 57-69 s whatever K.

        *Claim* (an observer who sees the release ``R`` and the number of runs executed
        ``N = max(K, K_pad)``, e.g. through the wall time): ``(R, N)`` is
        ``(epsilon, delta_s + (1 + e^epsilon) p)``-DP with ``p = P[K > K_pad]``, within
        ``(target_epsilon, target_delta)``.  *Proof.*  Let ``M' = (R, K_pad)``: ``K_pad``
        is a public constant, so ``M'`` is ``(epsilon, delta_s)``-DP by Theorem 2 (the extra
        runs come after the ``K`` real ones, from their own streams, and are discarded, so
        ``R`` is the unpadded search's output).  ``(R, N)`` and ``M'`` coincide on the event
        ``E = {K <= K_pad}``, whose probability ``1 - p`` does not depend on the data (``K`` is
        drawn from its own stream).  So for any set ``S`` of outputs and neighbours ``D, D'``:
        ``P[(R, N)(D) in S] <= P[M'(D) in S] + p <= e^eps P[M'(D') in S] + delta_s + p
        <= e^eps (P[(R, N)(D') in S] + p) + delta_s + p``.  QED.  The claim covers the count
        of runs (the time at the resolution of a run), not the time each run takes, which
        depends on its candidate and on the T it learns from its noisy count.
    random_state : None, int or Generator
        ``None`` draws fresh OS entropy at every fit; an int is for reproducibility only.
        ``sklearn.clone`` gives a clone of an estimator holding a Generator an independent
        child stream (``spawn``); clones of an int seed repeat the noise and warn once
        (:class:`~dpboost.exceptions.SeededCloneWarning`).

    Attributes
    ----------
    best_estimator_, best_params_, privacy_event_, privacy_report_
        ``best_estimator_`` holds ``random_state=None``: the stream its run drew from carries
        the search's seed, which would give away every run's noise.  The number of runs ``K``
        is not released: Theorem 2 covers the best run alone, and with ``K`` beside it a
        ``rho_Q``-zCDP base (the best of ``K`` Gaussian scores) is (1, 2.6e-4)-DP, not
        (1, 1e-6), at this class's default plan for ``epsilon = 1``
        (``tests/audit/test_release_attacks.py``).  So no run prints or warns (a candidate
        cannot set ``verbose`` or ``diagnostics``, and no clipped-rows warning is raised:
        check with :func:`dpboost.clipping.clipped_fraction` before the search), and
        ``best_estimator_.privacy_report_`` states the search, whose cost is the release's:
        its ``epsilon``, ``delta`` and ``mechanism`` are the search's, ``rho`` is None (the
        selection is an RDP statement, not zCDP), the run's own figures are under
        ``"single_run"`` and the search under ``"selected_by"``; ``best_estimator_``'s
        ``privacy_event_`` is the search's :class:`~accounting.TNBSelectionEvent` too.
        :func:`dpboost.model_io.save_model` saves a fitted search as its best estimator.
        The wall time of ``fit`` is not hidden unless ``time_padding_share`` is set: it
        reveals ``K`` at about one second per run (see that parameter).
        ``privacy_report_["time_padding"]`` states ``K_pad`` and the padding's delta (None
        when off).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(20000, 4)) / 3
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> sel = PrivateSelection(2.0, 1e-6, classes=[-1, 1], random_state=0).fit(X, y)
    >>> sel.score(X, y) > 0.9, sel.privacy_report_["epsilon"] <= 2.0
    (True, True)
    """

    def __init__(self, target_epsilon, target_delta, *, candidates=None, expected_runs=None,
                 eta=0.0, validation_fraction=0.25, classes=None, time_padding_share=None,
                 random_state=None):
        self.target_epsilon = target_epsilon
        self.target_delta = target_delta
        self.candidates = candidates
        self.expected_runs = expected_runs
        self.eta = eta
        self.validation_fraction = validation_fraction
        self.classes = classes
        self.time_padding_share = time_padding_share
        self.random_state = random_state

    def _plan(self):
        owner = type(self).__name__
        eps = check_scalar(self.target_epsilon, "target_epsilon", owner, low=0, high=math.inf)
        delta = check_scalar(self.target_delta, "target_delta", owner, low=0, high=1)
        eta = check_scalar(self.eta, "eta", owner, low=-1, high=math.inf)
        given = DEFAULT_CANDIDATES if self.candidates is None else self.candidates
        cands = list(given) if isinstance(given, (list, tuple)) else []  # not a one-shot iterator
        if not cands or not all(isinstance(c, dict) for c in cands):
            raise TypeError(f"The 'candidates' parameter of {owner} must be a non-empty list of "
                            f"dicts. Got {self.candidates!r} instead.")
        runs = (1.5 * len(cands) if self.expected_runs is None else
                check_scalar(self.expected_runs, "expected_runs", owner, low=1, high=math.inf))
        gamma = _gamma_for(runs, eta)
        # the padding's share of delta is set aside before the search is calibrated
        padding = self._time_padding(eps, delta, eta, gamma)
        delta -= padding["delta_reserved"]
        rho = _base_rho(eps, delta, eta, gamma)
        self._check_candidates(cands, (1 - SCORE_SHARE) * rho, delta)
        return eps, delta, eta, gamma, rho, cands, padding

    def _time_padding(self, eps: float, delta: float, eta: float, gamma: float) -> dict:
        """``K_pad`` and the padding's share of ``delta`` (all zero when not asked for).

        ``K_pad`` is the smallest ``k`` with ``(1 + e^eps) P[K > k] <= delta_t``,
        ``delta_t = time_padding_share * delta`` (:func:`accounting.selection.padding_runs`,
        public parameters only).
        """
        share = self.time_padding_share
        if share is None:
            return {"runs": 0, "tail_probability": 0.0, "delta": 0.0, "delta_reserved": 0.0}
        share = check_scalar(share, "time_padding_share", type(self).__name__, low=0, high=1)
        reserved = share * delta
        try:
            k_pad, tail = padding_runs(eta, gamma, reserved / (1.0 + math.exp(eps)),
                                       limit=MAX_RUNS)
        except ValueError:
            raise ValueError(
                f"{type(self).__name__}: padding to hide the fit time would take more than "
                f"{MAX_RUNS:,} runs (E[K] = {TNBSelectionEvent(1.0, eta, gamma).expected_runs:.3g}"
                f", delta_t = {reserved:.3g}); raise time_padding_share or eta, or lower "
                "expected_runs.") from None
        return {"runs": k_pad, "tail_probability": tail,
                "delta": (1.0 + math.exp(eps)) * tail, "delta_reserved": reserved}

    def _check_candidates(self, cands, rho_train, delta) -> None:
        """Every candidate builds a valid run within ``rho_train``, checked before any data.

        A bad candidate would otherwise fail only in the run that happens to draw it, after
        the runs before it had trained on the data.
        """
        owner = type(self).__name__
        eps_train = cks_epsilon(rho_train, delta)
        if eps_train <= 0.0:  # a run's rho converts to epsilon 0 at this delta: no run fits
            raise ValueError(
                f"{owner}: the budget epsilon={self.target_epsilon!r}, delta={delta!r} leaves "
                f"each run rho = {rho_train:.3g}, which is (0, delta)-DP at this delta, so no run "
                "can be calibrated; raise target_epsilon, lower target_delta or use fewer "
                "candidates.")
        allowed = set(PrivateHalfspaceClassifier._get_param_names()) - _SET_BY_SEARCH
        for params in cands:
            if not set(params) <= allowed:
                raise TypeError(
                    f"The 'candidates' parameter of {owner} must hold keyword arguments of "
                    "PrivateHalfspaceClassifier other than "
                    f"{', '.join(sorted(_SET_BY_SEARCH))} (the search sets those). Got "
                    f"{params!r} instead.")
            est = PrivateHalfspaceClassifier(eps_train, delta, classes=self.classes,
                                             accounting="cks", **params)
            planned = ZCDPAccountant().compose(est.planned_privacy_event()).rho
            if planned > rho_train * (1 + 1e-9):
                raise ValueError(f"{owner}: the candidate {params!r} would spend rho = "
                                 f"{planned:.6g}, more than a run's {rho_train:.6g}.")

    def planned_privacy_event(self) -> TNBSelectionEvent:
        """The whole selection's event, from the parameters alone (no data)."""
        _, _, eta, gamma, rho, _, _ = self._plan()
        return TNBSelectionEvent(rho, eta, gamma)

    def fit(self, X, y):
        """Run ``K`` random private trainings and keep the one with the best noisy score.

        With ``time_padding_share`` set, ``max(K, K_pad)`` runs are executed: the
        ``K_pad - K`` extra ones (when ``K < K_pad``) come after the ``K`` real ones, train and
        score exactly as they do, and are discarded.
        """
        _, delta, eta, gamma, rho, cands, padding = self._plan()
        # here, not only in the runs: theirs is filtered below, and would use up the warning
        warn_if_in_search(type(self).__name__)
        vf = check_scalar(self.validation_fraction, "validation_fraction",
                          type(self).__name__, low=0, high=1)
        X, y, classes = self._validate_X_y(X, y)
        # the runs' own warnings are withheld (they would count K): said once, from public values
        warn_if_delta_large({"delta": self.target_delta, "n_samples": len(y)},
                            type(self).__name__, stacklevel=3)
        if self.classes is not None:
            warn_unsorted_classes(type(self).__name__, self.classes, stacklevel=2)
        rng = check_random_state(self.random_state, owner=type(self).__name__)
        split_rng, k_rng, run_rng = rng.spawn(3)
        idx = split_rng.permutation(len(y))
        n_val = min(max(1, int(round(vf * len(y)))), len(y) - 1)  # both parts non-empty
        val, tr = idx[:n_val], idx[n_val:]
        self._check_density(cands, classes, len(tr))
        rho_train, rho_score = (1 - SCORE_SHARE) * rho, SCORE_SHARE * rho
        run = _Run(X[tr], y[tr], X[val], y[val], cands, classes, cks_epsilon(rho_train, delta),
                   delta, lattice_variance(math.sqrt(0.5 / rho_score)), rho_train)
        K = _sample_tnb(eta, gamma, k_rng)
        best = (-math.inf, None, None)
        for _ in range(K):
            score, params, est = run(run_rng.spawn(1)[0])
            if score > best[0]:
                best = (score, params, est)
        for _ in range(padding["runs"] - K):  # the same work, discarded: the time hides K
            run(run_rng.spawn(1)[0])
        # K itself stays here: PS22's Theorem 2 covers the best run only, not (K, best run)
        self.best_estimator_, self.best_params_ = best[2], best[1]
        self.classes_ = best[2].classes_
        self.n_features_in_ = best[2].n_features_in_
        self.privacy_event_ = TNBSelectionEvent(rho, eta, gamma)
        acc = ZCDPAccountant().compose(self.privacy_event_)
        self.privacy_report_ = {
            "epsilon": acc.get_epsilon(delta, "best"), "delta": float(self.target_delta),
            "mechanism": "best of K ~ TNB(eta, gamma) private runs (Papernot & Steinke 2022, "
                         "Theorem 2)",
            "rho_per_run": rho, "rho_train": rho_train, "rho_score": rho_score,
            "eta": eta, "gamma": gamma, "expected_runs": self.privacy_event_.expected_runs,
            "candidates": cands, "validation_fraction": vf,
            "best_params": best[1],
            "labels_inferred_from_data": self.classes is None,
            "noise_source": noise_source(self.random_state),
            "time_padding": self._padding_report(padding, delta),
        }
        self._state_the_search(best[2], acc, delta)
        return self

    def _padding_report(self, padding: dict, delta_search: float) -> dict | None:
        """The report's ``time_padding`` entry (None without padding)."""
        if self.time_padding_share is None:
            return None
        return {
            "runs": padding["runs"], "tail_probability": padding["tail_probability"],
            "delta": padding["delta"], "delta_reserved": padding["delta_reserved"],
            "delta_search": delta_search,
            "rule": "max(K, runs) runs execute, so the wall time is a public constant unless "
                    "K > runs (probability tail_probability); with the time observable the "
                    "release is (epsilon, delta_search + (1 + e^epsilon) tail_probability)-DP "
                    "(PrivateSelection docstring), within (epsilon, delta)"}

    def _state_the_search(self, best, acc, delta_search: float) -> None:
        """Make the released run's ``privacy_report_`` and ``privacy_event_`` the search's.

        The best of ``K`` runs is ``(epsilon, delta)``-DP for the search's epsilon (PS22,
        Theorem 2), not for the run's own, which prices one run of the ``K``: the standard
        keys (``epsilon``, ``delta``, ``rho``, ``mechanism``) state the search, so a reader of
        them (``dpboost`` or another tool) never under-reports, and the run's own figures stay
        under ``"single_run"``.  ``rho`` is None: the selection is an RDP statement with a
        ``log E[K] / (alpha - 1)`` term, not zCDP at any rho.
        """
        own = best.privacy_report_
        search = self.privacy_report_
        epsilon = {m: acc.get_epsilon(delta_search, m) for m in ("paper", "cks")}
        epsilon["best"] = search["epsilon"]
        best.privacy_report_ = {
            **own, "rho": None, "epsilon": epsilon, "delta": search["delta"],
            "mechanism": search["mechanism"],
            "labels_inferred_from_data": self.classes is None,
            "noise_source": search["noise_source"],  # the runs' Generators are the search's
            "single_run": {
                "rho": own["rho"], "epsilon": own["epsilon"], "delta": own["delta"],
                "mechanism": own["mechanism"],
                "rule": "this run alone, one of the K the search drew; its sigma, budget "
                        "shares and mechanisms are the run's; the model's guarantee is the "
                        "search's epsilon and delta at the top level, not these"},
            "selected_by": {
                "epsilon": search["epsilon"], "delta": search["delta"],
                "mechanism": search["mechanism"],
                "time_padding": search["time_padding"],
                "rule": "this run was chosen by PrivateSelection: the model is (epsilon, "
                        "delta)-DP for the search's epsilon and delta (the top-level ones), not "
                        "the run's own under single_run (which prices one run, not the choice "
                        "among K)"}}
        # the event a ledger composes: the search's, not the run's (which is one of K)
        best.privacy_event_ = self.privacy_event_

    def _check_density(self, cands, classes, n_train: int) -> None:
        """``kappa * n_train >= 1`` for every candidate, before the first run trains."""
        from dpboost.multiclass import MULTICLASS_KAPPA

        multiclass = np.unique(np.asarray(classes)).size > 2
        for params in cands:
            est = PrivateHalfspaceClassifier(1.0, 0.5, classes=classes, **params)
            kappa = est._settings()["kappa"]
            if kappa is None and multiclass:
                kappa = MULTICLASS_KAPPA
            if kappa is not None:
                est._check_density(kappa, n_train)

    def _validate_X_y(self, X, y):
        """Check ``X``/``y`` at the public boundary; return them and the classes for every run.

        ``X`` 2-D with finite rows, ``y`` 1-D of the same length, at least two rows (a training
        and a validation part).  With ``classes=None`` the labels are inferred once from the
        whole ``y`` (a :class:`~dpboost.exceptions.PrivacyLeakWarning`) and declared to every
        run, so all runs share one label set whatever the split.
        """
        owner = type(self).__name__
        with hide_cells_in_errors():  # sets feature_names_in_ from a DataFrame's columns
            X, y = validate_data(self, X, y, dtype=[np.float64, np.float32],
                                 ensure_all_finite=False, ensure_min_samples=2)
        check_finite_rows(X)
        check_classification_targets(y)
        if self.classes is not None:
            # here, not in a run: a run sees only its training part, so a label outside the
            # classes would fail the runs whose split put it there and pass the others
            check_declared_labels(y, self.classes)
            return X, y, self.classes
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(f"{owner} can't train when only one class is present in y; "
                             "declare the labels with classes=[negative, positive].")
        warn_inferred_classes(owner, classes.tolist())
        return X, y, classes.tolist()

    def _validate_X_predict(self, X):
        """``X`` checked against the search's fit (its width, and a DataFrame's column names
        and order: the runs saw arrays), then passed to the best run as an array; a dask
        array goes to the best run as it is (scored block by block, never gathered here)."""
        check_is_fitted(self)
        if is_dask_array(X):
            return X
        with hide_cells_in_errors():
            return validate_data(self, X, dtype=[np.float64, np.float32], reset=False,
                                 ensure_all_finite=False)

    def decision_function(self, X):
        return self.best_estimator_.decision_function(self._validate_X_predict(X))

    def predict(self, X):
        return self.best_estimator_.predict(self._validate_X_predict(X))

    def predict_proba(self, X):
        return self.best_estimator_.predict_proba(self._validate_X_predict(X))
