"""Audit of the input map's release: the private mean of :mod:`dpboost.input_map`.

Practical mode releases one more thing than the rounds: the mean of the clipped rows.  This
module audits it the way :mod:`dpboost.audit` audits a round: worst-case neighbours at exactly
the claimed sensitivity, the real code path run many times on each, and a likelihood-ratio
distinguisher turned into a 95%-confidence lower bound on epsilon, compared with the user's
target.

References
----------
Jagielski, Ullman & Oprea (NeurIPS 2020); Nasr et al. (IEEE S&P 2021).
"""

from __future__ import annotations

import numpy as np

from dpboost._validation import check_random_state, check_scalar
from dpboost.audit import (
    DEFAULT_DELTA,
    DEFAULT_EPSILON,
    DEFAULT_RUNS,
    AuditResult,
    _check_audit_args,
    _claim,
    _result,
    run_audit_pair,
)
from dpboost.audit_statistics import coordinate_log_likelihood_ratios, distinguish_best
from dpboost.input_map import mean_mechanism, private_mean

__all__ = ["audit_mean"]


def audit_mean(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_RUNS,
    n: int = 20,
    norm_bound: float = 1.0,
    random_state=None,
) -> AuditResult:
    """Audit the private mean of the input map (:func:`dpboost.input_map.private_mean`).

    The release's noise is calibrated to ``(epsilon, delta)`` for one release.  D has row 0 at
    ``R u`` and D' at ``-R u`` (``u`` the first row of :func:`rotation`), the other rows 0, so
    the two means are exactly the sensitivity ``2R/n`` apart.  ``private_mean`` itself (the
    estimator's code path: the blocked sum, the grid, the noise, the projection onto the ball)
    is run ``runs / 2`` times on each, and the Gaussian likelihood ratio, or the best single
    coordinate's term, lower-bounds epsilon.

    Returns
    -------
    AuditResult
        ``setting="mean"``.
    """
    return _audit_mean(epsilon=epsilon, delta=delta, runs=runs, n=n, norm_bound=norm_bound,
                       random_state=random_state)


def _audit_mean(*, epsilon, delta, runs, n, norm_bound, random_state,
                _noise_factor: float = 1.0) -> AuditResult:
    owner = "audit_mean"
    epsilon, delta, runs, n, _ = _check_audit_args(owner, epsilon, delta, runs, n, 0.5)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    z, eps_claimed = _claim(epsilon, delta, 1)
    rho = 1.0 / (2.0 * z * z)
    X, _, _ = run_audit_pair(n, norm_bound)
    X_prime = X.copy()
    X_prime[0] = -X[0]
    m_d, m_p = X.mean(axis=0), X_prime.mean(axis=0)
    sigma = mean_mechanism(n, X.shape[1], norm_bound, rho).sigma
    ratio = float(np.linalg.norm(m_d - m_p)) / (2.0 * norm_bound / n)
    half = runs // 2
    scores = []
    for data in (X, X_prime):  # _noise_factor < 1: a BROKEN release (tests only)
        released = np.array([private_mean(data, norm_bound, rho / _noise_factor**2, rng=rng)
                             for _ in range(half)])
        scores.append(coordinate_log_likelihood_ratios(released, m_d, m_p, sigma))
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    return _result("mean", dist, eps_claimed, delta, 2 * half, 1, z, ratio,
                   {"n": n, "norm_bound": norm_bound})
