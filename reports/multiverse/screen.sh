#!/bin/sh
# screen.sh SLPI OUT [--claims FILE] [--only "ID ..."] [--cache DIR] [--tests FILE] [--max K]
# — the kernel and libm screen (docs/claims.md#screen): may the OpenBLAS kernel or the
# libm decide a claim that declares neither dimension? Each screened claim runs over the
# 16 members {Prescott, Sandybridge, Haswell, Cooperlake} x {glibc, mpfr, mpfr-up,
# mpfr-down} (the libm to nearest and directed, since 2026-11-27) at seed offset 0,
# fit wls and every level (its other declared choices at their first values), at the
# registry's reduced sizes (--full is not offered: the screen is reduced by its rule):
# reports/multiverse/multiverse.sh with a derived registry, OUT/claims.txt, in which the claim's "%"
# lines are replaced by the screen's two, into OUT/ID (members.tsv and the members'
# reports; resumable as multiverse.sh is). OUT/ID/screen.json keeps what the verdict
# reads of each member (its coordinates, verdict, and every check's role, case, check,
# outcome, numbers and bound); reports/multiverse/screen-verdict.sh decides each claim from it, by
# the rule committed before the screen ran, into OUT/screen.tsv (one row a claim) and
# prints it.
# The claims screened: every claim of FILE (default reports/claims.txt) that declares no
# blas and no libm line, or with --only those named (whatever they declare: a claim that
# declares them is a known case for the screen's power). --max K runs at most K members
# not yet run, over all claims. Exit 2 on a bad argument, an unknown claim or a member
# multiverse.sh could not run; 0 otherwise (the rows say what each claim's screen found).
usage='usage: screen.sh SLPI OUT [--claims FILE] [--only "ID ..."] [--cache DIR] [--tests FILE] [--max K]'
slpi=${1:?$usage}; out=${2:?$usage}
shift 2
reg=reports/claims.txt; only=""; cache=""; tests=""; max=-1
while [ $# -gt 0 ]; do
  case $1 in
    --claims) reg=${2:?--claims FILE}; shift ;;
    --only) only=${2:?--only "ID ..."}; shift ;;
    --cache) cache=${2:?--cache DIR}; shift ;;
    --tests) tests=${2:?--tests FILE}; shift ;;
    --max) max=${2:?--max K}; shift
           case $max in *[!0-9]* | "") echo "screen: --max wants a count, not '$max'" >&2; exit 2 ;; esac ;;
    *) echo "screen: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$reg" ] || { echo "screen: no registry $reg" >&2; exit 2; }
mkdir -p "$out" || exit 2
ids=$(sed -n 's/^= \([A-Z][0-9]*\) .*/\1/p' "$reg")
if [ -n "$only" ]; then
  for id in $only; do
    printf '%s\n' "$ids" | grep -qx "$id" || { echo "screen: $reg has no claim $id" >&2; exit 2; }
  done
  ids=$only
else
  ids=$(for id in $ids; do grep -q "^% $id | \(blas\|libm\) |" "$reg" || echo "$id"; done)
fi
# the derived registry: each screened claim's "%" lines replaced by the screen's, placed
# before its first check line
awk -v ids=" $(echo $ids) " '
  /^% [A-Z][0-9]* [|]/ && index(ids, " " $2 " ") { next }
  /^[A-Z][0-9]* [|]/ && index(ids, " " $1 " ") && !done[$1]++ {
    print "% " $1 " | blas | Prescott Sandybridge Haswell Cooperlake | the screen (docs/claims.md#screen)"
    print "% " $1 " | libm | glibc mpfr mpfr-up mpfr-down | the screen (docs/claims.md#screen)"
  }
  { print }' "$reg" > "$out/claims.txt" || exit 2
: > "$out/screen.tsv.new" || exit 2
ran=0
for id in $ids; do
  lim=""; [ "$max" -ge 0 ] && lim="--max $((max > ran ? max - ran : 0))"
  before=$(awk 'END { print NR }' "$out/$id/members.tsv" 2>/dev/null || echo 1)
  # shellcheck disable=SC2086
  sh "$(dirname "$0")/multiverse.sh" "$slpi" "$out/$id" "$id" --claims "$out/claims.txt" \
    --cache "${cache:-$out/cache}" ${tests:+--tests "$tests"} $lim > "$out/$id.log" 2>&1 ||
    { echo "screen: $id:" >&2; tail -3 "$out/$id.log" >&2; exit 2; }
  ran=$((ran + $(awk 'END { print NR }' "$out/$id/members.tsv") - before))
  # the members' checks, as the verdict reads them (and the archive keeps them)
  awk -F'\t' 'NR > 1 { print $1 "\t" $2 }' "$out/$id/members.tsv" | while IFS='	' read -r k coords; do
    jq -c --argjson k "$k" --arg c "$coords" '.claims[0] | {member: $k, coordinates: $c, verdict, checks:
        [.checks[] | {role, case, check, outcome, value, lo: .numbers.lo, hi: .numbers.hi, bound}]}' \
      "$out/$id/m$k/claims.json" || exit 2
  done > "$out/$id/screen.jsonl" || exit 2
  jq -s . "$out/$id/screen.jsonl" > "$out/$id/screen.json" || exit 2
  rm -f "$out/$id/screen.jsonl"
  sh "$(dirname "$0")/screen-verdict.sh" "$id" "$out/$id/screen.json" >> "$out/screen.tsv.new" || exit 2
done
mv "$out/screen.tsv.new" "$out/screen.tsv" || exit 2
cat "$out/screen.tsv"
