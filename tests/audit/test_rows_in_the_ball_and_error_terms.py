"""The row clips and the floating-point error terms that the other audits did not pin down.

Session 34's mutation test left four changes alive in the whole suite: the clip after the
private input map, the ``2 E`` term of the lattice release's effective sensitivity, the
``2^-38`` term of the centre's error bound and an exact comparison in the ledger.  Each test
here fails on one of them (checked by hand on each mutant).

* The rows every round sees must lie in the ball of radius ``R``: that is the premise of the
  sensitivity ``2R`` of every release after the input map (``dpboost.input_map``).  A spy on
  the boosting loop records the row norms it is given, on adversarial rows the centring pushes
  to ``~1.02 R`` and rows the private input scale pushes to ``~4 R``, in memory and on dask.
* ``LatticeGaussian`` and ``centre_error_bound`` are compared with their documented formulas.
* The ledger refuses an event whose epsilon is one ulp above the target and takes one at it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from accounting import GaussianEvent
from accounting.ledger import BudgetLedger, _epsilon
from accounting.exceptions import BudgetExceededError
from dpboost import PrivateHalfspaceClassifier
from dpboost import estimator as estimator_module
from dpboost import multiclass as multiclass_module
from dpboost.halfspace_base import _BoostedHalfspaceBase
from dpboost.mechanisms import (CENTRE_BLOCK_ROWS, MEASURE_L1_ERROR, UNIT_ROUNDOFF,
                                LatticeGaussian, centre_error_bound, lattice_variance)
from dpboost.weak_learners import GaussianCenteringHalfspace

R = 1.0


def _norms(X) -> np.ndarray:
    X = X.compute() if hasattr(X, "compute") else X
    return np.linalg.norm(np.asarray(X, dtype=np.float64), axis=1)


@pytest.fixture
def rounds_spy(monkeypatch):
    """The largest row norm each binary fit's boosting loop was given."""
    seen: list[float] = []
    run = _BoostedHalfspaceBase._run

    def spy(self, X, *args, **kwargs):
        seen.append(float(_norms(X).max()))
        return run(self, X, *args, **kwargs)

    monkeypatch.setattr(_BoostedHalfspaceBase, "_run", spy)
    return seen


def _one_opposite_row(n: int = 300, n_classes: int = 2):
    """One feature: n-1 rows at +R and one at -R, which the map sends to norm ~1.02-1.06 R.

    (With one feature the whitening is the halving of the plain map, so the premise holds for
    every noise draw; in three dimensions the whitening shrank the row below R in 2 of 3.)
    """
    X = np.full((n, 1), R)
    X[0, 0] = -R
    y = np.arange(n) % n_classes
    return X, (np.where(y == 0, 1, -1) if n_classes == 2 else y)


def _mapped_norm_of_the_opposite_row(centre: float) -> float:
    """``|[(-R - m_hat) / 2, c_0]|`` with ``c_0 = R / (2 sqrt(d + 1))``, d = 1."""
    return math.hypot((R + centre) / 2.0, R / (2.0 * math.sqrt(2.0)))


def _mostly_short_rows(n: int = 2000, d: int = 4, seed: int = 0):
    """80% of the rows at norm 0.1 R: the private input scale grows all rows by ~2-4."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    X[: int(0.8 * n)] *= 0.1
    return X, np.where(X[:, 0] > 0, 1, -1)


def _as_dask(X, y):
    da = pytest.importorskip("dask.array")
    return da.from_array(X, chunks=(len(X) // 3, X.shape[1])), da.from_array(y, chunks=len(y) // 3)


def _fit(X, y, seed, eps=4.0, dask=False):
    est = PrivateHalfspaceClassifier(target_epsilon=eps, target_delta=1e-6, norm_bound=R,
                                     classes=[-1, 1], random_state=seed)
    if not dask:
        return est.fit(X, y)
    import dask as dask_module

    with dask_module.config.set(scheduler="synchronous"):
        return est.fit(*_as_dask(X, y))


@pytest.mark.parametrize("dask", [False, True], ids=["numpy", "dask"])
@pytest.mark.parametrize("seed", [0, 3])
def test_centred_rows_are_clipped_when_the_input_scale_is_one(rounds_spy, monkeypatch,
                                                              seed, dask):
    # an input scale of 1 (what the private scale gives on rows near the bound) leaves the
    # clip after the map as the only one: without it the opposite row reaches ~1.02 R
    from dpboost import distributed

    monkeypatch.setattr(estimator_module, "private_norm_scale", lambda *a, **k: 1.0)
    monkeypatch.setattr(distributed, "private_norm_scale_dask", lambda *a, **k: 1.0)
    X, y = _one_opposite_row()
    est = _fit(X, y, seed, dask=dask)
    assert est.input_centre_ is not None  # the map was released
    assert _mapped_norm_of_the_opposite_row(est.input_centre_[0]) > 1.01 * R  # needs the clip
    assert rounds_spy[-1] <= R


@pytest.mark.parametrize("dask", [False, True], ids=["numpy", "dask"])
@pytest.mark.parametrize("seed", [1, 2])
def test_rows_are_clipped_after_the_private_input_scale(rounds_spy, seed, dask):
    X, y = _mostly_short_rows()
    est = _fit(X, y, seed, eps=2.0, dask=dask)
    assert est.input_scale_ >= 2.0  # the premise: the long rows would reach >= ~2 R
    assert rounds_spy[-1] <= R


@pytest.fixture
def joint_rounds_spy(monkeypatch):
    """The largest row norm each multiclass (joint) fit's boosting loop was given."""
    seen: list[float] = []
    joint = multiclass_module.boost_joint

    def spy(X, *args, **kwargs):
        seen.append(float(_norms(X).max()))
        return joint(X, *args, **kwargs)

    monkeypatch.setattr(multiclass_module, "boost_joint", spy)
    return seen


def _fit3(X, y):
    return PrivateHalfspaceClassifier(target_epsilon=4.0, target_delta=1e-6, norm_bound=R,
                                      classes=[0, 1, 2], random_state=0).fit(X, y)


def test_multiclass_centred_rows_are_clipped_when_the_input_scale_is_one(joint_rounds_spy,
                                                                         monkeypatch):
    from dpboost import defaults

    monkeypatch.setattr(defaults, "private_norm_scale", lambda *a, **k: 1.0)
    est = _fit3(*_one_opposite_row(n=600, n_classes=3))
    assert _mapped_norm_of_the_opposite_row(est.input_centre_[0]) > 1.01 * R
    assert joint_rounds_spy and max(joint_rounds_spy) <= R


def test_multiclass_rows_are_clipped_after_the_private_input_scale(joint_rounds_spy,
                                                                   monkeypatch):
    # (the pre-scale before the map leaves the later scale small on these rows: a scale of 4
    # stands in for a draw that grows the longest mapped rows well past R)
    from dpboost import defaults

    monkeypatch.setattr(defaults, "private_norm_scale", lambda *a, **k: 4.0)
    X, _ = _mostly_short_rows(n=3000, d=4, seed=3)
    y = np.digitize(np.arctan2(X[:, 1], X[:, 0]), [-1.0, 1.0])  # three classes by angle
    est = _fit3(X, y)
    assert len(est.classes_) == 3 and joint_rounds_spy
    assert max(joint_rounds_spy) <= R


# ---------------------------------------------------------------------------------------------
# the error terms, against their formulas
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("error_bound", [0.5, 1e-3, 3e-12])
@pytest.mark.parametrize("dimension", [1, 4, 50])
def test_effective_sensitivity_adds_twice_the_error_bound_and_the_grid(error_bound, dimension):
    # Delta' = Delta + 2E + g sqrt(d): the computed value is within E of the exact one on
    # either dataset, and rounding to the grid moves it by at most g sqrt(d) / 2 each
    mech = LatticeGaussian(sensitivity=1.0, noise_multiplier=1.0, dimension=dimension,
                           error_bound=error_bound)
    g = mech.granularity
    expected = 1.0 + 2.0 * error_bound + g * math.sqrt(dimension)
    assert mech.effective_sensitivity == pytest.approx(expected, rel=1e-15)
    without = LatticeGaussian(sensitivity=1.0, noise_multiplier=1.0, dimension=dimension)
    if without.granularity == g:  # (1 + 2E) - 1 loses ~1e-16 / E of its relative accuracy
        assert (mech.effective_sensitivity - without.effective_sensitivity
                == pytest.approx(2.0 * error_bound, rel=1e-3, abs=0.0))
    t, m = mech.grid_variance
    assert t * m >= (mech.noise_multiplier * expected / g) ** 2 * (1 - 1e-12)
    assert t * m == lattice_variance(mech.noise_multiplier * expected / g)[0] * m


@pytest.mark.parametrize("n", [1, 7, CENTRE_BLOCK_ROWS, CENTRE_BLOCK_ROWS + 1, 10**6, 10**9])
@pytest.mark.parametrize("norm_bound", [1e-6, 1.0, 3.5e4])
def test_centre_error_bound_is_the_documented_formula(n, norm_bound):
    blocks = max(1, -(-n // CENTRE_BLOCK_ROWS))
    m = min(n, CENTRE_BLOCK_ROWS) + math.ceil(math.log2(blocks)) + 2
    gamma = m * UNIT_ROUNDOFF / (1 - m * UNIT_ROUNDOFF)
    exact = norm_bound * (MEASURE_L1_ERROR + gamma * (1 + MEASURE_L1_ERROR))
    bound = centre_error_bound(n, norm_bound)
    assert bound >= exact
    assert bound <= exact * (1 + 2e-9)
    assert bound >= norm_bound * 2.0 ** -38  # the measure's own error term, alone


@pytest.mark.parametrize("norm_bound", [1e-3, 1.0, 1e6])
def test_the_weak_learner_charges_the_error_of_its_own_norm_bound(norm_bound):
    learner = GaussianCenteringHalfspace(2.0, 0.25, norm_bound)
    for n in (10, 5000):
        mech = learner.mechanism(n, 3)
        assert mech.error_bound == centre_error_bound(n, norm_bound)
        assert mech.error_bound / norm_bound >= 2.0 ** -38


# ---------------------------------------------------------------------------------------------
# the ledger's comparison has no tolerance
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sigma", [0.7, 3.0, 41.0])
def test_ledger_refuses_one_ulp_over_the_target_and_takes_the_target(tmp_path, sigma):
    event, delta = GaussianEvent(sigma), 1e-6
    exact = _epsilon([event], delta)
    below = np.nextafter(exact, 0.0)
    for target in (below, exact * (1 - 1e-12)):
        ledger = BudgetLedger(tmp_path / f"under{target!r}.json", target_epsilon=target,
                              target_delta=delta)
        with pytest.raises(BudgetExceededError):
            ledger.check(event)
        with pytest.raises(BudgetExceededError):
            ledger.spend(event, "one")
        with pytest.raises(BudgetExceededError):
            ledger.reserve(event, "one")
        assert ledger.history == ()
    ledger = BudgetLedger(tmp_path / "at.json", target_epsilon=exact, target_delta=delta)
    assert ledger.spend(event, "one") == exact
