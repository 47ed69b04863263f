#!/bin/sh
# t-props-list.sh — the coverage table of the property harness: `slpi props --list`
# prints every property x system x scheme x path cell from the engine's own decisions;
# each cell must be `checked`, `N/A: reason` or `limitation: reason` (none empty or
# unknown), every property must appear on every system, and props/README.md must carry
# exactly this table between its markers.
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
dir="${SLPI_BUILD:-build}/t-props-list"
rm -rf "$dir"; mkdir -p "$dir"
fail=0
bad() { echo "t-props-list: FAIL: $*"; fail=1; }

"$slpi" props --list >"$dir/table"; rc=$?
[ $rc -eq 0 ] || bad "slpi props --list exited $rc"
awk -F'|' 'NR > 2 && NF > 1 {
    if (NF != 7) { print "row with " NF - 2 " fields: " $0; next }
    for (j = 5; j <= 6; j++) {
      c = $j; gsub(/^ +| +$/, "", c)
      if (c != "checked" && c !~ /^N\/A: ./ && c !~ /^limitation: ./) print "bad cell: " $0
    }
  }' "$dir/table" >"$dir/badcells"
[ -s "$dir/badcells" ] && bad "cells neither checked, N/A nor limitation: $(head -3 "$dir/badcells")"
grep -q '^cells: [0-9]* checked, [0-9]* N/A, [0-9]* limitation, 0 unknown$' "$dir/table" || bad "no cell count line with 0 unknown"
# every property on every system (the table is complete, not a selection)
props=$("$slpi" props --help | awk '/^Properties:/ { on = 1; next } on { print $1 }')
[ -n "$props" ] || bad "no property names in slpi props --help"
for p in $props; do
  for s in rigid-body heavy-top manakov point-vortices euler-zeitlin sine-euler; do
    grep -q "^| $p | $s | " "$dir/table" || bad "no row for $p on $s"
  done
done
[ "$(grep -c '| checked |\|| checked$' "$dir/table")" -gt 0 ] || bad "no checked cell"

sed -n '/^<!-- props-table-begin -->$/,/^<!-- props-table-end -->$/p' props/README.md | sed '1d;$d' >"$dir/readme"
cmp -s "$dir/table" "$dir/readme" || {
  bad "props/README.md's coverage table differs from slpi props --list (regenerate it; see props/README.md)"
  diff "$dir/readme" "$dir/table" | head -10
}
[ $fail -eq 0 ] && echo "t-props-list: $(grep '^cells:' "$dir/table")"
exit $fail
