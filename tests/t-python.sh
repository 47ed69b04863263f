#!/bin/sh
# t-python.sh — the Python package python/slpi (cffi over build/libslpi.so) under pytest,
# with Debian's python3-numpy, python3-cffi and python3-pytest: runs, noise, ensembles
# and errors compared with the command line (python/tests/test_slpi.py).
set -u
py=${SLPI_PYTHON:-/usr/bin/python3}
build=${SLPI_BUILD:-build}
# A sanitizer build's library cannot be loaded into an uninstrumented interpreter (the
# ASan runtime must come first): skipped there, with the reason (exit 77).
if nm -D "$build/libslpi.so" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-python: skipped: $build/libslpi.so is built with AddressSanitizer (python3 is not)"; exit 77
fi
SLPI_LIB=$(cd "$build" && pwd)/libslpi.so PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} \
  "$py" -m pytest -q -p no:cacheprovider python/tests
