"""Shared pytest configuration: hypothesis profiles with fixed seeds (derandomized)."""

from hypothesis import settings

settings.register_profile("dpboost", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("dpboost")
