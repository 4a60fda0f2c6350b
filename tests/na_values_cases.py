"""A schema with per-column ``na_values`` and rows exercising it, shared by the in-memory
(``tests/tabular``) and dask (``tests/distributed``) tests, which must read them alike."""

SCHEMA = {
    "na_values": ["?"],
    "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 100, "missing": "indicator",
                "na_values": [999, "unknown"]},
        "job": {"type": "categorical", "categories": ["clerk", "sales", "-"],
                "missing": "indicator"},
        "city": {"type": "categorical", "categories": ["rome", "oslo"], "missing": "indicator",
                 "na_values": ["-", "n/a"]}},
    "label": {"column": "y", "classes": ["no", "yes"], "na_values": ["??"]},
}

#: Cells as a CSV writes them; '-' is missing in 'city' only (a category of 'job').
ROWS = [("30", "clerk", "rome", "no"), ("999", "-", "-", "yes"), ("999.0", "sales", "n/a", "no"),
        ("unknown", "?", "oslo", "yes"), ("?", "clerk", " n/a ", "no"), ("50", "-", "rome", "yes"),
        ("120", "sales", "oslo", "no"), ("7", "clerk", "-", "yes")]
