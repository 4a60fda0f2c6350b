"""A refused spend's message shows its total above the limit (red team, session 36: a spend
one hair over a limit of 1 read "total would be eps=1 > limit eps=1")."""

from __future__ import annotations

import re

import pytest

from accounting import BudgetLedger, GaussianEvent, SelfComposedEvent
from accounting.exceptions import BudgetExceededError


@pytest.mark.parametrize("limit", [1.0, 0.5, 3.0])
def test_the_total_shown_exceeds_the_limit_shown(tmp_path, limit):
    ledger = BudgetLedger(tmp_path / f"l{limit}.json", limit, 1e-6)
    lo, hi = 0.1, 1e4  # the smallest noise that fits, by bisection
    for _ in range(200):
        mid = (lo + hi) / 2
        try:
            ledger.check(SelfComposedEvent(GaussianEvent(mid), 10))
            hi = mid
        except BudgetExceededError:
            lo = mid
    for z in (lo, lo * (1 - 1e-9), lo * (1 - 1e-3)):
        with pytest.raises(BudgetExceededError) as info:
            ledger.check(SelfComposedEvent(GaussianEvent(z), 10))
        shown = re.search(r"total would be eps=([0-9.e+-]+) > limit eps=([0-9.e+-]+)",
                          str(info.value))
        assert float(shown.group(1)) > float(shown.group(2)), str(info.value)
