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
