"""Every module of ``dpboost`` and ``accounting``, found by walking the packages (rather than
listing modules), so a new module cannot escape the tests that iterate over them."""

import pkgutil

import accounting
import dpboost


def package_modules() -> list[str]:
    names = []
    for pkg in (dpboost, accounting):
        names.append(pkg.__name__)
        for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."):
            if not info.name.endswith("__main__"):
                names.append(info.name)
    return sorted(names)
