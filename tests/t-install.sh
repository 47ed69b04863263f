#!/bin/sh
# t-install.sh — `make install PREFIX=... DESTDIR=...` puts the library (static and
# shared), the header, the binary, slpi.pc and the golden cases in place; a program
# built only from the installed files with pkg-config's flags links and runs, and the
# installed binary finds the installed golden cases.
set -u
build=${SLPI_BUILD:-build}
tmp=$(mktemp -d)
fail=0
note() { echo "t-install: FAIL: $*" >&2; fail=1; }
make --no-print-directory -s install BUILD="$build" PREFIX=/opt/slpi DESTDIR="$tmp" >"$tmp/log" 2>&1 || note "make install failed: $(tail -5 "$tmp/log")"
root="$tmp/opt/slpi"
for f in lib/libslpi.a lib/libslpi.so include/slpi.h bin/slpi lib/pkgconfig/slpi.pc; do
  [ -f "$root/$f" ] || note "missing $f"
done
grep -q '^prefix=/opt/slpi$' "$root/lib/pkgconfig/slpi.pc" || note "slpi.pc prefix"
cat > "$tmp/use.c" <<'C'
#include <slpi.h>
#include <stdio.h>
int main(void)
{
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    printf("%s %d\n", slpi_system_name(p.system), slpi_problem_state_dim(&p));
    return 0;
}
C
cflags=$(PKG_CONFIG_SYSROOT_DIR= PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --cflags slpi)
libs=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --static --libs slpi)
${CC:-cc} -std=c11 $cflags -o "$tmp/use" "$tmp/use.c" $libs 2>"$tmp/cc.log" || note "cannot build against the installed library: $(head -5 "$tmp/cc.log")"
[ "$(LD_LIBRARY_PATH="$root/lib" "$tmp/use" 2>/dev/null)" = "rigid-body 3" ] || note "installed library program output"
# linked against the shared library with pkg-config's flags: runs without LD_LIBRARY_PATH
# (slpi.pc's rpath), and a fast-only program needs no Arb headers (SLPI_FAST_ONLY)
dlibs=$(PKG_CONFIG_PATH="$root/lib/pkgconfig" pkg-config --define-variable=prefix="$root" --libs slpi)
${CC:-cc} -std=c11 -DSLPI_FAST_ONLY -I"$root/include" -o "$tmp/use-so" "$tmp/use.c" $dlibs 2>"$tmp/cc.log" || note "cannot build a fast-only program against the shared library: $(head -5 "$tmp/cc.log")"
[ "$(env -u LD_LIBRARY_PATH "$tmp/use-so" 2>/dev/null)" = "rigid-body 3" ] || note "a program linked with pkg-config --libs does not find libslpi.so by itself"
mkdir -p "$tmp/noarb" && printf '#error "an Arb header was included"\n' > "$tmp/noarb/arb.h"
${CC:-cc} -std=c11 -DSLPI_FAST_ONLY -I"$tmp/noarb" -I"$root/include" -fsyntax-only "$tmp/use.c" 2>"$tmp/cc.log" || note "SLPI_FAST_ONLY still includes Arb: $(head -3 "$tmp/cc.log")"
"$root/bin/slpi" --version >/dev/null || note "installed slpi --version"
# the golden cases are installed, and the installed binary finds them beside itself from
# a folder that has no oracle/golden
n=$(ls "$root/share/slpi/golden/"*.golden 2>/dev/null | wc -l)
[ "$n" -eq "$(ls oracle/golden/*.golden | wc -l)" ] || note "$n golden files installed"
(cd "$tmp" && "$root/bin/slpi" golden > "$tmp/golden.out" 2>&1) || note "installed slpi golden: $(tail -3 "$tmp/golden.out")"
tail -1 "$tmp/golden.out" | grep -q PASS || note "installed slpi golden: $(tail -1 "$tmp/golden.out")"
mv "$root/share/slpi/golden" "$root/share/slpi/golden.away"
(cd "$tmp" && "$root/bin/slpi" golden > "$tmp/golden.out" 2>&1) && note "installed slpi golden PASSes without its installed cases"
rm -rf "$tmp"
[ $fail = 0 ] && echo "t-install: ok"
exit $fail
