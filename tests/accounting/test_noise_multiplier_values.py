"""Events that take a noise multiplier: NaN and non-positive values are refused with the house
message; ``inf`` is kept on purpose (a step that releases nothing costs nothing)."""

import math

import pytest

from accounting import DiscreteGaussianEvent, GaussianEvent, ZCDPAccountant


@pytest.mark.parametrize("cls", [GaussianEvent, DiscreteGaussianEvent])
@pytest.mark.parametrize("bad", [math.nan, -math.inf, 0.0, -1.0])
def test_nan_and_non_positive_are_refused(cls, bad):
    with pytest.raises(ValueError, match=rf"^The 'noise_multiplier' parameter of {cls.__name__} "
                                         r"must be a float in \(0, inf\]\. Got "):
        cls(bad)


@pytest.mark.parametrize("cls", [GaussianEvent, DiscreteGaussianEvent])
def test_inf_means_nothing_released(cls):
    acc = ZCDPAccountant().compose(cls(math.inf), count=10)
    assert acc.rho == 0.0 and acc.get_epsilon(1e-9) == 0.0 and acc.get_delta(0.0) == 0.0
    assert cls(math.inf).to_dict()["noise_multiplier"] == "inf"  # standard JSON
