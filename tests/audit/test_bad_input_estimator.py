"""Bad input to the estimator and the accountant: a clear TypeError/ValueError (one line,
naming what is wrong), never NaN weights or a silent success."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting import (
    BudgetLedger,
    GaussianEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    calibrate_noise,
    event_from_dict,
)
from dpboost.estimator import PrivateHalfspaceClassifier, clip_rows

RNG = np.random.default_rng(0)
X_GOOD = RNG.normal(size=(40, 3)) / 3
Y_GOOD = RNG.choice([0, 1], 40)
PARAMS = dict(target_epsilon=1.0, target_delta=1e-6, n_rounds=4, kappa=0.25,
              learning_rate=1.0, classes=[0, 1], random_state=0)
NAN, INF = float("nan"), float("inf")


def _fit(X, y, **kw):
    params = dict(PARAMS)
    params.update(kw)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        return PrivateHalfspaceClassifier(**params).fit(X, y)


def _refused(X, y, **kw):
    """Fit on bad input: it must raise ValueError/TypeError before its first release (which
    ``dpboost train --ledger`` relies on to cancel its reservation); the exception info."""
    params = dict(PARAMS)
    params.update(kw)
    est = PrivateHalfspaceClassifier.__new__(PrivateHalfspaceClassifier)
    with pytest.raises((TypeError, ValueError)) as exc_info:
        est.__init__(**params)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            est.fit(X, y)
    assert not getattr(est, "_release_started", False)
    return exc_info


def _one_line_error(exc_info):
    message = str(exc_info.value)
    assert message.strip()
    return message


BAD_PARAMETERS = [
    ("target_epsilon", 0.0), ("target_epsilon", -1.0), ("target_epsilon", NAN),
    ("target_epsilon", INF), ("target_epsilon", -INF), ("target_epsilon", "1"),
    ("target_epsilon", None), ("target_delta", 0.0), ("target_delta", 1.0),
    ("target_delta", NAN), ("target_delta", INF), ("target_delta", -1e-6),
    ("kappa", 0.0), ("kappa", 1.0), ("kappa", 1.5), ("kappa", -0.5), ("kappa", NAN),
    ("kappa", "0.5"), ("n_rounds", 0), ("n_rounds", -1), ("n_rounds", 2.5), ("n_rounds", True),
    ("n_rounds", "3"), ("learning_rate", 0.0), ("learning_rate", -1.0),
    ("learning_rate", 1e-310), ("learning_rate", 1e-10),  # the class prior ln(r)/lambda: inf
    ("learning_rate", NAN), ("learning_rate", INF), ("norm_bound", 0.0),
    ("norm_bound", -1.0), ("norm_bound", NAN), ("norm_bound", INF), ("random_state", -1),
    ("random_state", "x"), ("random_state", 1.5), ("accounting", "nope"),
    ("sensitivity", "loose"), ("classes", [1, 1]), ("classes", [0]), ("classes", [0, 1, 1]),
    ("classes", [0, 1, 1, 2]),
    ("margin", 0.0), ("margin", 2.0), ("margin", NAN), ("accuracy", 0.0), ("accuracy", 1.0),
    ("failure_probability", 0.0), ("failure_probability", 1.0),
]


@pytest.mark.parametrize("name,value", BAD_PARAMETERS)
def test_estimator_rejects_bad_parameter(name, value):
    exc_info = _refused(X_GOOD, Y_GOOD, **{name: value})
    assert name in _one_line_error(exc_info) or name == "classes"


@pytest.mark.parametrize("eps", [1e308, 1e-300])
def test_estimator_extreme_epsilon_message(eps):
    with pytest.raises(ValueError, match="target_epsilon"):
        _fit(X_GOOD, Y_GOOD, target_epsilon=eps)


def _with_bad(X, value):
    X = X.copy()
    X[3, 1] = value
    return X


BAD_DATA = {
    "nan_in_X": (_with_bad(X_GOOD, NAN), Y_GOOD),
    "inf_in_X": (_with_bad(X_GOOD, INF), Y_GOOD),
    "neg_inf_in_X": (_with_bad(X_GOOD, -INF), Y_GOOD),
    "empty": (np.zeros((0, 3)), np.zeros(0, int)),
    "zero_features": (np.zeros((40, 0)), Y_GOOD),
    "one_row": (X_GOOD[:1], Y_GOOD[:1]),
    "three_classes": (X_GOOD, np.arange(40) % 3),
    "string_column": (np.array([["a", "0.1", "0.2"]] * 40, dtype=object), Y_GOOD),
    "complex": (X_GOOD + 1j, Y_GOOD),
    "1d_X": (X_GOOD[:, 0], Y_GOOD),
    "3d_X": (X_GOOD[:, :, None], Y_GOOD),
    "mismatched_shapes": (X_GOOD, Y_GOOD[:-1]),
    "nan_in_y": (X_GOOD, np.where(np.arange(40) == 3, NAN, Y_GOOD.astype(float))),
    "2d_y": (X_GOOD, np.c_[Y_GOOD, Y_GOOD]),
    "labels_not_in_classes": (X_GOOD, Y_GOOD + 5),
    "list_of_ragged_rows": ([[0.1, 0.2, 0.3], [0.1, 0.2]] * 20, Y_GOOD),
    "dict_X": ({"a": 1}, Y_GOOD),
}


@pytest.mark.parametrize("case", sorted(BAD_DATA))
def test_estimator_rejects_bad_data(case):
    X, y = BAD_DATA[case]
    _one_line_error(_refused(X, y))


@pytest.mark.parametrize("case", sorted(set(BAD_DATA) - {"one_row"}))  # (one row trains)
@pytest.mark.parametrize("classes", [[0, 1], [0, 1, 3]])
def test_estimator_with_its_defaults_rejects_bad_data_before_any_release(case, classes):
    """The same with T and kappa learned (the private count, centre and scale come first),
    binary and multiclass (three declared classes)."""
    X, y = BAD_DATA[case]
    _one_line_error(_refused(X, y, n_rounds=None, kappa=None, learning_rate=5.0,
                             classes=classes))


def test_one_class_without_declared_classes_is_refused():
    with pytest.raises(ValueError, match="classes"):
        _fit(X_GOOD, np.ones(40, int), classes=None)


def test_one_class_with_declared_classes_trains():
    # the labels are public (classes=), so a sample holding one class is legitimate input
    est = _fit(X_GOOD, np.ones(40, int))
    assert np.isfinite(est.coef_).all()


@pytest.mark.parametrize("dtype", [np.float32, np.int64, bool])
def test_other_numeric_dtypes_train_finite(dtype):
    est = _fit((X_GOOD * 3).astype(dtype), Y_GOOD)
    assert np.isfinite(est.coef_).all()


def test_rows_near_float_max_are_clipped_onto_the_sphere():
    X = np.array([[1e308, 1e308], [-1e308, 1e307], [0.1, 0.2]])
    clipped = clip_rows(X, 1.0)
    np.testing.assert_allclose(np.linalg.norm(clipped[:2], axis=1), 1.0, rtol=1e-12)


def test_predict_on_rows_near_float_max_without_warning():
    est = _fit(X_GOOD, Y_GOOD)
    est.coef_ = np.array([2.0, 1.0, 1.0])  # any weights whose product with 1e308 overflows
    Z = np.array([[1e308, 1e308, 1e308], [-1e308, -1e308, -1e308]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        pred = est.predict(Z)
    assert pred.tolist() == est.predict(Z / 1e308).tolist()


@settings(max_examples=40)
@given(st.lists(st.sampled_from([NAN, INF, -INF]), min_size=1, max_size=3),
       st.integers(0, 39), st.integers(0, 2))
def test_any_nonfinite_entry_is_refused(values, row, col):
    X = X_GOOD.copy()
    for k, v in enumerate(values):
        X[(row + k) % 40, col] = v
    with pytest.raises(ValueError, match="NaN or infinity"):
        _fit(X, Y_GOOD)


@settings(max_examples=30)
@given(st.floats(1e-300, 1e300), st.floats(-1, 1).filter(lambda t: abs(t) > 1e-3))
def test_finite_extreme_scales_never_give_nan_weights(scale, sign):
    est = _fit(X_GOOD * scale * sign, Y_GOOD)
    assert np.isfinite(est.coef_).all()


# ---- accountant -------------------------------------------------------------------------

ACCOUNTANT_CASES = {
    "gaussian_zero": lambda: GaussianEvent(0.0),
    "gaussian_negative": lambda: GaussianEvent(-1.0),
    "gaussian_nan": lambda: GaussianEvent(NAN),
    "gaussian_string": lambda: GaussianEvent("2"),
    "gaussian_bool": lambda: GaussianEvent(True),
    "selfcomposed_negative": lambda: SelfComposedEvent(GaussianEvent(1.0), -1),
    "selfcomposed_float": lambda: SelfComposedEvent(GaussianEvent(1.0), 1.5),
    "compose_non_event": lambda: ZCDPAccountant().compose("x"),
    "calibrate_eps_zero": lambda: calibrate_noise(target_epsilon=0, target_delta=1e-6),
    "calibrate_eps_negative": lambda: calibrate_noise(target_epsilon=-1, target_delta=1e-6),
    "calibrate_eps_nan": lambda: calibrate_noise(target_epsilon=NAN, target_delta=1e-6),
    "calibrate_eps_inf": lambda: calibrate_noise(target_epsilon=INF, target_delta=1e-6),
    "calibrate_delta_zero": lambda: calibrate_noise(target_epsilon=1, target_delta=0),
    "calibrate_delta_one": lambda: calibrate_noise(target_epsilon=1, target_delta=1),
    "calibrate_delta_nan": lambda: calibrate_noise(target_epsilon=1, target_delta=NAN),
    "calibrate_count_zero": lambda: calibrate_noise(target_epsilon=1, target_delta=1e-6,
                                                    count=0),
    "calibrate_method": lambda: calibrate_noise(target_epsilon=1, target_delta=1e-6,
                                                method="nope"),
    "event_from_dict_unknown": lambda: event_from_dict({"type": "nope"}),
    "event_from_dict_nan": lambda: event_from_dict({"type": "GaussianEvent",
                                                    "noise_multiplier": NAN}),
    "event_from_dict_not_dict": lambda: event_from_dict([1, 2]),
}
for _d in (0.0, 1.0, -0.1, NAN, INF):
    ACCOUNTANT_CASES[f"get_epsilon_delta={_d}"] = (
        lambda d=_d: ZCDPAccountant().compose(GaussianEvent(2.0)).get_epsilon(d))
for _e in (-1.0, NAN):
    ACCOUNTANT_CASES[f"get_delta_eps={_e}"] = (
        lambda e=_e: ZCDPAccountant().compose(GaussianEvent(2.0)).get_delta(e))
ACCOUNTANT_CASES["get_epsilon_method"] = (
    lambda: ZCDPAccountant().compose(GaussianEvent(2.0)).get_epsilon(1e-6, method="nope"))


@pytest.mark.parametrize("case", sorted(ACCOUNTANT_CASES))
def test_accountant_rejects_bad_input(case):
    with pytest.raises((TypeError, ValueError)) as exc_info:
        ACCOUNTANT_CASES[case]()
    _one_line_error(exc_info)


def test_get_delta_huge_epsilon():
    assert ZCDPAccountant().compose(GaussianEvent(2.0)).get_delta(1e308) == 0.0


@pytest.mark.parametrize("eps,delta", [(0.0, 1e-6), (NAN, 1e-6), (INF, 1e-6), (-1.0, 1e-6),
                                       (1.0, 0.0), (1.0, 1.0), (1.0, NAN)])
def test_ledger_rejects_bad_targets_and_writes_nothing(eps, delta, tmp_path):
    with pytest.raises(ValueError):
        BudgetLedger(tmp_path / "budget.json", eps, delta)
    assert not (tmp_path / "budget.json").exists()


def test_ledger_refuses_to_spend_garbage_and_keeps_bytes(tmp_path):
    ledger = BudgetLedger(tmp_path / "budget.json", 1.0, 1e-6)
    ledger.spend(GaussianEvent(20.0), "first")
    before = (tmp_path / "budget.json").read_bytes()
    for bad in ("x", None, 3.0):
        with pytest.raises(TypeError):
            ledger.spend(bad)
    with pytest.raises(TypeError):
        ledger.spend(GaussianEvent(20.0), label=5)
    assert (tmp_path / "budget.json").read_bytes() == before


@pytest.mark.parametrize("content", ['{"format": "dpboost-budget-ledger", "version": 1, "tar',
                                     "", "[]", '{"format": "other"}',
                                     '{"format": "dpboost-budget-ledger", "version": 1}'])
def test_ledger_open_rejects_truncated_or_foreign_files(content, tmp_path):
    path = tmp_path / "budget.json"
    path.write_text(content)
    with pytest.raises(ValueError):
        BudgetLedger.open(path)
    assert path.read_text() == content


def test_ledger_open_rejects_other_version(tmp_path):
    path = tmp_path / "budget.json"
    path.write_text('{"format": "dpboost-budget-ledger", "version": 99, "target_epsilon": 1.0, '
                    '"target_delta": 1e-06, "spends": []}')
    with pytest.raises(ValueError, match="version"):
        BudgetLedger.open(path)


def test_no_method_returns_nan():
    acc = ZCDPAccountant().compose(SelfComposedEvent(GaussianEvent(1e-3), 10**6))
    for value in acc.epsilons(1e-6).values():
        assert not math.isnan(value)
