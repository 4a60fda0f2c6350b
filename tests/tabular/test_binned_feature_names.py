"""The names of binned features show each bin's edges on the column's own scale, for bins equal
on a log scale too (red team, session 35: ``income[bin0]`` beside ``balance[0,600)``)."""

import math

import numpy as np
import pytest

from dpboost.schema import Schema
from dpboost.tabular import TabularEncoder


def _names(spec: dict) -> list[str]:
    schema = Schema.from_dict({"columns": {"v": {"type": "numeric", **spec}},
                               "label": {"column": "y", "classes": [0, 1]}})
    return list(TabularEncoder(schema).get_feature_names_out())[:-1]  # the intercept aside


def _edges(names: list[str]) -> list[float]:
    cuts = [name[name.index("[") + 1:-1].split(",") for name in names]
    return [float(cuts[0][0])] + [float(hi) for _, hi in cuts]


@pytest.mark.parametrize("lower, upper, transform, bins", [
    (0, 1e5, "log", 4), (5, 2e3, "log", 3), (-1000, 1000, "signed-log", 4),
    (0, 3000, None, 5)])
def test_equal_bins_name_their_edges_in_the_column_s_units(lower, upper, transform, bins):
    spec = {"lower": lower, "upper": upper, "bins": bins,
            **({"transform": transform} if transform else {})}
    edges = _edges(_names(spec))
    assert len(edges) == bins + 1
    assert edges[0] == pytest.approx(lower) and edges[-1] == pytest.approx(upper, rel=1e-5)
    assert all(a < b for a, b in zip(edges, edges[1:]))
    # equal steps on the scale the encoding is linear in (6 significant digits printed)
    if transform == "log":
        steps = np.diff([math.log1p(e - lower) for e in edges])
    elif transform == "signed-log":
        steps = np.diff([math.copysign(math.log1p(abs(e)), e) for e in edges])
    else:
        steps = np.diff(edges)
    assert np.allclose(steps, steps[0], rtol=1e-4)


def test_declared_edges_are_named_as_written_whatever_the_transform():
    names = _names({"lower": 0, "upper": 90, "edges": [0, 20, 40, 60, 90], "transform": "log"})
    assert names == ["v[0,20)", "v[20,40)", "v[40,60)", "v[60,90)"]
