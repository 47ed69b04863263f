#!/bin/sh
# t-python.sh — the Python package python/slpi (cffi over build/libslpi.so, and
# build/libslpi-tools.so beside it for verify, golden, converge) under pytest,
# with Debian's python3-numpy, python3-cffi and python3-pytest: the docstring examples
# (--doctest-modules), the tests of python/tests (results against the command line, one
# call against pieces, bad input, Ctrl-C), the examples of python/examples (figures under
# $SLPI_BUILD/python-examples when matplotlib is installed), and the package's version
# and SONAMEs against the GNUmakefile's; the docstring examples again with the optional
# packages hidden.
set -u
py=${SLPI_PYTHON:-/usr/bin/python3}
build=${SLPI_BUILD:-build}
fail=0
note() { echo "t-python: FAIL: $*" >&2; fail=1; }
# A sanitizer build's library cannot be loaded into an uninstrumented interpreter (the
# ASan runtime must come first): skipped there, with the reason (exit 77).
if nm -D "$build/libslpi.so" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-python: skipped: $build/libslpi.so is built with AddressSanitizer (python3 is not)"; exit 77
fi
"$py" -c 'import pytest' 2>/dev/null || { echo "t-python: SKIP: pytest is not installed (as root: apt-get install python3-pytest)"; exit 77; }
version=$(sed -n 's/^VERSION := //p' GNUmakefile)
grep -q "^__version__ = \"$version\"$" python/slpi/_version.py || note "python/slpi/_version.py is not version $version"
grep -q "^SONAME = \"libslpi.so.${version%%.*}\"$" python/slpi/_version.py || note "python/slpi/_version.py SONAME"
grep -q "^TOOLS_SONAME = \"libslpi-tools.so.${version%%.*}\"$" python/slpi/_version.py || note "python/slpi/_version.py TOOLS_SONAME"
lib=$(cd "$build" && pwd)/libslpi.so
export SLPI_LIB="$lib" SLPI_BIN=${SLPI_BIN:-$(cd "$build" && pwd)/slpi} PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
"$py" -m pytest -q -p no:cacheprovider --doctest-modules python/slpi python/tests || note "pytest"
# The same docstring examples on a machine with only the required packages (a fresh
# Debian has no matplotlib, xarray, netCDF4 or scipy): those imports are made to fail,
# and every example must pass or be skipped naming its optional package.
hide=$(cd "$build" && pwd)/python-hide
mkdir -p "$hide"
printf 'import sys\nfor n in ("matplotlib", "xarray", "netCDF4", "scipy"):\n    sys.modules[n] = None\n' > "$hide/sitecustomize.py"
PYTHONPATH=$hide:$PYTHONPATH "$py" -m pytest -q -p no:cacheprovider --doctest-modules python/slpi ||
  note "pytest without the optional packages"
out=$(cd "$build" && pwd)/python-examples
mkdir -p "$out"
for ex in python/examples/[a-z]*.py; do
  name=$(basename "$ex" .py)
  (cd python/examples && "$py" "$name.py" "$out/$name.png") > "$out/$name.log" 2>&1 || note "$ex: $(tail -3 "$out/$name.log")"
  cat "$out/$name.log"
done
[ $fail = 0 ] && echo "t-python: ok"
exit $fail
