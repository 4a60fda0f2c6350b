"""Attacks on the released outputs, as an outside evaluator would run them.

Each test is an attack on what a fit releases (public fitted attributes, ``privacy_report_``,
the model, the stated events) with neighbouring datasets D, D' (one row replaced):

* **the seed in a released estimator**: a released object that holds a
  ``numpy.random.Generator`` holds its ``SeedSequence``, hence every noise draw; the attacker
  replays the fit on D and on D' and sees which one reproduces the release bit for bit;
* **every noisy release is exact**: each mechanism's output lies on a public grid (integers,
  multiples of a public ``g``, public candidates) whatever the data, so no output is possible
  under D and impossible under D' (Mironov 2012); a mutant adding floating-point noise to a
  double is caught by the same check;
* **the accounting sums up**: every mechanism a fit invokes is recorded with the noise it
  actually drew and the sensitivity its analysis needs (stated here independently of the code),
  and the sum of their zCDP costs is the ``privacy_event_``, which converts to at most the
  target epsilon in high-precision arithmetic (mpmath).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.selection import PrivateSelection

FAST = [{"n_rounds": 5, "kappa": 0.3}, {"n_rounds": 8, "kappa": 0.3}]


def _data(n=200, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / 3
    return X, np.where(X[:, 0] > 0, 1, -1)


# -- 1. the seed in a released estimator --------------------------------------------------------

_STREAMS = (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)


def _streams_in(obj, path="", seen=None) -> list[str]:
    """Paths to every numpy random stream reachable from ``obj`` (attributes, params, items)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, _STREAMS):
        return [path]
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += _streams_in(v, f"{path}[{k!r}]", seen)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            found += _streams_in(v, f"{path}[{i}]", seen)
    elif hasattr(obj, "get_params") and hasattr(obj, "__dict__"):
        for k, v in vars(obj).items():
            found += _streams_in(v, f"{path}.{k}", seen)
    return found


def _replay(sel, X, y) -> np.ndarray | None:
    """The attack: rebuild the search's streams from ``best_estimator_`` and refit on (X, y).

    PrivateSelection spawns (split, K, runs) from one root seed and each run from the runs'
    stream; a run's Generator carries ``SeedSequence(entropy, spawn_key)``, so the split, the
    candidate draw and the run's noise all follow.  None when no stream was released.
    """
    r = sel.best_estimator_.get_params()["random_state"]
    if not isinstance(r, np.random.Generator):
        return None
    ss = r.bit_generator.seed_seq
    split = np.random.Generator(np.random.PCG64(np.random.SeedSequence(ss.entropy).spawn(3)[0]))
    train = split.permutation(len(y))[int(round(0.25 * len(y))):]
    fresh = np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key)))
    fresh.integers(len(FAST))  # the run's draw of its candidate
    params = dict(sel.best_estimator_.get_params(), random_state=fresh)
    return PrivateHalfspaceClassifier(**params).fit(X[train], y[train]).coef_


def test_a_selected_estimator_releases_no_seed_of_the_search():
    """Before the fix, ``best_estimator_.random_state`` was the best run's Generator: with
    ``random_state=None`` (fresh OS entropy, the private setting) the replay above told D from
    D' in every fit whose replaced row fell in the training part (18 of 20 fits, the other two
    had it in the validation part), an output possible under one dataset only."""
    X, y = _data()
    X2 = X.copy()
    X2[0] = -X[0]  # D': row 0 replaced (label kept, so y x moves)
    for data in ((X, y), (X2, y)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST).fit(*data)
            assert _streams_in(sel, "sel") == []
            assert _replay(sel, X, y) is None
            assert sel.best_estimator_.random_state is None


def test_a_fit_without_a_seed_keeps_no_stream():
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1]).fit(X, y)
    assert _streams_in(est, "est") == []


def _delta_of_best_gaussian_score(event, epsilon: float, *, reveal_k: bool) -> float:
    """delta(epsilon) of "best of K runs" for the base Q = a score N(mu, 1/(2 rho_Q)) with
    sensitivity 1 (``rho_Q``-zCDP, so Theorem 2 of PS22 applies), output the best score.

    With ``reveal_k`` the output is (K, best score): sum_k P[K = k] delta_k(epsilon); without,
    the mixture over K.  D' is the dataset whose scores are lower (the large-K tail of a low
    maximum is what tells it apart)."""
    from scipy.special import log_ndtr

    from accounting.selection import tnb_pmf

    sigma = 1.0 / np.sqrt(2.0 * event.rho)
    x = np.linspace(-12.0, 13.0, 25001) * sigma
    dx = x[1] - x[0]

    def density(k, mu):
        u = (x - mu) / sigma
        return np.exp(np.log(k) - 0.5 * u * u - 0.5 * np.log(2 * np.pi * sigma**2)
                      + (k - 1) * log_ndtr(u))

    revealed, mix_d, mix_d2 = 0.0, np.zeros_like(x), np.zeros_like(x)
    k = 1
    while (p := tnb_pmf(k, event.eta, event.gamma)) > 1e-16:
        d, d2 = density(k, 1.0), density(k, 0.0)
        revealed += p * float(np.sum(np.maximum(0.0, d2 - np.exp(epsilon) * d)) * dx)
        mix_d += p * d
        mix_d2 += p * d2
        k += 1
    hidden = float(np.sum(np.maximum(0.0, mix_d2 - np.exp(epsilon) * mix_d)) * dx)
    return revealed if reveal_k else hidden


def test_the_number_of_runs_is_not_released():
    """PS22's Theorem 2 bounds the best run alone.  Beside it, K breaks the claim for a base
    algorithm the accounting admits: at the default plan for (1, 1e-6) the best of K Gaussian
    scores is (1, 1.4e-15)-DP with K hidden and only (1, 2.6e-4)-DP with K revealed.  Before the
    fix ``n_runs_`` and ``privacy_report_["n_runs"]`` released K."""
    planned = PrivateSelection(1.0, 1e-6).planned_privacy_event()
    assert _delta_of_best_gaussian_score(planned, 1.0, reveal_k=False) < 1e-6
    assert _delta_of_best_gaussian_score(planned, 1.0, reveal_k=True) > 1e-4
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = PrivateSelection(1.0, 1e-6, classes=[-1, 1], candidates=FAST,
                               random_state=0).fit(X, y)
    released = {k for k in vars(sel) if k.endswith("_") and not k.startswith("_")}
    assert released == {"best_estimator_", "best_params_", "classes_", "n_features_in_",
                        "privacy_event_", "privacy_report_"}
    assert not any("runs" in key and key != "expected_runs" for key in sel.privacy_report_)


# -- 3. the accounting sums up ----------------------------------------------------------------

#: Each release's L2 sensitivity under replace-one, stated here from the analyses (not read from
#: the code): rounds 2R/(kappa n) (GaussianCenteringHalfspace, the joint release likewise),
#: the mean 2R/n, the second-moment triangle sqrt 2 R^2; the count 1; the two histograms sqrt 2
#: (one unit moves between cells); the cut's utility 1, the slope's 2^10 + 2 Brier steps.
BRIER_STEPS = 2**10 + 2


class _Recorder:
    """Wraps every noise-drawing entry point of a fit and prices each call it sees (zCDP)."""

    def __init__(self, monkeypatch):
        import sys

        from dpboost import defaults, mechanisms, private_platt, private_threshold

        self.calls: list[tuple[str, float]] = []
        self.context: dict = {}
        release = mechanisms.LatticeGaussian.release

        def priced_release(mech, value, *, rng):
            caller = sys._getframe(1).f_globals["__name__"]
            R, n = self.context["R"], self.context["n"]
            if caller in ("dpboost.weak_learners", "dpboost.multiclass"):
                delta = 2 * R / (self.context["kappa"] * n)
            else:
                delta = {"dpboost.input_map": 2 * R / n,
                         "dpboost.whitening": np.sqrt(2.0) * R**2}[caller]
            g, (t, m) = mech.granularity, mech.grid_variance
            # the integer query round(f / g) moves by (Delta + 2E)/g + sqrt(d) (mechanisms.py)
            steps = (delta + 2 * mech.error_bound) / g + np.sqrt(mech.dimension)
            self.calls.append((caller, steps**2 / (2 * t * m)))
            return release(mech, value, rng=rng)

        def priced_gaussian(module):
            sample = module.sample_discrete_gaussian

            def wrapped(s2, size=None, *, rng):
                name = sys._getframe(1).f_code.co_name
                # squared sensitivity: the count 1, the norm histogram 2; the score histogram
                # is drawn as two calls (positives, negatives) over one joint vector of
                # squared sensitivity 2, so each call carries half of it
                sens2 = {"private_count": 1.0, "norm_scale_from_counts": 2.0,
                         "private_platt": 1.0, "private_class_counts": 2.0}[name]
                self.calls.append((name, sens2 / (2 * float(s2))))
                return sample(s2, size, rng=rng)
            return wrapped

        def priced_exponential(utility, eta, *, rng, weights=None):
            slope = weights is None  # the cut's draw carries the public base measure
            eps0 = 2 * float(eta) * (BRIER_STEPS if slope else 1)
            self.calls.append(("slope" if slope else "cut", eps0**2 / 8))
            return sample_exp(utility, eta, rng=rng, weights=weights)

        def priced_temperature(utility, eta, *, rng, weights=None):
            # the multiclass softmax temperature: one draw, utility the Brier gain
            self.calls.append(("temperature", (2 * float(eta) * BRIER_STEPS) ** 2 / 8))
            return sample_exp(utility, eta, rng=rng, weights=weights)

        sample_exp = private_threshold.sample_exponential
        from dpboost import private_temperature

        monkeypatch.setattr(private_temperature, "sample_exponential", priced_temperature)
        monkeypatch.setattr(mechanisms.LatticeGaussian, "release", priced_release)
        monkeypatch.setattr(defaults, "sample_discrete_gaussian", priced_gaussian(defaults))
        from dpboost import multiclass_prior

        monkeypatch.setattr(multiclass_prior, "sample_discrete_gaussian",
                            priced_gaussian(multiclass_prior))
        monkeypatch.setattr(private_platt, "sample_discrete_gaussian",
                            priced_gaussian(private_platt))
        monkeypatch.setattr(private_threshold, "sample_exponential", priced_exponential)
        # kappa is known to the rounds only once the count is released: read it there
        from dpboost import lazy_breg

        init = lazy_breg.LazyBregBoost.__init__

        def remember_kappa(nxm, kappa, *args, **kwargs):
            self.context["kappa"] = kappa
            init(nxm, kappa, *args, **kwargs)

        monkeypatch.setattr(lazy_breg.LazyBregBoost, "__init__", remember_kappa)

    @property
    def rho(self) -> float:
        return float(np.sum([rho for _, rho in self.calls]))


def _mp_cks_epsilon(rho: float, delta: float):
    """CKS20 Cor. 13 at 50 digits: min over alpha > 1 of
    alpha rho + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)."""
    import mpmath

    mpmath.mp.dps = 50
    r, d = mpmath.mpf(rho), mpmath.mpf(delta)

    def f(a):
        return a * r + mpmath.log(1 - 1 / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)

    # the minimiser solves (a - 1)^2 rho + log a = log(1/delta) (cks_epsilon's docstring)
    lo, hi = mpmath.mpf(1) + mpmath.mpf(10) ** -30, 1 + mpmath.sqrt(mpmath.log(1 / d) / r) + 1
    root = mpmath.findroot(lambda u: (u - 1) ** 2 * r + mpmath.log(u) - mpmath.log(1 / d),
                           (lo, hi), solver="anderson")
    return max(mpmath.mpf(0), f(root))


def _labels(n, k, minority, rng):
    if k == 2:
        return (rng.random(n) < minority).astype(int)
    return rng.integers(0, k, n)


ACCOUNTING_CASES = [
    # n, d, classes, minority, epsilon, delta, params
    (60, 2, 2, 0.5, 1.0, 1e-6, {}),
    (300, 5, 2, 0.1, 0.3, 1e-5, {}),
    (300, 5, 2, 0.5, 8.0, 1e-8, {}),
    (3000, 4, 2, 0.3, 2.0, 1e-6, {}),                           # the Platt histogram
    (4000, 3, 2, 0.4, 20.0, 1e-6, {}),                          # and the whitening
    (500, 6, 2, 0.2, 1.0, 1e-6, {"calibration": "private"}),
    (500, 6, 2, 0.5, 1.0, 1e-6, {"kappa": 0.2, "n_rounds": 7}),
    (500, 6, 2, 0.5, 3.0, 1e-6, {"margin": 0.5, "n_rounds": 9}),
    (400, 4, 3, None, 1.0, 1e-6, {}),
    (400, 4, 4, None, 2.0, 1e-7, {"multiclass": "ovr"}),
    (400, 4, 3, None, 1.0, 1e-6, {"n_rounds": 6, "kappa": 0.4}),
]


@pytest.mark.parametrize("n, d, k, minority, eps, delta, params", ACCOUNTING_CASES)
def test_the_event_is_the_sum_of_the_mechanisms_invoked(monkeypatch, n, d, k, minority, eps,
                                                         delta, params):
    _check_the_event_is_the_sum(monkeypatch, n, d, k, minority, eps, delta, params)


@pytest.mark.parametrize("n, d, k, minority, eps, delta, params",
                         [ACCOUNTING_CASES[i] for i in (1, 3, 8)])
def test_the_event_is_the_sum_of_the_mechanisms_invoked_on_dask(monkeypatch, n, d, k, minority,
                                                                 eps, delta, params):
    # the dask backend's own code paths (the norm histogram's counts per chunk, the centre's
    # sums on the workers) draw through the same priced entry points
    _check_the_event_is_the_sum(monkeypatch, n, d, k, minority, eps, delta, params, dask=True)


def _check_the_event_is_the_sum(monkeypatch, n, d, k, minority, eps, delta, params, dask=False):
    from accounting import ZCDPAccountant

    rng = np.random.default_rng(n + d + k)
    X = rng.normal(size=(n, d)) / np.sqrt(d)
    y = _labels(n, k, minority, rng)
    X[y == 1] += 0.2
    rec = _Recorder(monkeypatch)
    rec.context.update(R=1.0, n=n)
    est = PrivateHalfspaceClassifier(eps, delta, classes=list(range(k)), random_state=1,
                                     **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dask:
            import dask as dask_module
            import dask.array as da

            with dask_module.config.set(scheduler="synchronous"):
                rows = n // 3 + 1
                est.fit(da.from_array(X, chunks=(rows, d)), da.from_array(y, chunks=rows))
        else:
            est.fit(X, y)
    report = est.privacy_report_
    event_rho = ZCDPAccountant().compose(est.privacy_event_).rho
    # every mechanism the report lists ran, and nothing else drew noise from the data
    rounds = sum(1 for name, _ in rec.calls if name in ("dpboost.weak_learners",
                                                          "dpboost.multiclass"))
    assert rounds == report["n_rounds"] * (k if params.get("multiclass") == "ovr" else 1)
    # the cut and the slope are one listed mechanism, and so are the score histogram's halves
    # (a multiclass fit's softmax temperature is one draw and one listed mechanism)
    two_draws = bool(report.get("threshold") or (report.get("calibration") and
                                                  "temperature" not in report["calibration"]))
    assert len(rec.calls) - rounds == len(report["mechanisms"]) - 1 + two_draws
    # what was drawn costs no more than the event says, and the event is no loose upper bound
    assert rec.rho <= event_rho * (1 + 1e-12)
    assert rec.rho >= event_rho * 0.98
    assert report["rho"] == pytest.approx(event_rho, rel=1e-12)
    # the event meets the target in 50-digit arithmetic (CKS20 Cor. 13, the tightest bound used)
    assert _mp_cks_epsilon(event_rho, delta) <= eps
    assert _mp_cks_epsilon(rec.rho, delta) <= eps


def _noise_for_twice_the_charge(monkeypatch):
    """The calibration's histogram (or cut and slope) drawn for twice the rho it is charged."""
    from dpboost import estimator, private_platt, private_threshold

    platt, cut = private_platt.private_platt, private_threshold.private_threshold
    monkeypatch.setattr(estimator, "private_platt",
                        lambda u, y, rho, *, rng: platt(u, y, 2 * rho, rng=rng))
    monkeypatch.setattr(estimator, "private_threshold",
                        lambda u, y, rho, d, *, rng: cut(u, y, 2 * rho, d, rng=rng))


def _mean_at_half_its_sensitivity(monkeypatch):
    from dpboost import input_map

    mech = input_map.mean_mechanism
    monkeypatch.setattr(input_map, "mean_mechanism",
                        lambda n, d, R, rho: mech(2 * n, d, R, rho))


def _rounds_at_half_their_sensitivity(monkeypatch):
    from dpboost import multiclass, weak_learners

    for cls in (weak_learners.GaussianCenteringHalfspace, multiclass.JointGaussianCentering):
        monkeypatch.setattr(cls, "sensitivity",
                            lambda self, n, f=cls.sensitivity: f(self, n) / 2)


@pytest.mark.parametrize("mutant", [_noise_for_twice_the_charge, _mean_at_half_its_sensitivity,
                                    _rounds_at_half_their_sensitivity])
@pytest.mark.parametrize("case", [ACCOUNTING_CASES[1], ACCOUNTING_CASES[3]])
def test_the_accounting_attack_catches_a_release_charged_below_its_noise(monkeypatch, mutant,
                                                                         case):
    mutant(monkeypatch)
    with pytest.raises(AssertionError):
        test_the_event_is_the_sum_of_the_mechanisms_invoked(monkeypatch, *case)


# -- 2. every noisy release is exact ----------------------------------------------------------

def _raw_releases(monkeypatch) -> list[tuple[str, object, object]]:
    """Record each mechanism's raw output, with its public support, as the fit draws it."""
    import sys

    from dpboost import defaults, mechanisms, private_threshold

    out = []
    release = mechanisms.LatticeGaussian.release

    def grid_release(mech, value, *, rng):
        noisy = release(mech, value, rng=rng)
        out.append((sys._getframe(1).f_globals["__name__"], noisy, mech.granularity))
        return noisy

    count = defaults.private_count

    def recorded_count(y_pm, rho, *, rng):
        noisy, event = count(y_pm, rho, rng=rng)
        out.append(("count", noisy, "int"))
        return noisy, event

    norm_scale = defaults.private_norm_scale

    def recorded_scale(X, R, rho, *, rng):
        scale = norm_scale(X, R, rho, rng=rng)
        out.append(("scale", scale, [2.0 ** (j / 4) for j in range(defaults.NORM_BINS)]))
        return scale

    threshold = private_threshold.private_threshold

    def recorded_threshold(u, y, rho, d, *, rng):
        fit = threshold(u, y, rho, d, rng=rng)
        out.append(("cut", fit.threshold, private_threshold.candidate_cuts(d).tolist()))
        out.append(("slope", fit.slope, private_threshold.candidate_slopes(d).tolist()))
        return fit

    from dpboost import estimator  # (multiclass: its rounds and mean go through release)

    monkeypatch.setattr(mechanisms.LatticeGaussian, "release", grid_release)
    monkeypatch.setattr(estimator, "private_count", recorded_count)
    monkeypatch.setattr(estimator, "private_norm_scale", recorded_scale)
    monkeypatch.setattr(defaults, "private_norm_scale", recorded_scale)  # (multiclass)
    monkeypatch.setattr(estimator, "private_threshold", recorded_threshold)
    return out


def _off_support(releases) -> list[str]:
    from dpboost.float_attack import grid_output_possible

    bad = []
    for name, value, support in releases:
        if support == "int":
            ok = isinstance(value, int)
        elif isinstance(support, list):
            ok = value in support
        else:
            ok = bool(grid_output_possible(value, support).all())
        if not ok:
            bad.append(name)
    return bad


EXACT_CASES = {  # n, d, classes, epsilon, fits
    "small data: cut and slope": (300, 5, 2, 1.0, 8),
    "mean, whitening, Platt histogram": (4000, 3, 2, 20.0, 3),
    "multiclass joint": (400, 4, 3, 1.0, 8),
}


@pytest.mark.parametrize("case", EXACT_CASES)
def test_every_raw_release_lies_on_its_public_support(monkeypatch, case):
    """Mironov's attack needs an output that one neighbour can produce and the other cannot.
    Every raw release (the noisy count, the grid releases of the mean, second moment and
    rounds, the input scale, the cut and the slope) lies on a support fixed by public values
    and covered by the noise whatever the data: 0 off-support outputs in 19 fits."""
    n, d, k, eps, fits = EXACT_CASES[case]
    seen = set()
    for seed in range(fits):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, d)) / np.sqrt(d)
        y = _labels(n, k, 0.3, rng)
        releases = _raw_releases(monkeypatch)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            PrivateHalfspaceClassifier(eps, 1e-6, classes=list(range(k)),
                                       random_state=seed).fit(X, y)
        assert _off_support(releases) == []
        seen |= {name for name, _, _ in releases}
        monkeypatch.undo()
    expected = {"dpboost.input_map", "scale",
                "dpboost.multiclass" if k > 2 else "dpboost.weak_learners"}
    expected |= {"count", "cut", "slope"} if case.startswith("small") else set()
    expected |= {"count", "dpboost.whitening"} if "whitening" in case else set()
    assert expected <= seen


def test_a_release_with_floating_point_noise_is_off_its_support(monkeypatch):
    """The same check on a mutant that adds numpy's floating-point Gaussian to the private
    mean (the release Mironov attacked) flags it in every fit."""
    from dpboost import mechanisms

    release = mechanisms.LatticeGaussian.release

    def naive(mech, value, *, rng):
        import sys

        if sys._getframe(2).f_globals["__name__"] != "dpboost.input_map":  # (via the recorder)
            return release(mech, value, rng=rng)
        return np.asarray(value) + rng.normal(0.0, mech.sigma, size=mech.dimension)

    flagged = 0
    for seed in range(8):
        monkeypatch.setattr(mechanisms.LatticeGaussian, "release", naive)
        releases = _raw_releases(monkeypatch)
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(300, 5)) / 3
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=seed).fit(
                X, (X[:, 0] > 0).astype(int))
        flagged += _off_support(releases) == ["dpboost.input_map"]
        monkeypatch.undo()
    assert flagged == 8


# -- 4. side channels: warnings and stderr ------------------------------------------------------

EXTREME_ROWS = {
    "1e308": [1e308] * 5, "-1e308 and 1e308": [-1e308, 1e308, 1e-300, 0.0, 1.0],
    "1e200": [1e200, 0, 0, 0, 0], "denormal": [5e-324] * 5, "zero": [0.0] * 5,
}


def _warnings_of_fit(row, params) -> list[str]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)) * 0.3
    y = (X[:, 0] > 0).astype(int)
    if row is not None:
        X[0] = row
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=[0, 1], random_state=0, **params).fit(X, y)
    return sorted(f"{w.category.__name__}: {w.message}" for w in caught)


@pytest.mark.parametrize("params", [{}, {"n_rounds": 5, "kappa": 0.25}])
@pytest.mark.parametrize("row", EXTREME_ROWS)
def test_a_fit_warns_alike_on_neighbours(params, row):
    """One row replaced by finite extreme values: the fit's warnings are those of D.  Before
    the fix a row of 1e308 raised 'RuntimeWarning: overflow encountered in multiply' in
    clip_rows (its norm overflowed, and the row was clipped to 0, not onto the sphere), which
    ``dpboost train`` prints on stderr: an output possible under D' only."""
    assert _warnings_of_fit(EXTREME_ROWS[row], params) == _warnings_of_fit(None, params)


def test_train_stderr_is_alike_on_neighbours(tmp_path, capsys):
    from dpboost.cli import main

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)) * 0.3
    y = (X[:, 0] > 0).astype(int)
    errs = []
    for name, row in (("d", X[0]), ("d2", np.full(5, 1e308))):
        X[0] = row
        path = tmp_path / f"{name}.csv"
        path.write_text("x0,x1,x2,x3,x4,label\n" + "".join(
            ",".join([*(repr(float(v)) for v in x), str(c)]) + "\n" for x, c in zip(X, y)))
        assert main(["train", str(path), "--label", "label", "--classes", "0,1",
                     "--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0",
                     "--out", str(tmp_path / f"{name}.json")]) == 0
        errs.append(capsys.readouterr().err)
    assert errs[0] == errs[1]


def test_clipping_puts_a_huge_row_on_the_sphere():
    from dpboost.estimator import clip_rows

    with np.errstate(all="raise"):
        out = clip_rows(np.array([[1e308] * 4, [-1e308, 0, 0, 1e300], [3.0, 4.0, 0, 0]]), 2.0)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 2.0, rtol=1e-14)
    assert np.all(np.linalg.norm(out, axis=1) <= 2.0)
    np.testing.assert_allclose(out[0], np.full(4, 1.0), rtol=1e-14)


# -- 5. empirical epsilon of whole default fits the other audits do not cover ------------------

def _end_to_end_statistics(clf, u) -> np.ndarray:
    """Every released scalar of a small-data or multiclass default fit, both signs."""
    from dpboost.audit_defaults import _statistics

    if clf.coef_.ndim == 1:  # binary: audit_defaults' scalars and the small-data slope
        base = _statistics(clf, u)[:len(_statistics(clf, u)) // 2]
        values = np.r_[base, clf.threshold_.slope, clf.privacy_report_["n_rounds"]]
    else:  # multiclass: each class's coefficient along u and its intercept
        values = np.r_[clf.coef_ @ u, clf.intercept_, clf.input_centre_ @ u,
                       np.log(clf.input_scale_), clf.privacy_report_["n_rounds"]]
    return np.r_[values, -values]


def _end_to_end_epsilon(runs: int, classes: list, rng) -> float:
    from dpboost.audit import rotation
    from dpboost.audit_defaults import defaults_audit_pair
    from dpboost.audit_statistics import distinguish_best

    X, y, X2, y2 = defaults_audit_pair(300)
    if len(classes) > 2:  # row 0 is class 2 in D and class 0 in D', at +R u and -R u
        y = np.where(y > 0, 2, (X[:, 1] > 0).astype(int))
        y2 = y.copy()
        y2[0] = 0
    u = rotation(X.shape[1])[0]
    scores = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data, labels in ((X, y), (X2, y2)):
            scores.append(np.array([_end_to_end_statistics(PrivateHalfspaceClassifier(
                2.0, 1e-3, classes=classes, random_state=rng).fit(data, labels), u)
                for _ in range(runs // 2)]))
    return distinguish_best(scores[0], scores[1], delta=1e-3).epsilon_lower


@pytest.mark.slow
@pytest.mark.parametrize("classes", [[-1, 1], [0, 1, 2]], ids=["small-data", "multiclass"])
def test_whole_default_fits_stay_below_the_target(classes):
    """Defaults end to end (mean, scale, count, T learned, rounds, cut and slope; or the joint
    multiclass release), at target (2, 1e-3), on 300 rows where row 0 is R u against -R u
    (and changes class): epsilon_lower 0.0 for both (800 and 500 runs), where a perfect
    separation would give about 4.7 and 4.2.  A mean released without noise: 3.47 on 300."""
    rng = np.random.default_rng(2026)
    assert _end_to_end_epsilon(800 if len(classes) == 2 else 500, classes, rng) < 1.0


@pytest.mark.slow
def test_the_end_to_end_audit_flags_a_mean_without_noise(monkeypatch):
    """A binary fit whose mean is released without noise: epsilon_lower 3.47 on 300 runs.  (A
    multiclass fit on these 300 rows no longer shows it, 0.0: since session 25 it centres on
    a m_hat with the James-Stein factor a = max(0, 1 - d s^2 / ||m_hat||^2), which is 0 here,
    so the broken mean is not used at all.)"""
    from dpboost import input_map

    monkeypatch.setattr(input_map, "private_mean",
                        lambda X, R, rho, *, rng: np.asarray(X).mean(axis=0))
    assert _end_to_end_epsilon(300, [-1, 1], np.random.default_rng(7)) > 2.0


@pytest.mark.parametrize("n, d, eps, delta, k", [(5000, 2, 7.0, 1e-5, 2), (400, 9, 30.0, 1e-9, 3),
                                                 (5000, 9, 1.0, 1e-5, 3)])
def test_a_fit_never_spends_more_than_it_planned(n, d, eps, delta, k):
    """``dpboost train --ledger`` checks ``planned_privacy_event()`` before the fit and spends
    ``privacy_event_`` after it.  With T learned the rounds were planned as rho_rounds and
    spent as T releases at z = sqrt(T / (2 rho_rounds)), which the accountant priced one ulp
    above rho_rounds in 26 of 144 settings (these three among them)."""
    from accounting import ZCDPAccountant

    rng = np.random.default_rng(n + d)
    X = rng.normal(size=(n, d)) / np.sqrt(d) / 2
    est = PrivateHalfspaceClassifier(eps, delta, classes=list(range(k)), random_state=0)
    planned = ZCDPAccountant().compose(est.planned_privacy_event()).rho
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, rng.integers(0, k, n))
    assert ZCDPAccountant().compose(est.privacy_event_).rho <= planned


def _structure(X, y, k, params):
    """What a fit shows besides its values: attribute names, dtypes and shapes, report keys,
    warnings (the clipped-rows one included: a private fit no longer raises it), exceptions."""
    def shape(v):
        return (v.dtype.str, v.shape) if isinstance(v, np.ndarray) else type(v).__name__

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=list(range(k)), random_state=0,
                                             **params).fit(X, y)
            out = (sorted((a, shape(v)) for a, v in vars(est).items()
                          if a.endswith("_") and not a.startswith("_")),
                   list(est.privacy_report_))
        except Exception as exc:  # noqa: BLE001 - the attack compares whatever happens
            out = (type(exc).__name__, str(exc))
    return out, sorted({f"{w.category.__name__}: {w.message}" for w in caught})


@pytest.mark.parametrize("kind", ["identical", "zeros", "one class"])
@pytest.mark.parametrize("k, params", [(2, {}), (2, {"calibration": "private"}), (3, {})])
def test_degenerate_data_shows_the_same_structure_on_neighbours(kind, k, params):
    """Identical rows, zero rows, one class present: replacing row 0 (and its label) by an
    extreme or ordinary row changes no attribute name, dtype or shape, report key, warning or
    exception (0 differences in 360 random pairs when this was written)."""
    rng = np.random.default_rng(3)
    n, d = 40, 3
    X = {"identical": np.tile(rng.normal(size=d) * 0.3, (n, 1)), "zeros": np.zeros((n, d)),
         "one class": rng.normal(size=(n, d)) * 0.3}[kind]
    y = np.zeros(n, int) if kind == "one class" else rng.integers(0, k, n)
    base = _structure(X, y, k, params)
    for row in (np.zeros(d), np.full(d, 1e308), -np.eye(d)[0] * 1e6, np.full(d, 5e-324)):
        X2, y2 = X.copy(), y.copy()
        X2[0], y2[0] = row, (y[0] + 1) % k
        assert _structure(X2, y2, k, params) == base
