#!/bin/sh
# tests/mutants/run.sh [--check] [NAME...] — the mutation suite (`make mutants`).
#
# Each tests/mutants/NAME.patch plants one small deliberate bug. Its header (the lines
# before the diff) says what it plants and which tests must notice:
#     # what: one line
#     # killed-by: t-xxx [t-yyy ...]       or       # equivalent: why no output changes
#     # only: t-xxx t-zzz ...   (optional, generated mutants under SELECT=coverage: the
#                               tests that execute the mutated statement; `none`: no test)
#     # freeze: checked         (optional: the test runs keep the audit's freeze of its
#                               rules, docs/claims.md#decision-digest; without it they run
#                               with SLPI_AUDIT_RULES_CHANGED=1, so that a mutant of the
#                               audit's sources is killed by its behaviour, not the freeze)
#     # build: sanitized        (optional: a bug only a sanitizer sees, e.g. an index one
#                               past a stack array that the optimiser keeps in registers;
#                               its killed-by tests, and no others, run in a second
#                               scratch build, build-san, compiled with `make asan`'s
#                               SAN_FLAGS read from GNUmakefile, unmutated first)
# For every patch (or the NAMEs given, with or without .patch) this script
#   1. applies it (patch -p1, offsets allowed, no .orig backup left behind) to a scratch copy of the tree: the files
#      git tracks plus untracked, not-ignored ones, synchronised by content so that the
#      scratch build ($SCRATCH/build) stays incremental;
#   2. rebuilds, runs the named killed-by tests first, and stops at the first failure;
#      if none fails, runs the rest of the `make check` suite (minus t-mutants.sh, which
#      dry-runs the patches and so fails on a patched tree) up to the first failure;
#      with a `# only:` line, the rest is those tests alone (tests/mutants/generate.py
#      says why that is sound), and `# only: none` is SURVIVED once the tree builds;
#   3. reverts it (patch -R) and prints one line:
#        KILLED     NAME by t-x            (a test failed; "(timed out)" if it ran out
#                                           of its time, SLPI_MUTANTS_TIMEOUT)
#        KILLED     NAME by t-y, not by its killed-by t-x   (header needs fixing)
#        SURVIVED   NAME                   (the whole suite passed: a test must be
#                                           strengthened, or the mutant is equivalent;
#                                           "(no test executes it)" under `# only: none`)
#        EQUIVALENT NAME                   (documented; only checked to apply)
#        STALE      NAME                   (no longer applies: refresh the patch)
#        BROKEN     NAME                   (bad header, or the mutated tree does not build)
# and closes with `killed K of N non-equivalent`. Exit status: 0 iff every
# non-equivalent mutant was killed (no SURVIVED, STALE or BROKEN), 2 when the unmutated
# tree fails to build or fails a named test (then no kill would mean anything).
# --check: only check that every patch has its header, names tests that exist and still
# applies to the tree (patch --dry-run); one line per problem, exit 1 if any (the fast
# self-test tests/repo/t-mutants.sh runs this in `make check`).
# Environment: SLPI_MUTANTS_DIR (the patches, default tests/mutants), SLPI_MUTANTS_SCRATCH (default build/mutants), SLPI_MUTANTS_TIMEOUT (seconds
# per test, default 600), SLPI_MUTANTS_JOBS (make -j, default 2), SLPI_MUTANTS_EXCLUDE (test
# names never run, e.g. the slowest ones for generated mutants: tests/mutants/generate.py).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${SLPI_MUTANTS_DIR:-$top/tests/mutants}
check_only=0
[ "${1:-}" = --check ] && { check_only=1; shift; }
scratch=${SLPI_MUTANTS_SCRATCH:-$top/build/mutants}
tmo=${SLPI_MUTANTS_TIMEOUT:-600}
jobs=${SLPI_MUTANTS_JOBS:-2}
tree=$scratch/tree
log=$scratch/log
bdir=build   # the scratch build of the patch at hand: build, or build-san (# build: sanitized)
unfrozen=1   # SLPI_AUDIT_RULES_CHANGED of its test runs (# freeze: checked clears it)

# ------------------------------------------------------------------ helpers
# header KEY FILE: the text after "# KEY:" in the patch's header (before the diff)
header() {
  sed -n "/^diff /q; /^--- /q; s/^# $1:[[:space:]]*//p" "$2" | head -1
}

# killed_by FILE: the test names of the killed-by line (t-x, t-x.sh or t-x.c; commas ok)
killed_by() {
  header killed-by "$1" | tests_of
}

# only FILE: the names of the `# only:` line ("none" stays "none"; empty: no such line)
only() {
  header only "$1" | sed 's/^none$/t-none/' | tests_of | sed 's/^t-none $/none/'
}

tests_of() {
  tr ', ' '\n\n' | sed -n 's/^\(t-[A-Za-z0-9_-]*\)\(\.sh\|\.c\)\{0,1\}$/\1/p' | excluded | tr '\n' ' '
}

# the tree: copy files whose content differs (new mtime: make rebuilds them), drop
# files that are no longer there (sources are found by wildcard)
sync_tree() {
  (cd "$top" && git ls-files -co --exclude-standard) | LC_ALL=C sort > "$scratch/files"
  while IFS= read -r f; do
    [ -f "$top/$f" ] || continue
    if ! cmp -s "$top/$f" "$tree/$f"; then
      mkdir -p "$tree/$(dirname "$f")" && cp -p "$top/$f" "$tree/$f" && touch "$tree/$f"
    fi
  done < "$scratch/files"
  (cd "$tree" && find . -path ./build -prune -o -type f -print | sed 's|^\./||') | LC_ALL=C sort \
    | LC_ALL=C comm -23 - "$scratch/files" | while IFS= read -r f; do rm -f "$tree/$f"; done
}

build() {   # build TARGET...: quiet make in the scratch tree, into $bdir
  if [ "$bdir" = build-san ]; then
    san_flags=$(sed -n 's/^SAN_FLAGS *:= *//p' "$tree/GNUmakefile")
    [ -n "$san_flags" ] || { echo "run.sh: no SAN_FLAGS in GNUmakefile" > "$log/build.txt"; return 1; }
    make -C "$tree" --no-print-directory -j"$jobs" BUILD=build-san CC="${CC:-cc} -fsanitize=address,undefined" \
      CFLAGS="$san_flags" "$@" > "$log/build.txt" 2>&1
  else
    make -C "$tree" --no-print-directory -j"$jobs" BUILD=build "$@" > "$log/build.txt" 2>&1
  fi
}

# src TREE NAME EXT: the test's source, tests/<module>/NAME.EXT (or one left at tests/),
# printed; status 1 if there is none
src() {
  for f in "$1"/tests/"$2.$3" "$1"/tests/*/"$2.$3"; do [ -f "$f" ] && { echo "$f"; return 0; }; done
  return 1
}

# is_test TREE NAME: NAME is a C or a shell test of the tree
is_test() { src "$1" "$2" c > /dev/null || src "$1" "$2" sh > /dev/null; }

# the suite in `make check` order: t-provenance, the other C tests, the shell tests (a
# name that is both runs both, once)
suite() {
  {
    echo t-provenance
    for t in "$tree"/tests/t-*.c "$tree"/tests/*/t-*.c; do
      [ -f "$t" ] || continue; n=$(basename "$t" .c); [ "$n" = t-provenance ] || echo "$n"
    done
    for t in "$tree"/tests/t-*.sh "$tree"/tests/*/t-*.sh; do
      [ -f "$t" ] || continue
      n=$(basename "$t" .sh); [ "$n" = t-mutants ] || src "$tree" "$n" c > /dev/null || echo "$n"
    done
  } | excluded
}

# excluded: the names read, without those of SLPI_MUTANTS_EXCLUDE
excluded() {
  while IFS= read -r n; do
    case " ${SLPI_MUTANTS_EXCLUDE:-} " in *" $n "*) ;; *) echo "$n" ;; esac
  done
}

# run_test NAME: 0 if it passes (output in $log/NAME.txt)
# (a name may be both a C test and a shell test, e.g. t-checkpoint: both run)
run_test() {
  : > "$log/$1.txt"
  for kind in c sh; do
    f=$(src "$tree" "$1" $kind) || continue
    case $kind in sh) cmd="sh ${f#"$tree"/}" ;; *) cmd="$bdir/tests/$1" ;; esac
    (cd "$tree" && SLPI_AUDIT_RULES_CHANGED=$unfrozen ASAN_OPTIONS=detect_leaks=0 SLPI_BUILD=$bdir SLPI_BIN="$tree/$bdir/slpi" timeout "$tmo" $cmd) \
      >> "$log/$1.txt" 2>&1 || {
      rc=$?
      [ $rc -eq 77 ] && continue   # a SKIP (t-format in the scratch tree, outside git's history) kills nothing
      [ $rc -eq 124 ] && echo "run.sh: timed out after $tmo s" >> "$log/$1.txt"; return 1; }
  done
}

# build_for NAME...: the library, the slpi binary, and what the named tests need (a
# shell test: tests-sh; a C test: its binary; a name that is both: both)
build_for() {
  targets="all"
  for t in "$@"; do
    src "$tree" "$t" sh > /dev/null && targets="$targets tests-sh"
    src "$tree" "$t" c > /dev/null && targets="$targets $bdir/tests/$t"
  done
  build $targets
}

# ------------------------------------------------------------------ patches
if [ $# -gt 0 ]; then
  patches=""
  for n in "$@"; do n=${n%.patch}; patches="$patches $dir/${n##*/}.patch"; done
else
  patches=$(ls "$dir"/*.patch 2>/dev/null)
fi
[ -n "$patches" ] || { echo "mutants: no patches in $dir"; exit 2; }

# problem FILE: why the patch is unusable on the tree $1 ("" if it is fine)
problem() {
  p=$2
  [ -f "$p" ] || { echo "no such patch"; return; }
  what=$(header what "$p"); by=$(killed_by "$p"); eq=$(header equivalent "$p")
  if [ -z "$what" ] || { [ -z "$by" ] && [ -z "$eq" ]; } || { [ -n "$by" ] && [ -n "$eq" ]; }; then
    echo "needs '# what:' and one of '# killed-by: t-...' or '# equivalent:'"; return
  fi
  for t in $by; do
    is_test "$1" "$t" || { echo "killed-by names $t, which is not a test"; return; }
  done
  for t in $(only "$p"); do
    [ "$t" = none ] || is_test "$1" "$t" || { echo "only names $t, which is not a test"; return; }
  done
  bld=$(header build "$p")
  [ -z "$bld" ] || [ "$bld" = sanitized ] || { echo "build: '$bld' is not 'sanitized'"; return; }
  grep -q '^+++ ' "$p" || { echo "holds no diff"; return; }
  out=$(patch -p1 -d "$1" --dry-run --forward --batch -s < "$p" 2>&1) || echo "STALE: no longer applies: $(echo "$out" | head -1)"
}

if [ $check_only -eq 1 ]; then
  n=0; nbad=0
  for p in $patches; do
    n=$((n+1))
    why=$(problem "$top" "$p")
    [ -z "$why" ] || { echo "mutants: $(basename "$p"): $why"; nbad=$((nbad+1)); }
  done
  echo "mutants: $n patches checked, $nbad unusable"
  [ $nbad -eq 0 ]
  exit
fi
mkdir -p "$tree" "$log"

sync_tree
echo "mutants: scratch tree $tree (logs in $log)"
build all tests || { echo "mutants: the unmutated tree does not build (see $log/build.txt)"; exit 2; }
# the named tests must pass on the unmutated tree, or a kill would mean nothing
named=$(for p in $patches; do [ -f "$p" ] && { killed_by "$p"; only "$p"; }; done | tr ' ' '\n' | grep -vx none | LC_ALL=C sort -u)
for t in $named; do
  is_test "$tree" "$t" || continue
  run_test "$t" || { echo "mutants: $t fails on the unmutated tree (see $log/$t.txt)"; exit 2; }
done
full_ok=0   # the whole suite passed once on the unmutated tree

total=0; killed=0; equiv=0; bad=0
for p in $patches; do
  name=$(basename "$p" .patch)
  why=$(problem "$tree" "$p")
  what=$(header what "$p"); by=$(killed_by "$p"); eq=$(header equivalent "$p"); sel=$(only "$p")
  case "$why" in
    "") ;;
    STALE:*) echo "STALE      $name: ${why#STALE: }"; [ -n "$eq" ] || total=$((total+1)); bad=$((bad+1)); continue ;;
    *) echo "BROKEN     $name: $why"; bad=$((bad+1)); continue ;;
  esac
  if [ -n "$eq" ]; then echo "EQUIVALENT $name: $eq"; equiv=$((equiv+1)); continue; fi
  total=$((total+1))
  start=$(date +%s)
  bdir=build
  unfrozen=1; [ "$(header freeze "$p")" = checked ] && unfrozen=
  if [ "$(header build "$p")" = sanitized ]; then
    # its tests in the sanitized build, unmutated first (or a kill would mean nothing); no
    # others: the rest of the suite under the sanitizers is `make asan`'s, not this run's
    bdir=build-san sel=""
    build_for $by || { echo "mutants: the unmutated tree does not build sanitized (see $log/build.txt)"; exit 2; }
    for t in $by; do
      run_test "$t" || { echo "mutants: $t fails sanitized on the unmutated tree (see $log/$t.txt)"; exit 2; }
    done
  fi
  patch -p1 -d "$tree" --batch -s --no-backup-if-mismatch < "$p" > "$log/patch.txt" 2>&1
  result=""
  if [ "$sel" = none ]; then
    # no test executes the mutated statement: none can kill it; only whether it compiles
    if build all; then result="SURVIVED:no test executes it"
    else cp "$log/build.txt" "$log/$name.build.txt"; result="BROKEN:does not build (see $log/$name.build.txt)"; fi
  elif ! build_for $by; then
    cp "$log/build.txt" "$log/$name.build.txt"
    result="BROKEN:does not build (see $log/$name.build.txt)"
  fi
  if [ -z "$result" ]; then
    for t in $by; do
      if ! run_test "$t"; then result="KILLED:by $t"; cp "$log/$t.txt" "$log/$name.txt"; break; fi
    done
  fi
  if [ -z "$result" ] && [ -n "$sel" ] && ! build_for $sel; then
    result="BROKEN:does not build (see $log/$name.build.txt)"; cp "$log/build.txt" "$log/$name.build.txt"
  fi
  if [ -z "$result" ] && [ -n "$sel" ]; then
    # the rest of the tests that execute the mutated statement (their baseline ran above),
    # built only now: most mutants die in the first ones
    result="SURVIVED:"
    for t in $sel; do
      case " $by " in *" $t "*) continue ;; esac
      if ! run_test "$t"; then result="KILLED:by $t"; cp "$log/$t.txt" "$log/$name.txt"; break; fi
    done
  fi
  [ -z "$result" ] && [ "$bdir" = build-san ] && result="SURVIVED:sanitized, its killed-by tests only"
  if [ -z "$result" ]; then
    # the rest of the suite; its baseline first (once), so that no failure predates the mutant
    if [ $full_ok -eq 0 ]; then
      patch -R -p1 -d "$tree" --batch -s --no-backup-if-mismatch < "$p" > "$log/patch.txt" 2>&1
      build all tests || { echo "mutants: the unmutated tree does not build (see $log/build.txt)"; exit 2; }
      for t in $(suite); do
        run_test "$t" || { echo "mutants: $t fails on the unmutated tree (see $log/$t.txt)"; exit 2; }
      done
      full_ok=1
      patch -p1 -d "$tree" --batch -s --no-backup-if-mismatch < "$p" > "$log/patch.txt" 2>&1
    fi
    if ! build all tests; then
      result="BROKEN:does not build (see $log/$name.build.txt)"; cp "$log/build.txt" "$log/$name.build.txt"
    else
      result=SURVIVED
      for t in $(suite); do
        case " $by " in *" $t "*) continue ;; esac
        if ! run_test "$t"; then result="KILLED:by $t, not by its killed-by $by"; cp "$log/$t.txt" "$log/$name.txt"; break; fi
      done
    fi
  fi
  patch -R -p1 -d "$tree" --batch -s --no-backup-if-mismatch < "$p" > "$log/patch.txt" 2>&1 || sync_tree
  secs=$(( $(date +%s) - start ))
  case "$result" in
    KILLED:*) killed=$((killed+1))
      grep -q '^run.sh: timed out' "$log/$name.txt" 2>/dev/null && result="$result (timed out)"
      printf 'KILLED     %s %s (%d s)\n' "$name" "${result#KILLED:}" "$secs" ;;
    BROKEN:*) bad=$((bad+1)); printf 'BROKEN     %s: %s\n' "$name" "${result#BROKEN:}" ;;
    SURVIVED:?*) printf 'SURVIVED   %s: %s [%s] (%d s)\n' "$name" "$what" "${result#SURVIVED:}" "$secs" ;;
    *) printf 'SURVIVED   %s: %s (%d s)\n' "$name" "$what" "$secs" ;;
  esac
done
echo "killed $killed of $total non-equivalent ($equiv equivalent)"
[ "$killed" -eq "$total" ] && [ "$bad" -eq 0 ]
