"""Round-4 mutation gaps in dpboost/private_temperature.py: the rate the draw uses, and the
epsilon_0 reported for it.

The exponential mechanism with rate eta over a utility of sensitivity Delta has a log-ratio of
its probabilities between neighbours of at most 2 eta Delta (McSherry & Talwar 2007; a
data-independent base measure leaves it unchanged), i.e. epsilon_0 = 2 eta Delta bounded range,
which is epsilon_0^2 / 8-zCDP (Cesar & Rogers 2021, Lemma 3.2).  The rate is observed at the
sampler, independently of what the module reports.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpboost import private_temperature as pt
from dpboost.private_threshold import BRIER_SENSITIVITY


@pytest.mark.parametrize("rho", [1e-4, 0.01, 0.3])
def test_the_draw_spends_at_most_rho_and_reports_its_epsilon(monkeypatch, rho):
    seen = []
    draw = pt.sample_exponential

    def recording(gains, eta, **kw):
        seen.append(eta)
        return draw(gains, eta, **kw)

    monkeypatch.setattr(pt, "sample_exponential", recording)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 400)
    s = 0.02 * np.eye(3)[y] + rng.normal(0, 0.01, (400, 3))
    fit = pt.private_temperature(s, y, rho, 0.05, rng=rng)
    assert len(seen) == 1
    eps0 = float(2 * seen[0] * BRIER_SENSITIVITY)
    assert eps0 ** 2 / 8.0 <= rho * (1 + 1e-12)
    assert fit.epsilon_0 == pytest.approx(eps0, rel=1e-12)
    assert pt.temperature_event(rho).epsilon >= eps0
