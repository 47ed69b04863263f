#!/bin/sh
# claims-docs.sh SLPI [--check] — docs/claims.md's per-claim entries from the registry:
# splice `SLPI audit --docs` between the markers of docs/claims.md (or, with --check, only
# compare and exit 1 on a difference), and the registry's rule digest: sha256 (first 16
# hex digits) of every rule line of reports/claims.txt (checks, "~", "!" and "@" lines;
# not the quotes and texts). The changelog's "Registry digest:" must equal it, so a rule
# cannot change without a new changelog entry: this script never writes the digest (the
# author of the entry does).
slpi=${1:?usage: claims-docs.sh SLPI [--check]}; mode=${2:-write}
doc=docs/claims.md; reg=reports/claims.txt
tmp=$(mktemp) || exit 2; gen=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$gen"' EXIT
"$slpi" audit --docs "$gen" --claims "$reg" || exit 2
digest=$(grep -v '^[#="=]' "$reg" | grep -v '^"' | grep -v '^ *$' | sha256sum | cut -c1-16)
awk -v gen="$gen" '
  /^<!-- generated from reports\/claims.txt/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
  /^<!-- end of generated entries -->/ { skip = 0 }
  !skip { print }' "$doc" > "$tmp"
if [ "$mode" = --check ]; then
  bad=0
  if ! cmp -s "$doc" "$tmp"; then
    echo "claims-docs: docs/claims.md's entries differ from the registry (run sh reports/claims-docs.sh $slpi):"
    diff "$doc" "$tmp" | head -20; bad=1
  fi
  if ! grep -q "^Registry digest (.*): $digest\$" "$doc"; then
    echo "claims-docs: the registry's rules changed (digest $digest): add a dated changelog entry to docs/claims.md (reason, verdict under the old and the new rule) and set its 'Registry digest:' to $digest"; bad=1
  fi
  exit $bad
fi
cp "$tmp" "$doc"
echo "claims-docs: docs/claims.md entries regenerated; the registry's rule digest is $digest"
grep -q "^Registry digest (.*): $digest\$" "$doc" || echo "claims-docs: the rules changed: add a dated changelog entry (reason, verdict under the old and the new rule) and set 'Registry digest:' to $digest"
