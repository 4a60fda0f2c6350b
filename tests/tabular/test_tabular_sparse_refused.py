"""``TabularEncoder`` on a scipy sparse matrix (red team, session 37)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

from dpboost.tabular import TabularEncoder


def test_a_sparse_matrix_is_refused_in_words():
    """It was refused as "Got shape () instead" (numpy made it a 0-d object array)."""
    columns = {"age": {"type": "numeric", "lower": 0, "upper": 100}}
    encoder = TabularEncoder({"columns": columns}).fit()
    with pytest.raises(TypeError, match="scipy sparse matrix is not one"):
        encoder.transform(scipy.sparse.csr_matrix(np.ones((2, 1))))
