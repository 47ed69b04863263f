# pytest: the docstring examples (pytest --doctest-modules python/slpi) see slpi and np.
import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    import slpi
    doctest_namespace["slpi"] = slpi
    doctest_namespace["np"] = np
