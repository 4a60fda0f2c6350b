"""The binary dask fit refuses undeclared labels with the in-memory fit's sentence
(:func:`dpboost._validation.check_declared_labels`): first row, count, classes, hint."""

import dask.array as da
import numpy as np
import pytest

from dpboost import PrivateHalfspaceClassifier
from dpboost.distributed import encode_labels_dask


def _message(fit) -> str:
    with pytest.raises(ValueError) as info:
        fit()
    return str(info.value)


@pytest.mark.parametrize("labels, classes", [
    (np.array(["no", "yes", " yes", "no", " no"] * 40), ["no", "yes"]),  # the spaces hint
    (np.array([0, 1, 7, 1] * 50), [0, 1]),                               # plain
])
def test_binary_dask_labels_say_what_memory_says(labels, classes, client):
    X = np.random.default_rng(0).normal(size=(len(labels), 3)) / 4
    Xd, yd = da.from_array(X, chunks=(60, 3)), da.from_array(labels, chunks=60)
    on_dask = _message(lambda: PrivateHalfspaceClassifier(
        1.0, 1e-6, classes=classes, random_state=0).fit(Xd, yd))
    in_memory = _message(lambda: PrivateHalfspaceClassifier(
        1.0, 1e-6, classes=classes, random_state=0).fit(X, labels))
    assert on_dask == in_memory and "(the first at row 2)" in on_dask
    assert "7" not in on_dask.split("]", 1)[1] and "' yes'" not in on_dask


def test_encode_labels_dask_names_the_first_row_across_chunks(client):
    y = da.from_array(np.array([1, 1, 5, 1, 5, 0, 0, 5]), chunks=3)
    with pytest.raises(ValueError, match=r"\(the first at row 2\)\.$"):
        encode_labels_dask(y, [0, 1])
    classes, y_pm = encode_labels_dask(da.from_array(np.array([0, 1, 1]), chunks=2), [1, 0])
    assert classes.tolist() == [0, 1] and y_pm.compute().tolist() == [-1, 1, 1]
