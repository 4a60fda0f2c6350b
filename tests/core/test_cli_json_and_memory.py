"""``--json`` output is strict JSON, and running out of memory is one line (red team, s36).

* ``privacy --noise-multiplier 1e-300 --json`` printed ``"rho": Infinity`` and ``budget show
  --json`` on a ledger holding a non-private spend ``"spent_epsilon": Infinity``: not JSON (a
  strict parser refuses it), and unlike the ledger file, which writes ``"inf"``.  Every
  ``--json`` now writes a non-finite number as ``"inf"``, ``"-inf"`` or ``"nan"``.
* ``demo --n 1000000000000`` printed a traceback and "this is a bug": a size asked for, not a
  bug.  A ``MemoryError`` is now one line, exit 2.
"""

from __future__ import annotations

import json
import math

import pytest

from dpboost.cli import main
from dpboost.cli._options import json_text, report_error


def _strict(text: str):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_privacy_json_with_an_infinite_cost_is_strict_json(capsys):
    assert main(["privacy", "--n-rounds", "10", "--noise-multiplier", "1e-300",
                 "--target-delta", "1e-6", "--json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert out["rho"] == "inf" and out["epsilon"]["paper"] == "inf"


def test_budget_show_json_with_a_non_private_spend_is_strict_json(tmp_path, capsys):
    path = tmp_path / "l.json"
    path.write_text(json.dumps({
        "format": "dpboost-budget-ledger", "version": 1, "target_epsilon": 3.0,
        "target_delta": 1e-6, "spends": [{"timestamp": "t", "label": "leak",
                                          "event": {"type": "NonPrivateEvent"}}]}))
    assert main(["budget", "show", str(path), "--json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert "inf" in json.dumps(out)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1.5, "x", None, True])
def test_json_text_keeps_finite_values_and_names_the_others(value):
    text = json_text({"a": [value, {"b": value}], "c": (value,)})
    back = _strict(text)
    expected = ("nan" if value != value else "inf" if value == math.inf else "-inf"
                if value == -math.inf else value)
    assert back == {"a": [expected, {"b": expected}], "c": [expected]}


def test_a_memory_error_is_one_line(capsys):
    exc = MemoryError("Unable to allocate 7.28 TiB for an array")
    assert report_error(exc, "demo") == 2
    err = capsys.readouterr().err
    assert err.startswith("dpboost demo: error: not enough memory for this run (Unable to ")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_an_os_error_is_its_file_and_reason_without_the_errno(capsys):
    """Red team, session 36: ``curves --out FILE`` said "[Errno 17] File exists: 'tr.csv'"."""
    assert report_error(FileExistsError(17, "File exists", "tr.csv"), "curves") == 2
    assert capsys.readouterr().err == "dpboost curves: error: tr.csv: File exists\n"
    assert report_error(OSError(13, "Cannot write the ledger 'l.json'"), "budget") == 2
    assert capsys.readouterr().err == "dpboost budget: error: Cannot write the ledger 'l.json'\n"


def test_curves_refuses_an_out_that_is_a_file(tmp_path, capsys):
    blocking = tmp_path / "tr.csv"
    blocking.write_text("x\n")
    for out in (blocking, blocking / "sub"):
        assert main(["curves", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"{blocking} is a file; curves writes its CSV and figures into a folder" in err
        assert "Errno" not in err and len(err.splitlines()) == 1
