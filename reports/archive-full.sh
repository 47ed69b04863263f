#!/bin/sh
# archive-full.sh FROM TO — copy a FULL=1 audit's evidence (the report folder FROM) into the
# committable folder TO (reports/full): claims.json (verdicts, every check's numbers,
# evidence, command, date, revision and machine), index.html, the figures (PNG and SVG)
# and the data tables up to 256 KB (long trajectories stay out: their figures and the
# numbers in claims.json are the evidence). Committing TO is a reviewed act, like the
# golden files: `git diff reports/full` shows what a FULL run changed.
from=${1:?usage: archive-full.sh FROM TO}; to=${2:?usage: archive-full.sh FROM TO}
[ -f "$from/claims.json" ] || { echo "archive-full: $from/claims.json missing" >&2; exit 2; }
mkdir -p "$to/figures" "$to/data" || exit 2
rm -f "$to"/figures/* "$to"/data/*
cp "$from/claims.json" "$from/index.html" "$to/" || exit 2
for f in "$from"/figures/*.png "$from"/figures/*.svg; do [ -f "$f" ] && cp "$f" "$to/figures/"; done
for f in "$from"/data/*.tsv "$from"/data/*.dat; do
  [ -f "$f" ] && [ "$(wc -c < "$f")" -le 262144 ] && cp "$f" "$to/data/"
done
echo "archive-full: $(ls "$to/figures" | wc -l) figures, $(ls "$to/data" | wc -l) tables in $to"
