"""``calibrate_noise``'s ``mechanism`` argument: anything but a known name is a ValueError that
lists the mechanisms (a list raised "TypeError: unhashable type: 'list'")."""

import pytest

from accounting import calibrate_noise


@pytest.mark.parametrize("bad", [["x"], ["gaussian"], {"gaussian": 1}, "laplace", None, 3, ""])
def test_unknown_mechanism_lists_the_mechanisms(bad):
    with pytest.raises(ValueError, match=r"^The 'mechanism' parameter of calibrate_noise must be "
                                         r"one of \['discrete_gaussian', 'gaussian'\]\. Got "):
        calibrate_noise(1.0, 1e-6, mechanism=bad)


def test_known_mechanisms_still_calibrate():
    for mech in ("gaussian", "discrete_gaussian"):
        assert calibrate_noise(1.0, 1e-6, count=10, mechanism=mech).epsilon <= 1.0
