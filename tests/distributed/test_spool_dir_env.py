"""``$DPBOOST_SPOOL_DIR`` (audit, session 37): a folder that did not exist was created mode
755; one that was a file was refused as "...: Not a directory", without naming the
variable."""

from __future__ import annotations

import pytest

from dpboost.cli import main
from dpboost.cli._distributed import spool_parent
from dpboost.cli._options import UserError


def test_spool_parent_takes_an_existing_folder_only(tmp_path, monkeypatch):
    monkeypatch.delenv("DPBOOST_SPOOL_DIR", raising=False)
    assert spool_parent() is None
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(tmp_path))
    assert spool_parent() == str(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("x")
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(afile))
    with pytest.raises(UserError, match="DPBOOST_SPOOL_DIR=.*: not a folder"):
        spool_parent()
    missing = tmp_path / "missing"
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(missing))
    assert spool_parent() == str(missing) and missing.is_dir()
    assert missing.stat().st_mode & 0o077 == 0  # the owner's only


def test_train_with_workers_refuses_a_file_as_spool_folder_in_one_line(tmp_path, monkeypatch,
                                                                        capsys):
    data = tmp_path / "d.csv"
    data.write_text("x,y\n" + "".join(f"{i / 100},{'yes' if i % 2 else 'no'}\n"
                                      for i in range(60)), encoding="utf-8")
    schema = tmp_path / "s.json"
    schema.write_text('{"columns": {"x": {"type": "numeric", "lower": 0, "upper": 1}}, '
                      '"label": {"column": "y", "classes": ["no", "yes"]}}', encoding="utf-8")
    afile = tmp_path / "spool"
    afile.write_text("x")
    monkeypatch.setenv("DPBOOST_SPOOL_DIR", str(afile))
    code = main(["train", str(data), "--schema", str(schema), "--target-epsilon", "1",
                 "--target-delta", "1e-6", "--workers", "1", "--out", str(tmp_path / "m.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and "DPBOOST_SPOOL_DIR=" in err[-1] and "not a folder" in err[-1]
    assert not (tmp_path / "m.json").exists()
