#!/bin/sh
# t-fp-effective.sh — the provenance's fp= line says what the compiler did with the
# library's floating point, not what the build asked (core/provenance.c: contraction probed
# at run time, the fast-math family from the compiler's macros). This build (-ffp-contract=off)
# says "contraction off"; core/provenance.c built again with "-ffp-contract=fast -mfma" given
# after the build's own flags, as a CFLAGS override would, must say "contraction ON", and
# with -ffast-math "fast-math on": the cflags= line, which prints the flags asked for, says
# -ffp-contract=off in both. SKIP (77) where this CPU has no FMA (the fused object could not run).
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
slpi=${SLPI_BIN:-$build/slpi}
fail() { echo "t-fp-effective: FAIL: $*"; exit 1; }
line=$("$slpi" --version | sed -n 's/^ *fp=//p')
case "$line" in
  "contraction off (probed), fast-math off, finite-math-only off;"*) ;;
  *) fail "this build's fp= line is '$line'" ;;
esac
grep -qw fma /proc/cpuinfo 2>/dev/null || { echo "t-fp-effective: SKIP: this CPU has no FMA"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
libs=$(sed -n 's/^ARB_LIBS = //p' "$build/flint.mk")
printf '#include <stdio.h>\n#include "slpi.h"\nint main(void) { slpi_provenance_write(stdout, ""); return 0; }\n' > "$tmp/main.c"
check() {   # NAME EXTRA-CFLAGS WANT: provenance.c rebuilt with the flags, its fp= line
  make -s --no-print-directory BUILD="$tmp/$1" CFLAGS="-O2 $2" "$tmp/$1/core/provenance.o" > "$tmp/$1.log" 2>&1 ||
    fail "$1: building core/provenance.c with '$2': $(tail -3 "$tmp/$1.log")"
  ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icore $(sed -n "s/^ARB_CPPFLAGS = //p" "$build/flint.mk") -o "$tmp/$1.bin" "$tmp/main.c" "$tmp/$1/core/provenance.o" -L"$build" -lslpi \
    -Wl,-rpath,"$(cd "$build" && pwd)" $libs -ljansson -lm 2> "$tmp/$1.ld" || fail "$1: linking: $(tail -3 "$tmp/$1.ld")"
  got=$("$tmp/$1.bin" | sed -n 's/^fp=//p')
  case "$got" in *"$3"*) echo "t-fp-effective: $2: $got" ;; *) fail "built with '$2', fp= says '$got', want '$3'" ;; esac
  "$tmp/$1.bin" | grep -q '^cflags=.*-ffp-contract=off$' || fail "$1: the cflags= line changed"
}
check fused "-ffp-contract=fast -mfma" "contraction ON (probed)"
check fast "-ffast-math -mfma" "fast-math on"
echo "t-fp-effective: this build: $line"
