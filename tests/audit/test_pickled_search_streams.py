"""A pickled grid search publishes no stream its released model drew noise from (session 37).

``GridSearchCV(PrivateHalfspaceClassifier(..., random_state=default_rng()))`` keeps its
unfitted template as ``search.estimator``; pickled, the template held a child stream
``spawn(1)[0]`` whose ``SeedSequence`` carried the parent's entropy, so the red team
regenerated the stream of ``best_estimator_`` (spawn key ``(0, 4)``) and replayed its noisy
releases bit for bit, from the pickle alone.  Children are now seeded with a digest
(:func:`dpboost.halfspace_base.one_way_child`).
"""

from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from dpboost import PrivateHalfspaceClassifier, make_margin_data


def _search(random_state):
    X, y = make_margin_data(400, 4, 0.1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # each fit spends budget: said, and known here
        search = GridSearchCV(PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1],
                                                         n_rounds=10, random_state=random_state),
                              {"learning_rate": [2.0, 5.0]}, cv=2).fit(X, y)
    return search, X, y


def _generators(obj, seen=None):
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, np.random.Generator):
        return [obj]
    if isinstance(obj, dict):
        return [g for v in obj.values() for g in _generators(v, seen)]
    if isinstance(obj, (list, tuple)):
        return [g for v in obj for g in _generators(v, seen)]
    if hasattr(obj, "__dict__"):
        return _generators(vars(obj), seen)
    return []


def test_the_pickled_search_names_no_stream_of_the_secret_seed():
    secret = np.random.default_rng()  # fresh OS entropy, as privacy wants
    search, X, y = _search(secret)
    published = pickle.loads(pickle.dumps(search))
    found = _generators(published)
    assert found, "the template's child stream is expected in the pickle"
    root = secret.bit_generator.seed_seq.entropy
    for g in found:
        seq = g.bit_generator.seed_seq
        assert seq.entropy != root and seq.spawn_key == ()
    # the red team's replay: every stream the secret's first two spawn levels can name
    target = published.best_estimator_.released_centres_
    entropy = found[0].bit_generator.seed_seq.entropy
    for key in itertools.chain(((k,) for k in range(8)), itertools.product(range(8), repeat=2)):
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=key)))
        replay = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=10,
                                            random_state=g, **published.best_params_).fit(X, y)
        assert not np.array_equal(replay.released_centres_, target), key


def test_children_stay_reproducible_and_independent():
    first, _, _ = _search(np.random.default_rng(7))
    again, _, _ = _search(np.random.default_rng(7))
    assert np.array_equal(first.best_estimator_.coef_, again.best_estimator_.coef_)
    X, y = make_margin_data(400, 4, 0.1, random_state=1)
    est = PrivateHalfspaceClassifier(1.0, 1e-6, classes=[-1, 1], n_rounds=10,
                                     random_state=np.random.default_rng(3))
    a, b = clone(est).fit(X, y), clone(est).fit(X, y)
    assert not np.array_equal(a.released_centres_, b.released_centres_)
