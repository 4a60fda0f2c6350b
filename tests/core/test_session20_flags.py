"""Flags that were silently ignored or accepted (session 20): ``audit --pairs`` without
``--sensitivity`` (and ``--runs`` with it), and ``verbose=-1``."""

from __future__ import annotations

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.cli import main


def _one_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("argv,word", [
    (["audit", "--pairs", "50"], "--pairs applies only with --sensitivity"),
    (["audit", "--setting", "run", "--pairs", "5"], "--pairs applies only with --sensitivity"),
    (["audit", "--sensitivity", "--runs", "100"], "not of --sensitivity: use --pairs"),
])
def test_audit_refuses_a_flag_the_chosen_audit_ignores(argv, word, capsys):
    line = _one_line(capsys, main(argv))
    assert line.startswith("dpboost audit: error: ") and word in line


@pytest.mark.parametrize("verbose", [-1, np.int64(-3)])
def test_negative_verbose_is_refused(verbose):
    X = np.random.default_rng(0).normal(size=(40, 2)) / 3
    y = (X[:, 0] > 0).astype(int)
    clf = PrivateHalfspaceClassifier(target_epsilon=1, target_delta=1e-6, verbose=verbose,
                                     random_state=0)
    with pytest.raises(TypeError, match=r"must be a bool or an int >= 0\. Got .*-[13]"):
        clf.fit(X, y)


@pytest.mark.parametrize("verbose", [0, 1, 2, True, False])
def test_non_negative_verbose_is_taken(verbose, capsys):
    X = np.random.default_rng(0).normal(size=(40, 2)) / 3
    y = (X[:, 0] > 0).astype(int)
    PrivateHalfspaceClassifier(target_epsilon=1, target_delta=1e-6, verbose=verbose,
                               n_rounds=3, random_state=0).fit(X, y)
    assert bool(capsys.readouterr().err) == bool(verbose)


def test_cross_val_predict_proba_with_text_classes_names_the_codes():
    """scikit-learn encodes y to 0..K-1 before fitting a clone for predict_proba: the refusal
    says so and what to declare, and the declaration it names works."""
    import warnings

    from sklearn.model_selection import cross_val_predict

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3)) / 3
    y = np.where(X[:, 0] > 0, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"a code of the classes.*declare classes=\[0, 1\]"):
            cross_val_predict(PrivateHalfspaceClassifier(1, 1e-6, classes=["no", "yes"],
                                                         random_state=0),
                              X, y, method="predict_proba", cv=3)
        p = cross_val_predict(PrivateHalfspaceClassifier(1, 1e-6, classes=[0, 1],
                                                         random_state=0),
                              X, y, method="predict_proba", cv=3)
    assert p.shape == (300, 2) and np.allclose(p.sum(axis=1), 1.0)


@pytest.mark.parametrize("label, classes, fires", [
    (0, ["a", "b", "c"], True), (2, ["a", "b", "c"], True), (3, ["a", "b", "c"], False),
    (-1, ["a", "b"], False), (1, [5, 6], True), (0, [-1, 1], True), (2, [-1, 1], False),
    (True, ["a", "b"], False)])
def test_the_codes_hint_fires_only_for_codes_below_the_number_of_classes(label, classes, fires):
    """Numeric classes too since session 37: OneVsRestClassifier, VotingClassifier and
    BaggingClassifier pass codes 0..K-1 to a clone declared classes=[-1, 1] (red team)."""
    from dpboost._validation import _SLIPS, _slips_explaining

    slips = _slips_explaining(label, classes)
    assert slips[[name for name, *_ in _SLIPS].index("codes")] is fires


def test_numbers_whose_text_is_a_class_get_the_earlier_hint():
    from dpboost._validation import check_declared_labels

    with pytest.raises(ValueError, match="declare the classes as numbers") as err:
        check_declared_labels(np.array([1, 2, 1]), ["1", "2"])
    assert "codes" not in str(err.value)


def test_one_vs_rest_over_numeric_classes_gets_the_codes_hint():
    import warnings

    from sklearn.multiclass import OneVsRestClassifier

    X = np.random.default_rng(0).normal(size=(200, 3)) / 3
    y = np.where(X[:, 0] > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"OneVsRestClassifier.*declare classes=\[0, 1\]"):
            OneVsRestClassifier(PrivateHalfspaceClassifier(
                1, 1e-6, classes=[-1, 1], n_rounds=5, random_state=0)).fit(X, y)
