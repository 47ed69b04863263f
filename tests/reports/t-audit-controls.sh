#!/bin/sh
# t-audit-controls.sh — every claim of the audit registry (reports/claims.txt) carries a
# control, the decisive check on a case where it must not be met (or must be met): the
# demonstration that the check can fail. Evaluate all controls at reduced size and require
# each to come out as it demands (slpi audit --controls exits 1 otherwise); a registry
# whose control is altered to hold must make the run fail.
bin=${SLPI_BIN:-build/slpi}
dir=$(mktemp -d /tmp/slpi-t-audit-controls-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
if OPENBLAS_NUM_THREADS=1 "$bin" audit --controls --out "$dir/out" > "$dir/log" 2>&1; then
  tail -n 1 "$dir/log"
else
  echo "t-audit-controls: FAIL: a control did not come out as demanded:"
  grep -B3 "CONTROL WRONG" "$dir/log"; tail -n 2 "$dir/log"; fail=1
fi
grep -c '^[A-Z][0-9]* |.*| \(fails\|passes\) |' reports/claims.txt | sed 's/^/controls in the registry: /'
# a control that cannot fail is caught: turn X3's "fails | thresholds 1" into thresholds 2
sed 's/^X3 | derived | CONFIRMED | fails | - | thresholds 1 | -$/X3 | derived | CONFIRMED | fails | - | thresholds 2 | -/' \
  reports/claims.txt > "$dir/claims.txt"
if cmp -s reports/claims.txt "$dir/claims.txt"; then
  echo "t-audit-controls: FAIL: the X3 control line was not found"; fail=1
elif "$bin" audit --controls --only X3 --claims "$dir/claims.txt" --out "$dir/x3" -q > "$dir/log3" 2>&1; then
  echo "t-audit-controls: FAIL: a control that holds was accepted"; cat "$dir/log3"; fail=1
fi
[ $fail -eq 0 ] && echo "t-audit-controls: ok"
exit $fail
