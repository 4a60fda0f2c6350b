"""Shared data of the release tests (tests/audit/test_release_*.py): a public schema of a raw
customers table, used by the inventory and by the fresh red-team attacks on the schema path."""

SCHEMA = {
    "columns": {
        "age": {"type": "numeric", "lower": 0, "upper": 100},
        "income": {"type": "numeric", "lower": 0, "upper": 1e6, "transform": "log",
                   "missing": "indicator"},
        "job": {"type": "categorical", "categories": ["clerk", "sales", "eng"],
                "missing": "indicator"},
    },
    "label": {"column": "bought", "classes": ["no", "yes"]},
}
