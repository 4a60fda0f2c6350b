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


def test_an_unfitted_estimator_pickles_with_a_child_stream():
    """An unfitted estimator (sent to a joblib worker) has released nothing yet, but two copies
    of one stream fitted on neighbouring data draw the same noise, which cancels in the
    difference of the releases: ``joblib.Parallel`` fitting one estimator on D and on D' gave
    coefficients 0.025 apart (62.7 for two clones; session-18 trial).  So each pickle and deep
    copy carries a child stream, as a clone does: independent, and reproducible from the seed."""
    def copies(seed):
        rng = np.random.default_rng(seed)
        est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], random_state=rng)
        return rng, [pickle.loads(pickle.dumps(est)), copy.deepcopy(est)]

    rng, (a, b) = copies(5)
    states = [c.random_state.bit_generator.state["state"] for c in (a, b)]
    assert all(isinstance(c.random_state, np.random.Generator) for c in (a, b))
    assert len({str(s) for s in states + [rng.bit_generator.state["state"]]}) == 3
    _, again = copies(5)  # the same seed, the same children
    assert [c.random_state.bit_generator.state["state"] for c in again] == states
    X = np.random.default_rng(0).normal(size=(400, 3)) / 3
    X2, y = X.copy(), np.where(X[:, 0] > 0, 1, -1)
    X2[0] = 0.0  # a neighbour
    fits = [_fit_on(c, Z, y) for c, Z in zip(copies(7)[1], (X, X2))]
    rng = np.random.default_rng(7)  # the old pickle: one stream's state, twice
    same = [_fit_on(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1],
                                               random_state=copy.deepcopy(rng)), Z, y)
            for Z in (X, X2)]
    gap, trace = np.linalg.norm(fits[0] - fits[1]), np.linalg.norm(same[0] - same[1])
    assert gap > 10 * trace, (gap, trace)  # independent noise, not a row's trace


def _fit_on(est, X, y):
    est.set_params(n_rounds=5, kappa=0.25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y).coef_


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
