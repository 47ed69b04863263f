#!/bin/sh
# t-install-user.sh — root is optional (docs/install.md#user): an ordinary user with a
# throwaway home installs slpi into ~/.local and uses it from there, with nothing in the
# environment but PATH and HOME:
#   1. `make install PREFIX=$HOME/.local` in a built tree the user owns (a copy of this
#      tree's sources and build), writing nowhere else;
#   2. `python3 -c "import slpi"` finds the package in the user site that interpreter
#      searches, and it runs a preset and verifies it through libslpi-tools;
#   3. a C program built with `pkg-config --cflags --libs slpi` (PKG_CONFIG_PATH naming
#      ~/.local/lib/pkgconfig) runs without LD_LIBRARY_PATH;
#   4. CMake's find_package(slpi CONFIG) finds the package through PATH's ~/.local/bin
#      alone (no CMAKE_PREFIX_PATH), and the example built with it runs;
#   5. a venv (system site packages, user site off) installs the Python package from a
#      copy of python/ against the installed prefix (found by pkg-config), and imports it
#      from the venv with the library of ~/.local.
# As root the steps run as the user nobody (privileges dropped by python3); as another
# user, as that user. cmake missing: steps 1-3 and 5 run, then SKIP (exit 77).
# The copy is installed with the build's own CFLAGS (`slpi --version`'s cflags=): its
# objects are the build's, and under `make coverage` they carry gcov's counters, so the
# copy's make, which links the libraries and the slpi command again, needs --coverage as
# the build had it (without it: undefined __gcov_init). There the installed copy, run as
# another user, writes its counters under $HOME/gcov (GCOV_PREFIX), not into this build:
# what it runs is the code the other tests run.
set -u
build=${SLPI_BUILD:-build}
cflags=$(sh tests/build-cflags.sh "${SLPI_BIN:-$build/slpi}") || { echo "t-install-user: FAIL: the build's CFLAGS"; exit 1; }
gcov=
[ -n "$(find "$build" -maxdepth 2 -name '*.gcno' -print -quit 2>/dev/null)" ] && gcov=GCOV_PREFIX=
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
note() { echo "t-install-user: FAIL: $*"; fail=1; }
home="$tmp/home"
tree="$home/slpi"
mkdir -p "$tree"
# the tree: its sources (no build folder, no .git) and its build (objects, libraries, the probe's flint.mk),
# timestamps kept, so make finds everything up to date and only installs
tar --exclude='./build*' --exclude=./.git --exclude="./$build" -cf - . | tar -xf - -C "$tree" || { note "copying the sources"; exit 1; }
(cd "$build" && find . -maxdepth 2 \( -name '*.o' -o -name '*.d' -o -name '*.a' -o -name '*.so*' -o -name '*.map' \
   -o -name slpi -o -name flint.mk -o -name git-rev \) -print | tar -cf - -T -) | (mkdir -p "$tree/build" && tar -xf - -C "$tree/build") ||
  { note "copying the build"; exit 1; }
rev=$(cat "$build/git-rev")
if [ "$(id -u)" = 0 ]; then
  uid=$(id -u nobody) gid=$(id -g nobody)
  chown -R "$uid:$gid" "$home"
  chmod 755 "$tmp"
  who=nobody
else
  who=$(id -un)
fi
# as USER: run a shell command as the user (tests/as-nobody.py), in HOME, with a clean environment
as_user() {
  env -i PATH="$home/.local/bin:/usr/local/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ${gcov:+"$gcov$home/gcov"} \
    "$py" tests/as-nobody.py sh -c "cd \"\$HOME\" && $1"
}
echo "t-install-user: as $who, HOME=$home"
# 1. make install into ~/.local (GIT_REV: the copy has no .git; the build's revision)
as_user "cd slpi && make --no-print-directory -s install PREFIX=\$HOME/.local GIT_REV=$rev CFLAGS='$cflags'" > "$tmp/install.log" 2>&1 ||
  note "make install PREFIX=\$HOME/.local: $(tail -5 "$tmp/install.log")"
[ -x "$home/.local/bin/slpi" ] || note "no ~/.local/bin/slpi"
# 2. the package is where python3 looks for ~/.local, with no PYTHONPATH
got=$(as_user "cd /tmp && python3 -c \"import slpi; r = slpi.run('iso/rigid-body/trajectories', steps=10); slpi.write_trajectory('\$HOME/t.tsv', r); print(slpi.__file__); print(r.states.shape, slpi.verify('\$HOME/t.tsv').verdict)\"" 2>&1)
case $got in
  "$home/.local/lib/python3"*/site-packages/slpi/__init__.py*"(11, 3) PASS") echo "t-install-user: import slpi: $(echo "$got" | head -1)" ;;
  *) note "python3 -c 'import slpi' after make install PREFIX=~/.local: $got" ;;
esac
# 3. pkg-config
cp tests/install-use.c "$tmp/use.c"
cp "$tmp/use.c" "$home/use.c"; [ "$(id -u)" = 0 ] && chown "$uid:$gid" "$home/use.c"
got=$(as_user 'export PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig; cc -std=c11 -Wall -Werror $(pkg-config --cflags slpi) -o use use.c $(pkg-config --libs slpi) && ./use' 2>&1)
[ "$got" = "rigid-body 3" ] || note "a program built with pkg-config --cflags --libs slpi: $got"
# 5. a venv against the installed prefix (before 4, which may SKIP)
got=$(as_user 'cp -r slpi/python pysrc && rm -rf pysrc/build pysrc/*.egg-info &&
  python3 -m venv --system-site-packages venv && PYTHONNOUSERSITE=1 PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig \
  venv/bin/python -m pip install -q --no-build-isolation --no-index ./pysrc > venv.log 2>&1 || { tail -5 venv.log; exit 1; }
  cd /tmp && PYTHONNOUSERSITE=1 $HOME/venv/bin/python -c "import slpi, slpi._libdir as d; print(slpi.__file__); print(d.LIBDIR, slpi.run(\"iso/rigid-body/trajectories\", steps=5).states.shape)"' 2>&1)
case $got in
  "$home/venv/lib/python3"*"/site-packages/slpi/__init__.py"*"$home/.local/lib (6, 3)") echo "t-install-user: venv: $(echo "$got" | head -1)" ;;
  *) note "a venv install against ~/.local: $got" ;;
esac
# 4. CMake, through PATH alone
if command -v cmake >/dev/null 2>&1; then
  got=$(as_user 'cmake -S slpi/examples -B cm > cm.log 2>&1 && cmake --build cm >> cm.log 2>&1 || { tail -8 cm.log; exit 1; }
    ./cm/ensemble 20 | head -1' 2>&1)
  case $got in ensemble:*) echo "t-install-user: find_package(slpi): $got" ;; *) note "CMake find_package(slpi) with ~/.local/bin on PATH: $got" ;; esac
fi
[ $fail = 0 ] || exit 1
command -v cmake >/dev/null 2>&1 || { echo "t-install-user: SKIP: step 4 needs cmake (as root: apt-get install cmake); steps 1-3 and 5 passed"; exit 77; }
echo "t-install-user: ok"
