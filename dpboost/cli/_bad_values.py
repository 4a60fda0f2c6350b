"""Which bad value a ``--workers`` refusal names: the one the in-memory reader names.

A table read partition by partition fails at the first partition that *runs* into a value the
schema cannot encode, and the run order is the scheduler's: with a bad label in one block and a
bad cell in another, ``train --workers`` named line 902 in one run and 702 in the next, where
memory always names one (red team, session 28); and a row of the wrong width in another block
was named or not as the blocks ran.  Memory encodes the columns in the schema's
order, each naming its first bad row, and the labels after every column
(:meth:`~dpboost.tabular.TabularEncoder.transform`, then ``encode_labels``).  So on the error
path only, the file is scanned for a row of the wrong width (memory's first refusal), then
every partition is encoded once more and the earliest error in that order is the
one named: ``(columns before labels, the column's place in the schema, the row of the
file)``, the least over the partitions of each partition's own first error.  The refusal costs
one more read of the file; a file without a bad value never pays it.
"""

from __future__ import annotations

from dpboost.tabular import BadValueError, TabularEncoder, every_label_hint

__all__ = ["file_error"]


def file_error(error: BadValueError, path: str, schema, *, of_model: bool = False,
               labels=None) -> ValueError:
    """The one-line error for a :class:`~dpboost.tabular.BadValueError` of a ``--workers``
    read, naming what memory names for the file at ``path``.

    ``error`` is the one a partition raised (at its row of the file).  A CSV with a record of
    the wrong width anywhere is refused for it, as memory refuses it before encoding (each
    partition checks its own block only, so that no partition waits for the whole file);
    else the least error over the partitions in memory's order, at its line, numbered as the
    in-memory reader numbers it.  A Parquet error names its file and row.  ``of_model``:
    ``schema`` is a trained model's, encoded as ``predict`` encodes
    (:meth:`TabularEncoder.of_model`).  Call it on the cluster that read the table (the
    partitions are read again there).  The labels are read only when ``error`` is a label's
    (else they were not read, or a cell comes first).  ``labels``: when the error named is a
    label's, the refusal of the file's labels from their whole
    :class:`~dpboost.cli._labels.LabelTally` (``predict``, whose memory words count the rows
    and name the first missing label before the first undeclared one), after one more read of
    the label column.
    """
    import dask

    from dpboost.cli import _distributed as dist
    from dpboost.cli._csv_rows import wrong_width_error
    from dpboost.cli._row_lines import with_line
    from dpboost.distributed import gather

    encoder = TabularEncoder.of_model(schema) if of_model else TabularEncoder(schema).fit()
    label = encoder.schema_.label
    places = {name: k for k, name in enumerate(_encoded_columns(encoder.schema_))}
    label_column = (label.column if label is not None and error.column == label.column
                    and error.column not in places else None)
    paths = dist._parquet_paths(str(path))
    if paths:
        width = encoder.n_features_out_ * 8
        chunks = [pieces for pieces, _ in dist._parquet_chunks(paths, width, 128 << 20)]
        columns = [*encoder.schema_.used_columns, *([label_column] if label_column else [])]
        found = gather([dask.delayed(_first_error_of_pieces)(p, columns, encoder,
                                                             label_column, places)
                        for p in chunks])
        k, (_, key, first, _) = _least(found)
        if labels is not None and key is not None and key[0] == 1:
            return ValueError(labels(_tally([(_tally_of_pieces, p) for p in chunks],
                                            label_column, encoder)))
        if isinstance(first, BadValueError):
            first = dist._in_file(chunks[k], _whole_file_hint(first, found, k))
        return ValueError((error if first is None else first).in_parquet())
    read = dist.csv_partitions(path, encoder, label_column is not None)
    ragged = wrong_width_error(path, read.delimiter, len(read.names), read.skip)
    if ragged is not None:
        return ragged
    found = gather([dask.delayed(_first_error)(p, encoder, label_column, places)
                    for p in read.parts])
    k, (_, key, first, _) = _least(found)
    if labels is not None and key is not None and key[0] == 1:
        return ValueError(labels(_tally([(_tally_of, p) for p in read.parts], label_column,
                                        encoder)))
    if isinstance(first, TypeError):
        return ValueError(f"{path}: {first}")
    if first is not None:  # else not met again (the file changed): the error as raised
        first = _whole_file_hint(first, found, k)
        error = first.moved(sum(rows for rows, _, _, _ in found[:k]) + first.row)
    return with_line(error, path, header=schema.names is None, separator=schema.separator)


def _encoded_columns(schema) -> list[str]:
    """The columns :meth:`TabularEncoder.transform` encodes, in its order."""
    from dpboost.schema_columns import DropColumn

    return [name for name, spec in schema.columns.items() if not isinstance(spec, DropColumn)]


def _first_error(frame, encoder, label_column: str | None, places: dict):
    """``(rows, key, error, every)`` of one partition: its first error in memory's order,
    keyed ``(0, column place, row)`` for a cell and ``(1, 0, row)`` for a label (``(rows,
    None, None, False)`` without one); ``every``: every label of the partition is outside
    the classes, none missing (the error says so: ``all_undeclared``).

    A ``TypeError`` (a Parquet column of lists) is keyed after every cell's error, as its
    column is not known; memory raises it from its own column.
    """
    try:
        encoder.transform(frame)
    except BadValueError as exc:
        return len(frame), (0, places.get(exc.column, len(places)), exc.row), exc, False
    except TypeError as exc:
        return len(frame), (0, len(places), 0), exc, False
    if label_column is not None:
        try:
            encoder.encode_labels(frame[label_column])
        except BadValueError as exc:
            return len(frame), (1, 0, exc.row), exc, getattr(exc, "all_undeclared", False)
    return len(frame), None, None, False


def _first_error_of_pieces(pieces, columns, encoder, label_column, places):
    from dpboost.cli._distributed import _read_pieces

    return _first_error(_read_pieces(pieces, columns), encoder, label_column, places)


def _least(found: list) -> tuple[int, tuple]:
    """The partition holding the earliest error of :func:`_first_error`'s, and its entry
    (``(0, (0, None, None, False))`` when none holds one)."""
    keyed = [(key[0], key[1], k, key[2]) for k, (_, key, _, _) in enumerate(found)
             if key is not None]  # (columns before labels, place, partition, row)
    if not keyed:
        return 0, (0, None, None, False)
    k = min(keyed)[2]
    return k, found[k]


def _whole_file_hint(error: BadValueError, found: list, k: int) -> BadValueError:
    """A label error of partition ``k`` whose hint says none of *its* labels is a class,
    said of the whole file as memory says it: every label of every partition, counting the
    file's rows, else no hint (red team, session 29: it counted one partition's rows, so the
    hint followed the block size and the other rows of the block)."""
    rows = found[k][0]
    if not getattr(error, "hint_free", False):
        return error  # missing, or another hint (a case variant, a trailing dot): as memory
    total = sum(m for m, _, _, _ in found)
    text = str(error).replace(every_label_hint(rows), "")
    if total > 1 and all(every for m, _, _, every in found if m):
        text = text[:-1] + every_label_hint(total) + "."
    return BadValueError(text, column=error.column, row=error.row)


def _tally(parts: list, label_column: str, encoder):
    """The :class:`~dpboost.cli._labels.LabelTally` of a file's labels, each partition
    ``(tally function, partition)`` tallied on the cluster and added up in file order."""
    import dask

    from dpboost.cli._labels import LabelTally
    from dpboost.distributed import gather

    label = encoder.schema_.label
    return LabelTally.total(gather([dask.delayed(how)(part, label_column, label.classes,
                                                      encoder.schema_.decimal)
                                    for how, part in parts]))


def _tally_of(frame, label_column: str, classes, decimal: str):
    from dpboost.cli._labels import LabelTally

    return LabelTally.of(frame[label_column].to_numpy(dtype=object), classes, decimal)


def _tally_of_pieces(pieces, label_column: str, classes, decimal: str):
    from dpboost.cli._distributed import _read_pieces

    return _tally_of(_read_pieces(pieces, [label_column]), label_column, classes, decimal)
