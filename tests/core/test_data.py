"""Tests for dpboost.data: margin guarantee, norm bound, noise rate, loaders, bad files."""

from __future__ import annotations

import gzip
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import dump_svmlight_file

from dpboost.data import (
    SKEWED_MINORITY,
    add_label_noise,
    load_csv,
    load_dataset,
    load_libsvm,
    make_margin_data,
)
from dpboost.exceptions import PrivacyLeakWarning


# ------------------------------------------------------------------ make_margin_data
@settings(max_examples=40)
@given(
    n=st.integers(1, 300),
    d=st.integers(1, 60),
    margin=st.floats(1e-4, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_symmetric_margin_norm_and_labels(n, d, margin, seed):
    X, y, u = make_margin_data(n, d, margin, random_state=seed, return_direction=True)
    assert X.shape == (n, d) and X.dtype == np.float64 and y.shape == (n,)
    assert math.isclose(np.linalg.norm(u), 1.0, rel_tol=1e-12)
    assert np.all(np.linalg.norm(X, axis=1) <= 1.0 + 1e-12)
    assert np.all(np.abs(X @ u) >= margin * (1 - 1e-12))
    assert np.array_equal(y, np.where(X @ u >= 0, 1, -1))


@settings(max_examples=30)
@given(
    n=st.integers(1, 300),
    d=st.integers(2, 60),
    margin=st.floats(1e-4, 0.25),
    seed=st.integers(0, 2**32 - 1),
)
def test_skewed_margin_norm_and_labels(n, d, margin, seed):
    X, y, u = make_margin_data(n, d, margin, random_state=seed, kind="skewed",
                               return_direction=True)
    assert np.all(np.linalg.norm(X, axis=1) <= 1.0 + 1e-12)
    assert np.all(np.abs(X @ u) >= margin * (1 - 1e-12))
    assert np.array_equal(y, np.where(X @ u >= 0, 1, -1))


def test_symmetric_matches_uniform_ball_conditioned_on_margin():
    # (u.x)^2 of a uniform point of the d-ball is Beta(1/2, (d+1)/2); ours must be that law
    # truncated to [tau^2, 1]: compare with a KS test against the truncated CDF.
    d, tau = 10, 0.2
    X, _, u = make_margin_data(4000, d, tau, random_state=3, return_direction=True)
    beta = stats.beta(0.5, (d + 1) / 2)
    lo = beta.cdf(tau**2)
    truncated = lambda t: (beta.cdf(t) - lo) / (1 - lo)
    assert stats.kstest((X @ u) ** 2, truncated).pvalue > 1e-3
    # the norm of a uniform point of the d-ball has CDF r^d; conditioning on the slab changes
    # it, but the sign of u.x is a fair coin: a binomial check (4000 draws, 5 sd = 158)
    assert abs(int(np.sum(X @ u > 0)) - 2000) < 5 * math.sqrt(4000 / 4)


def test_symmetric_centroid_is_accurate_skewed_centroid_is_not():
    for n in (500, 20_000):
        X, y = make_margin_data(n, 20, 0.1, random_state=n)
        w = (y[:, None] * X).mean(axis=0)
        assert np.mean(np.sign(X @ w) != y) < 0.02
        X, y = make_margin_data(n, 20, 0.1, random_state=n, kind="skewed")
        w = (y[:, None] * X).mean(axis=0)
        err = np.mean(np.sign(X @ w) != y)
        # the minority share is Binomial(n, 0.2): 6 sd below 0.2 plus a little spread error
        assert err > SKEWED_MINORITY - 6 * math.sqrt(0.16 / n) - 0.01


def test_skewed_is_separable_by_u_after_a_reweighting():
    # the centroid of the misclassified minority plus the overall centroid points near u
    X, y = make_margin_data(5000, 20, 0.1, random_state=1, kind="skewed")
    w = (y[:, None] * X).mean(axis=0)
    wrong = np.sign(X @ w) != y
    w2 = (y[wrong, None] * X[wrong]).mean(axis=0)
    combo = w / np.linalg.norm(w) + w2 / np.linalg.norm(w2)
    assert np.mean(np.sign(X @ combo) != y) < 0.05


def test_make_margin_data_is_deterministic_given_seed():
    a = make_margin_data(50, 4, 0.1, noise_rate=0.1, random_state=7)
    b = make_margin_data(50, 4, 0.1, noise_rate=0.1, random_state=7)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = make_margin_data(50, 4, 0.1, random_state=np.random.default_rng(7))
    assert c[0].shape == (50, 4)


def test_noise_rate_binomial():
    n, rate = 40_000, 0.15
    _, clean, u = make_margin_data(n, 5, 0.1, random_state=11, return_direction=True)
    _, noisy, u2 = make_margin_data(n, 5, 0.1, noise_rate=rate, random_state=11,
                                    return_direction=True)
    assert np.array_equal(u, u2)
    flips = int(np.sum(noisy != clean))
    sd = math.sqrt(n * rate * (1 - rate))  # 71.4
    assert abs(flips - n * rate) < 5 * sd


@pytest.mark.parametrize("rate", [0.0, 0.05, 0.5])
def test_add_label_noise_rate_and_inputs(rate):
    y = np.tile(np.array([1, -1]), 10_000)
    out = add_label_noise(y, rate, random_state=2)
    assert out.dtype == y.dtype and set(np.unique(out)) <= {-1, 1}
    flips = int(np.sum(out != y))
    sd = math.sqrt(y.size * rate * (1 - rate))
    assert abs(flips - y.size * rate) <= 5 * sd
    assert np.array_equal(y, np.tile(np.array([1, -1]), 10_000))  # input untouched


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        (dict(n=0, d=2, margin=0.1), ValueError),
        (dict(n=10, d=0, margin=0.1), ValueError),
        (dict(n=10, d=2, margin=0.0), ValueError),
        (dict(n=10, d=2, margin=1.5), ValueError),
        (dict(n=10, d=2, margin=float("nan")), ValueError),
        (dict(n=10.0, d=2, margin=0.1), TypeError),
        (dict(n=10, d=2, margin="0.1"), TypeError),
        (dict(n=10, d=2, margin=0.1, noise_rate=0.6), ValueError),
        (dict(n=10, d=2, margin=0.1, kind="odd"), ValueError),
        (dict(n=10, d=1, margin=0.1, kind="skewed"), ValueError),
        (dict(n=10, d=3, margin=0.3, kind="skewed"), ValueError),
    ],
)
def test_make_margin_data_rejects(kwargs, exc):
    with pytest.raises(exc, match="parameter of make_margin_data"):
        make_margin_data(**kwargs)


def test_add_label_noise_rejects():
    with pytest.raises(ValueError, match="must hold labels in"):
        add_label_noise(np.array([0, 1]), 0.1)
    with pytest.raises(ValueError, match="'rate' parameter of add_label_noise"):
        add_label_noise(np.array([1, -1]), 0.7)


# ------------------------------------------------------------------ loaders
def _write(tmp_path, name, text, compress=False):
    path = tmp_path / name
    if compress:
        with gzip.open(path, "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)
    return path


@settings(max_examples=20)
@given(
    X=st.integers(1, 30).flatmap(lambda n: st.integers(1, 6).flatmap(
        lambda d: st.lists(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=d,
                                    max_size=d), min_size=n, max_size=n))),
    header=st.booleans(),
    compress=st.booleans(),
)
def test_csv_round_trip(tmp_path_factory, X, header, compress):
    tmp_path = tmp_path_factory.mktemp("csv")
    X = np.array(X, dtype=np.float64)
    y = np.where(np.arange(len(X)) % 3 == 0, 1, -1)
    lines = [",".join(f"f{j}" for j in range(X.shape[1])) + ",label"] if header else []
    lines += [",".join(repr(float(v)) for v in row) + f",{lab}" for row, lab in zip(X, y)]
    path = _write(tmp_path, "d.csv.gz" if compress else "d.csv", "\n".join(lines) + "\n",
                  compress)
    X2, y2 = load_csv(path, label="label" if header else -1)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    X3, y3 = load_dataset(path, label="label" if header else X.shape[1])
    np.testing.assert_array_equal(X3, X)
    np.testing.assert_array_equal(y3, y)


def test_csv_label_by_index_first_column_and_string_labels(tmp_path):
    path = _write(tmp_path, "a.csv", "cat,1.5,2\ndog,3,4\ncat,5,6\n")
    X, y = load_csv(path, label=0)
    np.testing.assert_array_equal(X, [[1.5, 2], [3, 4], [5, 6]])
    assert y.tolist() == ["cat", "dog", "cat"]
    X, y = load_csv(path, label="0")  # digit string from the command line
    assert y.tolist() == ["cat", "dog", "cat"]


def test_csv_header_inference_and_default_label(tmp_path):
    path = _write(tmp_path, "h.csv", "x1, x2 ,y\n1,2,0\n3,4,1\n")
    X, y = load_csv(path)  # header inferred, label = last column
    assert X.shape == (2, 2) and y.tolist() == [0, 1]
    X, y = load_csv(path, label=" x2 ".strip())
    np.testing.assert_array_equal(X, [[1, 0], [3, 1]])
    assert y.dtype == np.int64 and y.tolist() == [2, 4]
    path = _write(tmp_path, "f.csv", "1,2,0.5\n3,4,1.5\n\n")
    X, y = load_csv(path)
    assert X.shape == (2, 2) and y.dtype == np.float64


@pytest.mark.parametrize(
    "text, label, match",
    [
        ("", None, "empty"),
        ("\n\n", None, "empty"),
        ("a,b,y\n", "y", "no data rows"),
        ("a,b,y\n1,2,1\n3,1\n", "y", "line 3: expected 3 fields"),
        ("a,b,y\n1,2,1\n3,4,5,6\n", "y", "line 3"),
        ("a,b,y\n1,2,1\n3,red,0\n", "y",
         r"column 'b' \(index 1\) holds a non-numeric value at line 3"),
        ("1,2,1\n3,red,0\n", 2, "column 1 holds a non-numeric value at line 2"),
        ("a,b,y\n1,,1\n", "y", "column 'b' .*is empty at line 2"),
        ("a,b,y\n1,2,1\n1,2,1\n5,nan,1\n", "y",
         r"NaN or infinity \(first bad row: row 2 \(line 4\)"),
        ("a,b,y\n1,inf,1\n", "y", "first bad row: row 0"),
        ("a,b,y\n1,2,1\n", "z", "'z' not found"),
        ("1,2,1\n", "y", "no header row"),
        ("1,2,1\n", 5, "column index"),
        ("a,b,y\n1,2,\n", "y", "label column is empty at line 2"),
    ],
)
def test_csv_bad_files(tmp_path, text, label, match):
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(ValueError, match=match):
        load_csv(path, label=label)


def test_csv_bad_label_type(tmp_path):
    path = _write(tmp_path, "t.csv", "1,2\n")
    with pytest.raises(TypeError, match="'label' parameter of load_csv"):
        load_csv(path, label=1.5)


def test_libsvm_round_trip_and_dispatch(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((25, 7))
    X[X < 0.3] = 0.0  # sparse
    X[:, -1] = 0.0
    y = rng.choice([-1.0, 1.0], 25)
    for name in ("d.svm", "d.txt", "d.libsvm.gz"):
        path = tmp_path / name
        dump_svmlight_file(X, y, str(path if not name.endswith(".gz") else tmp_path / "raw"))
        if name.endswith(".gz"):
            path.write_bytes(gzip.compress((tmp_path / "raw").read_bytes()))
        X2, y2 = load_libsvm(path, n_features=7, index_base=0)  # dump_svmlight is 0-based
        assert X2.dtype == np.float64 and isinstance(X2, np.ndarray)
        np.testing.assert_allclose(X2, X, rtol=1e-15)
        np.testing.assert_array_equal(y2, y)
        X3, _ = load_dataset(path, n_features=7, index_base=0)
        np.testing.assert_allclose(X3, X, rtol=1e-15)
    with pytest.warns(PrivacyLeakWarning, match="number of features"):
        X4, _ = load_libsvm(tmp_path / "d.svm")  # without n_features: the last used index
    assert X4.shape[1] <= 7


def test_libsvm_bad_files(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        load_libsvm(_write(tmp_path, "e.svm", ""))
    with pytest.raises(ValueError, match="not a valid LIBSVM"):
        load_libsvm(_write(tmp_path, "m.svm", "1 1:2 x:y\n"), n_features=2, index_base=1)
    with pytest.raises(ValueError, match="first bad row: row 1"):
        load_libsvm(_write(tmp_path, "n.svm", "1 1:2\n-1 2:nan\n"), n_features=2,
                    index_base=1)
    with pytest.raises(ValueError, match="'index_base' parameter of load_libsvm"):
        load_libsvm(_write(tmp_path, "o.svm", "1 1:2\n"), n_features=2, index_base=2)
    with pytest.raises(FileNotFoundError):
        load_dataset(tmp_path / "missing.csv")
    for index in ("2147483648", "99999999999"):  # sklearn's reader overflowed (a traceback)
        path = _write(tmp_path, "big.svm", f"1 1:2\n-1 {index}:1\n")
        with pytest.raises(ValueError, match="exceeds the declared n_features = 10"):
            load_libsvm(path, n_features=10, index_base=1)
        with pytest.raises(ValueError, match="a feature index is 2..31 or more"):
            load_libsvm(path)


def test_load_dataset_sniffs_content(tmp_path):
    path = _write(tmp_path, "data.dat", "a,b,y\n1,2,1\n3,4,-1\n")
    X, y = load_dataset(path, label="y")
    assert X.shape == (2, 2) and y.tolist() == [1, -1]
    path = _write(tmp_path, "data2.dat", "1 1:0.5 3:1\n-1 2:0.25\n")
    X, y = load_dataset(path, n_features=3, index_base=1)
    np.testing.assert_array_equal(X, [[0.5, 0, 1], [0, 0.25, 0]])
    assert y.tolist() == [1.0, -1.0]


def test_load_features_with_and_without_label(tmp_path):
    from dpboost.data import load_features

    path = _write(tmp_path, "p.csv", "a,b\n1,2\n3,4\n")
    np.testing.assert_array_equal(load_features(path), [[1, 2], [3, 4]])
    path = _write(tmp_path, "q.csv", "a,b,y\n1,2,yes\n3,4,no\n")
    np.testing.assert_array_equal(load_features(path, label="y"), [[1, 2], [3, 4]])
    path = _write(tmp_path, "r.svm", "1 1:0.5\n-1 3:1\n")
    np.testing.assert_array_equal(load_features(path, n_features=4, index_base=1),
                                  [[0.5, 0, 0, 0], [0, 0, 1, 0]])


# ---------------------------------------------- issue 10.1: a model shape read from the data
NEIGHBOURS = {  # replace-one neighbours: the last row differs
    "a.svm": "1 1:0.5 2:0.25\n-1 2:0.5 3:0.1\n1 1:0.2\n",
    "b.svm": "1 1:0.5 2:0.25\n-1 2:0.5 3:0.1\n1 7:0.2\n",   # uses feature 7
    "c.svm": "1 1:0.5 2:0.25\n-1 2:0.5 3:0.1\n1 0:0.2\n",   # uses feature 0
}


def test_neighbouring_libsvm_files_never_give_different_shapes_silently(tmp_path):
    paths = {name: _write(tmp_path, name, text) for name, text in NEIGHBOURS.items()}
    # undeclared: the shapes differ (3, 7, 4 columns, c shifted), and each load says why
    shapes = []
    for name in ("a.svm", "b.svm", "c.svm"):
        with pytest.warns(PrivacyLeakWarning, match="number of features .* index base"):
            shapes.append(load_libsvm(paths[name])[0].shape[1])
    assert len(set(shapes)) == 3
    # declared: one public shape, or an error for a row outside the declared range
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Xa, _ = load_libsvm(paths["a.svm"], n_features=10, index_base=1)
        Xb, _ = load_libsvm(paths["b.svm"], n_features=10, index_base=1)
    assert Xa.shape == Xb.shape == (3, 10)
    np.testing.assert_array_equal(Xa[:2], Xb[:2])  # no column shifted
    with pytest.raises(ValueError, match="feature index 0 but index_base = 1"):
        load_libsvm(paths["c.svm"], n_features=10, index_base=1)
    with pytest.raises(ValueError, match="exceeds the declared n_features = 5"):
        load_libsvm(paths["b.svm"], n_features=5, index_base=1)
    with pytest.warns(PrivacyLeakWarning, match="index base") as record:
        load_libsvm(paths["a.svm"], n_features=10)
    assert "number of features" not in str(record[0].message)
