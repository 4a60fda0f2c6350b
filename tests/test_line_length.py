"""House rule: no line of a .py file in the package, the accounting, the benchmarks or the tests
is longer than 100 characters (lines with a URL excepted)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("dpboost", "accounting", "benchmarks", "tests")
LIMIT = 100

# Doctest expected output that cannot be wrapped without changing what the doctest checks (an
# exception message is compared as one line).  Keyed by file and the exact stripped line, so any
# other long line, or an edit of one of these, fails.
ALLOWED = {
    ("dpboost/_validation.py",
     ("ValueError: The 'kappa' parameter of PrivateHalfspaceClassifier must be a float in (0, "
      "1). Got 1.5 instead.")),
    ("dpboost/_validation.py",
     ("ValueError: The 'norm_bound' parameter of PrivateHalfspaceClassifier must be a float "
      "in [1e-100, 1e+100]. Got 1e+200 instead.")),
    ("accounting/events.py",
     ("ValueError: The 'noise_multiplier' parameter of GaussianEvent must be a float in (0, "
      "inf]. Got -1 instead.")),
    ("accounting/ledger.py",
     ("accounting.exceptions.BudgetExceededError: Privacy budget exceeded: spent "
      "eps=0.999918, requested eps=4.89, total would be eps=5.04 > limit eps=2 at "
      "delta=1e-06; ...")),
}


def long_lines() -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            for number, line in enumerate(text.split("\n"), start=1):
                line = line.rstrip("\r")
                if len(line) <= LIMIT or "http://" in line or "https://" in line:
                    continue
                if (rel, line.strip()) in ALLOWED:
                    continue
                found.append(f"{rel}:{number}: {len(line)} characters")
    return found


def test_no_line_is_longer_than_100_characters():
    found = long_lines()
    assert not found, f"{len(found)} lines over {LIMIT} characters:\n" + "\n".join(found)
