"""SIGTERM during a ``--workers`` command leaves no spool and no plain copy of a gzip file
behind (red team, session 29: ``timeout``, ``docker stop`` and batch schedulers send SIGTERM,
whose default killed the process at once, leaving the encoded rows and the gzip file's text
in clear in ``$DPBOOST_SPOOL_DIR``)."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    if __name__ == "__main__":
        from dpboost.cli._distributed import cluster_client, read_encoded
        from dpboost.schema import Schema
        schema = Schema.from_dict({"columns": {"a": {"type": "numeric", "lower": 0,
                                                     "upper": 100}},
                                   "label": {"column": "y", "classes": ["no", "yes"]}})
        with cluster_client(workers=1):
            read_encoded(sys.argv[1], schema, blocksize=2_000, spool=False)
            print(len(os.listdir(os.environ["DPBOOST_SPOOL_DIR"])), flush=True)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(30)
""")


def test_sigterm_unwinds_through_the_cluster_cleanup(tmp_path):
    data = tmp_path / "d.csv.gz"
    rows = "".join(f"{i % 90},{'yes' if i % 3 else 'no'}\n" for i in range(3000))
    data.write_bytes(gzip.compress(("a,y\n" + rows).encode()))
    spools = tmp_path / "spools"
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "DPBOOST_SPOOL_DIR": str(spools),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, str(script), str(data)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split()[:1] == ["1"], done.stderr  # the plain copy was there
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert os.listdir(spools) == []
