#!/bin/sh
# t-symbols.sh — what the two libraries export (docs/architecture.md#libraries):
#   1. every global symbol defined in libslpi.a, libslpi-tools.a and in the dynamic symbol
#      tables of libslpi.so and libslpi-tools.so starts with slpi_ (nm), apart from the
#      linker's own (_init, _fini, _edata, _end, __bss_start), OpenMP's named critical
#      sections (.gomp_critical_user_slpi_*) and AddressSanitizer's ODR indicators
#      (__odr_asan.slpi_*);
#   2. libslpi.so exports exactly the functions slpi.h declares (tests/api-names.sh: none
#      missing, none more) under its version node SLPI_MAJOR, and its private interface
#      (tests/private-names.sh) under SLPI_PRIVATE; libslpi-tools.so exactly those of
#      slpi-tools.h;
#   4. one copy of the mathematics: libslpi-tools.so needs libslpi.so.MAJOR and defines
#      none of libslpi's functions (its whole symbol table, local ones included); and a
#      program that opens both shared libraries sees one static of libslpi: the error a
#      tools entry records (slpi_api_golden on a missing folder) is the one libslpi's own
#      slpi_api_last_error returns (with two copies it would be empty);
#   3. the integrator library writes no HTML and runs no program: libslpi.so imports no
#      system, popen, fork, vfork, exec* or posix_spawn* and holds no "<html", "<svg" or
#      "gnuplot" text, while libslpi-tools.so, which draws the audit's figures, does (so
#      the check sees what it looks for); and libslpi.a defines no symbol of the tools'
#      modules' objects.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
fail=0
note() { echo "t-symbols: FAIL: $*"; fail=1; }
linker='^(_init|_fini|_edata|_end|__bss_start|\.gomp_critical_user_slpi_.*|__odr_asan\.slpi_.*)$'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abi=$(sed -n 's/^VERSION := //p' GNUmakefile); abi=${abi%%.*}
sh tests/api-names.sh slpi.h | sed "s/\$/@@SLPI_$abi/" > "$tmp/public"
sh tests/private-names.sh "$build" | sed 's/$/@@SLPI_PRIVATE/' > "$tmp/private"
[ "$(wc -l < "$tmp/private")" -ge 20 ] || note "tests/private-names.sh finds only $(wc -l < "$tmp/private") functions"
sort "$tmp/public" "$tmp/private" > "$tmp/libslpi.so"
sh tests/api-names.sh slpi-tools.h > "$tmp/libslpi-tools.so"
for f in libslpi.so libslpi-tools.so; do
  [ "$(wc -l < "$tmp/$f")" -ge 20 ] || note "tests/api-names.sh finds only $(wc -l < "$tmp/$f") functions for $f"
done
for lib in libslpi.a libslpi.so libslpi-tools.a libslpi-tools.so; do
  path="$build/$lib"
  [ -f "$path" ] || { note "$path missing (run make)"; continue; }
  case "$lib" in
    # (a version node's own absolute symbol, "A SLPI_0", is no function)
    *.so) nm -D --defined-only "$path" | awk 'NF >= 3 && !($2 == "A" && $3 ~ /^SLPI_/) {print $3}' | sort -u > "$tmp/syms" ;;
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
                 *) want="slpi_verify_run slpi_golden_check slpi_api_golden slpi_api_converge" ;; esac
  for w in $want; do grep -qx "$w\(@@SLPI_$abi\)\?" "$tmp/syms" || note "$path does not define $w"; done
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
# 4. one copy of the mathematics
if [ -f "$build/libslpi-tools.so" ] && [ -f "$build/libslpi.a" ]; then
  readelf -d "$build/libslpi-tools.so" | grep -q "NEEDED.*\[libslpi\.so\.$abi\]" ||
    note "$build/libslpi-tools.so does not need libslpi.so.$abi"
  nm -g --defined-only "$build/libslpi.a" | awk 'NF == 3 && $2 == "T" {print $3}' | sort -u > "$tmp/libfns"
  nm --defined-only "$build/libslpi-tools.so" | awk 'NF == 3 && ($2 == "T" || $2 == "t") {print $3}' | sort -u |
    comm -12 - "$tmp/libfns" > "$tmp/copied"
  [ -s "$tmp/copied" ] && note "$build/libslpi-tools.so holds $(wc -l < "$tmp/copied") of libslpi's functions itself, e.g. $(head -3 "$tmp/copied" | tr '\n' ' ')"
  cat > "$tmp/one.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    void *tools = argc == 3 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    void *lib = argc == 3 ? dlopen(argv[2], RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!tools || !lib) { printf("dlopen: %s\n", dlerror()); return 1; }
    int (*golden)(const char *, int *, char *, size_t) = (int (*)(const char *, int *, char *, size_t))dlsym(tools, "slpi_api_golden");
    const char *(*last)(void) = (const char *(*)(void))dlsym(lib, "slpi_api_last_error");
    int verdict;
    char report[8];
    if (!golden || !last) { printf("dlsym: %s\n", dlerror()); return 1; }
    int rc = golden("/nonexistent/slpi-one-copy", &verdict, report, sizeof report);
    printf("%d [%s]\n", rc, last());
    return 0;
}
C
  if ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -o "$tmp/one" "$tmp/one.c" -ldl 2>"$tmp/cc.log"; then
    got=$("$tmp/one" "$build/libslpi-tools.so" "$build/libslpi.so.$abi")
    case "$got" in
      0*|*"[]") note "one copy: the error a tools entry recorded is not libslpi's (two copies of its statics?): $got" ;;
      *nonexistent/slpi-one-copy*) echo "t-symbols: one copy: libslpi's slpi_api_last_error returns the tools entry's error: $got" ;;
      *) note "one copy: unexpected output: $got" ;;
    esac
  else note "cannot compile the one-copy program: $(head -3 "$tmp/cc.log")"; fi
fi
tools=$(for m in oracle props gaps studies reports; do ls "$build/$m"/*.o 2>/dev/null; done)
if [ -z "$tools" ]; then
  note "no objects of the tools' modules under $build (run make)"
elif [ -f "$build/libslpi.a" ]; then
  nm -g --defined-only $tools 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$tmp/tooldefs"
  nm -g --defined-only "$build/libslpi.a" | awk 'NF == 3 {print $3}' | sort -u | comm -12 - "$tmp/tooldefs" > "$tmp/both"
  [ -s "$tmp/both" ] && note "libslpi.a defines $(wc -l < "$tmp/both") symbols of the tools' modules, e.g. $(head -3 "$tmp/both" | tr '\n' ' ')"
fi
exit $fail
