#!/bin/sh
# t-ref-abs-trace.sh — the certified departure abs_trace = |Tr X| of su(N) above N = 12,
# where ref/algebra-su.c takes the trace without the powers of X: from an su(13) state
# whose trace is 5e-11 i (the diagonal 0.3, -0.29999999995, 0, ...: accepted, an su(N)
# state's trace must be below 1e-10 max(1, max|x|) N), the certified ball's midpoint of
# abs_trace at rows 0 and 1 agrees with the double path's to 1e-4 relative (the double
# path's own rounding of a sum of 13 entries of size 0.3 is about 1e-16 absolute, 2e-6
# of 5e-11; the state moves the trace by rounding only) and is not 0 (a trace never
# formed reads 0).
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
awk 'BEGIN { srand(5); for (i = 0; i < 169; i++) { v = rand() - 0.5; if (i == 0) v = 0.3; else if (i == 1) v = -0.29999999995;
             else if (i < 13) v = 0; printf "%s%.17g", i ? " " : "", v }; print "" }' > "$tmp/x0.txt"
keys="system=euler-zeitlin N=13 scheme=isomp steps=1 x0_file=$tmp/x0.txt"
"$slpi" run -q --ref $keys -o "$tmp/ref.tsv" > "$tmp/msg" 2>&1 || { echo "t-ref-abs-trace: FAIL: run --ref: $(tail -1 "$tmp/msg")" >&2; exit 1; }
"$slpi" run -q $keys -o "$tmp/fast.tsv" > "$tmp/msg" 2>&1 || { echo "t-ref-abs-trace: FAIL: run: $(tail -1 "$tmp/msg")" >&2; exit 1; }
awk -F'\t' '
  FNR == 1 { f++ }
  /^#/ { next }
  $1 == "step" { for (i = 1; i <= NF; i++) if ($i == "abs_trace") c[f] = i; next }
  f == 1 { split($c[1], b, " "); ref[$1] = b[1] + 0 }
  f == 2 { fast[$1] = $c[2] + 0 }
  END {
    bad = 0
    for (s = 0; s <= 1; s++) {
      printf "t-ref-abs-trace: row %d: certified %.17g, double %.17g\n", s, ref[s], fast[s]
      d = ref[s] - fast[s]; if (d < 0) d = -d
      if (!(ref[s] > 0) || !(d <= 1e-4 * fast[s])) { print "t-ref-abs-trace: FAIL: row " s; bad = 1 }
    }
    exit bad
  }' "$tmp/ref.tsv" "$tmp/fast.tsv" || fail=1
[ $fail -eq 0 ] && echo "t-ref-abs-trace: ok"
exit $fail
