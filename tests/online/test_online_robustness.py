"""Robustness sweep 3 of ``dpboost.online``: each test failed before the fix it pins.

Bad examples must be refused before any state changes (a single NaN used to poison a linear
learner for good, and ``y = 2`` or a negative weight silently trained the wrong thing);
numerics must stay finite at extreme but valid settings; the CLI answers bad arguments in one
line.
"""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

from dpboost.cli import main
from dpboost.online import (
    AdaBoostOL,
    AdaBoostOLS,
    Halving,
    L2Ball,
    OnlineAgnosticBoost,
    OnlineBBM,
    OnlineGradientDescent,
    OnlineGradientDescentClassifier,
    OnlineLinearLearner,
    OnlinePerceptronLearner,
    OnlineRealizableBoost,
    OnlineStumpLearner,
    Perceptron,
    WeightedMajority,
)
from dpboost.online.agnostic import boost_with_oco
from dpboost.online.base import MAX_WEIGHT

RNG = np.random.default_rng(20240603)
X = RNG.uniform(-1, 1, size=(30, 3))
Y = np.where(X[:, 0] + 0.2 * X[:, 1] >= 0, 1.0, -1.0)

LEARNERS = {
    "Perceptron": Perceptron,
    "OGDClassifier": lambda: OnlineGradientDescentClassifier(loss="logistic"),
    "OnlineLinearLearner": OnlineLinearLearner,
    "OnlinePerceptronLearner": OnlinePerceptronLearner,
    "OnlineStumpLearner": OnlineStumpLearner,
    "OnlineBBM": lambda: OnlineBBM(5, random_state=0),
    "OnlineBBM-sample": lambda: OnlineBBM(5, mode="sample", random_state=0),
    "AdaBoostOL": lambda: AdaBoostOL(5, prediction="mean", random_state=0),
    "AdaBoostOLS": lambda: AdaBoostOLS(5, prediction="mean", random_state=0),
    "OnlineAgnosticBoost": lambda: OnlineAgnosticBoost(5, 0.5, prediction="mean",
                                                       random_state=0),
    "OnlineRealizableBoost": lambda: OnlineRealizableBoost(5, prediction="mean",
                                                           random_state=0),
}

GOOD_X = X[0]
BAD_EXAMPLES = {
    "x NaN": (np.array([np.nan, 0.1, 0.2]), 1.0, 1.0, ValueError),
    "x inf": (np.array([0.3, -np.inf, 0.2]), 1.0, 1.0, ValueError),
    "x wrong dimension": (np.array([0.3, 0.1]), 1.0, 1.0, ValueError),
    "x dict": ({"a": 1.0}, 1.0, 1.0, TypeError),
    "y 0": (GOOD_X, 0.0, 1.0, ValueError),
    "y 2": (GOOD_X, 2.0, 1.0, ValueError),
    "y NaN": (GOOD_X, float("nan"), 1.0, ValueError),
    "y bool": (GOOD_X, True, 1.0, TypeError),
    "y str": (GOOD_X, "1", 1.0, TypeError),
    "weight NaN": (GOOD_X, 1.0, float("nan"), ValueError),
    "weight negative": (GOOD_X, 1.0, -1.0, ValueError),
    "weight inf": (GOOD_X, 1.0, float("inf"), ValueError),
}


@pytest.mark.parametrize("bad", list(BAD_EXAMPLES), ids=list(BAD_EXAMPLES))
@pytest.mark.parametrize("name", list(LEARNERS))
def test_learn_one_refuses_a_bad_example_and_keeps_its_state(name, bad):
    model = LEARNERS[name]().partial_fit(X[:10], Y[:10])
    before = model.decision_function(X)
    snapshot = copy.deepcopy(model)
    x, y, weight, error = BAD_EXAMPLES[bad]
    with pytest.raises(error, match="x has|'x' parameter|'y' parameter|'weight' parameter"):
        model.learn_one(x, y, weight)
    np.testing.assert_array_equal(model.decision_function(X), before)
    assert pickle.dumps(model) == pickle.dumps(snapshot)  # every attribute, the RNG included
    # the refused example left no trace: the next good examples train exactly as without it
    model.partial_fit(X[10:], Y[10:])
    snapshot.partial_fit(X[10:], Y[10:])
    np.testing.assert_array_equal(model.decision_function(X), snapshot.decision_function(X))


@pytest.mark.parametrize("name", list(LEARNERS))
def test_predict_one_refuses_nan_rather_than_answering(name):
    model = LEARNERS[name]().partial_fit(X[:10], Y[:10])
    with pytest.raises(ValueError, match="finite"):
        model.predict_one(np.array([np.nan, 0.0, 0.0]))


@pytest.mark.parametrize("name", ["Perceptron", "OGDClassifier"])
def test_wrong_dimension_mid_stream_names_the_dimensions(name):
    model = LEARNERS[name]().partial_fit(X[:5], Y[:5])
    for verb in (lambda: model.predict_one(np.ones(4)), lambda: model.learn_one(np.ones(4), 1.0)):
        with pytest.raises(ValueError, match="x has 4 features, but this learner was started "
                                             "with 3 features"):
            verb()


def test_weighted_majority_refuses_bad_weights_and_labels():
    wm = WeightedMajority(3)
    advice = np.array([1.0, -1.0, 1.0])
    for y, weight, error in [(1.0, float("nan"), ValueError), (1.0, -2.0, ValueError),
                             (1.0, float("inf"), ValueError), (True, 1.0, TypeError)]:
        with pytest.raises(error):
            wm.learn_one(advice, y, weight)
    np.testing.assert_array_equal(wm.log_weights_, np.zeros(3))


def test_weighted_majority_huge_weight_and_tiny_beta_stay_finite():
    # weight * log(beta) = 1e306 * -690.8 overflowed to -inf, and when every expert erred the
    # shift by the max computed -inf - (-inf) = NaN; weights above MAX_WEIGHT = 1e100 are now
    # refused (as for every online learner), and the largest accepted one stays finite
    wm = WeightedMajority(2, beta=1e-300)
    with pytest.raises(ValueError, match=r"must be a float in \[0, 1e\+100\]"):
        wm.learn_one(np.array([1.0, 1.0]), -1.0, 1e306)
    wm.learn_one(np.array([1.0, 1.0]), -1.0, MAX_WEIGHT)
    np.testing.assert_array_equal(wm.log_weights_, [0.0, 0.0])
    wm.learn_one(np.array([1.0, -1.0]), -1.0, MAX_WEIGHT)
    assert wm.log_weights_[1] == 0.0 and -np.inf < wm.log_weights_[0] < -1e102
    assert wm.predict_one(np.array([1.0, -1.0])) == -1.0


def test_halving_refuses_a_nan_weight():
    h = Halving([[1, 1], [1, -1], [-1, -1]])
    with pytest.raises(ValueError, match="'weight' parameter of Halving.learn_one"):
        h.learn_one(np.array([1]), 1.0, float("nan"))
    assert h.version_mask_ == 0b111


@pytest.mark.parametrize("make", [
    lambda: OnlineLinearLearner(learning_rate=math.inf),
    lambda: OnlineBBM(learning_rate=math.inf),
    lambda: AdaBoostOL(learning_rate=math.inf),
    lambda: AdaBoostOL(alpha_learning_rate=math.inf),
    lambda: OnlineAgnosticBoost(learning_rate=math.inf),
    lambda: OnlineRealizableBoost(ogd_learning_rate=math.inf),
    lambda: boost_with_oco(X, Y, n_rounds=2, gamma=0.5, ogd_learning_rate=math.inf),
], ids=["linear", "bbm", "adaboost-ol", "adaboost-ol-alpha", "agnostic", "realizable",
        "boost_with_oco"])
def test_infinite_learning_rates_are_refused(make):
    # an infinite step turned the linear learners' weights into NaN on the first example
    with pytest.raises(ValueError, match=r"learning_rate' parameter of .* must be a float in "
                                         r"\(0, inf\)"):
        make()


@pytest.mark.parametrize("y, w", [(Y[:5], None), (Y, np.ones(5)), (Y, 2.0)])
def test_partial_fit_refuses_mismatched_lengths(y, w):
    # zip stopped at the shortest: partial_fit(X, y[:5]) learned 5 rows and said nothing
    with pytest.raises(ValueError, match="one row, label and weight per example"):
        Perceptron().partial_fit(X, y, sample_weight=w)


def test_l2_ball_projection_of_a_vector_whose_norm_overflows():
    # np.linalg.norm([1e200, 1e200]) is inf, so the projection used to return 0
    np.testing.assert_allclose(L2Ball(1.0)(np.array([1e200, 1e200])), [2**-0.5, 2**-0.5])
    ogd = OnlineGradientDescent(2, learning_rate=1.0, projection=L2Ball(2.0))
    ogd.update([-3e200, -4e200])
    np.testing.assert_allclose(ogd.predict(), [1.2, 1.6])


def test_ogd_refuses_an_overflowing_step_instead_of_going_to_infinity():
    ogd = OnlineGradientDescent(2, learning_rate=1e308)
    with pytest.raises(ValueError, match="overflows float64"):
        ogd.update([10.0, 1.0])
    np.testing.assert_array_equal(ogd.predict(), [0.0, 0.0])
    assert ogd.n_rounds_ == 0


def test_ogd_refuses_a_projection_of_the_wrong_shape():
    with pytest.raises(ValueError, match="'projection' parameter of OnlineGradientDescent"):
        OnlineGradientDescent(2, learning_rate=1.0, projection=lambda w: w[:1])


# ---------------------------------------------------------------------------- dpboost online


@pytest.fixture()
def csv_file(tmp_path):
    path = tmp_path / "toy.csv"
    rows = ["a,b,label"] + [f"{a:.3f},{b:.3f},{'x' if t > 0 else 'y'}"
                            for (a, b, _), t in zip(X, Y)]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("extra, match", [
    (["--learning-rate", "inf"], "'learning_rate' parameter of OnlineBBM"),
    (["--algorithm", "adaboost-ol", "--gamma", "0.3"], "--gamma has no effect"),
    (["--algorithm", "base", "--gamma", "0.3"], "--gamma has no effect"),
    (["--weak-learner", "stump", "--learning-rate", "2"], "--learning-rate has no effect"),
    (["--algorithm", "agnostic", "--mode", "sample"], "--mode has no effect"),
    (["--n-learners", "100000000000"], "not enough memory"),
], ids=["lr-inf", "gamma-adaboost", "gamma-base", "lr-stump", "mode-agnostic", "huge-N"])
def test_cli_bad_or_ignored_flags_give_one_line_and_exit_2(csv_file, capsys, extra, match):
    # before: inf trained NaN weights, ignored flags were dropped silently, and a huge N died
    # with a MemoryError traceback reported as a bug in dpboost
    code = main(["online", str(csv_file), "--label", "label"] + extra)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and match in err and "Traceback" not in err


def test_cli_base_learner_header_has_no_empty_settings(csv_file, capsys):
    assert main(["online", str(csv_file), "--label", "label", "--algorithm", "base",
                 "--weak-learner", "stump"]) == 0
    assert "base (weak learner=stump) on" in capsys.readouterr().out


def test_bbm_gamma_just_below_one_gives_the_exact_weights():
    # 1/2 + gamma/2 rounds to 1.0 for gamma = 1 - 2**-53, and log1p(-1.0) raised 'math domain
    # error' from the constructor (a valid gamma in (0, 1))
    from fractions import Fraction
    from math import comb

    from dpboost.online.bbm import bbm_log_weights

    gamma = 1.0 - 2.0**-53
    model = OnlineBBM(4, gamma=gamma, random_state=0).partial_fit(X[:5], Y[:5])
    assert np.isfinite(model.decision_function(X)).all()
    q = (1 + Fraction(gamma)) / 2
    got = bbm_log_weights(3, [0.0, 1.0, 0.0], gamma)
    for i, s in enumerate([0, 1, 0], start=1):  # k = floor((N - i - s + 1) / 2)
        n = 3 - i
        k = (n - s + 1) // 2
        want = comb(n, k) * q**k * (1 - q) ** (n - k)
        assert math.isclose(got[i - 1], math.log(want), rel_tol=1e-12, abs_tol=1e-12)


def test_oco_boosters_with_a_subnormal_gamma_stay_finite():
    # 1 / 5e-324 is inf, so the OGD step c D / (1 + 1/gamma) was 0 and the gradient inf:
    # 0 * inf = NaN weights, and every weak learner trained on flipped labels
    tiny, small = 5e-324, 1e-300
    for cls in (OnlineAgnosticBoost, OnlineRealizableBoost):
        got = cls(5, tiny, random_state=0).booster_weights(X[0], Y[0])
        np.testing.assert_array_equal(got, cls(5, small, random_state=0)
                                      .booster_weights(X[0], Y[0]))
    h = boost_with_oco(X, Y, n_rounds=3, gamma=tiny, random_state=0)
    np.testing.assert_array_equal(h.weights_, boost_with_oco(X, Y, n_rounds=3, gamma=small,
                                                             random_state=0).weights_)


def test_oco_booster_weights_follow_the_textbook_ogd_step():
    gamma, c = 0.3, 1.0
    model = OnlineAgnosticBoost(6, gamma, ogd_learning_rate=c, random_state=0)
    model.partial_fit(X[:8], Y[:8])
    z = np.where(model.bank_.scores(X[9]) >= 0, Y[9], -Y[9])
    p, want = 0.0, []
    for i, zi in enumerate(z, start=1):  # step c D / (G sqrt(i)), G = 1 + 1/gamma, D = 2
        want.append(p)
        p = min(max(p - c * 2 / (1 + 1 / gamma) / math.sqrt(i) * (zi / gamma - 1), -1.0), 1.0)
    np.testing.assert_allclose(model.booster_weights(X[9], Y[9]), want, rtol=0, atol=1e-12)


def test_hedge_refuses_non_numeric_losses_with_a_type_error():
    from dpboost.online import Hedge

    h = Hedge(2, learning_rate=0.5)
    with pytest.raises(TypeError, match="'losses' parameter of Hedge.update must be an array "
                                        "of numbers"):
        h.update(["a", "b"])
    assert h.cumulative_loss_ == 0.0  # nothing was paid


def test_doubling_trick_names_a_factory_that_returns_nothing():
    from dpboost.online import DoublingTrick

    with pytest.raises(TypeError, match="'make_learner' parameter of DoublingTrick must return "
                                        "a learner. Got None for horizon 1"):
        DoublingTrick(lambda horizon: None).predict()
