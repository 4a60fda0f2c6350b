"""An epsilon so small that the exact sampler cannot draw its noise is refused before any
release (red team, session 29): at epsilon = 1e-6 a fit stopped after its first releases with
"the 'sigma' parameter of lattice_variance ... Got nan", and ``train --ledger`` kept the
charge of a run that released nothing."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.cli import main
from dpboost.mechanisms import (MAX_GRID_SIGMA, LatticeGaussian, NoiseBeyondSamplerError,
                                drawable)
from dpboost.whitening import worthwhile


def _data(n: int, d: int, seed: int = 0, classes: int = 2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= 1.5 * np.linalg.norm(X, axis=1, keepdims=True)
    return X, (X[:, 0] > 0).astype(int) if classes == 2 else rng.integers(0, classes, n)


@pytest.mark.parametrize("d, epsilon, settings", [
    (40, 1e-7, {}), (200, 1e-6, {}), (10, 1e-9, {"n_rounds": 100, "kappa": 0.25}),
    (40, 1e-9, {"n_rounds": 100, "kappa": 0.25}), (200, 1e-9, {"n_rounds": 100, "kappa": 0.25})])
def test_an_undrawable_noise_is_refused_before_any_release(d, epsilon, settings):
    X, y = _data(1000, d)
    clf = PrivateHalfspaceClassifier(epsilon, 1e-6, classes=[0, 1], random_state=0, **settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(NoiseBeyondSamplerError, match="target epsilon is too small"):
            clf.fit(X, y)
    assert not getattr(clf, "_release_started", False)


@pytest.mark.parametrize("multiclass", ["joint", "ovr"])
def test_a_multiclass_fit_is_refused_before_any_release(multiclass):
    X, y = _data(600, 40, classes=3)
    clf = PrivateHalfspaceClassifier(1e-8, 1e-6, classes=[0, 1, 2], random_state=0,
                                     multiclass=multiclass)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(NoiseBeyondSamplerError):
            clf.fit(X, y)
    assert not getattr(clf, "_release_started", False)


@pytest.mark.parametrize("epsilon, d", [(1e-6, 40), (1e-5, 200), (1e-7, 10)])
def test_a_small_but_drawable_epsilon_still_fits(epsilon, d):
    """The check refuses only what cannot be drawn at the worst the fit can meet: a learned
    T's bound (kappa <= 1), not the most rounds any fit takes (red team, session 29: 1,000
    rounds refused n = 400, d = 5 at every epsilon up to 3.2e-6, where T = 30 drew)."""
    X, y = _data(1000, d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = PrivateHalfspaceClassifier(epsilon, 1e-6, classes=[0, 1], random_state=0).fit(X, y)
    assert np.all(np.isfinite(clf.coef_))


def test_no_fit_fails_after_its_first_release():
    """40 random small fits at epsilon 1e-8 to 1e-3 (binary, joint, one-vs-rest, learned or
    fixed T): each is refused before any release or fits; none stops after releasing."""
    rng = np.random.default_rng(1)
    refused = 0
    for _ in range(40):
        n, d = int(rng.integers(50, 1500)), int(rng.integers(1, 120))
        k = int(rng.choice([2, 3, 5]))
        X = rng.normal(size=(n, d))
        X /= 1.2 * np.linalg.norm(X, axis=1, keepdims=True)
        settings = {} if rng.random() < 0.7 else {"n_rounds": int(rng.integers(1, 200))}
        clf = PrivateHalfspaceClassifier(float(10 ** rng.uniform(-8, -3)),
                                         float(10 ** rng.uniform(-9, -3)), classes=list(range(k)),
                                         multiclass=str(rng.choice(["joint", "ovr"])),
                                         random_state=0, **settings)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                clf.fit(X, rng.integers(0, k, n))
            except NoiseBeyondSamplerError:
                refused += 1
                assert not getattr(clf, "_release_started", False)
    assert 5 <= refused <= 35  # both outcomes met


def test_drawable_is_exactly_when_a_grid_exists():
    """Over random releases: a drawable one gets a finite grid whose noise the sampler takes
    (at most MAX_GRID_SIGMA grid steps); an undrawable one is refused by name, never nan."""
    rng = np.random.default_rng(5)
    for _ in range(400):
        z = float(10 ** rng.uniform(-1, 9))
        dim = int(10 ** rng.uniform(0, 4))
        mech = LatticeGaussian(sensitivity=float(10 ** rng.uniform(-9, 1)), noise_multiplier=z,
                               dimension=dim, error_bound=float(10 ** rng.uniform(-20, -8)))
        assert mech.drawable == (z * math.sqrt(dim) <= MAX_GRID_SIGMA / 2)
        if mech.drawable:
            g = mech.granularity
            assert math.isfinite(g) and g > 0
            assert z * mech.effective_sensitivity / g <= MAX_GRID_SIGMA
            t, m = mech.grid_variance
            assert t * m >= (z * mech.effective_sensitivity / g) ** 2
        else:
            with pytest.raises(NoiseBeyondSamplerError):
                mech.granularity
    assert drawable(MAX_GRID_SIGMA / 2) and not drawable(MAX_GRID_SIGMA / 2 * 1.0001)


def test_the_whitening_is_not_worthwhile_where_it_cannot_be_drawn():
    assert worthwhile(1000, 40, 1.0, 1e-14) is False  # raised "got nan" before


def test_train_with_a_ledger_refuses_in_one_line_and_charges_nothing(tmp_path, capsys):
    X, y = _data(600, 40)
    path = tmp_path / "d.csv"
    rows = [",".join(f"{v:.6f}" for v in x) + f",{'yes' if t else 'no'}" for x, t in zip(X, y)]
    path.write_text(",".join(f"x{j}" for j in range(40)) + ",label\n" + "\n".join(rows) + "\n")
    ledger = tmp_path / "ledger.json"
    assert main(["budget", "init", "--target-epsilon", "1", "--target-delta", "1e-6",
                 str(ledger)]) == 0
    before = json.loads(ledger.read_text())
    capsys.readouterr()
    assert main(["train", str(path), "--label", "label", "--classes", "no,yes",
                 "--target-epsilon", "1e-8", "--target-delta", "1e-6", "--ledger", str(ledger),
                 "--out", str(tmp_path / "m.json")]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
    assert len(err) == 1 and "target epsilon is too small" in err[0], err
    assert json.loads(ledger.read_text())["spends"] == before["spends"] == []
    assert not (tmp_path / "m.json").exists()
