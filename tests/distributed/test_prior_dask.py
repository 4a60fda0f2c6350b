"""The class-balanced first measure (dpboost.lazy_breg, class_gain) through a dask fit."""

import numpy as np
import pytest

from dpboost.estimator import PrivateHalfspaceClassifier

da = pytest.importorskip("dask.array")


@pytest.mark.slow
def test_balanced_first_measure_on_dask_equals_numpy(client):
    rng = np.random.default_rng(8)
    n, d = 3000, 4
    X = rng.standard_normal((n, d)) / 4 + 0.3
    y = np.where(X[:, 0] + 0.1 * rng.standard_normal(n) > 0.55, 1, 0)  # about 8% positive
    # T pinned to keep the dask fit short; kappa learned, so the count, the prior and (epsilon
    # large enough for the histogram) the calibration all run
    kw = dict(classes=[0, 1], n_rounds=12, random_state=2)
    ref = PrivateHalfspaceClassifier(5.0, 1e-6, **kw).fit(X, y)
    assert ref.calibration_ is not None and ref.class_gain_[1] > 0.3  # majority gains ln r / lr
    got = PrivateHalfspaceClassifier(5.0, 1e-6, **kw).fit(
        da.from_array(X, chunks=(700, d)), da.from_array(y, chunks=700))
    assert got.class_gain_ == ref.class_gain_
    assert got.privacy_report_["initial_measure"] == ref.privacy_report_["initial_measure"]
    g = ref.privacy_report_["grid_granularity"]
    assert np.all(np.abs(got.released_centres_ - ref.released_centres_) <= g)
    assert np.mean(got.released_centres_ == ref.released_centres_) >= 0.95
