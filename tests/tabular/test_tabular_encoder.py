"""TabularEncoder: unit-norm rows by construction, nothing read from the data, sklearn contract."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.pipeline import make_pipeline

from dpboost import PrivacyLeakWarning, PrivateHalfspaceClassifier
from dpboost.estimator import clip_rows
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

SCHEMA = {
    "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 100},
        "amount": {"type": "numeric", "lower": 0, "upper": 1e6, "transform": "log",
                   "missing": "indicator"},
        "delta": {"type": "numeric", "lower": -1e3, "upper": 1e3, "transform": "signed-log"},
        "hours": {"type": "numeric", "lower": 0, "upper": 100, "bins": 4},
        "score": {"type": "numeric", "lower": 0, "upper": 10, "edges": [0, 1, 5, 10]},
        "job": {"type": "categorical", "categories": ["a", "b", 3]},
        "flag": {"type": "categorical", "categories": ["FALSE", "TRUE"],
                 "missing": "indicator"},
        "id": {"type": "drop"},
    },
    "label": {"column": "y", "classes": ["no", "yes"]},
}


def _frame():
    return pd.DataFrame({
        "id": [10, 11, 12, 13],
        "age": [50, 150, None, " 25 "],
        "amount": [0.0, 1e9, np.nan, math.e - 1],
        "delta": [-1e6, 0.0, 1.0, 999.0],
        "hours": [0, 25, 99.9, 1e9],
        "score": [0.5, 1.0, 7.0, -3.0],
        "job": ["b", 3.0, "unseen", None],
        "flag": [True, "FALSE", "", "TRUE"],
        "extra": ["x", "y", "z", "w"],
        "y": ["no", "yes", "yes", "no"],
    })


def test_encoding_values_against_the_formulas():
    enc = TabularEncoder(SCHEMA).fit()
    names = enc.get_feature_names_out().tolist()
    assert names == ["age", "amount", "amount_missing", "delta",
                     "hours[0,25)", "hours[25,50)", "hours[50,75)", "hours[75,100)",
                     "score[0,1)", "score[1,5)", "score[5,10)", "job=a", "job=b", "job=3",
                     "flag=FALSE", "flag=TRUE", "flag_missing", "intercept"]  # as declared
    Z = enc.transform(_frame()) * math.sqrt(8) / (1 - 1e-12)  # 7 columns + intercept
    col = {n: Z[:, j] for j, n in enumerate(names)}
    np.testing.assert_allclose(col["age"], [0.0, 1.0, 0.0, -0.5])  # clipped; missing -> 0
    top = math.log1p(1e6)
    np.testing.assert_allclose(col["amount"], [-1.0, 1.0, 0.0, 2 * 1 / top - 1])
    np.testing.assert_array_equal(col["amount_missing"], [0, 0, 1, 0])
    np.testing.assert_allclose(col["delta"], [-1.0, 0.0, math.log(2) / math.log1p(1e3),
                                              math.log1p(999) / math.log1p(1e3)])
    hours = np.column_stack([col[n] for n in names[4:8]])
    np.testing.assert_array_equal(hours, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1],
                                          [0, 0, 0, 1]])
    score = np.column_stack([col[n] for n in names[8:11]])
    np.testing.assert_array_equal(score, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    job = np.column_stack([col[n] for n in names[11:14]])
    np.testing.assert_array_equal(job, [[0, 1, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]])
    flag = np.column_stack([col[n] for n in names[14:17]])
    np.testing.assert_array_equal(flag, [[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]])
    np.testing.assert_allclose(col["intercept"], 1.0)
    np.testing.assert_array_equal(enc.encode_labels(_frame()["y"]), [0, 1, 1, 0])


def test_fit_reads_nothing_from_the_data():
    a = TabularEncoder(SCHEMA).fit(_frame())
    b = TabularEncoder(SCHEMA).fit(pd.DataFrame({"whatever": [1e9] * 3}))
    c = TabularEncoder(SCHEMA)  # never fitted: transform works on the schema alone
    assert a.n_features_out_ == b.n_features_out_ == 18
    np.testing.assert_array_equal(a.transform(_frame()), b.transform(_frame()))
    np.testing.assert_array_equal(a.transform(_frame()), c.transform(_frame()))


def test_column_order_and_extra_columns_do_not_matter():
    enc = TabularEncoder(SCHEMA)
    frame = _frame()
    shuffled = frame[list(np.random.default_rng(0).permutation(frame.columns))]
    np.testing.assert_array_equal(enc.transform(frame), enc.transform(shuffled))
    np.testing.assert_array_equal(enc.transform(frame),
                                  enc.transform(frame.drop(columns=["extra", "id", "y"])))


def test_input_kinds_records_and_arrays():
    schema = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 1},
                          "b": {"type": "categorical", "categories": ["x", "y"]}}}
    enc = TabularEncoder(schema)
    want = enc.transform(pd.DataFrame({"a": [0.5, 1], "b": ["y", "x"]}))
    np.testing.assert_array_equal(enc.transform([{"a": 0.5, "b": "y"}, {"a": 1, "b": "x"}]),
                                  want)
    np.testing.assert_array_equal(enc.transform(np.array([[0.5, "y"], [1, "x"]],
                                                         dtype=object)), want)
    with pytest.raises(ValueError, match="one column per schema columns entry"):
        enc.transform(np.zeros((2, 3)))


def test_errors_name_the_column_and_row():
    enc = TabularEncoder(SCHEMA)
    bad = _frame()
    bad.loc[2, "age"] = "forty"
    with pytest.raises(BadValueError, match="Column 'age' .* at row 2 is not a number") as info:
        enc.transform(bad)
    assert info.value.row == 2 and info.value.column == "age"
    assert "forty" not in str(info.value)  # a cell's content is private
    with pytest.raises(ValueError, match="no column 'hours'"):
        enc.transform(_frame().drop(columns=["hours"]))
    with pytest.raises(BadValueError, match="The label at row 1 is not one of"):
        enc.encode_labels(["no", "maybe"])
    with pytest.raises(BadValueError, match="missing at row 0"):
        enc.encode_labels([None, "no"])
    with pytest.raises(ValueError, match="at least one numeric or categorical column"):
        TabularEncoder({"columns": {"id": {"type": "drop"}}}).fit()
    with pytest.raises(TypeError, match="'schema' parameter of TabularEncoder"):
        TabularEncoder(3).fit()


def test_draft_schema_warns_when_training_with_it():
    frame = _frame()[["age", "job", "y"]].dropna()
    draft = TabularEncoder.draft(frame, label="y")
    assert set(draft.draft_marks()) == {"age", "job", "label 'y'"}
    with pytest.warns(PrivacyLeakWarning, match="age, job, label 'y'"):
        TabularEncoder(draft).fit()
    reviewed = draft.to_dict()
    for spec in reviewed["columns"].values():
        spec.pop("from_data", None)
    reviewed["label"].pop("from_data")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        TabularEncoder(Schema.from_dict(reviewed)).fit()


def test_pipeline_is_the_one_line_private_model():
    rng = np.random.default_rng(0)
    n = 3000
    frame = pd.DataFrame({"age": rng.uniform(0, 100, n),
                          "job": rng.choice(["a", "b", "c"], n)})
    y = np.where(frame["age"] / 100 + 0.5 * (frame["job"] == "c") > 0.6, "yes", "no")
    schema = {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                          "job": {"type": "categorical", "categories": ["a", "b", "c"]}},
              "label": {"column": "y", "classes": ["no", "yes"]}}
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyLeakWarning)
        model = make_pipeline(TabularEncoder(schema),
                              PrivateHalfspaceClassifier(1.0, 1e-6, classes=["no", "yes"],
                                                         random_state=0))
        model.fit(frame, y)
    clf = model[-1]
    assert clf.privacy_report_["n_samples"] == n and clf.coef_.shape == (5,)
    majority = max(np.mean(y == "yes"), np.mean(y == "no"))
    assert majority < 0.6 and model.score(frame, y) > 0.9  # 0.97-0.99 over seeds 0-4


# -------------------------------------------------- the norm bound, over random schemas
_values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.integers(-10**12, 10**12),
    st.sampled_from(["", "  ", "a", "b", " c ", "unseen", "TRUE", "false", "3", "nan"]),
    st.none(),
)


@st.composite
def _numeric_spec(draw):
    lower = draw(st.floats(-1e9, 1e9))
    upper = lower + draw(st.floats(1e-3, 1e9))
    spec = {"type": "numeric", "lower": lower, "upper": upper,
            "missing": draw(st.sampled_from(["zero", "indicator"]))}
    transform = draw(st.sampled_from([None, "log", "signed-log"]))
    if transform:
        spec["transform"] = transform
    kind = draw(st.sampled_from(["scale", "bins", "edges"]))
    if kind == "bins":
        spec["bins"] = draw(st.integers(2, 6))
    elif kind == "edges":
        inner = sorted(draw(st.sets(st.floats(lower, upper), min_size=1, max_size=4)))
        edges = sorted({lower, *inner, upper})
        if len(edges) >= 3:
            spec["edges"] = edges
    return spec


_categorical_spec = st.builds(
    lambda cats, missing: {"type": "categorical", "categories": cats, "missing": missing},
    st.lists(st.sampled_from(["a", "b", "c", "TRUE", "3", "x y"]), min_size=1, max_size=5,
             unique=True),
    st.sampled_from(["zero", "indicator"]))


@st.composite
def _case(draw):
    k = draw(st.integers(1, 6))
    specs = [draw(st.one_of(_numeric_spec(), _categorical_spec, st.just({"type": "drop"})))
             for _ in range(k)]
    if all(s["type"] == "drop" for s in specs):
        specs[0] = {"type": "numeric", "lower": 0, "upper": 1}
    n = draw(st.integers(1, 8))
    frame = {}
    for j, spec in enumerate(specs):
        cells = draw(st.lists(_values, min_size=n, max_size=n))
        if spec["type"] == "numeric":  # text or an infinity in a numeric column is an
            cells = [c if not isinstance(c, (str, float)) or (  # error, tested apart
                c.strip() in ("", "nan", "3") if isinstance(c, str) else not math.isinf(c))
                else None for c in cells]
        frame[f"c{j}"] = pd.Series(cells, dtype=object)
    return {"columns": {f"c{j}": s for j, s in enumerate(specs)}}, pd.DataFrame(frame)


@settings(max_examples=300)
@given(case=_case())
def test_every_row_has_norm_at_most_one_by_construction(case):
    schema, frame = case
    enc = TabularEncoder(schema).fit()
    Z = enc.transform(frame)
    assert Z.shape == (len(frame), enc.n_features_out_)
    assert np.isfinite(Z).all()
    norms = np.sqrt(np.einsum("ij,ij->i", Z, Z))  # the test clip_rows applies
    assert (norms <= 1.0).all(), norms.max()
    assert clip_rows(Z, 1.0) is Z  # the estimator clips nothing


def test_sklearn_clone_and_pandas_output():
    from sklearn.base import clone

    enc = clone(TabularEncoder(SCHEMA)).set_output(transform="pandas")
    out = enc.fit_transform(_frame())
    assert list(out.columns) == enc.get_feature_names_out().tolist()
    np.testing.assert_array_equal(out.to_numpy(), TabularEncoder(SCHEMA).transform(_frame()))
