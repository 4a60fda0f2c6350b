"""Where an error's row is in its file: the line a reader's table row starts on.

A row of a table read from a CSV file is named by its record line (the records counted as
the reader split them, with the schema's declared separator, each as one line:
:mod:`dpboost.record_lines`), a Parquet file's by its row.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["with_line"]


def with_line(exc, path, frame=None, *, header: bool | None = None,
              separator: str | None = None):
    """Re-raise an encoder error naming the file line instead of the table row.

    ``frame``: the table :func:`~dpboost.readers.read_table` read, else ``header`` and
    ``separator``: whether the file has a header row and the schema's declared separator
    (lines are counted as records split by it, so line 1, a private row of a headerless file,
    never sets how other rows are numbered).  A Parquet file has no lines: the error names the
    file and its row (:func:`~dpboost.parquet_columns.row_words`); in a folder, the row's own
    file and its row in that file.  A line that repeats the header row
    (:func:`~dpboost.csv_errors.repeats_header`) is named as such.
    """
    from dpboost.csv_errors import (empty_row_hint, repeated_header_error, repeats_header,
                                    totals_row_hint)
    from dpboost.readers import frame_line, line_of, table_format

    if table_format(path) == "parquet":
        return ValueError(_in_folder_file(exc, path).in_parquet())
    line = (frame_line(path, frame, exc.row) if frame is not None else
            line_of(path, exc.row, header=header, separator=separator))
    if frame is not None:
        header = frame.attrs.get("dpboost_header", True)
        separator = frame.attrs.get("dpboost_separator")
    if header and line is not None and repeats_header(path, line):
        return repeated_header_error(path, line)
    text = str(exc).replace(f"at row {exc.row}", f"at line {line}" if line else
                            f"at row {exc.row}")
    if text.startswith("The label is missing"):  # a spreadsheet's totals or padding row
        text += (totals_row_hint(path, line, separator)
                 or empty_row_hint(path, line, separator))
    elif line is not None and totals_row_hint(path, line, separator):
        # a cell of the totals row ('Total' in a numeric first column) was refused with the
        # advice to declare the column categorical; predict refuses the row itself (red
        # team, session 32): so does train now, when it is the file's last record
        from dpboost.csv_errors import last_totals_line, totals_row_error

        if last_totals_line(path) == line:
            return totals_row_error(path, line)
    if not header and exc.row == 0 and _no_number(path, separator):
        # 'names' declared, yet line 1 holds no number: a header?  Judged from that line
        # alone ('words above numbers' read line 2, another row: red team, session 25)
        text += (" That line holds no number, as a header row: if it is one, delete 'names' "
                 "from the schema and name 'columns' and 'label' as the header does.")
    return ValueError(f"{path}: {text}")


def _in_folder_file(exc, path):
    """``exc`` (at a row of the table a Parquet file or folder was read as) prefixed by the
    file that holds the row, at its row there, as ``--workers`` names it: a folder's row 250
    said nothing of which of its files to open (red team, session 29, finding 5).  The files
    are read in :func:`~dpboost.parquet_folder.folder_files`' order, each counted from its
    footer (no row read)."""
    import pyarrow.parquet as pq

    from dpboost.parquet_folder import folder_files

    if not Path(path).is_dir():
        return exc.moved(exc.row, prefix=f"{path}: ")
    row = exc.row
    for file in folder_files(path):
        rows = pq.ParquetFile(file).metadata.num_rows
        if row < rows:
            return exc.moved(row, prefix=f"{file}: ")
        row -= rows
    return exc.moved(exc.row, prefix=f"{path}: ")  # not met again (the folder changed)


def _no_number(path, separator: str | None) -> bool:
    """Whether the first non-blank line of a CSV holds no number (the readers' split)."""
    from dpboost.cell_text import is_decimal_number
    from dpboost.readers import _first_lines
    from dpboost.separators import file_delimiter, split_fields

    lines = _first_lines(Path(path), 1)
    return bool(lines) and not any(is_decimal_number(f) for f in split_fields(
        lines[0][1], file_delimiter(path, lines[0][1], separator=separator)))
