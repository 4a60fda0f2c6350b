"""Every documented default of a public class's parameter is its signature's default.

``BoostedHalfspaceClassifier`` said ``n_rounds : int, default 300`` while its signature said
100 (the shared ``DEFAULT_N_ROUNDS``); this walks every class of every module so a changed
default cannot leave its numpydoc line behind.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

from package_modules import package_modules

_LINE = r"^\s*{name} : [^\n]*?default[ =:]+`*\"?'?([^\s,`\"']+)"


def _documented_defaults():
    seen, cases = set(), []
    for module_name in package_modules():
        module = importlib.import_module(module_name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls in seen or not cls.__module__.startswith(("dpboost", "accounting")) \
                    or not cls.__doc__ or cls.__name__.startswith("_"):
                continue
            seen.add(cls)
            try:
                parameters = inspect.signature(cls.__init__).parameters
            except (TypeError, ValueError):
                continue
            for name, parameter in parameters.items():
                if not isinstance(parameter.default, (bool, int, float, str, type(None))):
                    continue  # no default, or a tuple or an object: not one word
                match = re.search(_LINE.format(name=re.escape(name)), cls.__doc__, re.M)
                if match:
                    cases.append(pytest.param(parameter.default, match.group(1).rstrip("."),
                                              id=f"{cls.__name__}.{name}"))
    return cases


CASES = _documented_defaults()


def test_the_walk_finds_documented_defaults():
    assert len(CASES) >= 20, len(CASES)


@pytest.mark.parametrize("actual, documented", CASES)
def test_documented_default_is_the_signature_default(actual, documented):
    if isinstance(actual, bool) or actual is None or isinstance(actual, str):
        assert documented == str(actual)
    else:
        assert float(documented) == float(actual)
