"""Declared classes that mix text and numbers, or hold None/NaN, are named as such before y
is compared with them (numpy would turn ``[1, "a", 2]`` into ``['1', '2', 'a']``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost._validation import check_declared_classes, check_declared_labels


@pytest.mark.parametrize("classes", [[1, "a", 2], ["a", 0], (b"x", 2.5)])
def test_mixed_text_and_numbers_is_a_type_error(classes):
    with pytest.raises(TypeError, match=r"^The 'classes' parameter of Est mixes text and "
                                        r"numbers: declare every class as text or every"):
        check_declared_classes(classes, "Est")


@pytest.mark.parametrize("classes,position", [([0, 1, float("nan")], 2), ([None, 1], 0),
                                              (np.array([1.0, np.nan]), 1),
                                              (["a", None, "b"], 1)])
def test_missing_class_is_a_value_error_naming_its_position(classes, position):
    with pytest.raises(ValueError, match=f"holds a missing value \\(None or NaN\\) at position "
                                         f"{position}: declare only real labels"):
        check_declared_classes(classes)


@pytest.mark.parametrize("classes", [[0, 1], ["no", "yes"], [True, False], [-1.5, 2],
                                     np.array(["a", "b", "c"]), [b"a", "b"]])
def test_well_formed_classes_pass(classes):
    check_declared_classes(classes)


def test_check_declared_labels_checks_the_classes_first():
    with pytest.raises(TypeError, match="mixes text and numbers"):
        check_declared_labels(np.array([1, 2, 1]), [1, "a", 2])


def _data(labels, seed=0):
    X = np.random.default_rng(seed).normal(size=(len(labels), 2)) * 0.3
    return X, np.asarray(labels)


@pytest.mark.parametrize("classes,error,text", [
    ([1, "a", 2], TypeError, "mixes text and numbers"),
    ([1, 2, float("nan")], ValueError, "missing value"),  # was accepted: a class never seen
    ([1, float("nan")], ValueError, "missing value"),
])
def test_estimator_fit_names_the_real_problem(classes, error, text):
    X, y = _data([1, 2, 1, 2] * 10)
    est = PrivateHalfspaceClassifier(1.0, 1e-5, classes=classes, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=text):
            est.fit(X, y)
