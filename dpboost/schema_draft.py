"""Drafting a schema FROM THE DATA (not private): the starting point a person then reviews.

:func:`draft_schema` reads observed types, min/max, categories and classes, marks every value it
read ``"from_data"`` and puts :data:`DRAFT_NOTE` on top; :class:`dpboost.schema.Schema` itself
holds only public facts, and training with a mark left warns ``PrivacyLeakWarning``.
``dpboost schema`` is its command line.
"""

from __future__ import annotations

import re

import numpy as np

from dpboost.cell_text import DATE_ADVICE as CELL_DATE_ADVICE
from dpboost.cell_text import DECIMAL_COMMA, NA_WORDS, category_text
from dpboost.schema import Schema, is_nan_text

__all__ = ["CONSTANT_NOTE", "DATE_ADVICE", "DATE_FORMATS", "DATE_NOTE_START", "DRAFT_NOTE",
           "EMPTY_NOTE", "IDENTIFIER_NOTE", "NEGATIVE_POSITIVE", "date_formats", "date_note",
           "draft_schema", "looks_like_identifier", "many_values_note", "ordered_classes"]

#: Written at the top of every drafted schema file.
DRAFT_NOTE = ("DRAFT READ FROM THE DATA, NOT PRIVATE: every value marked 'from_data' was read "
              "from the file. Replace each with a public fact (a data dictionary, a unit, a "
              "law) and delete the mark; training with a mark left warns PrivacyLeakWarning.")


#: The last word of a name that makes it read as an identifier (``customer_id``,
#: ``CustomerNumber``, ``order no``, ``Kunden-Nr.``, ``ProductKey``, ``user_uuid``, ``uid``,
#: and ``rownames``, the row-name column R's ``write.csv`` and Rdatasets files carry).
IDENTIFIER_WORDS = frozenset({"id", "no", "nr", "num", "number", "key", "uuid", "guid", "uid",
                              "rownames"})

#: Endings that make one run-together word an identifier whatever comes before them (at
#: least three letters): no word of English, German, Dutch, French or Spanish ends so
#: (``Kundennr``, ``Kundennummer``, ``klantnummer``, ``customernumber``, ``useruuid``).
_IDENTIFIER_ENDINGS = ("nr", "nummer", "number", "uuid", "guid")

#: Endings that do end common words (``paid``, ``valid``, ``Android``, ``monkey``, ``piano``,
#: ``platinum``): they make an identifier only after one of :data:`_IDENTIFIER_STEMS`.
_SHORT_ENDINGS = ("id", "no", "num", "key")

#: What a run-together identifier names (``kundenid``, ``clientid``, ``orderno``,
#: ``customerkey``), in English, German, Dutch, French, Spanish, Italian and Portuguese.
_IDENTIFIER_STEMS = frozenset({
    "user", "customer", "cust", "client", "cliente", "kunde", "kunden", "klant", "order",
    "auftrag", "bestell", "bestellung", "pedido", "commande", "product", "prod",
    "produkt", "producto", "prodotto", "produit", "item", "artikel", "article", "account",
    "acct", "konto", "session", "transaction", "trans", "txn", "tx", "invoice", "rechnung",
    "factura", "facture", "patient", "paciente", "employee", "emp", "mitarbeiter",
    "member", "mitglied", "person", "personal", "device", "geraet", "record", "row",
    "zeile", "loan", "policy", "police", "claim", "contract", "vertrag", "student",
    "visitor", "subject", "sample", "store", "shop", "seller", "buyer", "vendor", "supplier",
    "lieferant", "company", "firma", "ticket", "booking", "buchung",
    "reservation", "case", "fall", "application", "applicant", "antrag", "serial",
    "serie", "unique", "ref", "reference", "entity", "household", "haushalt",
    "usuario", "utente", "utilisateur", "benutzer", "nutzer", "dossier", "fiche", "roll",
})

#: First words that make a name an identifier in languages that put the word first
#: (``id_cliente``, ``ID_Kunde``, ``numero_client``, ``número_pedido``, ``nro_cliente``);
#: not ``num``, ``no``, ``nr`` or ``number``, which start English counts (``num_children``,
#: ``no_of_items``, ``nr_rooms``).
_FIRST_IDENTIFIER_WORDS = frozenset({"id", "numero", "número", "nro"})


def _words(name: str) -> list[str]:
    """The words of a column name, split at separators and camel case, lower-cased:
    ``"CustomerNumber"`` -> ``["customer", "number"]``, ``"customerID"`` -> ``["customer",
    "id"]``, ``"Kunden-Nr."`` -> ``["kunden", "nr"]``."""
    return [w.lower() for w in re.findall(r"[^\W\d_a-z]+(?![^\W\d_A-Z])|[^\W\d_a-z]?"
                                          r"[^\W\d_A-Z]+|[0-9]+", name)]


def _ends_like_identifier(word: str) -> bool:
    """Whether one run-together word ends in an identifier word (``kundennr``, ``clientid``)."""
    for end in _IDENTIFIER_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 3:
            return True
    for end in _SHORT_ENDINGS:
        stem = word[:-len(end)]
        if word.endswith(end) and (stem in _IDENTIFIER_STEMS or (
                stem.endswith("s") and stem[:-1] in _IDENTIFIER_STEMS)):  # German's -s-
            return True
    return False


def looks_like_identifier(name: str) -> bool:
    """Whether a column name reads as a row's identifier: its last word (split at ``_``,
    spaces, ``-``, ``.`` and camel case) is ``id``, ``no``, ``nr``, ``num``, ``number``,
    ``key``, ``uuid``, ``guid``, ``uid`` or ``rownames`` (any case: Kaggle's ``PassengerId``,
    ``customerID``, ``customer_no``, ``CustomerNumber``, AdventureWorks' ``CustomerKey``, UCI's
    row number ``No``, R's ``rownames``); or the column has no name (the index pandas writes
    first, ``Unnamed: 0`` once read back).  A draft drops such a column only when its values
    are unique and none is a number with a fraction (:func:`draft_schema`), with a note saying
    why.

    A last word run together with what it identifies counts too: one ending in ``nr``,
    ``nummer``, ``number``, ``uuid`` or ``guid`` after three letters or more (``Kundennr``,
    ``Auftragsnummer``, ``klantnummer``), or in ``id``, ``no``, ``num`` or ``key`` right after
    a word of :data:`_IDENTIFIER_STEMS` (``kundenid``, ``clientid``, ``orderno``,
    ``customerkey``; German's joining ``s`` too: ``auftragsid``); and so does a first word
    ``id``, ``numero``, ``número`` or ``nro`` before others (``id_cliente``,
    ``numero_client``), as French, Spanish, Italian and Portuguese write it.

    Otherwise only the last word counts, and only as a whole word: ``num_children``,
    ``no_of_items``, ``number_of_rooms``, ``nr_rooms``, ``idea``, ``paid``, ``valid``,
    ``Android``, ``Squid``, ``monkey`` are not identifiers.
    ``code`` is not either: ``zip_code`` and ``country_code`` are categories.  A unique
    ``phone_number`` is dropped, as it should be (it names a person); so is a unique
    ``atomic_number``, whose note says to declare it by hand if it is a feature.

    Examples
    --------
    >>> [looks_like_identifier(n) for n in ("ID", "customer_id", "PassengerId", "customerID",
    ...                                     "", "Unnamed: 0", "idea", "paid", "Squid")]
    [True, True, True, True, True, True, False, False, False]
    >>> [looks_like_identifier(n) for n in ("customer_no", "CustomerNumber", "Order No.",
    ...                                     "Kunden-Nr", "acct_num", "CustomerKey", "user_uuid",
    ...                                     "GUID", "No", "uid", "rownames", "row.names")]
    [True, True, True, True, True, True, True, True, True, True, True, True]
    >>> [looks_like_identifier(n) for n in ("num_children", "no_of_items", "NumberOfRooms",
    ...                                     "zip_code", "monkey", "piano", "AID", "keyboard")]
    [False, False, False, False, False, False, False, False]
    >>> [looks_like_identifier(n) for n in ("Kundennr", "Auftragsnummer", "kundenid", "clientid",
    ...                                     "numero_client", "paid", "valid", "Android")]
    [True, True, True, True, True, False, False, False]
    """
    stripped = name.strip()
    if stripped == "" or re.fullmatch(r"unnamed: \d+", stripped.lower()):
        return True
    words = _words(stripped)
    return bool(words) and (words[-1] in IDENTIFIER_WORDS or _ends_like_identifier(words[-1])
                            or (len(words) > 1 and words[0] in _FIRST_IDENTIFIER_WORDS)
                            or "".join(words) == "rownames")  # row.names, row_names, rowNames


def _texts(values) -> list[str]:
    """The distinct texts of a column's present cells, stripped, empty ones left out: what
    ``values.dropna().astype(str).str.strip()`` holds, each text once.  The checks below read
    a cell's text, never how often it occurs, so each reads a distinct text once, in plain
    Python: pandas' own calls cost about 100 µs each, which on a file of 20,000 columns and
    50 rows was most of a minute in ``dpboost schema``."""
    import pandas as pd

    cells = values.to_numpy(dtype=object)
    cells = cells[~pd.isna(cells)]
    if pd.api.types.infer_dtype(cells, skipna=False) != "string":
        cells = [str(v) for v in cells]  # 1 and 1.0 are one value to a hash, two texts
    return [t for t in dict.fromkeys(str(v).strip() for v in pd.unique(np.asarray(
        cells, dtype=object))) if t]


def _numbers_read(texts: list[str]) -> bool:
    """Whether pandas reads every text of ``texts`` as a number (as the encoder does)."""
    import pandas as pd

    return bool(pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").notna().all())


def _looks_numeric(values) -> bool:
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return False
    if pd.api.types.is_numeric_dtype(values):
        return True
    present = _texts(values)
    return bool(present) and _numbers_read(present)


def _na_markers(values, decimal: str = ".") -> list[str]:
    """The words of :data:`~dpboost.cell_text.NA_WORDS` (``?``, ``NA``, ``null``...) in a
    column whose other cells are all numbers (``12,5`` too under ``decimal=","``): there they
    mean "missing" (UCI's ``?``)."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return []
    text = [t for t in _texts(values) if not is_nan_text(t)]
    marked = [t for t in text if t.lower() in NA_WORDS]
    rest = [t for t in text if t.lower() not in NA_WORDS]
    if decimal == ",":
        rest = [DECIMAL_COMMA.sub(r"\1.\2", t) for t in rest]
    if not marked or not rest or not _numbers_read(rest):
        return []
    return sorted(marked)


def _zero_padded_codes(values) -> list[str] | None:
    """The distinct stripped texts of a text column of integer codes, at least one of them
    written with a leading zero (``02134``, ``007``), else None.  A number would drop the
    zero and merge ``007`` with ``7``, so such a column is drafted as categories of text."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return None
    text = _texts(values)
    if not text or not all(_DIGITS.fullmatch(t) for t in text):
        return None
    return sorted(text) if any(_ZERO_PADDED.fullmatch(t) for t in text) else None


#: An integer code as :func:`_zero_padded_codes` reads one, and one with a leading zero.
_DIGITS, _ZERO_PADDED = re.compile(r"[0-9]+"), re.compile(r"0[0-9]+")


def _comma_numbers(values):
    """Under ``"decimal": ","``: ``values`` with ``12,5`` written ``12.5``, or None when a
    number holds a ``.`` (``1.234``), which the encoder refuses rather than guess."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return values
    text = values.astype(object)
    if text.map(lambda v: isinstance(v, str) and "." in v
                and any(c.isdigit() for c in v)).any():
        return None
    return text.map(lambda v: DECIMAL_COMMA.sub(r"\1.\2", v) if isinstance(v, str) else v)


#: The note a draft puts on a column that held one value.
CONSTANT_NOTE = ("drafted as drop: the file holds one value in this column (read from the "
                 "data), which tells the model nothing; declare it if it varies")
#: The note a draft puts on an identifier (:func:`looks_like_identifier`, unique values).
IDENTIFIER_NOTE = ("drafted as drop: named like an identifier, and the file holds a different "
                   "value on every row (read from the data); an identifier tells the model "
                   "nothing about other rows; declare it by hand if it is a feature")
#: The note a draft puts on a column without a single value.
EMPTY_NOTE = ("drafted as drop: no cell of this column holds a value in the file (read from "
              "the data); declare it by hand if it holds values in the data you train on")


def many_values_note(max_categories: int) -> str:
    """The note a draft puts on a column of text (or codes) with more than ``max_categories``
    distinct values."""
    return (f"drafted as drop: the file holds more than {max_categories} distinct texts in "
            "this column (max_categories; read from the data); list a public set of "
            "categories by hand")


#: The dates a draft recognises, and no other (a four-digit year; ``MM/DD/YYYY`` and
#: ``DD/MM/YYYY`` are both tried, as a file does not say which it writes): the name a note
#: shows, the text's pattern, its format for :func:`pandas.to_datetime`.
DATE_FORMATS = (("YYYY-MM-DD", r"\d{4}-\d{1,2}-\d{1,2}", "%Y-%m-%d"),
                ("YYYY/MM/DD", r"\d{4}/\d{1,2}/\d{1,2}", "%Y/%m/%d"),
                ("MM/DD/YYYY", r"\d{1,2}/\d{1,2}/\d{4}", "%m/%d/%Y"),
                ("DD/MM/YYYY", r"\d{1,2}/\d{1,2}/\d{4}", "%d/%m/%Y"),
                ("DD.MM.YYYY", r"\d{1,2}\.\d{1,2}\.\d{4}", "%d.%m.%Y"),
                ("DD-MM-YYYY", r"\d{1,2}-\d{1,2}-\d{4}", "%d-%m-%Y"))

#: A time of day after a date (``12:30``, ``T10:10:54Z``, ``12:30:00.5+02:00``, ``1:30 PM``).
_TIME_OF_DAY = (r"(?:[ T](?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?"
                r"(?:\s?[AaPp][Mm])?(?:Z|[+-]\d{2}:?\d{2})?)?")


def date_formats(values) -> list[str]:
    """The names of the :data:`DATE_FORMATS` in which every present cell of a column reads
    as a date, with or without a time of day (``2021-03-04``, ``03/04/2021``, ``04.03.2021``,
    ``2021-03-04 12:30:00``), else ``[]``; a column of pandas time stamps gives
    ``["a time-stamp type"]``.  Empty cells and the words of :data:`~dpboost.cell_text.NA_WORDS`
    are missing; no other format is guessed (``20210304`` is a number, ``3/4/21`` text).

    Examples
    --------
    >>> import pandas as pd
    >>> date_formats(pd.Series(["2021-03-04", "2020-12-31", None, "NA"]))
    ['YYYY-MM-DD']
    >>> date_formats(pd.Series(["2021-03-04 12:30:00", "2024-09-29T10:10:54Z"]))
    ['YYYY-MM-DD with a time of day']
    >>> date_formats(pd.Series(["03/04/2021", "12/31/2020"])), date_formats(pd.Series(
    ...     ["03/04/2021", "04/03/2021"]))
    (['MM/DD/YYYY'], ['MM/DD/YYYY', 'DD/MM/YYYY'])
    >>> date_formats(pd.Series(["31.02.2021"])), date_formats(pd.Series(["1.5", "2021"]))
    ([], [])
    """
    import pandas as pd

    if pd.api.types.is_datetime64_any_dtype(values):
        return ["a time-stamp type"] if values.notna().any() else []
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return []
    cells = values.to_numpy(dtype=object)
    cells = pd.unique(cells[~pd.isna(cells)])
    if not all(isinstance(v, str) for v in cells):
        return []
    text = {v.strip() for v in cells} - {""}
    text = [v for v in text if v.lower() not in NA_WORDS and not is_nan_text(v)]
    found = []
    for name, pattern, form in _DATE_PATTERNS:
        parts = []
        for v in text:  # one cell that is no date ends the format's test
            match = pattern.match(v)
            if match is None:
                break
            parts.append(match.groups())
        else:
            if parts and pd.to_datetime(pd.Series([p[0] for p in parts], dtype=object),
                                        format=form, errors="coerce").notna().all():
                found.append(name + (" with a time of day" if any(p[1] for p in parts)
                                     else ""))
    return found


#: :data:`DATE_FORMATS` with each pattern for a whole cell: the date, then any time of day.
_DATE_PATTERNS = tuple((name, re.compile(f"^({pattern})({_TIME_OF_DAY})$"), form)
                       for name, pattern, form in DATE_FORMATS)


#: The start of the note a draft puts on a column of dates (:func:`date_note`).
DATE_NOTE_START = "drafted as drop: every cell reads as a date"


#: What to do with a column of dates (the advice :class:`~dpboost.schema.Schema` gives for a
#: ``"type": "date"``).
DATE_ADVICE = f"a date is not a type: {CELL_DATE_ADVICE}"


def date_note(formats: list[str]) -> str:
    """The note a draft puts on a column of more dates than ``max_categories``."""
    return f"{DATE_NOTE_START} ({' or '.join(formats)}; read from the data); {DATE_ADVICE}"


def _has_fraction(values) -> bool:
    """Whether a present cell is a finite number with a fractional part (``1.5``, ``"2.25"``):
    no identifier is written so, a measurement (``reynolds_number``) may be."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return False
    x = (values if pd.api.types.is_numeric_dtype(values) else
         pd.to_numeric(values.dropna().astype(str).str.strip(), errors="coerce"))
    x = x.to_numpy(np.float64, na_value=np.nan)
    x = x[np.isfinite(x)]
    return bool(np.any(np.floor(x) != x))


def _symbols(values, decimal: str, thousands: str | None):
    """``(values as plain numbers, prefixes, suffixes)`` when every present cell of a text
    column is a number once the same few symbols are stripped (``12%``, ``$1,200.50``,
    ``1.5 kg``; :func:`~dpboost.number_symbols.detect_symbols`), else None."""
    import pandas as pd

    from dpboost.cell_text import is_decimal_number
    from dpboost.number_symbols import detect_symbols, strip_symbols
    from dpboost.thousands import drop_thousands

    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return None

    def plain(text: str) -> str | None:
        text = drop_thousands(text, thousands, decimal)
        return None if text is None else DECIMAL_COMMA.sub(r"\1.\2", text) if (
            decimal == ",") else text

    def number(text: str) -> bool:
        text = plain(text)
        return text is not None and is_decimal_number(text)

    if not any(isinstance(v, str) and _SYMBOL.search(v) for v in pd.unique(
            values.to_numpy(dtype=object))):
        return None  # no cell holds a symbol (plain numbers, or nothing)
    text = values.map(lambda v: v.strip() if isinstance(v, str) else v)
    present = text[text.map(lambda v: isinstance(v, str) and v != "")]
    found = detect_symbols(list(present.unique()), number)
    if found is None:
        return None
    stripped = present.map(lambda v: plain(strip_symbols(v, *found)))
    return text.where(~text.index.isin(present.index), stripped), *found


#: A character that is not part of a plain number: a currency, a unit, a percent sign.
_SYMBOL = re.compile(r"[^\d\s.,'+\-]")


def _draft_column(values, max_categories: int, name: str = "", decimal: str = ".",
                  thousands: str | None = None) -> dict:
    """The draft of one column; words meaning "missing" among its numbers go into its own
    ``na_values``, marked ``"from_data"`` (which words occur was read from the data)."""
    import pandas as pd

    if looks_like_identifier(name) and values.is_unique and not _has_fraction(values):
        return {"type": "drop", "note": IDENTIFIER_NOTE, "from_data": ["type"]}

    markers = _na_markers(values, decimal)
    if markers:  # read as missing, as the encoder will once they are in 'na_values'
        values = values.where(~values.astype(str).str.strip().isin(markers), None)
    cells = pd.unique(values.to_numpy(dtype=object))
    has_missing = bool(pd.isna(cells).any()) or any(is_nan_text(v) or str(v).strip() == ""
                                                    for v in cells)
    if has_missing:  # NaN text is missing, as the encoder reads it, and so is an empty cell
        nan_text = values.map(is_nan_text).astype(bool)
        values = values.where(~nan_text & (values.astype(str).str.strip() != ""), None)
    has_missing = has_missing or bool(markers)
    dates = date_formats(values)
    if dates and values.dropna().nunique() > max_categories:  # few: categories of dates
        return {"type": "drop", "note": date_note(dates), "from_data": ["type"]}
    symbols = None if dates else _symbols(values, decimal, thousands)
    if symbols is not None:  # 12%, $1,200.50: numbers once the signs are stripped
        values = symbols[0]
        decimal = "."  # stripped and written with a point
    spec: dict
    n_distinct = values.dropna().nunique()
    codes = _zero_padded_codes(values)
    numbers = values if decimal == "." else _comma_numbers(values)
    if n_distinct == 1 and not has_missing:  # one value in the file: nothing to learn
        return {"type": "drop", "note": CONSTANT_NOTE, "from_data": ["type"]}
    if codes is not None:  # ZIP-like codes: their text is the category, not a number
        spec = ({"type": "categorical", "categories": codes, "from_data": ["categories"]}
                if len(codes) <= max_categories else
                {"type": "drop", "note": many_values_note(max_categories), "from_data": []})
    elif numbers is not None and _looks_numeric(numbers) and n_distinct >= 2:
        # two values (0/1) too: one feature on [lo, hi] carries what two one-hot ones do
        x = pd.to_numeric(numbers.astype(str).str.strip() if numbers.dtype == object
                          else numbers, errors="coerce")
        x = x.where(np.isfinite(x))  # an infinity is clipped by any public range
        lo, hi = _draft_range(float(np.nanmin(x)), float(np.nanmax(x)))
        spec = {"type": "numeric", "lower": lo, "upper": hi,
                "from_data": ["lower", "upper"]}
        q90 = float(np.nanquantile(x, 0.9))
        if lo >= 0 and hi > 10.0 * max(q90, 1.0):  # heavy right tail
            spec["transform"] = "log"
        elif lo < 0 and (max(abs(lo), hi) > 10.0 * max(float(np.nanquantile(np.abs(x), 0.9)),
                                                       1.0) or not np.isfinite(hi - lo)):
            spec["transform"] = "signed-log"  # also when hi - lo overflows a float
        for key, found in zip(("prefix", "suffix"), symbols[1:] if symbols else ()):
            if found:
                spec[key] = found[0] if len(found) == 1 else list(found)
                spec["from_data"].append(key)
    elif 0 < n_distinct <= max_categories:  # texts as written: "250.1" is not "250.10"
        cats = sorted({category_text(v, decimal) for v in values} - {None})
        spec = {"type": "categorical", "categories": cats, "from_data": ["categories"]}
    else:  # free text, or no value at all: nothing a halfspace can use
        spec = {"type": "drop", "note": EMPTY_NOTE if n_distinct == 0 else
                many_values_note(max_categories), "from_data": []}
    # every choice below was read from the data, so each is marked: the column's type (one
    # cell 'x' turns numbers into categories), a heavy tail's log, the missing indicator
    # (only where a cell was empty); a schema that keeps one warns when it trains
    spec["from_data"] = ["type", *spec["from_data"]]
    if "transform" in spec:
        spec["from_data"].append("transform")
    if has_missing and spec["type"] != "drop":
        spec["missing"] = "indicator"
        spec["from_data"].append("missing")
    if markers and spec["type"] != "drop":
        spec["na_values"] = markers
        spec["from_data"].append("na_values")
    return spec


def _draft_range(lo: float, hi: float) -> tuple[float, float]:
    """``[lo, hi]`` widened to a positive width when ``lo == hi`` (as a schema requires); by 1,
    or by one float step where 1 is lost to rounding (``1e17 + 1 == 1e17``)."""
    if lo < hi:
        return lo, hi
    if lo + 1.0 > lo:
        return lo, lo + 1.0
    if np.isfinite(np.nextafter(lo, np.inf)):
        return lo, float(np.nextafter(lo, np.inf))
    return float(np.nextafter(lo, -np.inf)), lo


#: Two classes that read as "no" and "yes" (any case), negative first: a draft lists such a
#: label's classes in this order, so the second (the positive class) is the "yes".  Only
#: pairs whose positive side is never in doubt: not ``good``/``bad`` (german credit's class
#: of interest is ``bad``), ``approved``/``denied`` or ``1``/``2``.
NEGATIVE_POSITIVE = (("no", "yes"), ("n", "y"), ("false", "true"), ("f", "t"), ("0", "1"),
                     ("-1", "1"), ("-1", "+1"), ("nein", "ja"), ("n", "j"), ("non", "oui"),
                     ("nee", "ja"), ("nej", "ja"), ("no", "si"), ("no", "sí"), ("no", "sì"),
                     ("não", "sim"), ("nao", "sim"), ("neg", "pos"), ("negative", "positive"))


def ordered_classes(classes: list[str]) -> tuple[list[str], bool]:
    """``(classes, recognised)``: two classes of :data:`NEGATIVE_POSITIVE` (any case) with the
    negative first and True; any others as given (sorted by the caller) and False.

    Examples
    --------
    >>> ordered_classes(["Ja", "Nein"]), ordered_classes(["bad", "good"])
    ((['Nein', 'Ja'], True), (['bad', 'good'], False))
    """
    if len(classes) == 2:
        folded = [c.casefold() for c in classes]
        for negative, positive in NEGATIVE_POSITIVE:
            if sorted(folded) == sorted([negative, positive]):
                return sorted(classes, key=lambda c: c.casefold() == positive), True
    return list(classes), False


def draft_schema(frame, label: str | None = None, *, max_categories: int = 50,
                 decimal: str = ".", thousands: str | None = None) -> Schema:
    """Draft a schema by READING THE DATA: the result is not private until reviewed.

    Numeric columns get their observed min/max (and ``"log"`` when the maximum is far above
    the 90th percentile), text columns with at most ``max_categories`` distinct values their
    observed categories, other text columns ``"drop"``; the label column its observed classes.
    A word such as ``?`` or ``NA`` among a column's numbers (:data:`~dpboost.cell_text.NA_WORDS`)
    is read as missing and listed in that column's ``"na_values"`` (marked ``"from_data"``
    too: which words occur was read from the data).
    A text column whose cells are numbers once the same few symbols are stripped (``12%``,
    ``$1,200.50``, ``1.5 kg``) is drafted numeric with its ``"prefix"``/``"suffix"``; a
    column of two numbers (0/1) numeric on their range, not two categories; a column of one
    value ``"drop"``; the label's classes as the file writes them (``True`` stays ``True``),
    sorted, except that a pair of :data:`NEGATIVE_POSITIVE` (``Ja``/``Nein``) lists the
    negative first, so that the second class, the positive one, is the "yes"
    (:func:`ordered_classes`).
    Every ``"drop"`` carries a ``"note"`` saying why: an identifier (a name that
    :func:`looks_like_identifier`, unique values none of which has a fraction), one value, no
    value, dates (every cell in one of :data:`DATE_FORMATS`, more than ``max_categories``
    of them: :func:`date_note`), or more than ``max_categories`` distinct texts.
    Every value read is marked ``"from_data"``, and so is every choice the data made (the
    column's ``"type"``, ``"drop"`` included, a ``"transform"``, ``"missing": "indicator"``
    where a cell was empty), and the schema carries :data:`DRAFT_NOTE`.
    Replace each marked value with a public fact and delete the mark before training.

    Parameters
    ----------
    frame : pandas.DataFrame
    label : str or None
        The label column (drafted as the label, never as a feature).
    max_categories : int, default=50
    decimal : {".", ","}, default="."
        The file's decimal mark: under ``","`` a text cell ``12,5`` is the number 12.5, and a
        column where a number holds a ``.`` (``1.234``: a thousands separator?) is not
        drafted as numeric, as the encoder refuses it.
    thousands : str or None
        The file's declared thousands separator, dropped where it groups digits by three.

    Returns
    -------
    Schema

    Examples
    --------
    >>> import pandas as pd
    >>> s = draft_schema(pd.DataFrame({"age": [30, 40, 50], "y": ["no", "yes", "no"]}), "y")
    >>> s.columns["age"].lower, s.label.classes, s.draft_marks()
    (30.0, ('no', 'yes'), ['age', "label 'y'"])
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"The 'frame' parameter of draft_schema must be a pandas DataFrame. "
                        f"Got {type(frame).__name__} instead.")
    if label is not None and label not in frame.columns:
        raise ValueError(f"Label column {label!r} not found; columns are "
                         f"{[str(c) for c in frame.columns]}.")
    frame = frame.copy(deep=False)  # pandas deep-copies attrs into every Series it makes:
    frame.attrs = {}  # a reader's 1,001 column names, 54,000 times (1,000 columns: 3 of 24 s)
    columns = {str(c): _draft_column(frame[c], max_categories, str(c), decimal, thousands)
               for c in frame.columns if c != label}
    content: dict = {"note": DRAFT_NOTE, "columns": columns,
                     **({"thousands": thousands} if thousands is not None else {}),
                     **({"decimal": decimal} if thousands is not None and decimal != "."
                        else {})}
    if label is not None:
        # as written ("True" stays "True"): the classes match the labels by their text
        classes = sorted({category_text(v, decimal) for v in frame[label]} - {None})
        if len(classes) > max_categories:  # a price or a score: one class per value seen
            raise ValueError(f"Label column {label!r} holds more than {max_categories} "
                             "distinct values (--max-categories), as a continuous target "
                             "does: dpboost learns a few declared classes, so cut the target "
                             "into classes in the file at public thresholds (for instance "
                             "above or below a public price) and draft again.")
        classes = ordered_classes(classes)[0]  # ["Ja", "Nein"]: "Ja" second, positive
        content["label"] = {"column": label, "classes": classes, "from_data": ["classes"]}
        if len(classes) < 2:
            content["label"]["classes"] = classes + ["<declare the other class>"]
    return Schema.from_dict(content)
