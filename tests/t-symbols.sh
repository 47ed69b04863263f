#!/bin/sh
# t-symbols.sh — the library exports only slpi_ symbols: every global symbol defined in
# libslpi.a and in the dynamic symbol table of libslpi.so starts with slpi_ (nm), apart
# from the linker's own (_init, _fini, _edata, _end, __bss_start) OpenMP's named critical sections
# (.gomp_critical_user_slpi_*) and AddressSanitizer's ODR indicators (__odr_asan.slpi_*); and the check sees the library (it must find the public API, e.g. slpi_run and slpi_ref_step).
cd "$(dirname "$0")/.." || exit 2
build=${SLPI_BUILD:-build}
fail=0
linker='^(_init|_fini|_edata|_end|__bss_start|\.gomp_critical_user_slpi_.*|__odr_asan\.slpi_.*)$'
for lib in "$build/libslpi.a" "$build/libslpi.so"; do
  [ -f "$lib" ] || { echo "t-symbols: FAIL: $lib missing (run make)"; exit 1; }
  case "$lib" in
    *.so) syms=$(nm -D --defined-only "$lib" | awk 'NF >= 3 {print $3}') ;;
    *) syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}') ;;
  esac
  n=$(printf '%s\n' "$syms" | grep -c .)
  bad=$(printf '%s\n' "$syms" | grep -v '^slpi_' | grep -Ev "$linker" | sort -u)
  for want in slpi_run slpi_ref_step slpi_fast_step slpi_problem_initial_state; do
    printf '%s\n' "$syms" | grep -qx "$want" || { echo "t-symbols: FAIL: $lib does not define $want"; fail=1; }
  done
  if [ -n "$bad" ]; then
    echo "t-symbols: FAIL: $lib exports $(printf '%s\n' "$bad" | wc -l) symbols without the slpi_ prefix:"
    printf '%s\n' "$bad" | head -20 | sed 's/^/  /'
    fail=1
  fi
  echo "t-symbols: $lib: $n global symbols"
done
exit $fail
