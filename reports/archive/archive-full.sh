#!/bin/sh
# archive-full.sh FROM TO — copy a FULL=1 audit's evidence (the report folder FROM) into the
# committable folder TO (reports/full): claims.json (verdicts, every check's numbers,
# evidence, command; date, revision and machine), the
# PNG figures of the decisive checks and the data tables up to 64 KB (long trajectories
# stay out: their figures and the numbers in claims.json are the evidence). Committing TO
# is a reviewed act, like the golden files: `git diff reports/full` shows what changed.
#
# archive-full.sh --add FROM TO — a FULL run of some claims only (`make audit FULL=1
# ONLY=I4,I25`, --only) added to an existing archive: each claim FROM decided (its decisive
# checks ran) replaces TO's entry for it and carries its own run ("run": date, provenance,
# machine, and the run's seed offset, fit, levels and its registry, build and rules digests
# when its report has them), which the reduced report prints beside its verdict; TO's other claims, its
# date, revision and machine stay those of the run that wrote them. Figures
# and tables of the added claims are copied; nothing of TO is removed.
# Both end by writing TO's index and pages from the numbers now archived, with the tools of
# this checkout (reports/archive/archive-index.sh: INDEX.md, and docs/claims.md's tables for
# reports/full; reports/archive/archive-html.sh: index.html, confirmatory/index.html;
# reports/archive/replication.sh: replication/RKMK.md, ISO.md, SVI.md), never a report an older
# binary wrote.
add=0
[ "${1:-}" = --add ] && { add=1; shift; }
from=${1:?usage: archive-full.sh FROM TO}; to=${2:?usage: archive-full.sh FROM TO}
[ -f "$from/claims.json" ] || { echo "archive-full: $from/claims.json missing" >&2; exit 2; }
[ $add = 0 ] || [ -f "$to/claims.json" ] || { echo "archive-full: --add: $to/claims.json missing (archive a whole run first)" >&2; exit 2; }
# a run flagged as a rule change (its decision digest not the frozen one, run with
# SLPI_AUDIT_RULES_CHANGED=1; docs/claims.md#decision-digest) is never archived
grep -q '"rules_changed": *true' "$from/claims.json" &&
  { echo "archive-full: $from was run under a changed decision path (rules_changed): enter the change in docs/claims.md's changelog, freeze its digest and run again" >&2; exit 2; }
# nor is a run outside the freeze (another registry than the frozen one, or no frozen lines)
grep -q '"outside_freeze": *"' "$from/claims.json" &&
  { echo "archive-full: $from was run outside the freeze (outside_freeze in its claims.json): run it from the checkout with its reports/claims.txt" >&2; exit 2; }
mkdir -p "$to/figures" "$to/data" || exit 2
if [ $add = 1 ]; then
  command -v jq >/dev/null || { echo "archive-full: --add needs jq (make deps installs it)" >&2; exit 2; }
  tmp="$to/claims.json.tmp$$"
  decided='select(any(.checks[]; .role == "claim" and .outcome != "not run"))'   # its decisive checks ran
  jq --slurpfile new "$from/claims.json" '
    ($new[0]) as $n
    | [$n.claims[] | '"$decided"'
       | . + {run: ({date: $n.date, provenance: $n.provenance, machine: $n.machine}
                    + ($n | {seed_offset, fit, levels, registry_digest, build_digest, rules_digest, source_digest, loaded}
                       | with_entries(select(.value != null))))}] as $ran
    | ([.claims[].id]) as $old
    | .claims = ([.claims[] | . as $c | ([$ran[] | select(.id == $c.id)] | first) // $c]
                 + [$ran[] | select(.id as $i | $old | index($i) | not)])' \
    --indent 1 "$to/claims.json" > "$tmp" && mv "$tmp" "$to/claims.json" || { rm -f "$tmp"; echo "archive-full: --add failed" >&2; exit 2; }
  echo "archive-full: added $(jq -r '[.claims[] | '"$decided"' | .id] | join(" ")' "$from/claims.json")"
else
  rm -f "$to"/figures/* "$to"/data/*
  cp "$from/claims.json" "$to/" || exit 2
fi
# the figures of decisive checks: "role": "claim" ... "figure": "NAME" in claims.json
figs=$(awk '/"role": "claim"/ { c = 1 } /"role": "(cond|ev|fails|passes)"/ { c = 0 }
            c && /"figure": "/ { sub(/.*"figure": "/, ""); sub(/".*/, ""); print }' "$from/claims.json" | sort -u)
for n in $figs; do
  [ -f "$from/figures/$n.png" ] && cp "$from/figures/$n.png" "$to/figures/"
  for d in "$from/data/$n.tsv" "$from/data/$n.dat"; do
    [ -f "$d" ] && [ "$(wc -c < "$d")" -le 65536 ] && cp "$d" "$to/data/"
  done
done
echo "archive-full: $(ls "$to/figures" | wc -l) figures, $(ls "$to/data" | wc -l) tables, $(du -sk "$to" | cut -f1) KB in $to"
sh reports/archive/archive-index.sh "$to" && sh reports/archive/archive-html.sh "$to" && sh reports/archive/replication.sh "$to" || exit 2
