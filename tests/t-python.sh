#!/bin/sh
# t-python.sh — the Python package python/slpi (cffi over build/libslpi.so) under pytest,
# with Debian's python3-numpy, python3-cffi and python3-pytest: runs, noise, ensembles
# and errors compared with the command line (python/tests/test_slpi.py).
set -u
py=${SLPI_PYTHON:-/usr/bin/python3}
build=${SLPI_BUILD:-build}
SLPI_LIB=$(cd "$build" && pwd)/libslpi.so PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} \
  "$py" -m pytest -q -p no:cacheprovider python/tests
