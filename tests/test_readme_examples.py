"""Every code block of README.md runs, or the README says next to it why it does not.

The README is cut into its fenced blocks. ``python`` blocks run in a fresh namespace in a
temporary folder. ``bash`` and ``console`` blocks run their commands there, ``dpboost ...`` as
``python -m dpboost ...`` (in ``console`` the commands follow ``$ ``; other lines are output).
``json`` blocks must load (a schema as a :class:`dpboost.schema.Schema`); ``text`` blocks are
left alone. A fence without a language fails, and so does a block that cannot run and is not
marked: a new example is tested by default.

A marker is an HTML comment (invisible on GitHub) on the line just before a block:

- ``<!-- readme-test: skip (reason) -->``: the block is not run; pytest shows the reason;
- ``<!-- readme-test: continue -->``: the block runs after the one before it, in its folder
  and, for python, its namespace;
- ``<!-- readme-test: setup NAME (what it writes) -->``: ``SETUPS[NAME]`` first writes the small
  synthetic files the block reads, and may add names to a python block's namespace;
- ``<!-- readme-test: append ARGS (why) -->``: ARGS end every ``dpboost`` command of the block,
  to make it cheaper (fewer audit runs, say).

Printed output is checked where the README states it as a Python literal: a bare expression
with a trailing comment that parses as one (``acc.epsilons(1e-6)   # {'paper': 1.2722}``) must
evaluate to it, each float to the digits shown. Other comments are prose and are not checked.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RUN_LANGS = {"python", "bash", "console"}
DATA_LANGS = {"json", "text"}
MARKER = re.compile(r"<!-- readme-test: (skip|continue|setup|append)\b ?(.*?) -->")
#: Shell commands a block may use besides ``dpboost``.
OTHER_COMMANDS = {"mkdir"}
#: Subcommands that take several seconds: their chains are marked slow (CI still runs them).
SLOW_SUBCOMMANDS = {"demo", "audit"}
TIMEOUT = 120


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    section: str
    marker: str = ""  # skip, continue, setup, append or ""
    argument: str = ""  # setup NAME / append ARGS, without the reason
    reason: str = ""


def _parse(path: Path) -> tuple[list[Block], list[str]]:
    """The fenced blocks of a Markdown file, and the problems that stop one being tested."""
    blocks, errors, section = [], [], ""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if lines[i].startswith("## "):
            section = lines[i][3:].strip()
        if "readme-test" in stripped:
            nxt = next((s for s in lines[i + 1:] if s.strip()), "")
            if not MARKER.fullmatch(stripped) or not nxt.strip().startswith("```"):
                errors.append(f"README.md:{i + 1}: a readme-test marker must be one whole line "
                              f"'<!-- readme-test: KIND ... -->' just before a block")
        if not stripped.startswith("```"):
            i += 1
            continue
        start, lang, indent = i + 1, stripped[3:].strip(), len(lines[i]) - len(lines[i].lstrip())
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        i += 1
        block = Block(start, lang, "\n".join(body) + "\n", section)
        before = next((s.strip() for s in reversed(lines[:start - 1]) if s.strip()), "")
        match = MARKER.fullmatch(before)
        if match:
            block.marker = match.group(1)
            rest = re.fullmatch(r"(.*?)\s*(?:\((.*)\))?", match.group(2))
            block.argument, block.reason = rest.group(1), rest.group(2) or ""
        if lang not in RUN_LANGS | DATA_LANGS:
            errors.append(f"README.md:{start}: a block needs a language among "
                          f"{sorted(RUN_LANGS | DATA_LANGS)}; got {lang!r}")
        elif block.marker and lang not in RUN_LANGS:
            errors.append(f"README.md:{start}: a {lang} block is never run; drop its marker")
        elif block.marker == "skip" and not block.reason:
            errors.append(f"README.md:{start}: say why the block is skipped: skip (reason)")
        elif block.marker == "setup" and block.argument not in SETUPS:
            errors.append(f"README.md:{start}: no setup {block.argument!r}; "
                          f"known: {sorted(SETUPS)}")
        elif block.marker == "continue" and not any(b.lang in RUN_LANGS for b in blocks):
            errors.append(f"README.md:{start}: 'continue' needs a block before it")
        blocks.append(block)
    return blocks, errors


# ---------------------------------------------------------------- setups: small synthetic files


def _schema_block() -> Block:
    """The JSON schema shown in the README's section on raw tabular data."""
    found = [b for b in BLOCKS if b.lang == "json" and b.section.startswith("Raw tabular data")]
    assert len(found) == 1, "expected one JSON schema block under '## Raw tabular data'"
    return found[0]


def _customers_frame(n: int, rng: np.random.Generator) -> pd.DataFrame:
    age = rng.integers(18, 90, n)
    income = rng.lognormal(10.0, 1.0, n)
    frame = pd.DataFrame({
        "id": np.arange(n),
        "age": age,
        "income": np.where(rng.random(n) < 0.1, np.nan, income),
        "hours": rng.uniform(0, 60, n).round(1),
        "job": rng.choice(["clerk", "sales", "engineer", "unknown"], n),
        "grade": rng.choice(["low", "medium", "high"], n),
        "bought": np.where(age + rng.normal(0, 10, n) > 50, "yes", "no"),
    })
    return frame


def setup_customers(folder: Path) -> dict:
    """customers.csv and new.csv with the columns of the README's schema, schema.json (the
    README's JSON block itself); a python block gets ``frame``, customers.csv read by pandas."""
    (folder / "schema.json").write_text(_schema_block().text)
    rng = np.random.default_rng(0)
    _customers_frame(2000, rng).to_csv(folder / "customers.csv", index=False)
    _customers_frame(300, rng).to_csv(folder / "new.csv", index=False)
    return {"frame": pd.read_csv(folder / "customers.csv")}


def setup_numeric_csv(folder: Path) -> dict:
    """train.csv, test.csv (features x0..x4 and a label in {-1, 1} named 'label'), new.csv
    (features only) and adult.csv (features, then a 0/1 label in the last column)."""
    from dpboost import make_margin_data

    X, y = make_margin_data(1500, 5, 0.1, random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(5)]).assign(label=y)
    frame[:1000].to_csv(folder / "train.csv", index=False)
    frame[1000:].to_csv(folder / "test.csv", index=False)
    frame[1000:].drop(columns="label").to_csv(folder / "new.csv", index=False)
    frame.drop(columns="label").assign(income=(y > 0).astype(int)).to_csv(
        folder / "adult.csv", index=False)
    return {}


SETUPS = {"customers": setup_customers, "numeric-csv": setup_numeric_csv}
BLOCKS, ERRORS = _parse(README)


# ---------------------------------------------------------------------------- running a block


def _commands(block: Block) -> list[list[str]]:
    """The commands of a bash or console block, split as the shell would (comments dropped)."""
    commands, current = [], None
    for line in block.text.splitlines():
        if current is None:
            if block.lang == "console":
                if not line.startswith("$ "):
                    continue  # output
                line = line[2:]
            current = ""
        current += " " + line.strip()
        if current.endswith("\\"):
            current = current[:-1]
            continue
        argv = shlex.split(current, comments=True)
        if argv:
            commands.append(argv)
        current = None
    return commands


def _run_command(argv: list[str], block: Block, folder: Path) -> None:
    where = f"README.md:{block.line}: {shlex.join(argv)}"
    if {"&&", "||", "|", ";", ">", "<"} & set(argv) or (
            argv[0] != "dpboost" and argv[0] not in OTHER_COMMANDS):
        pytest.fail(f"{where}: cannot run this; mark the block (see {Path(__file__).name})")
    if argv[0] == "dpboost":
        argv = [sys.executable, "-m", "dpboost", *argv[1:], *shlex.split(
            block.argument if block.marker == "append" else "")]
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    assert done.returncode == 0, f"{where}: exit code {done.returncode}\n{done.stderr[-3000:]}"


def _trailing_literals(source: str) -> dict[int, object]:
    """Line -> the Python literal that the line's trailing comment holds (prose is left out)."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            try:
                found[token.start[0]] = ast.literal_eval(token.string[1:].strip())
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                pass
    return found


def _matches(actual, expected) -> bool:
    """Equal, floats to the decimal places the README shows."""
    if isinstance(expected, float):
        places = -Decimal(repr(expected)).as_tuple().exponent
        return (isinstance(actual, (int, float, np.number))
                and abs(float(actual) - expected) <= 0.5 * 10.0 ** -places * (1 + 1e-9))
    if isinstance(expected, dict):
        return (isinstance(actual, Mapping) and set(actual) == set(expected)
                and all(_matches(actual[k], v) for k, v in expected.items()))
    if isinstance(expected, (list, tuple)):
        return (isinstance(actual, (list, tuple)) and len(actual) == len(expected)
                and all(_matches(a, e) for a, e in zip(actual, expected)))
    return actual == expected


def _run_python(block: Block, namespace: dict) -> None:
    tree = ast.parse(block.text)
    literals = _trailing_literals(block.text)
    last_on_line = {stmt.end_lineno: stmt for stmt in tree.body}
    for stmt in tree.body:
        checked = (isinstance(stmt, ast.Expr) and last_on_line[stmt.end_lineno] is stmt
                   and stmt.end_lineno in literals)
        line = stmt.end_lineno
        ast.increment_lineno(stmt, block.line)  # tracebacks name the README's own line
        if not checked:
            code = compile(ast.Module([stmt], []), str(README), "exec")
            exec(code, namespace)  # noqa: S102 (running the README's own code is the point)
            continue
        value = eval(compile(ast.Expression(stmt.value), str(README), "eval"), namespace)
        assert _matches(value, literals[line]), (
            f"README.md:{block.line + line}: shows {literals[line]!r}, got {value!r}")


def _chains() -> list:
    """One pytest param per block, with the blocks that continue it."""
    chains: list[list[Block]] = []
    for block in BLOCKS:
        if block.lang not in RUN_LANGS:
            continue
        if block.marker == "continue" and chains:
            chains[-1].append(block)
        else:
            chains.append([block])
    params = []
    for chain in chains:
        head = chain[0]
        marks = []
        if head.marker == "skip":
            marks.append(pytest.mark.skip(reason=f"README.md:{head.line}: {head.reason}"))
        elif any(argv[0] == "dpboost" and argv[1:2] and argv[1] in SLOW_SUBCOMMANDS
                 for b in chain if b.lang != "python" for argv in _commands(b)):
            marks.append(pytest.mark.slow)
        params.append(pytest.param(chain, marks=marks, id=f"line{head.line}-{head.lang}"))
    return params


def test_blocks_are_declared():
    """Every fence has a language and every marker is well formed and in its place."""
    assert BLOCKS, "no code blocks found in README.md"
    assert ERRORS == []


@pytest.mark.parametrize("chain", _chains())
def test_readme_block_runs(chain, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    for block in chain:
        if block.marker == "setup":
            namespace.update(SETUPS[block.argument](tmp_path))
        if block.lang == "python":
            _run_python(block, namespace)
        else:
            for argv in _commands(block):
                _run_command(argv, block, tmp_path)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "json"],
                         ids=lambda b: f"line{b.line}-json")
def test_readme_json_loads(block, tmp_path):
    from dpboost.schema import Schema

    content = json.loads(block.text)
    if "columns" in content or "label" in content:
        path = tmp_path / "schema.json"
        path.write_text(block.text)
        Schema.load(path)
