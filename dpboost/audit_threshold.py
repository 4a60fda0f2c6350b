"""Audit of the private cut for small data: the exponential mechanism of
:mod:`dpboost.private_threshold`, run many times on a worst-case neighbouring pair.

The pair: ``n`` fixed scores, half at ``+1/2`` labelled +1 and half at ``-1/2`` labelled -1,
and row 0 at ``u = 0``, labelled +1 in D and -1 in D'.  Every cut in ``[-1/2, 0)`` classifies
one more row correctly in D than in D' and every cut in ``[0, 1/2)`` one fewer: each utility
moves by exactly the sensitivity, in opposite directions on the two sides of 0.  The mechanism
is run with the budget ``rho`` at which its two draws (the cut, then the slope) have
``epsilon_0`` adding up to the target epsilon, so the whole release is ``epsilon``-DP (McSherry
& Talwar 2007, Theorem 6; pure DP composes by addition); the released cut and slope are the
statistics, and the
distinguisher of :mod:`dpboost.audit_statistics` lower-bounds epsilon with 95% confidence.
The claim is the target epsilon, which holds for every delta.

A correct mechanism stays below the claim (on this pair a test on the cut reaches about
``epsilon_0 / 2``);
one that returns the best cut (no noise) separates the pair on every run.

References
----------
F. McSherry, K. Talwar. "Mechanism design via differential privacy." FOCS 2007.
Jagielski, Ullman & Oprea (NeurIPS 2020); Nasr et al. (IEEE S&P 2021).
"""

from __future__ import annotations

import numpy as np

from dpboost import private_threshold
from dpboost._validation import check_random_state
from dpboost.audit import (
    DEFAULT_DELTA,
    DEFAULT_EPSILON,
    DEFAULT_RUNS,
    AuditResult,
    _check_audit_args,
    _result,
)
from dpboost.audit_statistics import distinguish_best

__all__ = ["audit_threshold", "threshold_audit_pair"]

#: features behind the audited scores (public; sets the grid of 51 cuts)
AUDIT_DIMENSION = 31


def threshold_audit_pair(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(u, y, y')``: the fixed scores and the labels of D and D' (they differ in row 0)."""
    u = np.where(np.arange(n) % 2 == 0, 0.5, -0.5)
    u[0] = 0.0
    y = np.where(u > 0, 1, -1)
    y[0] = 1
    y_prime = y.copy()
    y_prime[0] = -1
    return u, y, y_prime


def audit_threshold(
    *,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    runs: int = DEFAULT_RUNS,
    n: int = 20,
    random_state=None,
) -> AuditResult:
    """Audit :func:`dpboost.private_threshold.private_threshold` against ``epsilon``.

    Returns
    -------
    AuditResult
        ``setting="threshold"``; ``details`` holds ``n``, the grid size and the two draws'
        ``epsilon_0`` (their sum is at most ``epsilon``).
    """
    owner = "audit_threshold"
    epsilon, delta, runs, n, _ = _check_audit_args(owner, epsilon, delta, runs, n, 0.5)
    rng = check_random_state(random_state, owner=owner)
    u, y, y_prime = threshold_audit_pair(n)
    # each draw's epsilon_0 grows as sqrt(rho): scale the module's own event at rho = 1 (a
    # hair below, so the etas rounded down to 2^-52 never sum past the target)
    unit = sum(ev.epsilon for ev in private_threshold.threshold_event(1.0).events)
    rho = (epsilon / unit) ** 2 * (1.0 - 1e-12)
    half = runs // 2
    scores, fit = [], None
    for labels in (y, y_prime):  # looked up at call time, so the tests can break it
        released = []
        for _ in range(half):
            fit = private_threshold.private_threshold(u, labels, rho, AUDIT_DIMENSION, rng=rng)
            released.append((fit.threshold, fit.slope))
        released = np.array(released)
        scores.append(np.column_stack([released, -released]))
    dist = distinguish_best(scores[0], scores[1], delta=delta)
    return _result("threshold", dist, epsilon, delta, 2 * half, 1, 0.0, 1.0,
                   {"n": n, "n_candidates": fit.n_candidates, "epsilon_0": fit.epsilon,
                    "slope_epsilon_0": fit.slope_epsilon})
