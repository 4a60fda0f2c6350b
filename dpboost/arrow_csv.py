"""pyarrow's CSV read, its block size grown until the longest row fits in one block.

pyarrow parses a CSV in blocks (1 MiB by default) and refuses a row longer than a block with
"straddling object straddles two block boundaries (try to increase block size?)", which
names neither a line nor a column, and which a user cannot act on: a free-text cell of two
million characters is a valid CSV cell.  :func:`read_arrow_csv` reads again with twice the
block size, up to :data:`MAX_BLOCK`; beyond it, one line says a row is longer than that.
"""

from __future__ import annotations

__all__ = ["MAX_BLOCK", "read_arrow_csv"]

#: The largest block tried: a row (one record, its cells together) longer than this is refused.
MAX_BLOCK = 1 << 30

#: pyarrow's default block size.
_FIRST_BLOCK = 1 << 20


def read_arrow_csv(path, open_stream, read_kwargs: dict, parse, convert):
    """``pyarrow.csv.read_csv`` of the stream ``open_stream()`` opens, with
    ``ReadOptions(**read_kwargs)``, retried with a doubled ``block_size`` while a row
    straddles two blocks.

    Raises
    ------
    ValueError
        A row still longer than :data:`MAX_BLOCK` (names the file and the size, no cell).
    pyarrow.ArrowInvalid
        Any other parse error, for the caller to word.
    """
    import pyarrow as pa
    import pyarrow.csv as pcsv

    block = _FIRST_BLOCK
    while True:
        read = pcsv.ReadOptions(**read_kwargs, block_size=block)
        try:
            with open_stream() as stream:
                return pcsv.read_csv(stream, read_options=read, parse_options=parse,
                                     convert_options=convert)
        except pa.ArrowInvalid as exc:
            if "straddl" not in str(exc):
                raise
            if block >= MAX_BLOCK:
                raise ValueError(
                    f"{path} could not be read as CSV: a row is longer than "
                    f"{MAX_BLOCK / (1 << 20):,.0f} MiB, the largest block dpboost reads (a "
                    "cell that long? an unclosed quote?).") from None
            block = min(2 * block, MAX_BLOCK)
