"""``privacy_report_`` of ``PrivateHalfspaceClassifier``: every mechanism, its share, the rules.

Everything in the report is public (parameters, ``n``, ``d``) or private output (the noisy
count, the learned ``kappa``, ``T`` and scale, the calibration, and ``signal_ratio`` from the
released centres); the fields are listed in the estimator's docstring.
"""

from __future__ import annotations

import contextlib
import contextvars
import math

import numpy as np

from accounting import ZCDPAccountant
from dpboost.defaults import MAX_LEARNED_ROUNDS
from dpboost.theory import sigma_util

__all__ = ["HISTOGRAM_AUC_WARNING", "NOISE_WARNING_RATIO", "PLATT_SPREAD_WARNING",
           "add_multiclass_noise", "build_report",
           "fit_warnings_withheld", "large_delta_message", "noise_ratio", "noise_source",
           "platt_spread",
           "pure_noise_signal_ratio", "signal_ratio", "warn_if_delta_large",
           "warn_if_noise_dominates", "whitening_entry", "withhold_fit_warnings"]

#: The noise ratio (:func:`noise_ratio`) from which a fit warns that its predictions are poor.
NOISE_WARNING_RATIO = 1.0
#: The Platt log-odds spread (:func:`platt_spread`) below which a fit whose
#: :func:`signal_ratio` is within pure noise's range warns (measured, session 23: at most 0.31
#: where held-out AUC was below 0.6, at least 0.77 where it was 0.71 or more).
PLATT_SPREAD_WARNING = 0.5
#: The ROC AUC of the released score histogram (:func:`dpboost.private_platt.histogram_auc`)
#: from which a fit whose signal ratio and Platt spread look like noise still does not warn:
#: its training scores rank the labels (red team, session 35: a flights table with 1,458
#: declared airports, d = 1,497, warned "near chance" at held-out AUC 0.675, LR 0.681; the
#: spread divides by sqrt(d) over coordinates no row uses).
HISTOGRAM_AUC_WARNING = 0.55
#: Standard deviations of the pure-noise chi law above its mean that ``signal_ratio`` may reach
#: and still count as noise-sized (:func:`pure_noise_signal_ratio`).
NOISE_SIZED_SDS = 3.0


#: True while a fit's report warnings are withheld (:func:`withhold_fit_warnings`).  A
#: context variable: each thread (and each asyncio task) sees its own value, so one thread's
#: withholding never silences or leaks another's warnings.
_WITHHELD = contextvars.ContextVar("dpboost_fit_warnings_withheld", default=False)


@contextlib.contextmanager
def withhold_fit_warnings():
    """Within this block, on this thread only, a fit raises none of the warnings of its
    report (:func:`warn_if_noise_dominates`, :func:`warn_if_delta_large`) nor
    :func:`dpboost.sklearn_wrappers.warn_if_in_search`'s.

    For :class:`~dpboost.selection.PrivateSelection`, whose ``K`` runs must not warn (one
    warning per run would release ``K``): it said so with ``warnings.catch_warnings()``, which
    swaps the process-wide filter list, so two searches in two threads could restore each
    other's lists (every later warning of the process ignored, or a run's warnings shown) and
    a search silenced every other thread's warnings while a run fitted (session 28).  A
    context variable is per thread, and leaves ``warnings.filters`` alone.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with withhold_fit_warnings():
    ...         warn_if_delta_large({"delta": 0.5, "n_samples": 10}, "Withheld")
    ...     warn_if_delta_large({"delta": 0.5, "n_samples": 10}, "Said")
    >>> [str(w.message).split(":")[0] for w in caught], fit_warnings_withheld()
    (['Said'], False)
    """
    token = _WITHHELD.set(True)
    try:
        yield
    finally:
        _WITHHELD.reset(token)


def fit_warnings_withheld() -> bool:
    """Whether this thread is within :func:`withhold_fit_warnings`."""
    return _WITHHELD.get()


def noise_ratio(sigma: float, d: int, n_rounds: int, norm_bound: float) -> float:
    """``sigma sqrt(d / T) / R``: the expected noise norm of the mean of the ``T`` released
    centres (``d`` coordinates of standard deviation ``sigma`` each), against the norm bound
    ``R`` that every centre's signal stays within.  A function of public quantities and of
    released ones (``sigma`` and ``T`` follow the private ``kappa``): no data enters it.

    >>> round(noise_ratio(0.245, 124, 30, 1.0), 3)
    0.498
    """
    return sigma * math.sqrt(d / n_rounds) / norm_bound


def signal_ratio(centres, sigma: float, norm_bound: float) -> float:
    """``r = ||w_bar|| / (sigma sqrt(d' / T))``: the mean released centre against its own
    noise level.

    ``centres`` is ``released_centres_`` (``T`` rows ``z_hat_t / R^2`` on the public grid, over
    the ``d'`` mapped coordinates), so ``w_bar = R^2 mean_t centres[t]`` is the mean of the
    centres ``z_hat_t = z_t + N_t`` and ``N_t`` has ``d'`` independent coordinates of scale
    ``sigma``: ``E ||mean_t N_t||^2 = sigma^2 d' / T``, a public figure.  Privacy: ``r`` is a
    function of released values (the centres, ``sigma`` and ``T`` set from the private
    ``kappa``) and public ones (``R``, ``d'``), i.e. post-processing of the rounds' discrete
    Gaussian releases (Dwork & Roth 2014, Proposition 2.1; for zCDP Bun & Steinke 2016, Lemma
    1.8): it costs no budget and carries no guarantee of its own.

    Reading it: were every centre pure noise drawn independently, ``r`` would follow the chi
    law of :func:`pure_noise_signal_ratio` (mean about 1, sd ``1/sqrt(2 d')``); a signal
    lengthens ``w_bar``.  But the rounds are adaptive: round ``t``'s measure reacts to the noise
    of the earlier hypotheses, so the data part of ``w_bar`` partly cancels its noise (its
    cosine with the noise: -0.17 to -0.71 over five tasks).  Measured (session 23): labels
    independent of the rows give ``r`` = 0.66-0.89, not 1; real tasks gave ``r`` = 0.82-0.99
    with held-out AUC 0.80-0.84 (german at epsilon 5, a9a with 2,000 rows at epsilon 1).  So a
    small ``r`` alone does not mean chance predictions; :func:`warn_if_noise_dominates` uses it
    only beside the private calibration's slope.

    >>> round(signal_ratio([[0.3, 0.4], [0.3, 0.4]], sigma=0.5, norm_bound=2.0), 3)
    4.0
    """
    import numpy as np

    c = np.asarray(centres, dtype=np.float64)
    n_rounds, d = c.shape
    w_bar = norm_bound**2 * c.mean(axis=0)
    return float(np.linalg.norm(w_bar) / (sigma * math.sqrt(d / n_rounds)))


def pure_noise_signal_ratio(d: int) -> tuple[float, float]:
    """Mean and standard deviation of ``chi_d / sqrt(d)``: :func:`signal_ratio` of ``T``
    independent pure-noise centres in ``d`` coordinates (exact; the mean is about
    ``1 - 1/(4d)``, the sd about ``1/sqrt(2d)``).

    >>> [tuple(round(v, 3) for v in pure_noise_signal_ratio(d)) for d in (32, 125, 502)]
    [(0.992, 0.125), (0.998, 0.063), (1.0, 0.032)]
    """
    mean = math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2)) * math.sqrt(2.0 / d)
    return mean, math.sqrt(max(0.0, 1.0 - mean * mean))


def platt_spread(report: dict, d: int) -> float | None:
    """``a / sqrt(d')``, ``a`` the released Platt slope of the score ``u = x . w / (R ||w||)``:
    the log-odds standard deviation the calibration implies were ``w`` a pure-noise direction
    (then ``E u^2 = ||x||^2 / (R^2 d') <= 1 / d'``).  None when no score histogram was
    released (small data: the threshold mechanism's slope is too coarse to read) or when its
    cells pooled into one group (the slope is then the unfitted placeholder 1: rows far inside
    the ball put every score in one bin; measured AUC 0.71-0.98 there).  Post-processing of
    the histogram release, like :func:`signal_ratio`."""
    cal = report.get("calibration")
    if not cal or "slope" not in cal or cal.get("n_groups", 0) < 2:
        return None
    return cal["slope"] / math.sqrt(d)


def warn_if_noise_dominates(report: dict, d: int, name: str) -> None:
    """Warn (:class:`~dpboost.exceptions.NoiseDominatesWarning`) when the report's
    :func:`noise_ratio` is at least :data:`NOISE_WARNING_RATIO`, or when its
    :func:`signal_ratio` is within pure noise's range (below the chi law's mean plus
    :data:`NOISE_SIZED_SDS` sd), the private calibration's :func:`platt_spread` is below
    :data:`PLATT_SPREAD_WARNING` and the released score histogram's ROC AUC is below
    :data:`HISTOGRAM_AUC_WARNING`.  Without a histogram (small data: the threshold mechanism's
    cut and slope) only the noise ratio warns: the signal ratio is within pure noise's range on
    good small fits too (session 36: titanic at epsilon 2, AUC 0.81-0.84, -2.0 to -0.7 sd; the
    README's "Small data: the noise ratio alone").  The message states public and released
    figures only (``n``, ``d``, ``T``, the ratios, the released slope), the same function of
    the releases for a dataset and its neighbour."""
    import warnings

    from dpboost.exceptions import NoiseDominatesWarning

    if fit_warnings_withheld():
        return
    ratio, r = report["noise_ratio"], report.get("signal_ratio")
    head = f"{name}: with n = {report['n_samples']} rows at epsilon = " \
           f"{report['epsilon']['best']:.3g} the noise dominates: "
    tail = (" so expect predictions near chance, their ranking possibly inverted. More rows "
            "or a larger epsilon lower it (about as 1 / (n epsilon))")
    if ratio >= NOISE_WARNING_RATIO:
        text = (f"{head}the released halfspace's noise norm is {ratio:.2g} times the norm bound "
                f"its signal stays within (sigma sqrt(d / T) / R, from public and released "
                f"values; d = {d}, T = {report['n_rounds']}),{tail}.")
    else:
        mean, sd = pure_noise_signal_ratio(d)
        spread = platt_spread(report, d)
        if spread is None or spread >= PLATT_SPREAD_WARNING or r > mean + NOISE_SIZED_SDS * sd:
            return
        auc = report["calibration"].get("histogram_auc")
        if auc is not None and auc >= HISTOGRAM_AUC_WARNING:
            return  # the released histogram says the scores rank the labels
        # a weak task reads the same: with labels nearly independent of the rows the centres
        # cancel whatever the noise (red team, session 32: a task where noise-free logistic
        # regression has AUC 0.55 warned at epsilon 4 with noise_ratio 0.001, and the old
        # text blamed the noise and asked for more rows or budget)
        text = (f"{name}: with n = {report['n_samples']} rows at epsilon = "
                f"{report['epsilon']['best']:.3g} the released halfspace is no longer than its "
                f"own noise (signal_ratio ||mean released centre|| / (sigma sqrt(d / T)) = "
                f"{r:.3g}, within the range of a halfspace of pure noise, {mean:.3g} +- "
                f"{sd:.2g}, or below it; d = {d}, T = {report['n_rounds']}) and the private "
                f"calibration's slope is flat (released Platt slope "
                f"{report['calibration']['slope']:.3g}, / sqrt(d) = {spread:.2g} < "
                f"{PLATT_SPREAD_WARNING:g}), so expect predictions near chance, their ranking "
                "possibly inverted. Either the labels carry little linear signal in these "
                "features (then more rows or budget will not help) or the noise hides it "
                f"(noise_ratio {ratio:.2g}; it falls about as 1 / (n epsilon)).")
    warnings.warn(text, NoiseDominatesWarning, stacklevel=5)  # the caller of fit


def large_delta_message(delta: float, n: int, name: str) -> str | None:
    """The :class:`~dpboost.exceptions.LargeDeltaWarning` text when ``delta`` is at least
    ``1 / n``, else None: public values only.  ``dpboost train`` prints it before its ledger
    reserves the budget (:func:`dpboost.cli.train.fit_charged`), the fit warns it at the end.

    >>> large_delta_message(1e-3, 999, "Demo") is None
    True
    >>> large_delta_message(1e-3, 1000, "Demo")[:58]
    'Demo: target_delta = 0.001 is at least 1 / n = 0.001 (n = '
    >>> large_delta_message(1e-6, 2_600_000, "Demo").split("(e.g. ")[1]
    '1e-09).'
    """
    if delta * n < 1.0:
        return None
    example = 10.0 ** -(math.ceil(math.log10(n)) + 2)  # 1e-6 up to 10,000 rows, then lower
    return (f"{name}: target_delta = {delta:g} is at least 1 / n = {1.0 / n:.3g} "
            f"(n = {n} rows), and (epsilon, delta)-DP with such a delta allows "
            f"publishing a row in full with probability delta; choose target_delta "
            f"well below 1 / n (e.g. {min(example, 1e-6):g}).")


def warn_if_delta_large(report: dict, name: str, stacklevel: int = 5) -> None:
    """Warn (:class:`~dpboost.exceptions.LargeDeltaWarning`) when the report's ``delta`` is at
    least ``1 / n_samples`` (:func:`large_delta_message`): public values only, like the rest
    of the report.  ``stacklevel`` 5 names the caller of ``fit`` from a report builder.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_delta_large({"delta": 1e-3, "n_samples": 999}, "Demo")
    ...     warn_if_delta_large({"delta": 1e-3, "n_samples": 1000}, "Demo")
    >>> [str(w.message)[:58] for w in caught]
    ['Demo: target_delta = 0.001 is at least 1 / n = 0.001 (n = ']
    """
    import warnings

    from dpboost.exceptions import LargeDeltaWarning

    message = large_delta_message(report["delta"], report["n_samples"], name)
    if message is not None and not fit_warnings_withheld():
        warnings.warn(message, LargeDeltaWarning, stacklevel=stacklevel)


def add_multiclass_noise(report: dict, centres, name: str) -> None:
    """Add ``noise_ratio`` to a multiclass report, in place, and warn when it reaches
    :data:`NOISE_WARNING_RATIO` (:func:`warn_if_noise_dominates`'s first rule).

    ``centres``: the released ``(T, K, d')`` per-class centres (``released_centres_``).  Each
    class's mean centre carries noise of norm about ``sigma sqrt(d' / T)`` (joint release or
    one-vs-rest alike: ``sigma`` is the per-coordinate scale of each release), so
    :func:`noise_ratio` is the binary one.  Post-processing of the releases (Dwork & Roth 2014,
    Proposition 2.1).  The second rule needs a Platt slope, which a multiclass fit does not
    release, and :func:`signal_ratio` class by class does not tell labels from noise there
    (measured, session 24: letter with labels independent of the rows, 4,000 and 16,000 rows
    at epsilon 5, gave per-class ratios 5.4-26.8, against 1.7-27.7 with its true labels: the
    centres share the rows' mean direction), so it is not reported.  Measured on digits
    (joint booster): 300 rows at epsilon 0.5 give noise_ratio 1.04 and held-out accuracy
    0.03-0.06 (chance 0.1); at epsilon 1, 0.54 and 0.07-0.12, which do not warn.

    No multiclass threshold below 1 was adopted (session 25: 320 fits, digits with 300 / 600 /
    1,437 rows, letter with 500 / 2,000 / 16,000, iris, wine, epsilon 0.5 / 1 / 2 / 5, 10 seeds;
    a fit is useful when its held-out accuracy beats max(chance, majority) by 0.02).  Useful
    fits that would warn / useless fits that would not, of 239 / 81: 8 / 69 at 1, 26 / 47 at
    0.5, 31 / 32 at 0.3, 109 / 10 at 0.1.  The ratio does not carry K: letter with 500 rows
    at epsilon 1 (ratio 0.17) was at chance in 10 of 10 fits, digits with 600 rows at
    epsilon 1 (0.27) useful in 9 of 10; scaling it by K or sqrt(K) separated no better.  Being
    a function of public values, it is the same for labels permuted independently of the rows,
    where no fit can beat chance: 150 of 160 such fits do not warn.
    """
    c = np.asarray(centres, dtype=np.float64)
    report["noise_ratio"] = noise_ratio(report["sigma"], c.shape[2], c.shape[0],
                                        report["norm_bound"])
    warn_if_noise_dominates(report, c.shape[2], name)
    warn_if_delta_large(report, name)


def noise_source(random_state) -> str:
    """The report's ``noise_source``: where a fit's noise came from, which decides who can
    subtract it.  An int seed is reproducible by whoever knows or guesses it, so a model
    trained with one is private only while the seed is secret (a neighbour trained with the
    same seed draws the same noise: the two are told apart with certainty); the seed itself
    is never written.  It is the caller's choice, not a figure of the data.

    Examples
    --------
    >>> noise_source(None)
    'fresh (operating-system entropy at each fit)'
    >>> noise_source(0).split(" (")[0]
    'seeded'
    """
    if random_state is None:
        return "fresh (operating-system entropy at each fit)"
    if isinstance(random_state, np.random.Generator):
        return ("a numpy Generator passed in (private while whatever seeded it, if anything, "
                "is secret)")
    return ("seeded (an int random_state: whoever knows or guesses the seed can recompute the "
            "noise and subtract it; for reproducing experiments, not for a release)")


def build_report(est, s, plan, learner, event, n, T, kappa, noisy_count) -> dict:
    """``privacy_report_`` of a fitted ``PrivateHalfspaceClassifier`` (fields in its docstring)."""
    acc = ZCDPAccountant().compose(event)
    epsilons = acc.epsilons(s["delta"])
    epsilons["best"] = acc.get_epsilon(s["delta"], method="best")
    # the mechanism of the rounds as released: over the d + 1 mapped coordinates when the rows
    # were centred with a constant coordinate (dpboost.input_map), else over the d features
    mech = learner.mechanism(n, est.released_centres_.shape[1])
    sigma = mech.sigma
    s_util = None
    applies = None
    if s["mode"] == "theory":
        s_util = sigma_util(s["tau"], T, s["beta"], c=math.sqrt(2.0))
        applies = bool(sigma <= s_util and not s["overridden"])
    cal = est.calibration_
    cut = getattr(est, "threshold_", None)
    report = {
        "rho": acc.rho,
        "mu": acc.mu if acc.is_gaussian else None,  # GDP applies to continuous Gaussians
        "delta": s["delta"],
        "epsilon": epsilons,
        "sigma": sigma,
        "noise_ratio": noise_ratio(sigma, est.released_centres_.shape[1], T, s["R"]),
        "signal_ratio": signal_ratio(est.released_centres_, sigma, s["R"]),
        "noise_multiplier": learner.noise_multiplier,
        "sensitivity": mech.effective_sensitivity,
        "sensitivity_exact_arithmetic": learner.sensitivity(n),
        "float_error_bound": mech.error_bound,
        "grid_granularity": mech.granularity,
        "mechanism": "discrete Gaussian on a public grid (Canonne, Kamath & Steinke 2020)",
        "mechanisms": plan.mechanisms(T),
        "budget_shares": {m["name"].split(" (")[0]: m["share"] for m in plan.mechanisms(T)},
        "sensitivity_rule": s["sensitivity"],
        "n_rounds": T,
        "n_rounds_rule": ("given" if s["T"] is not None else
                          "clip(round(2 kappa n sqrt(2 rho_rounds) / sqrt(d)), 30, "
                          f"min(T_max, {MAX_LEARNED_ROUNDS}))"),
        "kappa": kappa,
        "kappa_rule": ("given" if s["kappa"] is not None else
                       "max(min(0.25, 2 p), min(2 p, 0.3, 100 k1), min(0.75, 10 k1)) with p "
                       "the private minority rate and k1 = sqrt(d) / (n sqrt(2 rho_rounds))"
                       if plan.rho_mean else
                       "min(0.25, 2 private minority rate)"),
        "initial_measure": ("class-balanced: the majority class starts with gain "
                            "ln(r)/learning_rate, r the private majority/minority ratio"
                            if getattr(est, "class_gain_", None) and any(est.class_gain_)
                            else "uniform (Algorithm 4)"),
        "noisy_positive_count": noisy_count,
        "input_centre": (None if getattr(est, "input_centre_", None) is None
                         else est.input_centre_.tolist()),
        "input_centre_rule": ("rows x -> [(x - m_hat) / 2, R / (2 sqrt(d + 1))], m_hat the "
                              "private mean (discrete Gaussian, sensitivity 2R/n, rho for an "
                              "expected noise norm of 0.2 R within 3-10% of the total); "
                              "folded into coef_ and intercept_" if plan.rho_mean else None),
        "input_whitening": whitening_entry(est, plan),
        "input_scale": est.input_scale_,
        "input_scale_rule": ("R / (private 75th percentile of the row norms, on the grid "
                             "R 2^(-j/4)), at least 1; folded into coef_"
                             if plan.rho_norms else None),
        "calibration": None if cal is None else {
            "method": "private Platt scaling on a noisy score histogram",
            "slope": cal.slope, "offset": cal.offset, "n_bins": cal.n_bins,
            "n_groups": cal.n_groups,
            "mirrored_classes": cal.mirrored_classes,
            "histogram_auc": cal.histogram_auc,
            "threshold": {"platt": "Platt's P = 1/2",
                          "quadratic": "the crossing of a quadratic log-odds fitted to the "
                                       "histogram (slope refitted through it)",
                          "gaussian": "no pooled group was positive: the upper crossing of "
                                      "two Gaussian score densities fitted to all the noisy "
                                      "cells (slope refitted through it)",
                          "accuracy-cut": "moved to the histogram's accuracy-maximising cut",
                          "group-edge": "a runaway Platt fit (a clamped count) put P = 1/2 "
                                        "inside the outermost group of the histogram, on the "
                                        "side no group is predicted; moved to its outer edge"
                          }[cal.threshold]},
        "threshold": None if cut is None else {
            "method": "exponential mechanisms over public cuts t of the score u = x . w / "
                      "(R ||w||) (0 and +-2^(-k/4); utility: training rows classified "
                      "correctly; public base measure: the cuts beyond 1.5 / sqrt(d) of each "
                      "side weigh half an inner cut together), then over public slopes a "
                      "(2^(j/2); utility: 1 - Brier score "
                      "of sigmoid(a (u - t)), in steps of 2^-10); predict_proba uses "
                      "sqrt(a * 2 sqrt(d)) (post-processing)",
            "cut": cut.threshold, "slope": cut.slope,
            "probability_slope": cut.probability_slope, "n_candidates": cut.n_candidates,
            "n_slopes": cut.n_slopes, "epsilon_0": cut.epsilon,
            "slope_epsilon_0": cut.slope_epsilon},
        "predict_proba": ("private (Platt on a discrete-Gaussian score histogram)"
                          if cal is not None else
                          "private (sigmoid(a (u - t)): cut and slope by the exponential "
                          "mechanism; n too small for a calibration histogram)"
                          if cut is not None else
                          "uncalibrated (sigmoid of X @ coef_)" if est._calibrates() else None),
        "learning_rate": s["lr"],
        "norm_bound": s["R"],
        "n_samples": n,
        "sigma_util": s_util,
        "sigma_at_most_sigma_util": None if s_util is None else bool(sigma <= s_util),
        "utility_guarantee_applies": applies,
        "accounting_method": plan.method,
        "mode": s["mode"],
        "labels_inferred_from_data": est.classes is None,
        "noise_source": noise_source(est.random_state),
    }
    warn_if_noise_dominates(report, est.released_centres_.shape[1], type(est).__name__)
    warn_if_delta_large(report, type(est).__name__)
    return report


def whitening_entry(est, plan) -> dict | None:
    """The whitening entry: None without a share, else whether it was released and its ridge."""
    white = getattr(est, "input_whitening_", None)
    if white is None:
        return None if not getattr(plan, "rho_mean", 0.0) else {
            "applied": False,
            "rule": "skipped: n too small for the second-moment release "
                    "(dpboost.whitening.worthwhile); its share went to the rounds"}
    if not white.applied:
        return {"applied": False, "ridge": white.ridge,
                "ridge_over_mean_eigenvalue": white.ridge_over_mean_eigenvalue,
                "rule": "released (its share was spent) but not used: the ridge lambda exceeds "
                        "5 tr(C_hat)/d, where M would be I/2 plus noise; rows x -> "
                        "[(x - m_hat)/2, c_0]"}
    rows = ("rows x -> [M (clip(s_0 x, R) - m_hat), c_0], s_0 the private pre-scale (half "
            "the row-norm histogram's share, dpboost.input_map)"
            if getattr(plan, "norms_twice", False) else "rows x -> [M (x - m_hat), c_0]")
    return {"applied": True, "ridge": white.ridge,
            "ridge_over_mean_eigenvalue": white.ridge_over_mean_eigenvalue,
            "rule": rows + ", M = (C_hat + lambda I)^(-1/2) scaled to "
                    "norm 1/2, C_hat from the private second-moment matrix (discrete "
                    "Gaussian, sensitivity sqrt 2 R^2), lambda = max(4 sigma_e sqrt(d), "
                    "0.01 tr(C_hat)/d); folded into coef_ and intercept_"}
