"""Black-box audit of the practical defaults: every released scalar of a whole default fit.

:mod:`dpboost.audit` audits a round, a run and the estimator with pinned settings;
:mod:`dpboost.audit_input` audits the private mean.  Each mechanism is audited alone there.  What
they cannot see is the *glue* of the defaults (:mod:`dpboost.defaults`): a setting computed
from the exact data instead of from a release (the count behind ``kappa`` and the
class-balancing prior, the input centre, the scale, the Platt calibration).  Such a slip makes a
released scalar a deterministic function of the neighbouring row, and a threshold on that one
scalar separates the two datasets almost perfectly.

:func:`audit_defaults` fits :class:`~dpboost.estimator.PrivateHalfspaceClassifier` with its
defaults (only ``n_rounds`` pinned, to keep each fit short: the count, ``kappa``, the prior,
the centre, the whitening, the scale and the calibration all run) many times on D and on D',
which differ in row 0 (``R u`` labelled +1 against ``-R u`` labelled -1, so the count, the mean
and every histogram move).  Each fit yields the released scalars listed in :data:`STATISTICS`,
both signs of each; :func:`~dpboost.audit_statistics.distinguish_best` picks one statistic and
threshold on the first fifth of the runs and lower-bounds epsilon with 95% confidence on the
rest.  The claim is the user's target epsilon.

This is a detector of gross leaks, not a tight audit: a correct pipeline gives a lower bound
far below the target (the per-mechanism audits are the tight ones).

References
----------
Jagielski, Ullman & Oprea (NeurIPS 2020); Nasr et al. (IEEE S&P 2021).
"""

from __future__ import annotations

import contextlib
import warnings
from unittest import mock

import numpy as np

from dpboost._validation import check_random_state, check_scalar
from dpboost.audit import (
    DEFAULT_DELTA,
    DEFAULT_EPSILON,
    AuditResult,
    _check_audit_args,
    _result,
    rotation,
)
from dpboost.audit_statistics import distinguish_best

__all__ = ["DEFAULT_DEFAULTS_RUNS", "STATISTICS", "audit_defaults", "defaults_audit_pair"]

#: 2,000 fits of 8 rounds: about a minute on this machine.  The tests show that it flags a
#: count or a mean released without noise.
DEFAULT_DEFAULTS_RUNS = 2_000

#: The released scalars of one fit that the distinguisher may threshold (each with both signs).
STATISTICS = ("noisy_positive_count", "kappa", "class_gain", "input_centre . u",
              "u . M u (input whitening)", "log input_scale", "coef . u", "intercept",
              "calibration slope", "calibration offset", "threshold cut")


def defaults_audit_pair(n: int, norm_bound: float = 1.0, positive_rate: float = 0.15,
                        dimension: int = 4):
    """``(X, y, X', y')``: fixed rows in the ball with about ``positive_rate`` positives.

    Row 0 is ``R u`` labelled +1 in D and ``-R u`` labelled -1 in D' (``u`` the first row of
    :func:`~dpboost.audit.rotation`); the other rows are the same public, seeded draw.
    """
    rng = np.random.default_rng(12345)
    X = rng.standard_normal((n, dimension))
    X *= 0.6 * norm_bound / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    X *= rng.uniform(0.2, 1.0, (n, 1))
    score = X @ rotation(dimension)[1] + 0.05 * norm_bound * rng.standard_normal(n)
    y = np.where(score > np.quantile(score, 1.0 - positive_rate), 1, -1)
    u = rotation(dimension)[0]
    X[0], y[0] = norm_bound * u, 1
    X_prime, y_prime = X.copy(), y.copy()
    X_prime[0], y_prime[0] = -norm_bound * u, -1
    return X, y, X_prime, y_prime


def _statistics(clf, u: np.ndarray) -> np.ndarray:
    rep = clf.privacy_report_
    cal = clf.calibration_
    centre = clf.input_centre_ if clf.input_centre_ is not None else np.zeros_like(u)
    white = getattr(clf, "input_whitening_", None)
    values = np.array([
        float(rep["noisy_positive_count"] or 0), float(rep["kappa"]),
        float(clf.class_gain_[1] - clf.class_gain_[0]), float(centre @ u),
        float(u @ white.matrix @ u) if white is not None and white.applied else 0.5,
        float(np.log(clf.input_scale_)), float(np.asarray(clf.coef_) @ u),
        float(clf.intercept_), float(cal.slope) if cal else 0.0,
        float(cal.offset) if cal else 0.0,
        float(clf.threshold_.threshold) if clf.threshold_ is not None else 0.0])
    return np.concatenate([values, -values])


def _broken(variant: str | None):
    """A deliberately broken pipeline, for the tests: ``"exact-count"`` or ``"exact-mean"``."""
    if variant is None:
        return contextlib.nullcontext()
    import dpboost.estimator as est

    if variant == "exact-count":
        real = est.private_count

        def exact(y_pm, rho, *, rng):
            _, event = real(y_pm, rho, rng=rng)  # same draw, then the noise dropped
            return int(np.count_nonzero(np.asarray(y_pm) > 0)), event

        return mock.patch.object(est, "private_count", exact)
    if variant == "exact-mean":
        import dpboost.input_map as input_map

        return mock.patch.object(input_map, "private_mean",
                                 lambda X, R, rho, *, rng: np.asarray(X).mean(axis=0))
    raise ValueError(f"unknown variant {variant!r}")


def audit_defaults(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_DEFAULTS_RUNS,
    n: int = 1200,
    n_rounds: int = 8,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """Audit a whole default fit from its released scalars (see the module docstring).

    ``n`` must be large enough for the private calibration to run at ``(epsilon, delta)``
    (:func:`dpboost.private_platt.worthwhile`; 1,200 rows at the audit's default epsilon = 2,
    delta = 1e-3), else the calibration and the prior are not exercised and
    ``details["calibrated"]`` says so.

    Returns
    -------
    AuditResult
        ``setting="defaults"``; ``details["most_separating_statistic"]`` names the scalar most
        correlated with the dataset (for reading; the bound comes from the distinguisher).
    """
    return _audit_defaults(epsilon=epsilon, delta=delta, runs=runs, n=n, n_rounds=n_rounds,
                           norm_bound=norm_bound, random_state=random_state)


def _audit_defaults(*, epsilon, delta, runs, n, n_rounds, norm_bound, random_state,
                    _variant: str | None = None) -> AuditResult:
    from dpboost.estimator import PrivateHalfspaceClassifier

    owner = "audit_defaults"
    epsilon, delta, runs, n, _ = _check_audit_args(owner, epsilon, delta, runs, n, 0.5)
    n_rounds = check_scalar(n_rounds, "n_rounds", owner, kind="int", low=1, closed="left")
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    X, y, X_prime, y_prime = defaults_audit_pair(n, norm_bound)
    u = rotation(X.shape[1])[0]
    half = runs // 2
    scores, calibrated = [], True
    with _broken(_variant), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data, labels in ((X, y), (X_prime, y_prime)):
            rows = []
            for _ in range(half):
                clf = PrivateHalfspaceClassifier(
                    epsilon, delta, n_rounds=n_rounds, norm_bound=norm_bound,
                    classes=[-1, 1], random_state=rng).fit(data, labels)
                calibrated &= clf.calibration_ is not None
                rows.append(_statistics(clf, u))
            scores.append(np.array(rows))
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    # several mechanisms, no single noise multiplier or sensitivity: 0.0 and 1.0 stand in
    return _result("defaults", dist, epsilon, delta, 2 * half, n_rounds, 0.0, 1.0,
                   {"n": n, "norm_bound": norm_bound, "calibrated": bool(calibrated),
                    "most_separating_statistic": _most_separating(scores[0], scores[1])})


def _most_separating(scores_d: np.ndarray, scores_p: np.ndarray) -> str:
    """The statistic whose means on D and D' differ most, in pooled standard deviations."""
    k = len(STATISTICS)  # the first k columns; the rest are their negatives
    gap = np.abs(scores_d[:, :k].mean(axis=0) - scores_p[:, :k].mean(axis=0))
    spread = np.sqrt(0.5 * (scores_d[:, :k].var(axis=0) + scores_p[:, :k].var(axis=0)))
    return STATISTICS[int(np.argmax(gap / np.maximum(spread, 1e-12)))]
