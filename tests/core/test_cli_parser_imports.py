"""The CLI's parser does not import ``scipy.stats``.

Session 36: building ``dpboost``'s parser (every command, ``--help`` included) imported
``scipy.stats`` through ``dpboost.audit_statistics`` and ``dpboost.online.bbm`` (for the
``audit`` and ``online`` defaults in the help), 0.8 s of the 1.7 s ``dpboost --help`` took on
the 2-core machine (0.9 s without).  The two modules now import it in the functions that use it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_building_the_parser_leaves_scipy_stats_unimported():
    code = ("import sys; from dpboost.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith('scipy.stats')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=True)
    assert out.stdout.strip() == "[]", out.stdout
