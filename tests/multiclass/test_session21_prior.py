"""Session 21: a rare class's noise-dominated direction is shrunk before the class prior.

On letter5u (5 classes, 992 rows, 57/24/11/5.4/2.7%) at epsilon = 1, seed 0 predicted the 2.4%
class "D" for 73 of 248 test rows: the mass division amplified a centre that was mostly noise.
:func:`dpboost.multiclass_prior.direction_reliability` shrinks such directions (positive-part
James-Stein, public noise level) toward the mean direction of the other classes
(:func:`~dpboost.multiclass_prior.shrink_directions`), post-processing of the released centres.
"""

import math

import numpy as np

from dpboost.multiclass_prior import (RELIABLE, direction_reliability, fit_prior,
                                      histogram_variance, mass_factors, shrink_directions)


def test_reliability_matches_the_james_stein_formula_over_random_centres():
    rng = np.random.default_rng(21)
    for _ in range(200):
        K, D = int(rng.integers(2, 8)), int(rng.integers(1, 40))
        W = rng.normal(0.0, rng.uniform(0.001, 0.2), size=(K, D + 1))
        s = float(rng.uniform(0.0, 0.1))
        r = direction_reliability(W, s)
        for k in range(K):  # independently, class by class
            js = 1.0 - D * s * s / float(W[k, :D] @ W[k, :D])
            expected = 1.0 if js >= RELIABLE else max(js, 0.0)
            assert math.isclose(r[k], expected, rel_tol=1e-12, abs_tol=1e-15)
        assert np.all((r >= 0.0) & (r <= 1.0))


def test_a_pure_noise_direction_is_shrunk_and_a_clear_one_is_kept():
    """D = 200 coordinates of N(0, s^2): |w|^2 / (D s^2) ~ chi2_200 / 200, and r >= 1/2 needs
    that ratio >= 2, i.e. chi2_200 >= 400 (probability below 1e-20).  The clear class has
    signal norm 10 D s^2, so r >= 1/2 unless the noise cancels 90% of it (impossible here)."""
    rng = np.random.default_rng(5)
    D, s = 200, 0.01
    for _ in range(50):
        noise = rng.normal(0.0, s, size=(2, D))
        signal = np.r_[np.full(D, math.sqrt(10.0) * s), 0.0]
        W = np.vstack([signal + np.r_[noise[0], 0.0], np.r_[noise[1], 0.0]])
        W[:, -1] = [0.2, 0.01]
        r = direction_reliability(W, s)
        assert r[0] == 1.0 and r[1] < RELIABLE


def test_fit_prior_scales_the_direction_but_not_the_constant_coordinate():
    rng = np.random.default_rng(3)
    T, K, D = 6, 3, 30
    coefs = rng.normal(0.0, 0.02, size=(T, K, D + 1))
    coefs[:, 0, :-1] += 0.1  # class 0 has a clear direction; 1 and 2 are noise
    coefs[:, :, -1] = np.array([0.5, 0.04, 0.01]) + rng.normal(0.0, 0.001, size=(T, K))
    y = np.r_[np.zeros(900, int), np.ones(80, int), np.full(20, 2)]
    noise_sd = 0.02 / math.sqrt(T)
    out, log_prior, counts = fit_prior(coefs, y, K, 50.0, noise_sd,
                                       rng=np.random.default_rng(0))
    assert log_prior is not None and counts.shape == (K,)
    W = coefs.mean(axis=0)
    f, r = mass_factors(W, noise_sd), direction_reliability(W, noise_sd)
    assert r[0] == 1.0 and r[2] < RELIABLE
    np.testing.assert_allclose(out[:, :, -1], coefs[:, :, -1] * f, rtol=1e-12)
    # independently, round by round: reliable classes scaled only; the others pulled toward
    # the mean scaled direction of the reliable ones
    for t in range(T):
        scaled = coefs[t, :, :-1] * f[:, None]
        dbar = scaled[r == 1.0].mean(axis=0)
        for k in range(K):
            want = scaled[k] if r[k] == 1.0 else r[k] * scaled[k] + (1 - r[k]) * dbar
            np.testing.assert_allclose(out[t, k, :-1], want, rtol=1e-12, atol=1e-15)
    # linear per round: the mean of the output is the map of the mean
    np.testing.assert_allclose(out.mean(axis=0), shrink_directions(W * f[:, None], r),
                               rtol=1e-10, atol=1e-15)
    assert histogram_variance(50.0) >= 1


def test_shrinking_toward_the_mean_direction_without_a_reliable_class_goes_to_zero():
    W = np.array([[0.01, -0.02, 0.3], [0.02, 0.01, 0.3]])
    out = shrink_directions(W, np.array([0.0, 0.2]))
    np.testing.assert_array_equal(out[0, :-1], 0.0)
    np.testing.assert_allclose(out[1, :-1], 0.2 * W[1, :-1])
    np.testing.assert_array_equal(out[:, -1], W[:, -1])
