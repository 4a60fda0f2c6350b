"""Adversarial search for the sensitivity and slickness maxima of one boosting round.

Neighbouring samples (random ones, flipped labels, norms at the bound, the replaced row capped)
are tried against Lemma 25's slickness bound ``1/(kappa n)`` and the per-round centre bound
``2R/(kappa n)`` (proof in :class:`dpboost.weak_learners.GaussianCenteringHalfspace`).

References
----------
Bun, Carmosino & Sorrell (COLT 2020), Lemma 25 and Theorem 27.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from dpboost._validation import check_random_state, check_scalar
from dpboost.lazy_breg import LazyBregBoost
from dpboost.weak_learners import HalfspaceHypothesis, centering_sum

__all__ = ["SensitivityResult", "neighbour_gap", "search_sensitivity"]


# --------------------------------------------------------------------------------------------
# Sensitivity and slickness search
# --------------------------------------------------------------------------------------------


def neighbour_gap(X, y, X_prime, y_prime, hypotheses, *, kappa: float,
                  learning_rate: float, class_gain=(0.0, 0.0)) -> tuple[float, float]:
    """Total variation between LB-NxM's normalised measures on S, S' and ``||z - z'||``.

    Returns ``(tv, distance)`` with ``tv = 1/2 sum |mu_hat - mu_hat'|`` (Lemma 25 bounds it by
    ``1/(kappa n)``) and ``distance = ||z(S) - z(S')||`` of the centering sums (at most
    ``2R/(kappa n)``; the paper's Theorem 27 bound is ``4R/(kappa n)``).  ``class_gain`` is
    LB-NxM's public class prior (:class:`~dpboost.lazy_breg.LazyBregBoost`).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, 1.0])
    >>> tv, dist = neighbour_gap(X, y, X, -y, [], kappa=0.5, learning_rate=1.0)
    >>> tv, round(dist, 12)
    (0.0, 1.414213562373)
    """
    nxm = LazyBregBoost(kappa, learning_rate, class_gain)
    mu = nxm.recompute(X, y, hypotheses)
    mu_prime = nxm.recompute(X_prime, y_prime, hypotheses)
    mu_hat, mu_hat_prime = mu / mu.sum(), mu_prime / mu_prime.sum()
    tv = 0.5 * float(np.abs(mu_hat - mu_hat_prime).sum())
    dist = float(np.linalg.norm(centering_sum(X, y, mu_hat)
                                - centering_sum(X_prime, y_prime, mu_hat_prime)))
    return tv, dist


@dataclass(frozen=True)
class SensitivityResult:
    """Maxima found by :func:`search_sensitivity`, as multiples of the bounds.

    ``max_tv_ratio`` = max TV * kappa n (Lemma 25: <= 1); ``max_distance_ratio`` = max
    ``||z - z'|| * kappa n / (2R)`` (<= 1); ``by_strategy`` holds each strategy's maxima.
    """

    max_tv_ratio: float
    max_distance_ratio: float
    pairs: int
    passed: bool
    by_strategy: dict

    def to_dict(self) -> dict:
        return asdict(self)


def _ball(rng, m, d, radius, on_sphere=False):
    v = rng.normal(size=(m, d))
    v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-300)
    r = np.ones((m, 1)) if on_sphere else rng.uniform(0, 1, (m, 1)) ** (1.0 / d)
    return radius * r * v


def _random_pair(rng, n, d, R, strategy):
    """One neighbouring pair and history for ``strategy`` (see :func:`search_sensitivity`)."""
    X = _ball(rng, n, d, R, on_sphere=strategy in ("norm_bound", "capped"))
    y = rng.choice([-1.0, 1.0], n)
    hyps = [HalfspaceHypothesis(w) for w in rng.normal(0, 3.0 / R, (int(rng.integers(0, 8)), d))]
    if strategy == "capped":
        # every row but 0 is classified correctly by the history; row 0 is orthogonal to it
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        X = R * np.outer(y, u)
        X[0] = _ball(rng, 1, d, R, on_sphere=True)[0]
        X[0] -= (X[0] @ u) * u
        X[0] *= R / max(np.linalg.norm(X[0]), 1e-300)
        hyps = [HalfspaceHypothesis(2.0 * u / R)] * int(rng.integers(1, 40))
        i = 0
    else:
        i = int(rng.integers(n))
    X2, y2 = X.copy(), y.copy()
    if strategy == "random":
        X2[i] = _ball(rng, 1, d, R)[0]
        y2[i] = rng.choice([-1.0, 1.0])
    elif strategy == "flipped":
        y2[i] = -y[i]
    else:  # norm_bound and capped: flip the signed point, norm kept at the bound
        if rng.random() < 0.5:
            y2[i] = -y[i]
        else:
            X2[i] = -X[i]
    return X, y, X2, y2, hyps


def search_sensitivity(
    *,
    pairs: int = 2000,
    n: int = 12,
    d: int = 3,
    kappa: float = 0.5,
    learning_rate: float = 1.0,
    norm_bound: float = 1.0,
    random_state=None,
) -> SensitivityResult:
    """Search neighbouring samples for the largest TV and ``||z - z'||`` of one LB-NxM round.

    Four strategies share the pairs equally: ``random`` (random points, labels, history and
    replacement), ``flipped`` (the replaced point keeps its features and flips its label),
    ``norm_bound`` (every row on the sphere of radius R, the replaced point negated or flipped)
    and ``capped`` (the history classifies every other row correctly and is orthogonal to the
    replaced row, so LB-NxM caps it at weight 1 in both samples; then the flip moves the centre
    by exactly ``2R/(kappa n)``, showing that bound is tight).

    Returns
    -------
    SensitivityResult
        ``passed`` when no ratio exceeds 1 (up to 1e-9).

    References
    ----------
    Bun, Carmosino & Sorrell (COLT 2020), Lemma 25 (slickness), Theorem 27.
    """
    owner = "search_sensitivity"
    pairs = check_scalar(pairs, "pairs", owner, kind="int", low=4, closed="left")
    n = check_scalar(n, "n", owner, kind="int", low=2, closed="left")
    d = check_scalar(d, "d", owner, kind="int", low=2, closed="left")
    kappa = check_scalar(kappa, "kappa", owner, low=0, high=1)
    if kappa * n <= 1:
        raise ValueError(f"search_sensitivity needs kappa * n > 1; got kappa={kappa}, n={n}.")
    learning_rate = check_scalar(learning_rate, "learning_rate", owner, low=1e-9, high=1e6,
                                 closed="both")  # as the estimators (MIN/MAX_LEARNING_RATE)
    norm_bound = check_scalar(norm_bound, "norm_bound", owner, low=0)
    rng = check_random_state(random_state, owner=owner)
    strategies = ("random", "flipped", "norm_bound", "capped")
    found = {s: [0.0, 0.0] for s in strategies}
    for k in range(pairs):
        strategy = strategies[k % len(strategies)]
        X, y, X2, y2, hyps = _random_pair(rng, n, d, norm_bound, strategy)
        tv, dist = neighbour_gap(X, y, X2, y2, hyps, kappa=kappa, learning_rate=learning_rate)
        best = found[strategy]
        best[0] = max(best[0], tv * kappa * n)
        best[1] = max(best[1], dist * kappa * n / (2.0 * norm_bound))
    max_tv = max(v[0] for v in found.values())
    max_dist = max(v[1] for v in found.values())
    return SensitivityResult(
        max_tv_ratio=max_tv, max_distance_ratio=max_dist, pairs=pairs,
        passed=bool(max_tv <= 1 + 1e-9 and max_dist <= 1 + 1e-9),
        by_strategy={s: {"max_tv_ratio": v[0], "max_distance_ratio": v[1]}
                     for s, v in found.items()})
