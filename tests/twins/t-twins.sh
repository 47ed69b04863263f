#!/bin/sh
# t-twins.sh — fast/ and ref/ are twins below the API (docs/architecture.md#twins):
#   1. the headers by concern (fast/NAME.h and ref/NAME.h; the run object's header is named
#      after its path, fast/fast.h and ref/ref.h, and compares as "<path>"), the members of
#      the two system tables (slpi_fast_system in fast/system.h, slpi_ref_system in
#      ref/system.h), of the two scheme tables, the Zeitlin kernels
#      (slpi_fast_zeitlin_* of fast/zeitlin.h, slpi_ref_zeitlin_* of ref/zeitlin.h), the
#      su(N) kernels (slpi_fast_sun_* / slpi_ref_sun_*), the system constructors
#      (slpi_*_sys_*, declared in fast/fast.c and ref/system.c beside their tables' rows,
#      a model's in fast/system.h and ref/system.h) and the scheme tables (slpi_*_scheme_*) carry the same names on both
#      sides, except the one-sided names the ```twins block of docs/architecture.md lists
#      with their reason; a listed name that is on both sides or on neither fails too (the
#      list cannot go stale);
#   2. every system file fills a slot with a function named after it: s->SLOT = PREFIX_SLOT
#      (no *_grad behind gen);
#   3. a scheme step takes its increments as an argument: no fast/ or ref/ file reads the
#      run object's increment buffer (f->delta, s->delta) but the run object's own files
#      (fast/fast.c; ref/ref.c and its Lohner propagation and Poisson defect).
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
note() { echo "t-twins: FAIL: $*"; fail=1; }

# members NAME FILE: the member names of "struct NAME {" ... "};" (function pointers by the
# name in "(*name)", data by the last identifier before ";" or "[")
members() {
  awk -v s="struct $1 {" '
    index($0, s) == 1 { on = 1; next }
    on && /^};/ { exit }
    on { print }' "$2" | sed 's@/\*.*\*/@@g; s@/\*.*@@; s@^ *\*.*@@' | tr '\n' ' ' | tr ';' '\n' |
  sed -n 's/.*(\*\([A-Za-z_0-9]*\)).*/\1/p; /(\*/!s/.*[^A-Za-z_0-9]\([A-Za-z_][A-Za-z_0-9]*\)\( *\[[^]]*\]\)* *$/\1/p' | sort -u
}
# decls PREFIX FILE...: the names after PREFIX of the functions the files declare
decls() {
  p=$1; shift
  cat "$@" | grep -o "\b${p}[a-z_0-9]*(" | sed "s/^${p}//; s/($//" | sort -u
}
awk '/^```twins/ {on = 1; next} /^```/ {on = 0} on && !/^#/ && NF' docs/architecture.md > "$tmp/list"
[ -s "$tmp/list" ] || { echo "t-twins: FAIL: no twins block in docs/architecture.md"; exit 1; }

headers() { for h in "$1"/*.h; do b=$(basename "$h" .h); [ "$b" = "$1" ] && b='<path>'; echo "$b"; done | sort -u; }
headers fast > "$tmp/header.fast"
headers ref > "$tmp/header.ref"
members slpi_fast_system fast/system.h > "$tmp/system.fast"
members slpi_ref_system ref/system.h > "$tmp/system.ref"
members slpi_fast_scheme fast/scheme.h > "$tmp/scheme.fast"
members slpi_ref_scheme ref/scheme.h > "$tmp/scheme.ref"
decls slpi_fast_zeitlin_ fast/zeitlin.h > "$tmp/zeitlin.fast"
decls slpi_ref_zeitlin_ ref/zeitlin.h > "$tmp/zeitlin.ref"
decls slpi_fast_sun_ fast/*.h > "$tmp/sun.fast"
decls slpi_ref_sun_ ref/*.h > "$tmp/sun.ref"
ctors() { grep -oh "\b$1[a-z_0-9]*" "$2" "$3" | sed "s/^$1//" | sort -u; } # declared by the tables' files
ctors slpi_fast_sys_ fast/system.h fast/fast.c > "$tmp/constructor.fast"
ctors slpi_ref_sys_ ref/system.h ref/system.c > "$tmp/constructor.ref"
grep -o 'slpi_fast_scheme_[a-z_]*' fast/scheme.h | sed 's/slpi_fast_scheme_//' | sort -u > "$tmp/table.fast"
grep -o 'slpi_ref_scheme_[a-z_]*' ref/scheme.h | sed 's/slpi_ref_scheme_//' | grep -v '^get$' | sort -u > "$tmp/table.ref"

n=0
for kind in header system scheme zeitlin sun constructor table; do
  for side in fast ref; do
    [ -s "$tmp/$kind.$side" ] || note "no $kind names found on the $side side (the test's reader is broken)"
  done
  other() { [ "$1" = fast ] && echo ref || echo fast; }
  for side in fast ref; do
    o=$(other $side)
    comm -23 "$tmp/$kind.$side" "$tmp/$kind.$o" | while read -r name; do
      awk -v k="$kind" -v s="$side" -v n="$name" '$1 == k && $2 == s && $3 == n {f = 1} END {exit !f}' "$tmp/list" ||
        echo "$kind $side $name"
    done
  done > "$tmp/missing.$kind"
  while read -r k s name; do
    note "$k '$name' is on the $s side only, and not listed in docs/architecture.md's twins block"
  done < "$tmp/missing.$kind"
  awk -v k="$kind" '$1 == k {print $2, $3}' "$tmp/list" | while read -r side name; do
    o=$(other "$side")
    grep -qx "$name" "$tmp/$kind.$side" || echo "t-twins: FAIL: twins block: $kind '$name' is not on the $side side (stale line)"
    grep -qx "$name" "$tmp/$kind.$o" && echo "t-twins: FAIL: twins block: $kind '$name' is on both sides (stale line)"
  done > "$tmp/stale.$kind"
  [ -s "$tmp/stale.$kind" ] && { cat "$tmp/stale.$kind"; fail=1; }
  n=$((n + $(cat "$tmp/$kind.fast" "$tmp/$kind.ref" | sort -u | wc -l)))
done

# 2. implementers named after their slots
slots=$(cat "$tmp/system.fast" "$tmp/system.ref" | sort -u | tr '\n' ' ')
nimpl=0
for f in fast/*.c ref/*.c; do
  sed -n 's/.*\bs->\([a-z_0-9]*\) = \([a-z_][a-z_0-9]*\);.*/\1 \2/p' "$f" | while read -r slot impl; do
    case " $slots " in *" $slot "*) ;; *) continue ;; esac
    grep -q "^[a-z].*\b$impl(" "$f" || continue          # a function of this file
    case "$impl" in *_"$slot") ;; *) echo "t-twins: FAIL: $f: s->$slot = $impl (name it <prefix>_$slot)" ;; esac
  done
done > "$tmp/impl"
[ -s "$tmp/impl" ] && { cat "$tmp/impl"; fail=1; }
nimpl=$(cat fast/*.c ref/*.c | grep -c 's->[a-z_0-9]* = [a-z_][a-z_0-9]*;')

# 3. increments passed explicitly
for f in fast/*.c ref/*.c; do
  case "$f" in fast/fast.c|ref/ref.c|ref/lohner.c|ref/poisson-defect.c) continue ;; esac
  grep -n '\b[fs]->delta\b' "$f" | sed "s|^|t-twins: FAIL: $f:|; s|$| (a scheme takes delta as an argument)|"
done > "$tmp/delta"
[ -s "$tmp/delta" ] && { cat "$tmp/delta"; fail=1; }

[ $fail -eq 0 ] && echo "t-twins: $n names compared across fast/ and ref/ ($(wc -l < "$tmp/list") one-sided, listed), $nimpl slot assignments named after their slots, no hidden increments"
exit $fail
