"""A fitted estimator's pickle holds no random stream: the stream is a seed of its noise.

A ``numpy.random.Generator`` passed as ``random_state`` carries its ``SeedSequence`` (the
entropy) and its state after the fit, from which the noise of every release can be rebuilt
(PCG64 advances backwards as well as forwards).  Before the fix, ``pickle.dumps`` (or
``joblib.dump``) of a fitted estimator kept it, so publishing the pickle published the noise.
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.selection import PrivateSelection

_STREAMS = (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)


def _streams(obj, seen=None) -> int:
    """How many random streams are reachable from ``obj`` (attributes, containers)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if isinstance(obj, _STREAMS):
        return 1
    if isinstance(obj, dict):
        return sum(_streams(v, seen) for v in obj.values())
    if isinstance(obj, (list, tuple, set)):
        return sum(_streams(v, seen) for v in obj)
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return _streams(vars(obj), seen)
    return 0


def _data(n=400, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= 2 * np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X[:, 0] > 0, 1, -1)
    return X, y


def _fit(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(*_data())


@pytest.mark.parametrize("dump", [pickle.dumps, lambda e: pickle.dumps(copy.deepcopy(e))])
def test_a_fitted_estimator_pickles_without_its_stream(dump):
    rng = np.random.default_rng()  # fresh OS entropy: the private setting
    est = _fit(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, kappa=0.25,
                                          random_state=rng))
    assert est.random_state is rng  # the user's own object is left as given
    loaded = pickle.loads(dump(est))
    assert loaded.random_state is None
    assert _streams(loaded) == 0
    X, _ = _data(seed=1)
    np.testing.assert_array_equal(loaded.decision_function(X), est.decision_function(X))


def test_the_stream_in_a_pickle_would_give_the_noise_away():
    """Why: from the pickled stream's entropy the fit, noise included, is replayed exactly."""
    seed = np.random.SeedSequence()
    est = _fit(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, kappa=0.25,
                                          random_state=np.random.default_rng(seed)))
    replay = _fit(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5,
                                             kappa=0.25, random_state=np.random.default_rng(
                                                 np.random.SeedSequence(seed.entropy))))
    np.testing.assert_array_equal(replay.coef_, est.coef_)


def test_an_unfitted_estimator_keeps_its_stream():
    """An unfitted estimator (sent to a joblib worker by GridSearchCV(n_jobs=2)) has released
    nothing yet: its stream travels with it, so a parallel search stays reproducible."""
    rng = np.random.default_rng(5)
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], random_state=rng)
    loaded = pickle.loads(pickle.dumps(est))
    assert isinstance(loaded.random_state, np.random.Generator)
    assert loaded.random_state.bit_generator.state == rng.bit_generator.state


def test_a_fitted_selection_pickles_without_its_stream():
    est = _fit(PrivateSelection(1.0, 1e-6, classes=[-1, 1],
                                candidates=[{"n_rounds": 3, "kappa": 0.25},
                                            {"n_rounds": 4, "kappa": 0.3}],
                                random_state=np.random.default_rng()))
    assert _streams(pickle.loads(pickle.dumps(est))) == 0


def test_an_int_seed_pickles_as_given():
    """An int is reproducibility by request (documented): it stays."""
    est = _fit(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=5, kappa=0.25,
                                          random_state=3))
    assert pickle.loads(pickle.dumps(est)).random_state == 3
