#!/bin/sh
# archive-full.sh FROM TO — copy a FULL=1 audit's evidence (the report folder FROM) into the
# committable folder TO (reports/full): claims.json (verdicts, every check's numbers,
# evidence, command; date, revision and machine), index.html (its figures as PNG), the
# PNG figures of the decisive checks and the data tables up to 64 KB (long trajectories
# stay out: their figures and the numbers in claims.json are the evidence). Committing TO
# is a reviewed act, like the golden files: `git diff reports/full` shows what changed.
from=${1:?usage: archive-full.sh FROM TO}; to=${2:?usage: archive-full.sh FROM TO}
[ -f "$from/claims.json" ] || { echo "archive-full: $from/claims.json missing" >&2; exit 2; }
mkdir -p "$to/figures" "$to/data" || exit 2
rm -f "$to"/figures/* "$to"/data/*
cp "$from/claims.json" "$to/" || exit 2
sed "s/\.svg'/.png'/g" "$from/index.html" > "$to/index.html" || exit 2
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
