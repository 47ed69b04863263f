#!/bin/sh
# t-pip-install.sh — `pip install ./python` builds libslpi or stops at install time
# saying what to run; it never installs a package that cannot import (python/setup.py):
#   1. a copy of the source tree whose shared libraries are not built (its objects are,
#      timestamps kept, so only the libraries are linked): `pip install
#      --no-build-isolation --no-deps ./python` runs make, records the tree's build/, and
#      the installed package imports and runs a preset with nothing in the environment;
#   2. python/ alone (no source tree), with no libslpi anywhere (no SLPI_LIBDIR, no
#      pkg-config slpi, none on the loader's path): pip fails, the output names the make
#      line to run, and nothing is installed;
#   3. a tree whose system lacks a package (make's DEB_CORE naming one that does not
#      exist): pip fails before building, printing the exact apt-get line with it, and
#      installs nothing (as root too: pip never runs apt-get).
set -u
build=${SLPI_BUILD:-build}
py=${SLPI_PYTHON:-/usr/bin/python3}
"$py" -m pip --version >/dev/null 2>&1 || { echo "t-pip-install: SKIP: no pip for $py (apt-get install python3-pip)"; exit 77; }
# pip's make runs in the copy with the build's own CFLAGS (`slpi --version`'s cflags=):
# its objects are the build's, and under `make coverage` they carry gcov's counters, so
# the libraries it links need --coverage as the build had it. An enclosing make's
# MAKEFLAGS and environment (coverage's BUILD and CFLAGS, which make exports) never reach
# it: its BUILD is the copy's build/.
cflags=$(sh tests/build-cflags.sh "${SLPI_BIN:-$build/slpi}") || { echo "t-pip-install: FAIL: the build's CFLAGS"; exit 1; }
mkflags=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
note() { echo "t-pip-install: FAIL: $*"; fail=1; }
# pip with no index, no user site and no library found through the environment
pipi() { env -u SLPI_LIB -u SLPI_LIBDIR -u SLPI_TOOLS_LIB -u LD_LIBRARY_PATH -u MFLAGS -u MAKELEVEL -u BUILD PKG_CONFIG_PATH= PYTHONNOUSERSITE=1 \
  MAKEFLAGS="$mkflags" CFLAGS="$cflags" \
  "$py" -m pip install -q --no-build-isolation --no-deps --no-index --root-user-action=ignore --target "$@"; }
tree="$tmp/tree"
mkdir -p "$tree"
tar --exclude='./build*' --exclude=./.git --exclude="./$build" -cf - . | tar -xf - -C "$tree" || { note "copying the sources"; exit 1; }
(cd "$build" && find . -maxdepth 2 \( -name '*.o' -o -name '*.d' -o -name '*.a' -o -name '*.map' -o -name flint.mk \
   -o -name git-rev \) -print | tar -cf - -T -) | (mkdir -p "$tree/build" && tar -xf - -C "$tree/build") ||
  { note "copying the build"; exit 1; }

# 1. builds
if pipi "$tmp/site1" "$tree/python" > "$tmp/p1.log" 2>&1; then
  [ -e "$tree/build/libslpi.so" ] && [ -e "$tree/build/libslpi-tools.so" ] || note "1: pip succeeded without building libslpi"
  grep -q "$tree/build" "$tmp/site1/slpi/_libdir.py" 2>/dev/null || note "1: the tree's build/ is not recorded"
  (cd "$tmp" && env -u SLPI_LIB -u SLPI_TOOLS_LIB -u LD_LIBRARY_PATH PYTHONPATH="$tmp/site1" "$py" -c '
import slpi
r = slpi.run("iso/rigid-body/trajectories", steps=4)
assert r.states.shape == (5, 3), r.states.shape
print("t-pip-install: 1: built and imported; slpi", slpi.__version__)') || note "1: the installed package does not import or run"
else
  note "1: pip install from a tree with unbuilt libraries failed; pip's last 40 lines:"
  tail -40 "$tmp/p1.log" | sed 's/^/  pip: /'
fi

# 2. no tree, no library
if "$py" -c 'import ctypes; ctypes.CDLL("libslpi.so.0")' 2>/dev/null; then
  echo "t-pip-install: 2: skipped: the loader finds an installed libslpi.so.0 (then pip records nothing and imports it)"
else
  cp -r "$tree/python" "$tmp/alone"
  rm -rf "$tmp/alone/build" "$tmp/alone"/*.egg-info
  if pipi "$tmp/site2" "$tmp/alone" > "$tmp/p2.log" 2>&1; then
    note "2: pip installed a package with no libslpi anywhere"
  fi
  grep -q "make && sudo make install" "$tmp/p2.log" || note "2: the failure does not say what to run: $(tail -5 "$tmp/p2.log")"
  [ -e "$tmp/site2/slpi" ] && note "2: a package was left in the target"
  echo "t-pip-install: 2: $(grep -m1 'cannot install' "$tmp/p2.log")"
fi

# 3. a missing system package
rm -f "$tree/build/libslpi.so" "$tree/build/libslpi-tools.so"
mkflags="DEB_CORE=slpi-no-such-package"
if pipi "$tmp/site3" "$tree/python" > "$tmp/p3.log" 2>&1; then
  note "3: pip installed although a package is missing"
fi
grep -q "apt-get install -y --no-install-recommends slpi-no-such-package" "$tmp/p3.log" ||
  note "3: the failure does not give the apt-get line: $(tail -5 "$tmp/p3.log")"
[ -e "$tree/build/libslpi.so" ] && note "3: make ran although a package is missing"
[ -e "$tmp/site3/slpi" ] && note "3: a package was left in the target"
echo "t-pip-install: 3: $(grep -m1 'apt-get install' "$tmp/p3.log" | sed 's/^ *//')"
[ $fail = 0 ] && echo "t-pip-install: ok"
exit $fail
