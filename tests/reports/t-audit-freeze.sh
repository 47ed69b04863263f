#!/bin/sh
# t-audit-freeze.sh — no audit runs outside the freeze unflagged (reports/audit-freeze.c,
# docs/claims.md#decision-digest). The freeze that governs a run is the docs/claims.md of
# its registry's checkout (CHECKOUT/reports/claims.txt), else the working folder's:
# - a checkout's registry run from another folder: judged by its checkout's freeze, not flagged;
# - a checkout whose frozen sources are not the command's, run from another folder: refused
#   (it ran unchecked when the freeze was looked up in the working folder alone);
# - a checkout whose registry was edited after its freeze: refused, from any folder;
# - an edited copy of the registry given to --claims: runs, flagged outside_freeze in
#   claims.json and index.html, and archive-full.sh refuses to archive it; a copy where no
#   frozen lines are found is flagged the same way; an identical copy under a checkout's
#   freeze is not flagged.
# Each checkout here is made by the test: reports/claims.txt copied, docs/claims.md holding
# the two lines `slpi audit --digest` prints for it (the freeze as an author writes it), so
# the test holds whatever the sources are (a mutant of an evaluator is no rule change to it)
# and runs without SLPI_AUDIT_RULES_CHANGED. X3's controls (no numerics) stand for the run.
. "$(dirname "$0")/prelude.sh"
unset SLPI_AUDIT_RULES_CHANGED
audit() { OPENBLAS_NUM_THREADS=1 "$slpi" audit --controls --only X3 -q --claims "$@"; }
flag() { jq -r '.outside_freeze // "null"' "$1/claims.json" 2>/dev/null; }
co() { mkdir -p "$1/reports" "$1/docs" && cp "$top/reports/claims.txt" "$1/reports/" &&
  "$slpi" audit --digest --claims "$1/reports/claims.txt" > "$1/docs/claims.md"; }
edit() { sed 's/^~ X3 | The papers. thresholds and the library.s agree to rounding for ell = 2\.$/~ X3 | The thresholds agree for ell = 2./' "$1"; }
mkdir run && cd run || exit 2   # a folder with no docs/claims.md

# a checkout's registry, from another folder: its own freeze
co "$d/good"
[ "$(grep -c '^Decision \(digest\|sources\) (' "$d/good/docs/claims.md")" = 2 ] || note "slpi audit --digest did not print the two frozen lines"
audit "$d/good/reports/claims.txt" --out o1 > o1.log 2>&1 || note "a checkout's registry from another folder: exit $? ($(tail -1 o1.log))"
[ "$(flag o1)" = null ] || note "a checkout's registry from another folder was flagged: $(flag o1)"

# a checkout whose freeze names other sources, run from elsewhere: a rule change
co "$d/fake"
sed -i 's/^\(Decision sources (\)[0-9a-f]*/\10000000000000000/' "$d/fake/docs/claims.md"
if audit "$d/fake/reports/claims.txt" --out o2 > o2.log 2>&1; then note "a checkout whose frozen sources differ ran from another folder"; fi
grep -q "decision path changed (its sources" o2.log || note "the refusal does not say the sources changed: $(head -c 300 o2.log)"
[ ! -e o2 ] || note "a refused run wrote its report folder"

# a checkout whose registry was edited after its freeze: refused, from another folder too
co "$d/edited"
edit "$top/reports/claims.txt" > "$d/edited/reports/claims.txt"
cmp -s "$top/reports/claims.txt" "$d/edited/reports/claims.txt" && note "the X3 line to edit was not found"
if audit "$d/edited/reports/claims.txt" --out o3 > o3.log 2>&1; then note "an edited registry in its checkout ran"; fi
grep -q "decision path changed (its registry lines)" o3.log || note "the refusal does not name the registry: $(head -c 300 o3.log)"

# an edited copy given to --claims, from a checkout: runs, flagged, never archived
edit "$top/reports/claims.txt" > "$d/copy.txt"
(cd "$d/good" && audit "$d/copy.txt" --out "$d/run/o4") > o4.log 2>&1 || note "an edited copy from a checkout: exit $? ($(tail -1 o4.log))"
case $(flag o4) in "the registry $d/copy.txt is not the frozen one"*) ;; *) note "an edited copy is not flagged: $(flag o4)" ;; esac
grep -q "OUTSIDE THE FREEZE: the registry" o4/index.html || note "index.html does not say the run is outside the freeze"
if sh "$top/reports/archive/archive-full.sh" o4 arch > arch.log 2>&1; then note "archive-full.sh archived a run outside the freeze"; fi
[ ! -e arch ] || note "archive-full.sh made its archive folder for a run it refuses"

# the same copy where no freeze is found (neither beside it nor in the working folder)
audit "$d/copy.txt" --out o5 > o5.log 2>&1 || note "a copy with no freeze in sight: exit $? ($(tail -1 o5.log))"
case $(flag o5) in "no frozen Decision lines"*) ;; *) note "a run with no freeze in sight is not flagged: $(flag o5)" ;; esac

# an identical copy under a checkout's freeze: the frozen rules, not flagged
cp "$top/reports/claims.txt" "$d/same.txt"
(cd "$d/good" && audit "$d/same.txt" --out "$d/run/o6") > o6.log 2>&1 || note "an identical copy: exit $?"
[ "$(flag o6)" = null ] || note "an identical copy of the frozen registry was flagged: $(flag o6)"

[ $fail -eq 0 ] && echo "$unit: a checkout's registry from elsewhere, a changed freeze, an edited registry, an edited, unfrozen and identical copy"
exit $fail
