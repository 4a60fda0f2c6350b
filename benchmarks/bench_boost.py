"""Speed of a boosting round, of the projection and of fit in T: ratios measured side by side.

Usage::

    python benchmarks/bench_boost.py            # full: n = 10^6, d = 100; projection n = 10^7
    python benchmarks/bench_boost.py --quick    # small sizes, a few seconds

Every figure is a ratio of two timings taken in the same run on the same data, so it stays
meaningful on a shared or throttled machine:

1. **Round bandwidth.**  A round of LazyBregBoost with the Gaussian centering learner reads
   ``X`` twice (``h(X) = X @ w`` for the gain, ``X.T @ (mu_hat * y)`` for the centre).  Effective
   bandwidth = ``2 * X.nbytes / seconds_per_round``, compared with the fastest single pass over
   the same matrix (the best of ``X @ v``, ``X.T @ u`` and ``np.dot(u, X)``; ``X.sum(axis=0)``
   is slower than a BLAS pass and flattered the ratio).  Target >= 0.75.
   **Safe release.**  The same round with the pre-fix release (``centre + numpy normal``, not
   floating-point safe) timed interleaved with the safe one; target: safe <= 1.2x legacy.
2. **Projection.**  :func:`dpboost.projection.capped_scaling` on ``n = 10^7`` log-weights against
   one ``np.exp`` pass over the same vector.  Target <= 4x.
3. **Fit in T.**  ``PrivateHalfspaceClassifier.fit`` with ``T = 4000`` over ``T = 1000`` (same data,
   same epsilon).  Linear scaling gives 4; target <= 4.4.

BLAS/OpenMP threads are pinned to 1 *before* numpy is imported: on the shared 2-core machine
two threads were measured slower than one.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install


def best_of(fn, repeat: int) -> float:
    """Minimum wall time of ``repeat`` calls (the least disturbed by other processes)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _legacy_learner():
    """The release before the floating-point fix: ``centering_sum + numpy normal`` (UNSAFE).

    Kept here only as the timing reference for the safe release (issue: a round must stay
    within 1.2x of this).
    """
    from dpboost.weak_learners import (
        GaussianCenteringHalfspace,
        HalfspaceHypothesis,
        centering_sum,
    )

    class LegacyGaussianCentering(GaussianCenteringHalfspace):
        def fit(self, X, y, mu_hat, *, rng):
            n, d = X.shape
            sigma = self.noise_multiplier * self.sensitivity(n)
            z = centering_sum(X, y, mu_hat) + rng.normal(0.0, sigma, size=d)
            return HalfspaceHypothesis(z / self.norm_bound**2)

    return LegacyGaussianCentering(noise_multiplier=40.0, kappa=0.25)


def round_seconds(X: np.ndarray, y: np.ndarray, n_rounds: int, rng, legacy: bool = False) -> float:
    """Median seconds per round over rounds 2..n_rounds (round 1 has no hypothesis to evaluate)."""
    from dpboost.boost import boost
    from dpboost.lazy_breg import LazyBregBoost
    from dpboost.weak_learners import GaussianCenteringHalfspace

    learner = (_legacy_learner() if legacy else
               GaussianCenteringHalfspace(noise_multiplier=40.0, kappa=0.25))
    stamps: list[float] = []
    boost(X, y, measure_producer=LazyBregBoost(0.25, 5.0), weak_learner=learner,
          n_rounds=n_rounds, rng=rng, callback=lambda t, mu, h: stamps.append(time.perf_counter()))
    return float(np.median(np.diff(stamps)))


def bench_round(n: int, d: int, dtype, n_rounds: int, repeat: int, rng) -> dict:
    X = rng.standard_normal((n, d)).astype(dtype)
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0).astype(dtype)
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.float64)
    t_sum = best_of(lambda: X.sum(axis=0), repeat)
    v = np.ones(d, dtype=dtype)
    u = np.ones(n, dtype=dtype)
    t_matvec = best_of(lambda: X @ v, repeat)
    t_rmatvec = best_of(lambda: X.T @ u, repeat)
    t_dot = best_of(lambda: np.dot(u, X), repeat)
    t_pass = min(t_matvec, t_rmatvec, t_dot)  # the fastest single pass over X: the honest floor
    t_round, t_legacy = [], []
    for _ in range(repeat):  # interleaved, so both see the same machine load
        t_round.append(round_seconds(X, y, n_rounds, rng))
        t_legacy.append(round_seconds(X, y, n_rounds, rng, legacy=True))
    t_round, t_legacy = min(t_round), min(t_legacy)
    machine = X.nbytes / t_pass
    effective = 2 * X.nbytes / t_round
    return {"dtype": np.dtype(dtype).name, "round_s": t_round, "legacy_s": t_legacy,
            "sum_s": t_sum, "matvec_s": t_matvec, "rmatvec_s": t_rmatvec, "dot_s": t_dot,
            "machine_gbs": machine / 1e9, "effective_gbs": effective / 1e9,
            "ratio": effective / machine, "safe_over_legacy": t_round / t_legacy}


def profile_round(n: int, d: int, dtype, rng) -> dict:
    """Where a round's time goes: the parts of one round timed separately."""
    from dpboost.lazy_breg import round_gain
    from dpboost.mechanisms import blocked_centre
    from dpboost.round_ops import project_gain
    from dpboost.weak_learners import HalfspaceHypothesis

    X = rng.standard_normal((n, d)).astype(dtype)
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0).astype(dtype)
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.float64)
    h = HalfspaceHypothesis(rng.standard_normal(d))
    gain = rng.uniform(0, 50, n)
    hX = h(X)
    w = (gain / gain.sum()) * y
    parts = {
        "h(X) (pass 1)": lambda: h(X),
        "round_gain": lambda: round_gain(hX, y),
        "projection": lambda: project_gain(gain, 0.25, 5.0),
        "mu/mu.sum()*y": lambda: (gain / gain.sum()) * y,
        "blocked_centre (pass 2)": lambda: blocked_centre(X, w),
    }
    return {name: best_of(fn, 3) for name, fn in parts.items()}


def bench_projection(n: int, repeat: int, rng) -> dict:
    from dpboost.projection import capped_scaling

    log_w = np.log(0.25) - 5.0 * rng.uniform(0.0, 200.0, n)
    t_exp = best_of(lambda: np.exp(log_w), repeat)
    t_proj = best_of(lambda: capped_scaling(log_w, 0.25), repeat)
    return {"exp_s": t_exp, "proj_s": t_proj, "ratio": t_proj / t_exp}


def bench_fit_T(n: int, d: int, t_small: int, t_large: int, repeat: int) -> dict:
    from dpboost.data import make_margin_data
    from dpboost.estimator import PrivateHalfspaceClassifier

    X, y = make_margin_data(n, d, 0.1, random_state=0)

    def fit(T):
        return lambda: PrivateHalfspaceClassifier(1.0, 1e-6, n_rounds=T, kappa=0.25,
                                                  learning_rate=5.0, classes=[-1, 1],
                                                  random_state=0).fit(X, y)

    t1 = best_of(fit(t_small), repeat)
    t4 = best_of(fit(t_large), repeat)
    return {"small_s": t1, "large_s": t4, "ratio": t4 / t1}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    parser.add_argument("--profile", action="store_true", help="also time the parts of a round")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    if args.quick:
        n, d, n_proj, rounds, repeat, (t_small, t_large), n_fit = 200_000, 100, 10**6, 6, 2, \
            (100, 400), 5_000
    else:
        n, d, n_proj, rounds, repeat, (t_small, t_large), n_fit = 10**6, 100, 10**7, 8, 3, \
            (1000, 4000), 20_000
    print(f"dpboost benchmark ({'quick' if args.quick else 'full'}), 1 BLAS thread, "
          f"numpy {np.__version__}")
    rows = []
    for dtype in (np.float64, np.float32):
        r = bench_round(n, d, dtype, rounds, repeat, rng)
        print(f"round n={n:,} d={d} {r['dtype']}: {r['round_s'] * 1e3:.1f} ms/round safe, "
              f"{r['legacy_s'] * 1e3:.1f} ms/round legacy (unsafe float noise); "
              f"X @ v {r['matvec_s'] * 1e3:.1f} ms, X.T @ u {r['rmatvec_s'] * 1e3:.1f} ms, "
              f"u @ X {r['dot_s'] * 1e3:.1f} ms, X.sum(axis=0) {r['sum_s'] * 1e3:.1f} ms; "
              f"fastest pass {r['machine_gbs']:.2f} GB/s; effective {r['effective_gbs']:.2f} GB/s")
        rows.append((f"round {r['dtype']}: effective / fastest single pass", r["ratio"],
                     ">= 0.75", r["ratio"] >= 0.75))
        rows.append((f"round {r['dtype']}: safe release / legacy release", r["safe_over_legacy"],
                     "<= 1.2", r["safe_over_legacy"] <= 1.2))
        if args.profile:
            parts = profile_round(n, d, dtype, rng)
            for name, sec in parts.items():
                print(f"    {name:<24s} {sec * 1e3:8.2f} ms")
            passes = parts["h(X) (pass 1)"] + parts["blocked_centre (pass 2)"]
            print(f"    the two passes alone: {2 * r['matvec_s'] / passes:.3f} of 2 x X @ v, "
                  f"{2 * min(r['matvec_s'], r['rmatvec_s'], r['dot_s']) / passes:.3f} of 2 x "
                  "the fastest pass (the rest of the round is O(n): the projection, the gains)")
    p = bench_projection(n_proj, repeat, rng)
    print(f"projection n={n_proj:,}: capped_scaling {p['proj_s'] * 1e3:.1f} ms, "
          f"np.exp {p['exp_s'] * 1e3:.1f} ms")
    rows.append(("projection / one np.exp pass", p["ratio"], "<= 4.0", p["ratio"] <= 4.0))
    try:
        f = bench_fit_T(n_fit, 20, t_small, t_large, 1 if not args.quick else 2)
    except ImportError as exc:  # estimator not available
        print(f"fit in T: skipped ({exc})")
    else:
        print(f"fit n={n_fit:,} d=20: T={t_small} {f['small_s']:.2f} s, "
              f"T={t_large} {f['large_s']:.2f} s")
        rows.append((f"fit time T={t_large} / T={t_small}", f["ratio"], "<= 4.4",
                     f["ratio"] <= 4.4))
    print()
    print(f"{'measure':<48s} {'ratio':>7s}  {'target':<8s} result")
    for name, ratio, target, ok in rows:
        print(f"{name:<48s} {ratio:7.3f}  {target:<8s} {'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
