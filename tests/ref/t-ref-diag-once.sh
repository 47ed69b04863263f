#!/bin/sh
# t-ref-diag-once.sh — a certified run evaluates its diagnostics once per written row
# (ref/path.c refresh: the run driver asks for a row's diagnostics for its summary, for the
# row's columns and, at the last row, for the certified statements; at N = 128 one
# evaluation costs more CPU than many steps), and each row's diagnostics are still those
# of that row's state:
#   1. `slpi run --ref` with R written rows reports R evaluations on its time line (R + 2R
#      or 3R without the memo);
#   2. the energy H0 of every row (the certified ball's midpoint) agrees with the double
#      path's H0 of the same row to 1e-12 relative (the two paths agree to about 1e-15
#      over these 8 steps; a diagnostic left from an earlier state is off by the noise's
#      change of H0 per step, about 1e-3), and the energy changes along the run (the
#      double path keeps its diagnostics once per state too, fast/path.c: a stale one
#      there fails this comparison as well);
#   3. the same rows written every step and every second step have the same bytes.
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "t-ref-diag-once: FAIL: $*" >&2; fail=1; }
keys="system=rigid-body scheme=isomp h=0.05 steps=8 seed=11"

"$slpi" run --ref $keys output_every=1 -o "$tmp/ref1.tsv" > "$tmp/sum1" 2>&1 || bad "run --ref output_every=1: $(tail -1 "$tmp/sum1")"
"$slpi" run --ref $keys output_every=2 -o "$tmp/ref2.tsv" > "$tmp/sum2" 2>&1 || bad "run --ref output_every=2: $(tail -1 "$tmp/sum2")"
"$slpi" run $keys output_every=1 -o "$tmp/fast.tsv" > /dev/null 2>&1 || bad "run (double path)"

# 1. one evaluation per written row
for k in 1 2; do
  rows=$(grep -vc '^#' "$tmp/ref$k.tsv"); rows=$((rows - 1))
  ev=$(sed -n 's/.*diagnostics [0-9.]* CPU-s (\([0-9]*\) evaluations.*/\1/p' "$tmp/sum$k")
  echo "t-ref-diag-once: output_every=$k: $rows rows, $ev evaluations"
  [ "$ev" = "$rows" ] || bad "output_every=$k: $rows written rows but '${ev:-no}' evaluations of the diagnostics"
done

# 2. each row's H0 is its own state's (against the double path)
awk -F'\t' '
  FNR == 1 { f++ }
  /^#/ { next }
  $1 == "step" { for (i = 1; i <= NF; i++) if ($i == "H0") c[f] = i; next }
  f == 1 { split($c[1], b, " "); ref[$1] = b[1] + 0 }
  f == 2 { fast[$1] = $c[2] + 0 }
  END {
    bad = 0; moved = 0
    for (s in ref) {
      d = ref[s] - fast[s]; if (d < 0) d = -d
      if (d > 1e-12 * (fast[s] < 0 ? -fast[s] : fast[s])) { printf "step %s: certified H0 %.17g, double %.17g\n", s, ref[s], fast[s]; bad = 1 }
      if (ref[s] != ref[0]) moved = 1
    }
    if (!moved) { print "H0 never changed along the run"; bad = 1 }
    exit bad
  }' "$tmp/ref1.tsv" "$tmp/fast.tsv" > "$tmp/cmp" || bad "rows' diagnostics: $(cat "$tmp/cmp")"

# 3. the shared rows, byte for byte
grep -v '^#' "$tmp/ref1.tsv" | awk -F'\t' '$1 == "step" || $1 % 2 == 0' > "$tmp/even1"
grep -v '^#' "$tmp/ref2.tsv" > "$tmp/even2"
cmp -s "$tmp/even1" "$tmp/even2" || bad "rows written every step and every second step differ"

[ $fail -eq 0 ] && echo "t-ref-diag-once: ok"
exit $fail
