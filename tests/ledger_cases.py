"""Malformed budget ledgers shared by the accountant's and the CLI's robustness tests.

A ledger file that is valid JSON but not a valid ledger (targets out of range, spends of the
wrong shape, events nested past the limit or past the JSON parser's).  Each must be refused
in one line naming the file, with nothing written.
"""

from __future__ import annotations

import json
import math

from accounting.events import MAX_EVENT_DEPTH

GOOD = {"format": "dpboost-budget-ledger", "version": 1, "target_epsilon": 1.0,
        "target_delta": 1e-6,
        "spends": [{"timestamp": "t", "label": "a",
                    "event": {"type": "SelfComposedEvent",
                              "event": {"type": "GaussianEvent", "noise_multiplier": 42.25},
                              "count": 50}}]}


def variant(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return json.dumps(data)


def nested(depth):
    inner = '{"type": "NoOpEvent"}'
    text = '{"type": "SelfComposedEvent", "count": 1, "event": ' * depth + inner + "}" * depth
    return ('{"format": "dpboost-budget-ledger", "version": 1, "target_epsilon": 1, '
            '"target_delta": 1e-6, "spends": [{"timestamp": "t", "label": "a", "event": '
            + text + "}]}")


TAMPERED = {
    "eps_inf_str": variant(target_epsilon="inf"),
    "eps_Infinity": variant(target_epsilon=math.inf),
    "eps_NaN": variant(target_epsilon=math.nan),
    "eps_neg": variant(target_epsilon=-1.0),
    "eps_zero": variant(target_epsilon=0.0),
    "eps_str": variant(target_epsilon="abc"),
    "eps_null": variant(target_epsilon=None),
    "eps_bool": variant(target_epsilon=True),
    "delta_0": variant(target_delta=0.0),
    "delta_1": variant(target_delta=1.0),
    "delta_str": variant(target_delta="x"),
    "spends_null": variant(spends=None),
    "spends_str": variant(spends="ab"),
    "spend_int": variant(spends=[1]),
    "spend_missing_event": variant(spends=[{"timestamp": "t", "label": "a"}]),
    "label_int": variant(spends=[{"timestamp": "t", "label": 7, "event": {"type": "NoOpEvent"}}]),
    "timestamp_int": variant(spends=[{"timestamp": 5, "label": "a",
                                       "event": {"type": "NoOpEvent"}}]),
    "event_type_list": variant(spends=[{"timestamp": "t", "label": "a",
                                         "event": {"type": ["GaussianEvent"]}}]),
    "version_true": variant(version=True),
    "nested_beyond_limit": nested(MAX_EVENT_DEPTH + 50),
    "nested_beyond_json": nested(5000),
}
