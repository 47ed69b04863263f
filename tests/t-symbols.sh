#!/bin/sh
# t-symbols.sh — what the two libraries export (docs/architecture.md#libraries):
#   1. every global symbol defined in libslpi.a, libslpi-tools.a and in the dynamic symbol
#      tables of libslpi.so and libslpi-tools.so starts with slpi_ (nm), apart from the
#      linker's own (_init, _fini, _edata, _end, __bss_start), OpenMP's named critical
#      sections (.gomp_critical_user_slpi_*) and AddressSanitizer's ODR indicators
#      (__odr_asan.slpi_*);
#   2. libslpi.so exports exactly the functions slpi.h declares (tests/api-names.sh: none
#      missing, none more), libslpi-tools.so exactly those of slpi.h and slpi-tools.h;
#   3. the integrator library writes no HTML and runs no program: libslpi.so imports no
#      system, popen, fork, vfork, exec* or posix_spawn* and holds no "<html", "<svg" or
#      "gnuplot" text, while libslpi-tools.so, which draws the audit's figures, does (so
#      the check sees what it looks for); and libslpi.a defines no symbol of the tools'
#      modules' objects.
cd "$(dirname "$0")/.." || exit 2
build=${SLPI_BUILD:-build}
fail=0
note() { echo "t-symbols: FAIL: $*"; fail=1; }
linker='^(_init|_fini|_edata|_end|__bss_start|\.gomp_critical_user_slpi_.*|__odr_asan\.slpi_.*)$'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh tests/api-names.sh slpi.h > "$tmp/libslpi.so"
sh tests/api-names.sh slpi.h slpi-tools.h > "$tmp/libslpi-tools.so"
for f in libslpi.so libslpi-tools.so; do
  [ "$(wc -l < "$tmp/$f")" -ge 20 ] || note "tests/api-names.sh finds only $(wc -l < "$tmp/$f") functions for $f"
done
for lib in libslpi.a libslpi.so libslpi-tools.a libslpi-tools.so; do
  path="$build/$lib"
  [ -f "$path" ] || { note "$path missing (run make)"; continue; }
  case "$lib" in
    *.so) nm -D --defined-only "$path" | awk 'NF >= 3 {print $3}' | sort -u > "$tmp/syms" ;;
    *) nm -g --defined-only "$path" | awk 'NF == 3 {print $3}' | sort -u > "$tmp/syms" ;;
  esac
  bad=$(grep -v '^slpi_' "$tmp/syms" | grep -Ev "$linker")
  [ -z "$bad" ] || { note "$path exports $(printf '%s\n' "$bad" | wc -l) symbols without the slpi_ prefix:"; printf '%s\n' "$bad" | head -20 | sed 's/^/  /'; }
  case "$lib" in
    *.so)
      grep '^slpi_' "$tmp/syms" | comm -23 - "$tmp/$lib" > "$tmp/extra"
      comm -13 "$tmp/syms" "$tmp/$lib" > "$tmp/missing"
      [ -s "$tmp/extra" ] && { note "$path exports $(wc -l < "$tmp/extra") functions its headers do not declare:"; head -20 "$tmp/extra" | sed 's/^/  /'; }
      [ -s "$tmp/missing" ] && { note "$path does not export $(wc -l < "$tmp/missing") functions its headers declare:"; head -20 "$tmp/missing" | sed 's/^/  /'; } ;;
  esac
  case "$lib" in libslpi.*) want="slpi_run slpi_ref_step slpi_fast_step slpi_problem_initial_state slpi_stepper_advance" ;;
                 *.a) want="slpi_verify_run slpi_golden_check slpi_api_golden slpi_api_converge slpi_props_run" ;;
                 *) want="slpi_verify_run slpi_golden_check slpi_api_golden slpi_api_converge slpi_run slpi_stepper_advance" ;; esac
  for w in $want; do grep -qx "$w" "$tmp/syms" || note "$path does not define $w"; done
  echo "t-symbols: $path: $(wc -l < "$tmp/syms") global symbols"
done
# 3. no program run, no HTML in the integrator library; the tools' library shows the check bites
runs() { nm -D --undefined-only "$1" | awk '{print $NF}' | sed 's/@.*//' | grep -E '^(system|popen|fork|vfork|exec[a-z]*|posix_spawnp?)$' | sort -u | tr '\n' ' '; }
html() { strings "$1" | grep -ciE '<html|<svg|gnuplot'; }
if [ -f "$build/libslpi.so" ] && [ -f "$build/libslpi-tools.so" ]; then
  r=$(runs "$build/libslpi.so"); [ -z "$r" ] || note "$build/libslpi.so runs programs: it imports $r"
  h=$(html "$build/libslpi.so"); [ "$h" -eq 0 ] || note "$build/libslpi.so holds $h lines of HTML/SVG/gnuplot text"
  r=$(runs "$build/libslpi-tools.so"); [ -n "$r" ] || note "$build/libslpi-tools.so imports no system(): the check cannot see one"
  h=$(html "$build/libslpi-tools.so"); [ "$h" -gt 0 ] || note "$build/libslpi-tools.so holds no HTML text: the check cannot see it"
  echo "t-symbols: libslpi.so imports no system/popen/fork/exec and holds no HTML; libslpi-tools.so imports $r"
fi
tools=$(for m in oracle props gaps reports; do ls "$build/$m"/*.o 2>/dev/null; done)
if [ -z "$tools" ]; then
  note "no objects of the tools' modules under $build (run make)"
elif [ -f "$build/libslpi.a" ]; then
  nm -g --defined-only $tools 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$tmp/tooldefs"
  nm -g --defined-only "$build/libslpi.a" | awk 'NF == 3 {print $3}' | sort -u | comm -12 - "$tmp/tooldefs" > "$tmp/both"
  [ -s "$tmp/both" ] && note "libslpi.a defines $(wc -l < "$tmp/both") symbols of the tools' modules, e.g. $(head -3 "$tmp/both" | tr '\n' ' ')"
fi
exit $fail
