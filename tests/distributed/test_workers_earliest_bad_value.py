"""Which bad value ``--workers`` names when a file holds several: the one memory names.

Red team, session 28 (finding 2): with a bad label in an early block and a bad cell in a later
one, ``train --workers`` named whichever partition ran into its error first (line 902 in one
run, 702 in another); memory encodes the columns in the schema's order and the labels last, so
it always names the cell.  :func:`dpboost.cli._bad_values.file_error` now names memory's.
"""

from __future__ import annotations

import random

import pytest

from _refusal_cases import ledger_train_argv, refusal_lines
from dpboost.cli._bad_values import file_error
from dpboost.readers import read_table
from dpboost.schema import Schema
from dpboost.tabular import BadValueError, TabularEncoder

SCHEMA = {"columns": {"a": {"type": "numeric", "lower": 0, "upper": 100},
                      "b": {"type": "categorical", "categories": ["x", "y", "z"]},
                      "note": {"type": "drop"},
                      "c": {"type": "numeric", "lower": -1, "upper": 1}},
          "label": {"column": "label", "classes": ["no", "yes"]}}
N = 900  # rows of about 16 bytes: 8,000-byte blocks make 2 partitions or more

#: bad values by (column, row): each pair is met in two partitions, and memory names the first
#: in its order (a cell before any label; an earlier column before a later one; the first row)
CASES = {
    "label early, cell late": ({("label", 40): "maybe", ("a", 800): "ten"}, ("a", 800)),
    "later column early": ({("c", 40): "w", ("a", 800): "ten"}, ("a", 800)),
    "one column twice": ({("a", 40): "ten", ("a", 800): "eleven"}, ("a", 40)),
    "labels twice": ({("label", 800): "maybe", ("label", 40): "perhaps"}, ("label", 40)),
    "three kinds": ({("label", 30): "maybe", ("c", 450): "w", ("c", 800): "v"}, ("c", 450)),
}


def _write(path, bad: dict) -> None:
    rng = random.Random(1)
    rows = []
    for i in range(N):
        cell = {"a": str(rng.randint(0, 100)), "b": rng.choice("xyz"), "note": "p",
                "c": str(rng.randint(-1, 1)), "label": rng.choice(["yes", "no"])}
        cell.update({column: value for (column, row), value in bad.items() if row == i})
        rows.append(",".join(cell[c] for c in ("a", "b", "note", "c", "label")))
    path.write_text("a,b,note,c,label\n" + "\n".join(rows) + "\n")


def _memory_error(path) -> BadValueError:
    frame = read_table(path, text_columns=["b", "label"])
    encoder = TabularEncoder(Schema.from_dict(SCHEMA)).fit()
    with pytest.raises(BadValueError) as info:
        encoder.transform(frame)
        encoder.encode_labels(frame["label"])
    return info.value


@pytest.mark.parametrize("case", CASES)
def test_an_error_raised_by_any_partition_names_memory_s_value(tmp_path, case):
    """Whichever of the two bad values a partition raised first, the message names memory's
    (before, it named the one raised: a run-order choice between two lines)."""
    bad, expected = CASES[case]
    path = tmp_path / "d.csv"
    _write(path, bad)
    first = _memory_error(path)
    assert (first.column, first.row) == expected
    schema = Schema.from_dict(SCHEMA)
    for (column, row), value in bad.items():  # each value as the error a partition raised
        alone = tmp_path / f"alone-{row}.csv"
        _write(alone, {(column, row): value})
        raised = _memory_error(alone)
        assert raised.row == row
        message = str(file_error(raised, str(path), schema))
        assert message == str(file_error(first, str(path), schema))
        assert f"at line {expected[1] + 2}" in message  # the header is line 1


@pytest.mark.parametrize("spool", [True, False], ids=["spool", "no-spool"])
@pytest.mark.parametrize("case", CASES)
def test_train_workers_names_what_memory_names(tmp_path, client, capsys, case, spool):
    """The CLI on a 2-worker cluster: the same one line as in memory, ledger untouched."""
    bad, expected = CASES[case]
    path = tmp_path / "d.csv"
    _write(path, bad)
    argv, ledger = ledger_train_argv(tmp_path, path, SCHEMA)
    lines = refusal_lines(argv, client, capsys, ledger, spool=spool)
    assert f"at line {expected[1] + 2}" in lines[1][0]


def test_a_parquet_error_raised_late_names_the_first(tmp_path):
    """A Parquet table: the file and its row of the first bad value, as memory names it."""
    import pandas as pd

    frame = pd.DataFrame({"a": [str(v % 90) for v in range(200)], "b": ["x"] * 200,
                          "note": ["p"] * 200, "c": ["0"] * 200, "label": ["no", "yes"] * 100})
    frame.loc[150, "a"] = "ten"
    frame.loc[20, "label"] = "maybe"
    path = tmp_path / "d.parquet"
    frame.to_parquet(path, row_group_size=50)
    late = BadValueError("The label at row 20 is not one of the schema's classes.",
                         column="label", row=20)
    message = str(file_error(late, str(path), Schema.from_dict(SCHEMA)))
    assert message.startswith(f"{path}: Column 'a'") and "at row 151 (pandas index 150) " in message


@pytest.mark.parametrize("bad_rows", [230, 400, 1], ids=["a block's labels", "every label",
                                                         "one label"])
@pytest.mark.parametrize("spool", [True, False], ids=["spool", "no-spool"])
def test_the_every_label_hint_counts_the_file_not_a_block(tmp_path, client, capsys, bad_rows,
                                                          spool):
    """Red team, session 29: with the first 230 labels of 400 outside the classes, the 2,000-
    byte blocks said "none of the 183 labels read" (one block's rows; 91 with 1,000-byte
    blocks, no hint with 3,000), where memory gives no hint; with every label bad, 200 where
    memory says 400."""
    rng = random.Random(2)
    rows = [f"{rng.randint(0, 100)},{rng.choice('xyz')},p,0,"
            f"{'maybe' if i < bad_rows else rng.choice(['yes', 'no'])}" for i in range(400)]
    path = tmp_path / "d.csv"
    path.write_text("a,b,note,c,label\n" + "\n".join(rows) + "\n")
    argv, ledger = ledger_train_argv(tmp_path, path, SCHEMA)
    for size in (1_000, 2_000, 3_000):
        message = refusal_lines(argv, client, capsys, ledger, spool=spool,
                                blocksize=size)[1][0]
        assert message.endswith("; none of the 400 labels read is one of them: write the "
                                "classes as the label column writes them."
                                if bad_rows == 400 else "['no', 'yes'].")


@pytest.mark.parametrize("spool", [True, False], ids=["spool", "no-spool"])
def test_the_every_label_hint_does_not_follow_another_block_s_hint(tmp_path, client, capsys,
                                                                    spool):
    """Re-read, session 29: every label outside the classes, 'maybe' in the first half and
    'Yes' (a case variant) after it.  Memory: 'none of the 400 labels read'.  A block whose
    first bad label was 'Yes' carried the case hint instead of the every-label hint, and was
    read as 'not every label bad', so --workers gave no hint."""
    rng = random.Random(3)
    rows = [f"{rng.randint(0, 100)},{rng.choice('xyz')},p,0,{'maybe' if i < 200 else 'Yes'}"
            for i in range(400)]
    path = tmp_path / "d.csv"
    path.write_text("a,b,note,c,label\n" + "\n".join(rows) + "\n")
    argv, ledger = ledger_train_argv(tmp_path, path, SCHEMA)
    message = refusal_lines(argv, client, capsys, ledger, spool=spool, blocksize=1_000)[1][0]
    assert message.endswith("; none of the 400 labels read is one of them: write the classes "
                            "as the label column writes them.")


@pytest.mark.parametrize("bad", [(1, 30, "a", "ten"), (2, 0, "label", "maybe"),
                                 (0, 99, "c", "x1")], ids=["cell", "label", "first file"])
def test_a_parquet_folder_names_the_file_and_its_row_in_memory_too(tmp_path, client, capsys,
                                                                   bad):
    """Red team, session 29, finding 5: memory named a folder's table row ("pq: ... at row
    250"), ``--workers`` the file and its row; both now name the file and its row."""
    import pandas as pd

    folder = tmp_path / "pq"
    folder.mkdir()
    sizes = [100, 80, 120]
    for k, size in enumerate(sizes):
        frame = pd.DataFrame({"a": [str(v % 90) for v in range(size)], "b": ["x"] * size,
                              "note": ["p"] * size, "c": ["0"] * size,
                              "label": ["no", "yes"] * (size // 2)})
        if k == bad[0]:
            frame.loc[bad[1], bad[2]] = bad[3]
        frame.to_parquet(folder / f"part{k}.parquet", row_group_size=40)
    argv, ledger = ledger_train_argv(tmp_path, folder, SCHEMA)
    lines = refusal_lines(argv, client, capsys, ledger)
    assert lines[0][0].startswith(f"dpboost train: error: {folder / f'part{bad[0]}.parquet'}: ")
    assert f"at row {bad[1] + 1} (pandas index {bad[1]})" in lines[0][0]
