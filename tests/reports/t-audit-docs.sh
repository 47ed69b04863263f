#!/bin/sh
# t-audit-docs.sh — one source of truth for the claims: docs/claims.md's per-claim
# entries equal what `slpi audit --docs` generates from reports/claims.txt, and the
# changelog's registry digest equals the registry's rules (a rule change without a dated
# changelog entry fails; so does a changed evaluator: a claim's digest covers the source of
# the evaluators it calls); every claim has a rule, every paper claim the paper's words
# (quoted with their location) and every claim with a numeric threshold a choice mark.
# Fault injection: a changed threshold and a hand-edited entry must both be caught.
bin=${SLPI_BIN:-build/slpi}
fail=0
sh reports/claims-docs.sh "$bin" --check || fail=1
dir=$(mktemp -d /tmp/slpi-t-audit-docs-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/reports" "$dir/docs"
# a changed threshold without a changelog entry
sed 's/^R1 | \(.*\) | max C1_dev <= 1e-12 | T=100$/R1 | \1 | max C1_dev <= 1e-11 | T=100/' reports/claims.txt > "$dir/reports/claims.txt"
cp docs/claims.md "$dir/docs/"
cp reports/claims-docs.sh reports/audit*.c "$dir/reports/"
# (the entries regenerated, as an author would: only the digest can notice)
if cmp -s reports/claims.txt "$dir/reports/claims.txt"; then
  echo "t-audit-docs: FAIL: the R1 line to alter was not found"; fail=1
elif ! (cd "$dir" && sh reports/claims-docs.sh "$bin" > log 2>&1); then
  echo "t-audit-docs: FAIL: the entries could not be regenerated"; cat "$dir/log"; fail=1
elif (cd "$dir" && sh reports/claims-docs.sh "$bin" --check > log 2>&1); then
  echo "t-audit-docs: FAIL: a threshold changed without a changelog entry was accepted"; fail=1
fi
# an evaluator's source changed (rules include their code): the unchanged copy passes, a
# changed critical sweep's seeds do not, without a changelog entry
cp reports/claims.txt "$dir/reports/claims.txt"
cp docs/claims.md "$dir/docs/"
if ! (cd "$dir" && sh reports/claims-docs.sh "$bin" --check > log 2>&1); then
  echo "t-audit-docs: FAIL: the unchanged copy of the registry and its evaluators is refused"; cat "$dir/log"; fail=1
fi
sed 's/seed0 = 1 + a->seed_offset;/seed0 = 2 + a->seed_offset;/' reports/audit-runs.c > "$dir/reports/audit-runs.c"
if cmp -s reports/audit-runs.c "$dir/reports/audit-runs.c"; then
  echo "t-audit-docs: FAIL: the evaluator line to alter was not found"; fail=1
elif (cd "$dir" && sh reports/claims-docs.sh "$bin" > log 2>&1 && sh reports/claims-docs.sh "$bin" --check > log 2>&1); then
  echo "t-audit-docs: FAIL: an evaluator changed without a changelog entry was accepted"; fail=1
elif ! grep -q "| R7 | " "$dir/docs/claims.md" || cmp -s docs/claims.md "$dir/docs/claims.md"; then
  echo "t-audit-docs: FAIL: the changed evaluator did not change its claims' digests"; fail=1
fi
cp reports/audit-runs.c "$dir/reports/"
# a hand-edited entry
cp reports/claims.txt "$dir/reports/claims.txt"
sed 's/^\(Tangent-Munthe-Kaas (TMK) keeps\)/\1 always/' docs/claims.md > "$dir/docs/claims.md"
if cmp -s docs/claims.md "$dir/docs/claims.md"; then
  echo "t-audit-docs: FAIL: the R1 entry to alter was not found"; fail=1
elif (cd "$dir" && sh reports/claims-docs.sh "$bin" --check > log 2>&1); then
  echo "t-audit-docs: FAIL: a hand-edited entry was accepted"; fail=1
fi
# the freeze (docs/claims.md#decision-digest): the decision path's digest the command
# carries (derived by the build) is the frozen one, the frozen one is recomputed from the
# sources it names, and the path holds the statistics, fits and verdict rules. Under the
# mutation runner (SLPI_AUDIT_RULES_CHANGED=1) this part is its freeze mutants' alone.
if [ "${SLPI_AUDIT_RULES_CHANGED:-}" != 1 ]; then
  "$bin" audit --digest > "$dir/digest" 2>&1 || { echo "t-audit-docs: FAIL: slpi audit --digest exited $?"; cat "$dir/digest"; fail=1; }
  for k in "Decision digest" "Decision sources"; do
    grep "^$k (" "$dir/digest" | cmp -s - "$(grep "^$k (" docs/claims.md > "$dir/frozen"; echo "$dir/frozen")" ||
      { echo "t-audit-docs: FAIL: the decision path changed (a rule change): the command carries"
        grep "^$k (" "$dir/digest" | cut -c1-200; echo "  docs/claims.md freezes"; cut -c1-200 "$dir/frozen"
        echo "  enter it in docs/claims.md's changelog and set its Decision lines to \`slpi audit --digest\`'s"; fail=1; }
  done
  sh reports/decision-digest.sh > "$dir/recomputed" 2>&1 || { echo "t-audit-docs: FAIL: the frozen decision digest is not its sources':"; cat "$dir/recomputed"; fail=1; }
  for f in reports/audit-checks.c studies/stats.c studies/converge-stats.c reports/audit-verdict.c; do
    grep "^Decision sources (" "$dir/digest" | tr ' ' '\n' | grep -qx "$f" ||
      { echo "t-audit-docs: FAIL: $f is not on the decision path the build derived"; fail=1; }
  done
  # a changed registry line changes the run's decision digest
  sed 's/^R1 | \(.*\) | max C1_dev <= 1e-12 | T=100$/R1 | \1 | max C1_dev <= 1e-11 | T=100/' reports/claims.txt > "$dir/claims-r1.txt"
  [ "$("$bin" audit --digest --claims "$dir/claims-r1.txt" | sed -n 's/^Decision digest (.*): //p')" != \
    "$(sed -n 's/^Decision digest (.*): //p' docs/claims.md)" ] || { echo "t-audit-docs: FAIL: a changed threshold left the decision digest as it was"; fail=1; }
  # a run whose path is not the frozen one is refused, nothing written; flagged when asked
  abin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  mkdir -p "$dir/co/docs" "$dir/co/reports" && cp reports/claims.txt "$dir/co/reports/" &&
    sed 's/^\(Decision sources (\)[0-9a-f]*/\10000000000000000/' docs/claims.md > "$dir/co/docs/claims.md"
  (cd "$dir/co" && OPENBLAS_NUM_THREADS=1 "$abin" audit --only R5 --out o -q > log 2>&1); rc=$?
  { [ $rc = 2 ] && [ ! -e "$dir/co/o" ] && grep -q "decision path changed" "$dir/co/log"; } ||
    { echo "t-audit-docs: FAIL: a run under unfrozen sources was not refused (exit $rc)"; cat "$dir/co/log"; fail=1; }
  (cd "$dir/co" && SLPI_AUDIT_RULES_CHANGED=1 "$abin" audit --only R5 --cache c --cached-only --out o -q > log 2>&1)
  { [ "$(jq -r .rules_changed "$dir/co/o/claims.json" 2>/dev/null)" = true ] && grep -q "RULES CHANGED" "$dir/co/o/index.html"; } ||
    { echo "t-audit-docs: FAIL: a run under SLPI_AUDIT_RULES_CHANGED=1 is not flagged"; fail=1; }
fi
# completeness of the registry
awk -F' [|] ' '
  /^= / { id = substr($1, 3); ids[id] = 1; src[id] = "" }
  /^" / { q[substr($1, 3)] = 1 }
  /^~ / { r[substr($1, 3)] = 1 }
  /^! / { ch[substr($1, 3)] = 1 }
  /^[A-Z][0-9]* [|]/ { if ($2 != "derived" && $2 !~ /^derived/) paper[$1] = 1
                      if ($6 ~ /(<=|>=) [-0-9.e]+$/ || $6 ~ /^(slope|growth|critical|weakexact|legap) /) thr[$1] = 1 }
  END { for (id in ids) {
          if (!(id in r)) { print "t-audit-docs: FAIL: " id " has no rule (~ line)"; bad = 1 }
          if ((id in paper) && !(id in q)) { print "t-audit-docs: FAIL: paper claim " id " quotes no words (\" line)"; bad = 1 }
          if ((id in thr) && !(id in ch)) { print "t-audit-docs: FAIL: " id " has thresholds but no choice mark (! line)"; bad = 1 }
        }
        exit bad }' reports/claims.txt || fail=1
[ $fail -eq 0 ] && echo "t-audit-docs: entries, digest, rules, quotes and choice marks of $(grep -c '^= ' reports/claims.txt) claims"
exit $fail
