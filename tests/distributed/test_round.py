"""The same boosting round on numpy and on dask arrays (issue 12): projection, centre, release."""

import math

import mpmath as mp
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import dpboost.distributed as dist
from dpboost.boost import boost
from dpboost.distributed_projection import (
    GATHER_MAX,
    _measure_chunk,
    find_threshold,
    solve_threshold,
)
from dpboost.lazy_breg import LazyBregBoost
from dpboost.mechanisms import (
    CENTRE_BLOCK_ROWS,
    LatticeGaussian,
    blocked_centre,
    centre_error_bound,
)
from dpboost.projection import _project
from dpboost.weak_learners import GaussianCenteringHalfspace

da = pytest.importorskip("dask.array")

B = CENTRE_BLOCK_ROWS


def _data(n, d, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1, -1).astype(np.int8)
    return X.astype(dtype), y


def _mu_dask(L, kappa, lr, chunks, upper):
    Ld = da.from_array(L, chunks=chunks).persist()
    sol = find_threshold(Ld, kappa, lr, upper=upper)
    return _measure_chunk(L, sol.reference, sol.log_scale, lr), sol


def _exact_mu(L, kappa, lr):
    """The capped scaling of ``exp(-lr L)`` (``L`` as stored) at 50 digits, as floats."""
    mp.mp.dps = 50
    u, c = np.unique(L, return_counts=True)
    U, lam, target = [mp.mpf(float(x)) for x in u], mp.mpf(lr), mp.mpf(kappa * L.size)
    capped = np.concatenate([[0], np.cumsum(c)])

    def mass(j, ref):  # sum over the distinct values from j on, relative to ref
        return mp.fsum(int(c[i]) * mp.exp(-lam * (U[i] - ref)) for i in range(j, len(U)))

    a, b = -1, len(U)  # the last value at which g <= target, by bisection
    while b - a > 1:
        m = (a + b) // 2
        if int(capped[m + 1]) + mass(m + 1, U[m]) <= target:
            a = m
        else:
            b = m
    j = a + 1
    s = mp.log(target - int(capped[j])) - mp.log(mass(j, U[j]))
    return np.array([float(min(1, mp.exp(s - lam * (mp.mpf(float(x)) - U[j])))) for x in L])


# ---------------------------------------------------------------------------------------------
# projection
# ---------------------------------------------------------------------------------------------
def test_solve_threshold_equals_in_memory_projection_without_dask():
    # the client-side exact solve on all points (n <= GATHER_MAX) against dpboost.projection
    rng = np.random.default_rng(0)
    for case in range(200):
        n = int(rng.integers(2, 300))
        t = int(rng.integers(0, 40))
        kappa = float(rng.uniform(1.5 / n, 0.95))
        lr = float(rng.choice([0.1, 1.0, 5.0, 30.0]))
        L = rng.uniform(0, t, n) if t else np.zeros(n)
        if case % 3 == 0:  # ties
            L = np.round(L * 2) / 2
        u, c = np.unique(L, return_counts=True)
        lo = -math.log(1 / kappa) / lr
        ref, s, k = solve_threshold(u, c, lo=lo, hi=t + 1.0, n_below=0, above=0.0,
                                    learning_rate=lr, target=kappa * n)
        mu = _measure_chunk(L, ref, s, lr)
        ref = _project(math.log(kappa) - lr * L, kappa)[0]
        big = ref > 1e-250
        assert k == np.count_nonzero(mu == 1.0)
        np.testing.assert_allclose(mu[big], ref[big], rtol=1e-11, atol=0)
        assert abs(mu.sum() - kappa * n) <= 1e-11 * kappa * n


@pytest.mark.parametrize("t,kappa,lr", [(0, 0.25, 5.0), (3, 0.25, 5.0), (50, 0.05, 20.0),
                                        (10, 0.5, 0.3), (200, 0.1, 5.0)])
def test_dask_projection_equals_in_memory(client, t, kappa, lr):
    rng = np.random.default_rng(t)
    n = 30_011
    L = rng.uniform(0, t, n) if t else np.zeros(n)
    L[:5000] = L[0]  # a block of exact ties
    mu, sol = _mu_dask(L, kappa, lr, 7001, t + 1.0)
    ref = _project(math.log(kappa) - lr * L, kappa)[0]
    big = ref > 1e-250  # the in-memory projection floors exp at e^-708 (mass ~1e-308)
    np.testing.assert_allclose(mu[big], ref[big], rtol=1e-12, atol=0)
    assert np.count_nonzero(mu == 1.0) == sol.n_capped
    assert abs(mu.sum() - kappa * n) <= 1e-12 * kappa * n
    assert sol.passes <= 5  # "a few reductions"


@pytest.mark.parametrize("base,lr", [(1e3, 1e6), (1e5, 1e6), (5e5, 5.0), (30.0, 1e3)])
def test_solve_threshold_is_exact_at_large_rates_and_gains(base, lr):
    # Red team s33 R2, finding 1: theta solved in absolute gain units lost lambda |theta| 2^-53
    # of every uncapped weight (4e-8 at lambda 1e6, gains 1e3; the release's error bound allows
    # 2^-38 ~ 3.6e-12).  Against a 50-digit projection of the same stored gains.
    from dpboost.mechanisms import MEASURE_L1_ERROR

    rng = np.random.default_rng(int(base) % 1000 + int(lr) % 997)
    for case in range(6):
        n = int(rng.integers(20, 200))
        L = base + rng.uniform(0, 40 / lr, n)  # exponents -lr (L - L_min) spread over [0, 40]
        if case % 2:
            L[: n // 3] = L[0]  # ties
        kappa = float(rng.uniform(0.05, 0.6))
        u, c = np.unique(L, return_counts=True)
        ref, s, k = solve_threshold(u, c, lo=base - 1.0, hi=base + 1.0, n_below=0, above=0.0,
                                    learning_rate=lr, target=kappa * n)
        mu, exact = _measure_chunk(L, ref, s, lr), _exact_mu(L, kappa, lr)
        assert np.abs(mu - exact).sum() <= 1e-13 * exact.sum() < MEASURE_L1_ERROR * exact.sum()
        assert k == np.count_nonzero(exact == 1.0)


def test_dask_projection_is_exact_at_large_rates_and_gains(client):
    # the same through histogram passes (n > GATHER_MAX) and several chunks
    from dpboost.mechanisms import MEASURE_L1_ERROR

    rng = np.random.default_rng(7)
    n, lr, t = 3_001, 1e6, 1_000
    L = t - 1.0 + rng.uniform(0, 40 / lr, n)
    L[:700] = L[0]
    mu, sol = _mu_dask(L, 0.25, lr, 1_000, t + 1.0)
    exact = _exact_mu(L, 0.25, lr)
    assert np.abs(mu - exact).sum() <= 1e-13 * exact.sum() < MEASURE_L1_ERROR * exact.sum()
    assert sol.passes >= 2


def test_dask_projection_histogram_passes_narrow_to_a_small_bin(client):
    n = 200_000
    L = np.random.default_rng(1).normal(30, 0.01, n)  # concentrated: several passes needed
    mu, sol = _mu_dask(L, 0.25, 5.0, 50_000, 61.0)
    ref = _project(math.log(0.25) - 5.0 * L, 0.25)[0]
    np.testing.assert_allclose(mu, ref, rtol=1e-12)
    assert 2 <= sol.passes <= 5


# ---------------------------------------------------------------------------------------------
# centre
# ---------------------------------------------------------------------------------------------
def _chunkings(n):
    return {
        "not a multiple": 7001,
        "one-row chunk": ((1, n - 1),),
        "one row in the middle": ((n // 2, 1, n - n // 2 - 1),),
        "single chunk": n,
    }


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dask_centre_within_public_bound_for_any_chunking(client, dtype):
    n, d = 2 * B + 333, 7
    X, y = _data(n, d, dtype=dtype)
    w = np.random.default_rng(2).dirichlet(np.ones(n)) * y
    ref = blocked_centre(X, w)
    exact = np.array([math.fsum(X[:, j].astype(np.float64) * w) for j in range(d)])
    bound = centre_error_bound(n, 1.0)
    for name, chunks in _chunkings(n).items():
        c = chunks if isinstance(chunks, tuple) else (chunks,)
        got = dist.dask_centre(da.from_array(X, chunks=(c[0], d)),
                               da.from_array(w, chunks=c))
        assert np.linalg.norm(got - exact) <= bound, name
        assert np.abs(got - ref).max() <= 1e-14, name


def test_dask_centre_is_bit_for_bit_blocked_centre_on_block_multiples():
    # Same blocks, same tree: identical bits on the same memory (on workers the chunks arrive
    # at other addresses and OpenBLAS's order can depend on alignment: within 1e-14, above).
    import dask

    n, d = 3 * B + 17, 5
    X, y = _data(n, d)
    w = np.random.default_rng(3).random(n) * y
    with dask.config.set(scheduler="sync"), threadpool_limits(limits=1, user_api="blas"):
        got = dist.dask_centre(da.from_array(X, chunks=(2 * B, d)),
                               da.from_array(w, chunks=2 * B))
        assert np.array_equal(got, blocked_centre(X, w))


# ---------------------------------------------------------------------------------------------
# the whole round
# ---------------------------------------------------------------------------------------------
def _fit(X, y, T, seed=1, callback=None):
    learner = GaussianCenteringHalfspace(noise_multiplier=5.0, kappa=0.25)
    H = boost(X, y, measure_producer=LazyBregBoost(0.25, 5.0), weak_learner=learner,
              n_rounds=T, rng=np.random.default_rng(seed), callback=callback)
    return np.array([h.coef for h in H]), learner


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_rounds_on_numpy_and_dask(client, dtype):
    n, d, T = 20_000, 6, 4
    X, y = _data(n, d, dtype=dtype)
    ref, learner = _fit(X, y, T)
    g = learner.mechanism(n, d).granularity
    for name, chunks in _chunkings(n).items():
        c = chunks if isinstance(chunks, tuple) else (chunks,)
        got, _ = _fit(da.from_array(X, chunks=(c[0], d)), da.from_array(y, chunks=c), T)
        assert got.shape == ref.shape
        # both on the public grid: equal, or one step where the float centres straddle a
        # rounding boundary (test_one_grid_step_at_a_rounding_boundary)
        assert np.all(np.abs(got - ref) <= g * (1 + 1e-12)), name
        assert np.mean(got == ref) >= 0.95, name
        assert np.all(np.round(got / g) == got / g)


def test_one_grid_step_at_a_rounding_boundary():
    # Two float centres within the public error bound of each other release the same noise
    # (an integer draw that does not depend on the value) and grid points at most one step
    # apart; exactly one step when they straddle (k + 1/2) g.
    mech = LatticeGaussian(sensitivity=1e-3, noise_multiplier=3.0, dimension=3,
                           error_bound=centre_error_bound(10**5, 1.0))
    g = mech.granularity
    boundary = (12345 + 0.5) * g
    a = np.array([np.nextafter(boundary, -np.inf), 0.1, -0.2])
    b = np.array([np.nextafter(boundary, np.inf), 0.1, -0.2])
    ra = mech.release(a, rng=np.random.default_rng(7))
    rb = mech.release(b, rng=np.random.default_rng(7))
    assert rb[0] - ra[0] == g and np.array_equal(ra[1:], rb[1:])
    rng = np.random.default_rng(8)
    for _ in range(500):
        a = rng.uniform(-1, 1, 3)
        b = a + rng.uniform(-1, 1, 3) * 2 * mech.error_bound
        ra = mech.release(a, rng=np.random.default_rng(9))
        rb = mech.release(b, rng=np.random.default_rng(9))
        assert np.all(np.abs(ra - rb) <= g)


def test_gain_persisted_on_workers_and_never_gathered(client, monkeypatch):
    from distributed import futures_of

    n, d, T = 40_000, 5, 3
    X, y = _data(n, d)
    sizes = []
    real = dist.gather

    def leaves(o):
        if isinstance(o, (tuple, list)):
            for v in o:
                yield from leaves(v)
        else:
            yield np.size(o)

    def spy(*objs):
        out = real(*objs)
        sizes.extend(leaves(out))
        return out

    monkeypatch.setattr(dist, "gather", spy)
    Xd, yd = da.from_array(X, chunks=(7001, d)), da.from_array(y, chunks=7001)
    nxm = LazyBregBoost(0.25, 5.0)
    learner = GaussianCenteringHalfspace(noise_multiplier=5.0, kappa=0.25)
    boost(Xd, yd, measure_producer=nxm, weak_learner=learner, n_rounds=T,
          rng=np.random.default_rng(0))
    assert futures_of(nxm.cumulative_gain)  # held on the workers
    assert sizes and max(sizes) <= max(2 * 1024 + 2, GATHER_MAX, 2 * d) < n / 10


def test_one_noise_draw_per_round(client, monkeypatch):
    calls = []
    real = LatticeGaussian.release

    def counting(self, value, *, rng):
        calls.append(value.copy())
        return real(self, value, rng=rng)

    monkeypatch.setattr(LatticeGaussian, "release", counting)
    n, d, T = 5000, 4, 5
    X, y = _data(n, d)
    _fit(da.from_array(X, chunks=(1234, d)), da.from_array(y, chunks=1234), T)
    assert len(calls) == T


def test_a_failed_dask_computation_raises_one_error_before_the_noise(client, monkeypatch):
    import dask
    from distributed.comm.core import CommClosedError

    calls = []
    real_release = LatticeGaussian.release
    monkeypatch.setattr(LatticeGaussian, "release",
                        lambda self, v, *, rng: calls.append(1) or real_release(self, v, rng=rng))
    real_compute = dask.compute
    count = [0]

    def flaky(*a, **k):
        count[0] += 1
        if count[0] == 6:  # inside round 2
            raise CommClosedError("the worker holding a chunk died")
        return real_compute(*a, **k)

    monkeypatch.setattr(dask, "compute", flaky)
    X, y = _data(3000, 4)
    with pytest.raises(dist.DistributedFitError, match="no noise was drawn"):
        _fit(da.from_array(X, chunks=(1000, 4)), da.from_array(y, chunks=1000), 5)
    assert 1 <= len(calls) < 5  # the failing round drew nothing


def test_private_norm_scale_on_dask_equals_in_memory(client):
    from dpboost.defaults import private_norm_scale

    rng = np.random.default_rng(5)
    for seed in range(4):
        n, d = 6000, 3
        X = rng.standard_normal((n, d)) * rng.uniform(0.01, 0.3)
        X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
        ref = private_norm_scale(X, 1.0, 0.05, rng=np.random.default_rng(seed))
        got = dist.private_norm_scale_dask(da.from_array(X, chunks=(1001, d)), 1.0, 0.05,
                                           rng=np.random.default_rng(seed))
        assert got == ref


def test_clip_and_checks_on_dask(client):
    X = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
    from dpboost.estimator import clip_rows

    got = dist.clip_rows_dask(dist.check_dask_X(da.from_array(X, chunks=(1, 2))), 1.0)
    assert np.array_equal(got.compute(), clip_rows(X, 1.0))
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="first at row 2"):
        dist.check_dask_X(da.from_array(bad, chunks=(2, 2)))
    with pytest.raises(ValueError, match="not in classes"):
        dist.encode_labels_dask(da.from_array(np.array([0, 1, 2]), chunks=2), [0, 1])


def test_chunk_clip_fast_path_equals_clip_rows():
    # float32 chunks skip clip_rows's float64 squares only when the float32 squares prove no
    # row reaches the bound: the result is clip_rows's in every case (boundary rows, NaN, inf)
    from dpboost.estimator import clip_rows

    rng = np.random.default_rng(0)
    fast = 0
    for i in range(600):
        n, d = int(rng.integers(1, 40)), int(rng.integers(1, 300))
        A = rng.standard_normal((n, d))
        A /= np.linalg.norm(A, axis=1, keepdims=True)
        A *= rng.choice([0.5, 1 - 1e-7, 1 - 1e-6, 1.0, 1 + 1e-7, 1 + 1e-5, 2.0, 1e30], (n, 1))
        A = A.astype(np.float32)
        if i % 40 == 0:
            A[0, 0] = np.nan if i % 80 == 0 else np.inf
        R = float(rng.choice([1.0, 0.999999, 1.0001, 1e-3, 1e30, 1e200]))
        with np.errstate(all="ignore"):
            got, ref = dist._clip_chunk(A, R), clip_rows(A, R)
        fast += got is A
        assert got.dtype == ref.dtype  # float64 past FLOAT32_MAX_BOUND (1e200)
        np.testing.assert_array_equal(got, ref)
    assert fast > 30  # the fast path was taken (50 of 600 draws), not only the fallback
