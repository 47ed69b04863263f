#!/bin/sh
# t-noise-builds.sh — determinism of the canonical noise across compilers and
# optimisation levels (docs/noise.md#contract): the generator core/noise*.c (noise.c, its
# x86-64 kernels noise-avx.c, the levels noise-levels.c; with core/error.c, its error
# records, and core/interrupt.c with core/output.c, the Ctrl-C poll of long generations)
# plus the driver tests/kat/noise-dump.c,
# built with gcc -O0, gcc -O2, gcc -O3 -march=native and clang -O2 (all -std=c11
# -ffp-contract=off, warnings as errors: an undeclared call is an error from gcc 14 on),
# must reproduce every SHA-256 digest of tests/kat/noise.sha256.
cd "$(dirname "$0")/../.." || exit 2
out="${SLPI_BUILD:-build}/noise-builds"
mkdir -p "$out"
arb=$(sed -n 's/^ARB_CPPFLAGS *= *//p' "${SLPI_BUILD:-build}/flint.mk" 2>/dev/null)
fail=0 skipped=""
for cfg in "gcc -O0" "gcc -O2" "gcc -O3 -march=native" "clang -O2"; do
  set -- $cfg
  cc=$1; shift
  bin="$out/noise-dump-$cc$(echo "$*" | tr -d ' =')"
  if ! command -v "$cc" >/dev/null 2>&1; then
    skipped="$skipped '$cfg'"; continue
  fi
  if ! $cc "$@" -std=c11 -ffp-contract=off -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $arb -I. -Iinclude -Icore \
       tests/kat/noise-dump.c core/noise.c core/noise-avx.c core/noise-levels.c core/cpu.c core/error.c core/interrupt.c core/output.c -lm -o "$bin"; then
    echo "t-noise-builds: FAIL: $cfg does not build the driver"; fail=1; continue
  fi
  while read -r kind rest; do
    case "$kind" in '#'*|'') continue ;; esac
    want=${rest##* }
    args=${rest% *}
    [ "$kind" = words ] && args=""
    got=$("$bin" "$kind" $args | sha256sum | cut -d' ' -f1)
    if [ "$got" != "$want" ]; then
      echo "t-noise-builds: FAIL: $cfg: $kind $args: sha256 $got, KAT $want"; fail=1
    fi
  done < tests/kat/noise.sha256
  echo "t-noise-builds: $cfg checked"
done
[ $fail -eq 0 ] || exit 1
# a build whose compiler is missing is skipped, never passed (make check installs clang as root)
[ -z "$skipped" ] || { echo "t-noise-builds: SKIP:$skipped: compiler not installed; the other builds reproduce tests/kat/noise.sha256"; exit 77; }
echo "t-noise-builds: all builds reproduce tests/kat/noise.sha256"
