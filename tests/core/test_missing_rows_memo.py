"""``missing_rows`` looks at each distinct label once, and finds the rows one look each would.

Session 36: ``predict --label`` on a test file of 300,000 rows spent 2.2 s of its 6.5 s in
``category_key`` on every row's label.  Equal labels (``1``, ``1.0``, ``True``; NaN objects)
share one answer, which is right only if being missing is the same for equal values: checked
here against the per-row rule on random columns drawn from the cells files hold.
"""

from __future__ import annotations

import random

import numpy as np

from dpboost.cell_text import category_key, is_nan_text
from dpboost.cli._labels import missing_rows

POOL = ["yes", "no", "", " ", "  yes", "nan", "NaN", " nan ", "NA", "?", None, float("nan"),
        np.nan, np.float64("nan"), 1, 1.0, True, 0, False, 0.0, np.int64(1), np.float64(0.0),
        "1", "1.0", "true", "None", "null", "\u00a0", "-", np.datetime64("NaT"), [1], {"a": 1}]


def test_memoised_rows_are_the_rows_of_one_look_each():
    rng = random.Random(36)
    for _ in range(500):
        labels = np.empty(rng.randint(0, 40), dtype=object)
        labels[:] = [rng.choice(POOL) for _ in range(labels.size)]
        expected = [k for k, v in enumerate(labels) if category_key(v) is None
                    or is_nan_text(v)]
        assert missing_rows(labels).tolist() == expected, labels
