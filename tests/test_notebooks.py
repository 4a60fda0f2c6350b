"""Execute every notebook in notebooks/ with small settings (DPBOOST_NOTEBOOK_SMALL=1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
#: Notebooks that draw figures: each must show at least one inline image when executed.
WITH_FIGURES = {"01-quickstart", "02-sample-complexity", "03-privacy-accounting",
                "04-online-boosting"}


def test_notebooks_are_stored_without_outputs():
    assert NOTEBOOKS, "no notebooks found"
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("DPBOOST_NOTEBOOK_SMALL", "1")
    # no MPLBACKEND=Agg: the kernel's inline backend renders figures headless, so the test
    # checks that they really appear (matplotlib.use("Agg") + close() once hid them all)
    monkeypatch.delenv("MPLBACKEND", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    if path.stem in WITH_FIGURES:
        assert images, f"{path.name} shows no figure"
    assert os.environ["DPBOOST_NOTEBOOK_SMALL"] == "1"
