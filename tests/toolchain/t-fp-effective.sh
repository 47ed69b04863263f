#!/bin/sh
# t-fp-effective.sh — the provenance's fp= line says what the compiler did with the
# library's floating point, not what the build asked (core/fp-effective.c: contraction
# probed at run time, the fast-math family from the compiler's macros). This build
# (-ffp-contract=off) says "contraction off" in `slpi --version`; core/fp-effective.c
# compiled again with the build's own flags and then "-ffp-contract=fast -mfma", as a later
# CFLAGS would override them, must say "contraction ON", with "-ffast-math" "fast-math on",
# and with the build's flags alone what the build says. SKIP (77) where this CPU has no FMA
# (the fused program could not run).
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
printf '#include <stdio.h>\n#include "core/fp-effective.h"\nint main(void) { char b[160]; slpi_fp_effective(b, sizeof b); puts(b); return 0; }\n' > "$tmp/main.c"
check() {   # NAME EXTRA-CFLAGS WANT: core/fp-effective.c compiled with the build's flags, then EXTRA
  ${CC:-cc} -std=c11 -ffp-contract=off -fno-fast-math -O2 $2 -I. -o "$tmp/$1" "$tmp/main.c" core/fp-effective.c \
    2> "$tmp/$1.cc" || fail "$1: compiling with '$2': $(tail -3 "$tmp/$1.cc")"
  got=$("$tmp/$1")
  case "$got" in *"$3"*) echo "t-fp-effective: ${2:-the build's flags}: $got" ;; *) fail "built with '$2': '$got', want '$3'" ;; esac
}
check fused "-ffp-contract=fast -mfma" "contraction ON (probed)"
check fast "-ffast-math -mfma" "fast-math on"
check plain "" "${line%%;*}"
echo "t-fp-effective: this build: $line"
