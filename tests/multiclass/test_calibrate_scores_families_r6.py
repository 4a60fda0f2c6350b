"""Round-6 mutation gaps of :func:`dpboost.multiclass_discriminant.calibrate_scores` (s39).

The score families handed to the draw are checked against an independent computation: on
mapped rows ``z = s [M (x - mean), c]`` whose class sums are released without noise, the
discriminant family with floor ``f`` must score ``z -> x' . P m_k - m_k' P m_k / 2`` with
``m_k`` the exact class means of the mapped rows, ``P`` the floored inverse of their exact
within-class covariance and offsets ``log pi``; every family's bound must bound its scores
on rows of norm ``<= R``, tightly."""

from __future__ import annotations

import numpy as np
import pytest

import dpboost.multiclass_discriminant as md
from dpboost.private_temperature import TemperatureFit
from dpboost.whitening import Whitening


def _setup(scale: float, R: float):
    rng = np.random.default_rng(3)
    n, d, K, c = 3000, 3, 3, 0.3
    y = rng.choice(K, n, p=[0.2, 0.3, 0.5])
    X = rng.normal(0, 0.05, (K, d))[y] + rng.normal(0, 0.04, (n, d))
    mean = X.mean(axis=0)
    M = np.diag([0.5, 0.4, 0.3])
    Z = scale * np.hstack([(X - mean) @ M, np.full((n, 1), c)])
    assert np.linalg.norm(Z, axis=1).max() <= R  # no clipping
    released = np.stack([Z[y == k].sum(axis=0) / n for k in range(K)])[None]
    white = Whitening(M, 0.1, 0.1, True, np.cov(X.T, bias=True))
    counts = np.bincount(y, minlength=K)
    return Z, y, released, white, counts, c


def _families(monkeypatch, scale=2.0, R=1.0, prior=None, factors=(1.0, 1.0, 1.0)):
    Z, y, released, white, counts, c = _setup(scale, R)
    coefs = released * np.asarray(factors)[None, :, None]  # as a class prior balances them
    if prior is not None:  # and shrinks a noise-dominated class's direction
        coefs[..., 2, :-1] *= 0.25
    seen = {}

    def spy(families, y_idx, rho, *, rng):
        seen["families"] = families
        last = len(families) - 1
        return last, TemperatureFit(1.0, families[last].bound, 33 * len(families), 0.1, last)

    monkeypatch.setattr(md, "private_temperature_families", spy)
    out = md.calibrate_scores(Z, y, coefs, prior, counts, released=released, white=white,
                              scale=scale, constant=c, noise_sd=0.0, R=R, rho=0.01,
                              rng=np.random.default_rng(0))
    return out, seen["families"], Z, y, counts


@pytest.mark.parametrize("scale", [1.0, 2.5])
def test_the_discriminant_family_is_the_floored_lda_of_the_mapped_rows(monkeypatch, scale):
    out, fams, Z, y, counts = _families(monkeypatch, scale=scale)
    assert len(fams) == 3  # the released centres and two floors
    K = counts.size
    pi = counts / counts.sum()
    m = np.stack([Z[y == k, :-1].mean(axis=0) for k in range(K)])
    centred = m - pi @ m
    within = np.cov(Z[:, :-1].T, bias=True) - (centred.T * pi) @ centred
    eig, V = np.linalg.eigh(within)
    for fam, f in zip(fams[1:], md.FLOORS):
        P = (V / np.maximum(eig, f * eig.max())) @ V.T
        expect = Z[:, :-1] @ P @ m.T - 0.5 * np.einsum("kd,de,ke->k", m, P, m)
        np.testing.assert_allclose(fam.scores, expect, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(fam.offsets, np.log(pi), rtol=1e-12)
    assert out.scores == f"discriminant, eigenvalue floor {md.FLOORS[-1]}"
    np.testing.assert_allclose(out.offsets, np.log(pi), rtol=1e-12)
    np.testing.assert_allclose(Z @ out.coefs.mean(axis=0).T, fams[-1].scores, rtol=1e-12)


def test_the_first_family_carries_the_prior_and_discriminants_use_the_release(monkeypatch):
    prior = np.log(np.array([0.2, 0.3, 0.5]))
    _, plain, _, _, _ = _families(monkeypatch)
    _, fams, Z, _, _ = _families(monkeypatch, prior=prior, factors=(2.0, 1.0, 0.5))
    assert len(fams) == 4
    assert fams[0].offsets is prior and fams[1].offsets is None  # then the centres as released
    np.testing.assert_allclose(fams[1].scores, plain[0].scores, rtol=1e-12)
    for a, b in zip(fams[2:], plain[1:]):  # built from the release, not the balanced centres
        np.testing.assert_allclose(a.scores, b.scores, rtol=1e-12)


@pytest.mark.parametrize("R", [1.0, 4.0])
def test_each_family_bound_is_r_times_its_largest_centre_norm(monkeypatch, R):
    """``B = R max_k ||w_k||`` over all d + 1 coordinates: rows of norm R along the largest
    centre reach it, so no smaller bound is valid."""
    _, fams, Z, _, _ = _families(monkeypatch, R=R)
    for fam in fams:
        W = np.linalg.lstsq(Z, fam.scores, rcond=None)[0].T  # the family's centres
        k = int(np.argmax(np.linalg.norm(W, axis=1)))
        top = R * W[k] / np.linalg.norm(W[k])
        assert fam.bound == pytest.approx(R * np.linalg.norm(W, axis=1).max(), rel=1e-6)
        assert float(np.abs(top @ W.T).max()) == pytest.approx(fam.bound, rel=1e-6)
