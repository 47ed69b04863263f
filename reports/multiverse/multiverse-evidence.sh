#!/bin/sh
# multiverse-evidence.sh OUT [ROWS] — the numbers behind every check of every member of a
# multiverse run (reports/multiverse/multiverse.sh OUT), so that a referee can re-fit them without
# running anything (docs/claims.md#labels): OUT/checks.tsv, one row a member's check:
#   member, coordinates (as members.tsv), role, registry line, check, outcome, value, its
#   numbers (compact JSON: a slope's CI, the ensemble's closest and farthest paths, ...),
#   and the check's table from the member's data/ID-lLINE.tsv where it has at most ROWS
#   (default 64) rows: a slope's per-level table "h e SE fitted" (rows joined by "; ");
#   "-" where the table is longer (a trajectory: the run's command remakes it) or absent.
# Exit 2 when OUT has no members.tsv or a listed member has no claims.json.
usage="usage: multiverse-evidence.sh OUT [ROWS]"
out=${1:?$usage}; rows=${2:-64}
command -v jq > /dev/null || { echo "multiverse-evidence: needs jq (make deps installs it)" >&2; exit 2; }
[ -f "$out/members.tsv" ] || { echo "multiverse-evidence: $out/members.tsv missing" >&2; exit 2; }
printf 'member\tcoordinates\trole\tline\tcheck\toutcome\tvalue\tnumbers\ttable\n' > "$out/checks.tsv.new" || exit 2
awk -F'\t' 'NR > 1 { print $1 "\t" $2 }' "$out/members.tsv" | while IFS='	' read -r k coords; do
  j=$out/m$k/claims.json
  [ -f "$j" ] || { echo "multiverse-evidence: member $k has no $j" >&2; exit 2; }
  id=$(jq -r '.claims[0].id' "$j")
  jq -r '.claims[0].checks[] | [.role, (.line | tostring), .check, .outcome, (.value // "none" | tostring),
      (.numbers // {} | tojson)] | @tsv' "$j" | while IFS='	' read -r role line check outcome value nums; do
    d=$out/m$k/data/$id-l$line.tsv table=-
    if [ -f "$d" ] && [ "$(grep -vc '^#' "$d")" -le "$rows" ]; then
      table=$(grep -v '^#' "$d" | tr '\t' ' ' | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$coords" "$role" "$line" "$check" "$outcome" "$value" "$nums" "$table"
  done
done >> "$out/checks.tsv.new" || exit 2
mv "$out/checks.tsv.new" "$out/checks.tsv"
