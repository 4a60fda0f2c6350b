"""Labels outside the declared classes: one check (``dpboost._validation``) for every path.

The message names the declared classes (public) and the first row, and when a common
slip explains the label there it says what to change; it never prints a label of the data
nor how many rows there are: it is a function of the first such row alone.  The binary
fit, the multiclass fit, ``PrivateSelection`` and the dask multiclass fit all raise the same
sentence.
"""

import warnings

import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost._validation import check_declared_labels, combine_label_summaries, label_summary
from dpboost.estimator import BoostedHalfspaceClassifier
from dpboost.selection import PrivateSelection

#: (labels in y, declared classes, a phrase of the hint, the label's spelling in the data)
SLIPS = [
    (["yes", " no", " yes"], ["no", "yes"], "spaces around it are removed", "' no'"),
    (["Yes", "no", "NO"], ["no", "yes"], "upper and lower case", "'Yes'"),
    ([" Yes", "no", "no"], ["no", "yes"], "removed and case is ignored", "' Yes'"),
    (["1", "0", " 1.0"], [0, 1], "a number written as text", "' 1.0'"),
    ([1.0, 0.0, 1.0], ["0", "1"], "declare the classes as numbers (classes=[0, 1])", "1.0"),
    ([b"yes", b"no", b"no"], ["no", "yes"], "It is bytes", "b'yes'"),
]


def _y(labels, n):
    return np.array((labels * n)[:n], dtype=object if isinstance(labels[0], bytes) else None)


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 3)) / 4


@pytest.mark.parametrize("labels, classes, hint, spelt", SLIPS)
def test_each_slip_gets_its_hint_and_no_label_is_printed(labels, classes, hint, spelt):
    y = _y(labels, 6)
    with pytest.raises(ValueError) as err:
        check_declared_labels(y, classes)
    msg = str(err.value)
    assert hint in msg
    assert f"classes={np.unique(np.asarray(classes)).tolist()!r}" in msg
    assert spelt not in msg  # the data's spelling never appears
    first = int(np.flatnonzero(~np.isin(y, np.unique(np.asarray(classes))))[0])
    assert f"(the first at row {first})" in msg


@pytest.mark.parametrize("labels, classes", [
    (["yes", "maybe"], ["no", "yes"]),          # a third label
    ([0, 1, 2], [0, 1]),                        # a third number
    ([0.0, 1.5], [0, 1]),                       # not a slip: 1.5 is no class
    (["yes", "maybe", " no"], ["no", "yes"]),   # the first is no slip: no hint
    (["yes", "no"], [" no", " yes"]),           # spaces in the declared classes only
])
def test_a_plain_unknown_label_gets_the_plain_message(labels, classes):
    with pytest.raises(ValueError) as err:
        check_declared_labels(np.array(labels), classes)
    msg = str(err.value)
    assert msg.startswith("y contains a label that is not in classes=")
    assert msg.endswith(").") and "It " not in msg
    assert "maybe" not in msg


@pytest.mark.parametrize("y, classes", [
    (np.array([1.0, 0.0, 1.0]), [0, 1]),      # numpy.isin matches 1.0 to 1: no error at all
    (np.array([True, False]), [0, 1]),
    (np.array([2.0, 0.0, 1.0]), [0, 1, 2]),
])
def test_what_numpy_isin_matches_needs_no_hint(y, classes):
    assert check_declared_labels(y, classes).tolist() == sorted(classes)


def test_float_labels_fit_against_integer_classes():
    X = _data()
    y = np.where(X[:, 0] > 0, 1.0, 0.0)
    clf = BoostedHalfspaceClassifier(n_rounds=3, classes=[0, 1]).fit(X, y)
    assert clf.classes_.tolist() == [0, 1]


def test_first_row_and_no_count():
    y = np.array(["a", "b", "x", "a", "y"])
    with pytest.raises(ValueError, match=r"\(the first at row 2\)\.$"):
        check_declared_labels(y, ["a", "b"])
    with pytest.raises(ValueError, match=r"\(the first at row 4\)\.$"):
        check_declared_labels(y[[0, 1, 3, 3, 4]], ["a", "b"])


def test_chunk_summaries_combine_to_the_whole():
    y = np.array(["no", "yes", " yes", "no", " no", "yes", "yes", "Yes"])
    classes = np.array(["no", "yes"])
    whole = label_summary(y, classes)
    for cut in range(1, len(y)):
        parts = [label_summary(y[:cut], classes), label_summary(y[cut:], classes)]
        assert combine_label_summaries(parts, [0, cut]) == whole
    assert combine_label_summaries([label_summary(y[:2], classes)], [0])[0] == 0


# -- the same sentence from every path -------------------------------------------------------
def _fits():
    def binary(y, classes):
        PrivateHalfspaceClassifier(1.0, 1e-6, classes=classes, n_rounds=2, kappa=0.5,
                                   random_state=0).fit(_data(len(y)), y)

    def boosted(y, classes):
        BoostedHalfspaceClassifier(n_rounds=2, classes=classes).fit(_data(len(y)), y)

    def selection(y, classes):
        PrivateSelection(1.0, 1e-6, classes=classes, candidates=[{"n_rounds": 2}],
                         random_state=0).fit(_data(len(y)), y)

    return {"binary": binary, "boosted": boosted, "selection": selection}


@pytest.mark.parametrize("path", ["binary", "boosted", "selection"])
@pytest.mark.parametrize("labels, classes, hint, spelt", SLIPS[:4])
def test_every_in_memory_path_gives_the_hint(path, labels, classes, hint, spelt):
    y = _y(labels, 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="not in classes") as err:
            _fits()[path](y, classes)
    assert hint in str(err.value) and spelt not in str(err.value)


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_the_multiclass_path_gives_the_hint(mode):
    y = np.array(["a", "b", "c", "B "] * 15)
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=["a", "b", "c"], multiclass=mode,
                                     n_rounds=2, random_state=0)
    with pytest.raises(ValueError, match=r"\(the first at row 3\)\. It matches a declared "
                                         r"class once the spaces around it are removed and "
                                         r"case is ignored"):
        clf.fit(_data(60), y)


def test_the_dask_multiclass_path_gives_the_same_sentence_in_one_gather():
    da = pytest.importorskip("dask.array")
    import dask

    y = np.array(["a", "b", "c"] * 20, dtype=object)
    y[[37, 50]] = " c"
    Xd = da.from_array(_data(60), chunks=(25, 3))
    yd = da.from_array(y, chunks=25)
    clf = PrivateHalfspaceClassifier(1.0, 1e-6, classes=["a", "b", "c"], n_rounds=2,
                                     random_state=0)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError) as err:
            clf.fit(Xd, yd)
    with pytest.raises(ValueError) as mem:
        check_declared_labels(y, ["a", "b", "c"])
    assert str(err.value) == str(mem.value)
    assert "(the first at row 37). It matches a declared class once the spaces" \
        in str(err.value)
