# pytest: the docstring examples (pytest --doctest-modules python/slpi) see slpi and np;
# the examples of the optional parts (slpi.plot: python3-matplotlib; slpi.store:
# python3-xarray and python3-netcdf4) are skipped, naming the package, where it is not
# installed, as those calls then raise ImportError by design (python/README.md).
import importlib

import numpy as np
import pytest

OPTIONAL = {"slpi.plot.": ("matplotlib",), "slpi.store.": ("xarray", "netCDF4")}


def _missing(packages):
    out = []
    for p in packages:
        try:
            importlib.import_module(p)
        except ImportError:
            out.append(p)
    return out


def pytest_collection_modifyitems(config, items):
    for item in items:
        for prefix, packages in OPTIONAL.items():
            if item.name.startswith(prefix) and (missing := _missing(packages)):
                item.add_marker(pytest.mark.skip(reason=f"optional {', '.join(missing)} not installed"))


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    import slpi
    doctest_namespace["slpi"] = slpi
    doctest_namespace["np"] = np
