#!/bin/sh
# t-install.sh — `make install PREFIX=... DESTDIR=...` puts the two libraries (static and
# shared, SONAMEs libslpi.so.MAJOR and libslpi-tools.so.MAJOR), their headers slpi.h (with
# the headers by module it includes, include/slpi/*.h, each compiling alone) and
# slpi-tools.h, the binary, slpi.pc and slpi-tools.pc, the CMake package,
# the golden cases and the Python package in place; a program built only from the
# installed files with pkg-config's flags links and runs (and cannot take the size of the
# opaque slpi_problem), and the installed binary finds
# the installed golden cases. Then, installed at a real PREFIX: the C examples
# (examples/*.c; one including slpi-tools.h with the tools' package) built with pkg-config
# and with CMake's find_package(slpi CONFIG) run; the installed Python package imports
# with no environment and finds the tools library for verify; and the README's Python
# line (a venv with system site packages, pip install --no-build-isolation ./python)
# works as written, against the source tree's build.
set -u
build=${SLPI_BUILD:-build}
tmp=$(mktemp -d)
fail=0
note() { echo "t-install: FAIL: $*" >&2; fail=1; }
make --no-print-directory -s install BUILD="$build" PREFIX=/opt/slpi DESTDIR="$tmp" >"$tmp/log" 2>&1 || note "make install failed: $(tail -5 "$tmp/log")"
root="$tmp/opt/slpi"
version=$(sed -n 's/^VERSION := //p' GNUmakefile)
major=${version%%.*}
for f in include/slpi.h include/slpi-tools.h bin/slpi lib/pkgconfig/slpi.pc lib/pkgconfig/slpi-tools.pc \
         lib/cmake/slpi/slpiConfig.cmake lib/cmake/slpi/slpiConfigVersion.cmake; do
  [ -f "$root/$f" ] || note "missing $f"
done
# the public headers by module that slpi.h includes, each installed and each compiling alone
for h in include/slpi/*.h; do
  [ -f "$root/$h" ] || note "missing $h"
  printf '#include <slpi/%s>\n' "$(basename "$h")" > "$tmp/one.c"
  ${CC:-cc} -std=c11 -I"$root/include" $(sed -n 's/^ARB_CPPFLAGS *= *//p' "$build/flint.mk" 2>/dev/null) -fsyntax-only "$tmp/one.c" 2>"$tmp/one.log" ||
    note "the installed $h does not compile alone: $(head -3 "$tmp/one.log")"
done
for l in libslpi libslpi-tools; do
  for f in lib/$l.a lib/$l.so lib/$l.so.$major lib/$l.so.$version; do [ -f "$root/$f" ] || note "missing $f"; done
  soname=$(readelf -d "$root/lib/$l.so.$version" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  [ "$soname" = "$l.so.$major" ] || note "SONAME '$soname', want $l.so.$major"
  [ "$(readlink "$root/lib/$l.so")" = "$l.so.$major" ] && [ "$(readlink "$root/lib/$l.so.$major")" = "$l.so.$version" ] ||
    note "the links $l.so -> $l.so.$major -> $l.so.$version"
done
grep -q '^prefix=/opt/slpi$' "$root/lib/pkgconfig/slpi.pc" || note "slpi.pc prefix"
grep -q '^prefix=/opt/slpi$' "$root/lib/pkgconfig/slpi-tools.pc" || note "slpi-tools.pc prefix"
# the Python package, staged under DESTDIR, names the library's final folder
pyinit=$(ls "$root"/lib/python3*/*-packages/slpi/__init__.py 2>/dev/null | head -1)
[ -n "$pyinit" ] || note "the Python package is not installed under $root/lib/python3*/*-packages"
[ -n "$pyinit" ] && { grep -q "^LIBDIR = '/opt/slpi/lib'$" "$(dirname "$pyinit")/_libdir.py" || note "slpi/_libdir.py: $(cat "$(dirname "$pyinit")/_libdir.py")"; }
cp tests/install-use.c "$tmp/use.c"
cflags=$(PKG_CONFIG_SYSROOT_DIR= PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --cflags slpi)
libs=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --static --libs slpi)
${CC:-cc} -std=c11 $cflags -o "$tmp/use" "$tmp/use.c" $libs 2>"$tmp/cc.log" || note "cannot build against the installed library: $(head -5 "$tmp/cc.log")"
[ "$(LD_LIBRARY_PATH="$root/lib" "$tmp/use" 2>/dev/null)" = "rigid-body 3" ] || note "installed library program output"
# linked against the shared library with pkg-config's flags: runs without LD_LIBRARY_PATH
# (slpi.pc's rpath), and a fast-only program needs no Arb headers (SLPI_FAST_ONLY)
dlibs=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --libs slpi)
${CC:-cc} -std=c11 -DSLPI_FAST_ONLY -I"$root/include" -o "$tmp/use-so" "$tmp/use.c" $dlibs 2>"$tmp/cc.log" || note "cannot build a fast-only program against the shared library: $(head -5 "$tmp/cc.log")"
[ "$(env -u LD_LIBRARY_PATH "$tmp/use-so" 2>/dev/null)" = "rigid-body 3" ] || note "a program linked with pkg-config --libs does not find libslpi.so by itself"
mkdir -p "$tmp/noarb/flint"   # either FLINT generation's headers (core/slpi-flint.h)
for h in arb.h flint/arb.h flint/flint.h; do printf '#error "an Arb or FLINT header was included"\n' > "$tmp/noarb/$h"; done
${CC:-cc} -std=c11 -DSLPI_FAST_ONLY -I"$tmp/noarb" -I"$root/include" -fsyntax-only "$tmp/use.c" 2>"$tmp/cc.log" || note "SLPI_FAST_ONLY still includes Arb: $(head -3 "$tmp/cc.log")"
# the problem is opaque (docs/design.md#opaque-problem): no installed header gives its size,
# and the struct's header stays in the source tree
printf '#include <slpi-tools.h>\nunsigned long n = sizeof(slpi_problem);\n' > "$tmp/size.c"
${CC:-cc} -std=c11 -I"$root/include" $cflags -fsyntax-only "$tmp/size.c" 2>/dev/null && note "an installed header gives sizeof(slpi_problem)"
[ -z "$(find "$root/include" -name 'problem-struct.h')" ] || note "core/problem-struct.h is installed"
"$root/bin/slpi" --version >/dev/null || note "installed slpi --version"
# the golden cases are installed, and the installed binary finds them beside itself from
# a folder that has no oracle/golden
n=$(ls "$root/share/slpi/golden/"*.golden 2>/dev/null | wc -l)
[ "$n" -eq "$(ls oracle/golden/*.golden | wc -l)" ] || note "$n golden files installed"
(cd "$tmp" && "$root/bin/slpi" golden > "$tmp/golden.out" 2>&1) || note "installed slpi golden: $(tail -3 "$tmp/golden.out")"
tail -1 "$tmp/golden.out" | grep -q PASS || note "installed slpi golden: $(tail -1 "$tmp/golden.out")"
mv "$root/share/slpi/golden" "$root/share/slpi/golden.away"
(cd "$tmp" && "$root/bin/slpi" golden > "$tmp/golden.out" 2>&1) && note "installed slpi golden PASSes without its installed cases"

# installed at a real prefix (no DESTDIR): the examples and the Python package work from there
prefix="$tmp/prefix"
make --no-print-directory -s install BUILD="$build" PREFIX="$prefix" >"$tmp/log2" 2>&1 || note "make install PREFIX=$prefix failed: $(tail -5 "$tmp/log2")"
pc() { PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@"; }
mkdir -p "$tmp/ex" && cd "$tmp/ex" || exit 1
for src in "$OLDPWD"/examples/*.c; do
  name=$(basename "$src" .c)
  pkg=slpi; grep -q '^#include <slpi-tools.h>' "$src" && pkg=slpi-tools
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror $(pc --cflags $pkg) -o "$name" "$src" $(pc --libs $pkg) -lm 2>"$name.cc" ||
    { note "examples/$name.c does not build with pkg-config: $(head -5 "$name.cc")"; continue; }
  env -u LD_LIBRARY_PATH ./"$name" > "$name.out" 2>&1 || note "examples/$name.c: exit $? ($(tail -2 "$name.out"))"
  grep -q "^$name: " "$name.out" || note "examples/$name.c output: $(head -2 "$name.out")"
  cat "$name.out"
done
grep -q "PASS" verify-run.out 2>/dev/null || note "examples/verify-run.c: no PASS"
# an integrator program needs libslpi alone; the verifier's, libslpi-tools
readelf -d ensemble 2>/dev/null | grep -q 'NEEDED.*\[libslpi.so.'"$major"'\]' || note "examples/ensemble does not need libslpi.so.$major"
readelf -d ensemble 2>/dev/null | grep -q 'NEEDED.*libslpi-tools' && note "examples/ensemble needs libslpi-tools"
readelf -d verify-run 2>/dev/null | grep -q 'NEEDED.*\[libslpi-tools.so.'"$major"'\]' || note "examples/verify-run does not need libslpi-tools.so.$major"
cd "$OLDPWD" || exit 1
if command -v cmake >/dev/null; then
  # CC may carry flags (`make asan`: CC="cc -fsanitize=address,undefined"): CMake takes
  # the compiler and its flags apart
  cc_word=$(printf '%s\n' "${CC:-cc}" | awk '{print $1}') cc_flags=$(printf '%s\n' "${CC:-cc}" | cut -s -d' ' -f2-)
  cmake -S examples -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc_word" \
    -DCMAKE_C_FLAGS="$cc_flags" -DCMAKE_EXE_LINKER_FLAGS="$cc_flags" >"$tmp/cmake.log" 2>&1 &&
    cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || note "examples with CMake: $(tail -8 "$tmp/cmake.log")"
  out=$(env -u LD_LIBRARY_PATH "$tmp/cmake/ensemble" 20 2>&1) || note "the CMake-built ensemble: $out"
  [ "$out" = "$(cd "$tmp/ex" && env -u LD_LIBRARY_PATH ./ensemble 20 2>&1)" ] || note "CMake and pkg-config builds differ: $out"
  grep -q "slpi_VERSION $version\|set(slpi_VERSION $version)" "$prefix/lib/cmake/slpi/slpiConfig.cmake" || note "slpiConfig.cmake version"
  # a version from another major is refused
  printf 'cmake_minimum_required(VERSION 3.13)\nproject(v C)\nfind_package(slpi %d.0 CONFIG REQUIRED)\n' $((major + 1)) > "$tmp/CMakeLists.txt"
  cmake -S "$tmp" -B "$tmp/cmake-v" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1 && note "find_package(slpi $((major + 1)).0) accepted $version"
fi
py=${SLPI_PYTHON:-/usr/bin/python3}
if nm -D "$build/libslpi.so" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-install: Python checks skipped: the library is built with AddressSanitizer"
else
  site=$(ls -d "$prefix"/lib/python3*/*-packages 2>/dev/null | head -1)
  got=$(cd "$tmp" && env -u SLPI_LIB -u LD_LIBRARY_PATH PYTHONPATH="$site" "$py" -c \
        "import slpi, os; r = slpi.run('iso/rigid-body/trajectories', steps=10); slpi.write_trajectory('t.tsv', r); print(slpi.__version__, r.states.shape, slpi.verify('t.tsv').verdict)" 2>&1)
  [ "$got" = "$version (11, 3) PASS" ] || note "the installed Python package: $got"
  # the README's Python line, verbatim, in a copy of the tree (python/ and a link to the build)
  line=$(grep -E '^/usr/bin/python3 -m venv ' README.md | head -1)
  [ -n "$line" ] || note "README: no Python line"
  mkdir -p "$tmp/repo" && cp -r python "$tmp/repo/" && rm -rf "$tmp/repo/python/build" "$tmp/repo/python/"*.egg-info
  mkdir -p "$tmp/repo/build"   # the build's library, linked: the venv goes to this copy's build/
  for f in libslpi.so "libslpi.so.$major"; do ln -s "$(cd "$build" && pwd)/$f" "$tmp/repo/build/$f"; done
  got=$(cd "$tmp/repo" && env -u SLPI_LIB -u PYTHONPATH sh -c "$line" 2>&1 | tail -1)
  case $got in "["*"]") echo "t-install: README Python line: $got" ;; *) note "README Python line: $got" ;; esac
fi
rm -rf "$tmp"
[ $fail = 0 ] || exit 1
command -v cmake >/dev/null || { echo "t-install: SKIP: the CMake checks need cmake (as root: apt-get install cmake); the rest passed"; exit 77; }
echo "t-install: ok"
