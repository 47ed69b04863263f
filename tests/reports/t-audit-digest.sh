#!/bin/sh
# t-audit-digest.sh — the decision digest covers the verdict's inputs, as compiled
# (reports/audit-freeze.c, mk/src-digest.sh, mk/rules-digest.sh; docs/claims.md#decision-digest).
# A referee's edits that once moved verdicts unseen, each made the way it reaches a run, and
# each refused:
# - the solver's default tol (core/problem.c) and a preset the registry names
#   (core/presets.c): core objects compiled from the edited source, linked into a command,
#   refused for "its cases' problems";
# - an inline helper in a header outside reports/ (fast/vec3.h), compiled into an audit
#   object (reports/audit-closed.c), refused for "its sources";
# - a stale object: studies/stats.o compiled from an edited studies/stats.c whose source is
#   then the original again (the tree's file is never touched), refused for "its sources";
# - make audit's script reports/unit-tests.sh edited in the run's checkout, refused for
#   "its sources".
# Controls, so that the refusals cannot pass by refusing everything: a command relinked
# from an object compiled from the unedited source, and a checkout holding the unedited
# script, both run. Each object is compiled in a tree of links to this one (only the edited
# file copied) with the command make would run (`make -n`), then linked ahead of the
# libraries; each run is X3's controls (no numerics), refused before anything is evaluated.
. "$(dirname "$0")/prelude.sh"
unset SLPI_AUDIT_RULES_CHANGED MAKEFLAGS MAKELEVEL MFLAGS
b=${SLPI_BUILD:-build}
case $b in /*) ;; *) b=$top/$b ;; esac
mk() { make -C "$top" -s -n BUILD="$b" "$@" 2> /dev/null; }
link=$(mk -W cli/main.c "$b/slpi" | grep -- "-o $b/slpi ")
[ -n "$link" ] || { note "make -n prints no link line for $b/slpi"; exit 1; }
# build NAME FILE OBJ SED: $d/NAME/slpi, the command with OBJ (a .c of the tree) compiled from
# FILE edited by SED ("" : unedited), FILE alone copied into a tree of links
build() {
  t=$d/$1; mkdir -p "$t" || return 1
  for e in "$top"/*; do [ "$e" = "$top/$(dirname "$2")" ] || ln -s "$e" "$t/"; done
  mkdir -p "$t/$(dirname "$2")" && for e in "$top/$(dirname "$2")"/*; do ln -s "$e" "$t/$(dirname "$2")/"; done
  rm "$t/$2" && sed "$4" "$top/$2" > "$t/$2" || return 1
  [ -n "$4" ] && cmp -s "$top/$2" "$t/$2" && { note "$1: the edit '$4' changed nothing in $2"; return 1; }
  cc=$(mk -W "$3" "$b/${3%.c}.o" | grep -- "-c $3 -o " | sed 's/ -o .*//')
  [ -n "$cc" ] || { note "$1: make -n prints no compile line for $3"; return 1; }
  (cd "$t" && eval "$cc -o obj.o" && sh "$top/mk/src-digest.sh" obj.o) > "$t.log" 2>&1 &&
    (cd "$top" && eval "$(echo "$link" | sed "s| -o $b/slpi | -o $t/slpi |; s|$b/rules-digest.o|& $t/obj.o|")") \
      >> "$t.log" 2>&1 || { note "$1: cannot build: $(tail -3 "$t.log")"; return 1; }
}
co() { mkdir -p "$1/reports" "$1/docs" && cp "$top/reports/claims.txt" "$1/reports/" &&
  "$slpi" audit --digest --claims "$1/reports/claims.txt" > "$1/docs/claims.md"; }
run() { OPENBLAS_NUM_THREADS=1 "$1" audit --controls --only X3 -q --claims "$2/reports/claims.txt" --out "$3" > "$3.log" 2>&1; }
# refused NAME CMD WHAT: CMD's run in the checkout good is refused, naming WHAT
refused() {
  if run "$2" "$d/good" "$d/o-$1"; then note "$1: the run was not refused"
  else grep -q "decision path changed ($3" "$d/o-$1.log" || note "$1: the refusal does not name $3: $(head -c 300 "$d/o-$1.log")"; fi
}
co "$d/good"
grep -q '^Decision cases (' "$d/good/docs/claims.md" || note "slpi audit --digest prints no Decision cases line"

build plain studies/stats.c studies/stats.c "" && { run "$d/plain/slpi" "$d/good" "$d/o-plain" ||
  note "a command relinked from an unedited object was refused: $(head -c 300 "$d/o-plain.log")"; }
build tol core/problem.c core/problem.c 's/p->sol.tol = 1e-15;/p->sol.tol = 1e-13;/' &&
  refused tol "$d/tol/slpi" "its cases' problems"
build preset core/presets.c core/presets.c 's/inertia=4,2,1 noise=salt T=100"/inertia=4,2,1 noise=salt T=90"/' &&
  refused preset "$d/preset/slpi" "its cases' problems"
build inline fast/vec3.h reports/audit-closed.c 's/return (a >= b || a != a) ? a : b;/return a >= b ? a : b;/' &&
  refused inline "$d/inline/slpi" "its sources"
build stale studies/stats.c studies/stats.c 's/^\(uint64_t slpi_stats_rand(uint64_t \*state, uint64_t n)\)$/\1 \/* edited *\//' &&
  refused stale "$d/stale/slpi" "its sources"

# make audit's script, edited in the run's checkout
co "$d/drv" && cp "$top/reports/unit-tests.sh" "$d/drv/reports/" &&
  { run "$slpi" "$d/drv" "$d/o-drv0" || note "a checkout holding the unedited unit-tests.sh was refused: $(head -c 300 "$d/o-drv0.log")"; }
echo "# edited" >> "$d/drv/reports/unit-tests.sh"
if run "$slpi" "$d/drv" "$d/o-drv"; then note "an edited unit-tests.sh in the run's checkout was not refused"
else grep -q "decision path changed (its sources" "$d/o-drv.log" || note "the edited script's refusal does not name the sources: $(head -c 300 "$d/o-drv.log")"; fi

[ $fail -eq 0 ] && echo "$unit: a default tol, a preset, an inline helper, a stale object and a driver refused; unedited ones run"
exit $fail
