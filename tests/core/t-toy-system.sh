#!/bin/sh
# t-toy-system.sh — adding a built-in system touches the files CONTRIBUTING.md#adding-a-system
# names and no more (CONTRIBUTING.md states the count, max_files below holds it), and a
# missing table row fails by the system's name. In a copy of the source tree (what git
# tracks and does not ignore) with a copy of the build folder (cp -a: its timestamps kept,
# so only what the toy changes recompiles, at -O0), it inserts the toy of
# tests/core/toy-system/ (its files under core/, fast/ and ref/, the lines of `rows` in the
# tables), counts the files touched, builds, and checks:
#   1. every file touched is named in CONTRIBUTING.md's section (toy read as <name>);
#   2. `slpi list` names toy; it runs on the double and the certified path (tmk and isomp),
#      whose states agree to 1e-12, and `slpi verify --global` proves the double run;
#   3. the registry-driven tests pass on it (t-system, t-registry, t-problem, t-fast-errors,
#      t-api-null, t-ref-system, t-twin-diagnostics), and t-props-cases fails saying that
#      props/cases.c has no cases for toy;
#   4. with the row of the toy left out of ref/system.c's or fast/fast.c's table, t-system
#      fails saying toy has no row there; with its line left out of core/system-list.h (which
#      makes core/system.c's index), the build fails on core/system.c's static assertion.
# Prints the time of the copy, of the build and in all (about a minute and a half of two
# cores for the build).
cd "$(dirname "$0")/../.." || exit 2
unset MAKEFLAGS MFLAGS MAKELEVEL # the copy's make is its own, not a sub-make of `make check`
build=${SLPI_BUILD:-build}
[ -x "$build/slpi" ] || { echo "t-toy-system: FAIL: no $build/slpi (make first)"; exit 1; }
tpl=tests/core/toy-system
max_files=8
# the registry-driven tests that pass on the toy, and the one that refuses it by name
tests="t-system t-registry t-problem t-fast-errors t-api-null t-ref-system t-twin-diagnostics"
refuses=t-props-cases
tmp=$(mktemp -d)
trap '[ -n "$SLPI_TOY_KEEP" ] || rm -rf "$tmp"' EXIT
src=$tmp/src
fail=0
note() { echo "t-toy-system: FAIL: $*"; fail=1; }
t0=$(date +%s)

# the copy: sources with their timestamps (tar keeps them), then the build's objects, libraries
# and the three tests
mkdir -p "$src/build/tests"
if [ "$(git rev-parse --show-toplevel 2> /dev/null)" = "$(pwd -P)" ]; then # a work tree's top (not a copy inside one)
  git ls-files -c -o --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done > "$tmp/files"
else
  find . -path "./${build#./}" -prune -o -path ./build -prune -o -path ./.git -prune -o -type f -print > "$tmp/files"
fi
tar -cf - -T "$tmp/files" | (cd "$src" && tar -xf -)
[ -f "$src/GNUmakefile" ] && [ -f "$src/$tpl/rows" ] || { echo "t-toy-system: FAIL: the copy of the sources has no GNUmakefile or $tpl/rows"; exit 1; }
for d in */; do # the objects of each source folder (the tests' and benchmarks' aside)
  d=${d%/}
  case "$d" in tests | bench) continue ;; esac
  [ -d "$build/$d" ] && { cp -a "$build/$d" "$src/build/" || exit 1; }
done
for f in flint.mk git-rev libslpi.a libslpi-tools.a rules-digest.c rules-digest.o slpi; do
  [ -e "$build/$f" ] && cp -a "$build/$f" "$src/build/"
done
for t in $tests $refuses; do cp -a "$build/tests/$t" "$build/tests/$t.o" "$build/tests/$t.d" "$src/build/tests/" 2> /dev/null; done
t1=$(date +%s)

# the toy: its files, then its rows
touched=$tmp/touched
(cd "$tpl" && find core fast ref -type f) | sort > "$touched"
while read -r f; do cp "$tpl/$f" "$src/$f"; done < "$touched"
tab=$(printf '\t')
grep -v '^#' "$tpl/rows" | while IFS="$tab" read -r file where anchor line; do
  n=$(grep -cxF -e "$anchor" "$src/$file")
  [ "$n" = 1 ] || { echo "t-toy-system: FAIL: $file: the anchor '$anchor' is there $n times, not once (tests/core/toy-system/rows)"; continue; }
  A=$anchor L=$line W=$where awk '$0 == ENVIRON["A"] && ENVIRON["W"] == "before" {print ENVIRON["L"]} {print}
    $0 == ENVIRON["A"] && ENVIRON["W"] == "after" {print ENVIRON["L"]}' "$src/$file" > "$tmp/row" && cat "$tmp/row" > "$src/$file"
  echo "$file" >> "$touched"
done > "$tmp/rows.log"
[ -s "$tmp/rows.log" ] && { cat "$tmp/rows.log"; fail=1; }
sort -u "$touched" -o "$touched"
nfiles=$(wc -l < "$touched")
[ "$nfiles" -le "$max_files" ] || note "adding the toy touches $nfiles files, more than $max_files: $(tr '\n' ' ' < "$touched")"
section=$(awk '/^## Adding a system/ {on = 1; next} /^## / {on = 0} on' CONTRIBUTING.md)
while read -r f; do
  named=$(echo "$f" | sed 's/toy/<name>/')
  echo "$section" | grep -qF "\`$named\`" || note "CONTRIBUTING.md#adding-a-system does not name \`$named\` (touched by the toy)"
done < "$touched"

# the build: what the toy changed, at -O0
if ! (cd "$src" && nice make -j2 CFLAGS=-O0 BUILD=build build/slpi $(for t in $tests $refuses; do echo build/tests/$t; done) \
  > "$tmp/make.log" 2>&1); then
  tail -20 "$tmp/make.log"
  note "the tree with the toy does not build"
  exit 1
fi
t2=$(date +%s)
slpi=$src/build/slpi

# 2. named, run on both paths, the paths agree, the oracle proves the double run
"$slpi" list | grep -q '^systems:.* toy\b' || note "slpi list does not name toy"
for k in tmk isomp; do
  "$slpi" run --system toy --scheme $k --steps 8 --seed 7 -q -o "$tmp/fast-$k.tsv" || note "toy/$k: the double path fails"
  "$slpi" run --system toy --scheme $k --steps 8 --seed 7 --ref -q -o "$tmp/ref-$k.tsv" || note "toy/$k: the certified path fails"
  last() { grep -v '^#' "$1" | tail -1 | cut -f3-5 | sed 's/ +\/-[^\t]*//g'; }
  d=$( (last "$tmp/fast-$k.tsv"; last "$tmp/ref-$k.tsv") | awk -F'\t' 'NR == 1 {for (i = 1; i <= 3; i++) a[i] = $i}
    NR == 2 {for (i = 1; i <= 3; i++) {e = a[i] - $i; if (e < 0) e = -e; if (e > m) m = e}; n = NR}
    END {if (n != 2) print "missing"; else printf "%.3g\n", m}')
  awk -v d="$d" 'BEGIN {exit !(d != "missing" && d + 0 <= 1e-12)}' || note "toy/$k: the paths' states at step 8 differ by $d"
  "$slpi" verify --global "$tmp/fast-$k.tsv" > "$tmp/verify-$k.txt" 2>&1 || {
    tail -3 "$tmp/verify-$k.txt"
    note "toy/$k: slpi verify does not prove the double run"
  }
done

# 3. the registry-driven tests pass; the property harness, which has no cases for it, says so
for t in $tests; do
  (cd "$src" && "./build/tests/$t" > "$tmp/$t.log" 2>&1) || { tail -5 "$tmp/$t.log"; note "$t fails with the toy"; }
done
(cd "$src" && "./build/tests/$refuses" > "$tmp/$refuses.log" 2>&1) && note "$refuses passes on a system props/cases.c has no cases for"
grep -q 'no cases for system toy' "$tmp/$refuses.log" || note "$refuses does not say that props/cases.c has no cases for toy"

# 4. a missing row is named: each path's table without the toy's row builds, and t-system
#    says which table lacks it; core's list without it does not build, and says so (make -k:
#    the toy's own files, which name its member of the view, fail beside it)
while IFS='|' read -r file row says; do
  cp -p "$src/$file" "$tmp/saved"
  grep -vxF "$row" "$tmp/saved" > "$src/$file"
  if ! (cd "$src" && nice make -k -j2 CFLAGS=-O0 BUILD=build build/tests/t-system < /dev/null > "$tmp/make2.log" 2>&1); then
    grep -qF "$says" "$tmp/make2.log" || { tail -5 "$tmp/make2.log"; note "$file without the toy's row: the build fails without '$says'"; }
  elif (cd "$src" && ./build/tests/t-system < /dev/null > "$tmp/t-system-2.log" 2>&1); then
    note "t-system passes with $file's row of the toy left out"
  else
    grep -qF "$says" "$tmp/t-system-2.log" || { cat "$tmp/t-system-2.log"; note "$file without the toy's row: t-system fails without '$says'"; }
  fi
  cp "$tmp/saved" "$src/$file"
done << EOF
ref/system.c|    [SLPI_SYS_TOY] = slpi_ref_sys_toy,|system toy has no row in ref/system.c's table
fast/fast.c|    [SLPI_SYS_TOY] = slpi_fast_sys_toy,|system toy has no row in fast/fast.c's table
core/system-list.h|    X(TOY, toy, slpi_toy_params, toy) \\|core/system.c: one descriptor per system id
EOF
t3=$(date +%s)
[ $fail -eq 0 ] && echo "t-toy-system: the toy touches $nfiles files (at most $max_files), each named by CONTRIBUTING.md;" \
  "builds, runs and agrees on both paths, $(echo $tests | wc -w) registry-driven tests pass and props names it, its missing rows are named;" \
  "copy $((t1 - t0)) s, build $((t2 - t1)) s, all $((t3 - t0)) s"
exit $fail
