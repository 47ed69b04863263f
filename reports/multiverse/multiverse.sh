#!/bin/sh
# multiverse.sh SLPI OUT ID [--full] [--claims FILE] [--max K] [--cache DIR] [--tests FILE]
# — claim ID
# decided over its declared multiverse (docs/claims.md#multiverse): every combination of
# the values of its "% ID | DIMENSION | VALUES | why" lines is a member, one
# `SLPI audit --only ID` run into OUT/mK (K = 1, 2, ...) with
#   seeds=S    --seed-offset S
#   blas=K     OPENBLAS_CORETYPE=K
#   libm=mpfr  LD_PRELOAD of the correctly rounded exp/sin/cos (SLPI_CRMATH, default
#              libslpi-crmath.so beside SLPI; `make multiverse` builds it); glibc: none;
#              mpfr-up, mpfr-down: the same, with SLPI_CRMATH_ROUND=up or down (every
#              result rounded upward or downward: the directed roundings)
#   fit=F      --fit F;  levels=L  --levels L
# A dimension the claim does not declare keeps the environment's choice; the BLAS kernel a
# member ran on is recorded from its report's provenance (openblas=), whether declared or
# found (OPENBLAS_CORETYPE is set only for a declared kernel or when the caller set it).
# OUT/members.tsv lists the members run (coordinates, verdict, the decisive checks'
# numbers, the member's CPU seconds, the rules digest of its report), one row appended as
# each member finishes, generated from the member's report, which is kept with its sha256
# in OUT/members/ (reports/multiverse/members.sh: `members.sh check OUT` checks the rows
# against the reports): a run with the same OUT resumes, skipping the members listed, so a
# long multiverse is run in pieces over sessions. A member whose rules digest differs from
# the rows' stops the run (exit 2): a changed rule is a new multiverse, in a new OUT.
# --max K runs at most K members not yet run; --cache DIR (default OUT/cache) gives each
# member the audit's cache DIR/KERNEL-LIBM (the claims' cache keys hold seeds and fit, not
# the kernel or the libm): its store of studies, keyed without the fit, lets the fit and
# levels members of one seed set reload that seed's studies instead of running them again
# (reports/audit-studies.c), and an interrupted member resume its study;
# --tests FILE the unit tests' results a "test" check reads (reports/unit-tests.sh).
# OUT/multiverse.txt: the verdict over the members by the rule fixed before the runs
# (docs/claims.md#multiverse and #labels), computed from the members alone by
# reports/multiverse/multiverse-verdict.sh (the C rule): INCOMPLETE while a member has not run (the
# shares over the K run, the CPU the others need, the dimensions seen to move so far);
# CONFIRMED or DISCREPANCY (or another verdict alike) when all of at least 4 members give
# it; UNABLE when the decided members agree but some is UNABLE or fewer than 4 ran;
# SEED-DEPENDENT, CRITERION-DEPENDENT or SEED-AND-CRITERION-DEPENDENT by the kinds of
# dimension that move the verdict, named after "moved by:"; each verdict's share of the
# members with its 95% Wilson interval; a declared dimension whose values all give the
# same outcome counted once ("over D distinct members of N").
# A claim without "%" lines has one member. Exit 2 on a bad argument, a missing claim or
# library, a member whose audit did not write its report or a changed rules digest; 0
# otherwise.
usage="usage: multiverse.sh SLPI OUT ID [--full] [--claims FILE] [--max K] [--cache DIR] [--tests FILE]"
slpi=${1:?$usage}; out=${2:?$usage}; id=${3:?$usage}
shift 3
full=""; reg=reports/claims.txt; max=-1; cache=$out/cache; tests=""
while [ $# -gt 0 ]; do
  case $1 in
    --full) full=--full ;;
    --claims) reg=${2:?--claims FILE}; shift ;;
    --max) max=${2:?--max K}; shift
           case $max in *[!0-9]* | "") echo "multiverse: --max wants a count, not '$max'" >&2; exit 2 ;; esac ;;
    --cache) cache=${2:?--cache DIR}; shift ;;
    --tests) tests=${2:?--tests FILE}; shift ;;
    *) echo "multiverse: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
command -v jq >/dev/null || { echo "multiverse: needs jq (make deps installs it)" >&2; exit 2; }
grep -q "^= $id |" "$reg" || { echo "multiverse: $reg has no claim $id" >&2; exit 2; }
crmath=${SLPI_CRMATH:-$(dirname "$slpi")/libslpi-crmath.so}
mkdir -p "$out" || exit 2
# the members: the cross product of the declared values, one "dim=value ..." line each
awk -F' [|] ' -v id="$id" '
  $1 == "% " id { nd++; dim[nd] = $2; nv[nd] = split($3, v, " "); for (i = 1; i <= nv[nd]; i++) val[nd, i] = v[i] }
  END {
    if (!nd) { print "one=1"; exit }
    for (i = 1; i <= nd; i++) c[i] = 1
    while (1) {
      line = ""
      for (i = 1; i <= nd; i++) line = line (i > 1 ? " " : "") dim[i] "=" val[i, c[i]]
      print line
      for (i = nd; i >= 1 && ++c[i] > nv[i]; i--) c[i] = 1
      if (i < 1) break
    }
  }' "$reg" > "$out/members.txt" || exit 2
head='member	coordinates	verdict	decisive numbers	CPU s	rules digest'
if [ -f "$out/members.tsv" ]; then
  [ "$(head -1 "$out/members.tsv")" = "$head" ] ||
    { echo "multiverse: $out/members.tsv is not a resumable list (no CPU and digest columns): use a new OUT" >&2; exit 2; }
else
  printf '%s\n' "$head" > "$out/members.tsv" || exit 2
fi
k=0; ran_now=0
while read -r coords; do
  k=$((k + 1))
  # a member listed already (its number and declared choices) is not run again
  awk -F'\t' -v k="$k" -v c="$coords" '$1 == k { sub(/ ?blas[(][^)]*[)]$/, "", $2); f = $2 == c } END { exit !f }' \
    "$out/members.tsv" && continue
  [ "$max" -ge 0 ] && [ "$ran_now" -ge "$max" ] && continue
  args=""; blas=${OPENBLAS_CORETYPE:-}; pre=""; libm=glibc; rnd=near
  for kv in $coords; do
    v=${kv#*=}
    case ${kv%%=*} in
      seeds) args="$args --seed-offset $v" ;;
      blas) blas=$v ;;
      libm) libm=$v
            case $v in mpfr) pre=$crmath ;; mpfr-up) pre=$crmath; rnd=up ;; mpfr-down) pre=$crmath; rnd=down ;; esac ;;
      fit) args="$args --fit $v" ;;
      levels) args="$args --levels $v" ;;
    esac
  done
  [ -z "$pre" ] || [ -f "$pre" ] || { echo "multiverse: $pre missing (make multiverse builds it)" >&2; exit 2; }
  [ -z "$cache" ] || args="$args --cache $cache/${blas:-auto}-$libm"
  [ -z "$tests" ] || args="$args --tests $tests"
  rm -rf "$out/m$k"
  times > "$out/.cpu0"
  # shellcheck disable=SC2086
  ${blas:+env OPENBLAS_CORETYPE=$blas} env OPENBLAS_NUM_THREADS=1 LD_PRELOAD=$pre SLPI_CRMATH_ROUND=$rnd \
    "$slpi" audit --only "$id" --claims "$reg" --out "$out/m$k" $full $args -q > "$out/m$k.log" 2>&1
  times > "$out/.cpu1"
  [ -f "$out/m$k/claims.json" ] || { echo "multiverse: member $k ($coords) wrote no report:" >&2; tail -3 "$out/m$k.log" >&2; exit 2; }
  # the member's CPU seconds: the children's user + system time before and after it
  cpu=$(cat "$out/.cpu0" "$out/.cpu1" | awk 'NR % 2 == 0 { split($1, u, /[ms]/); split($2, s, /[ms]/)
          t[NR / 2] = u[1] * 60 + u[2] + s[1] * 60 + s[2] } END { printf "%.1f", t[2] - t[1] }')
  rm -f "$out/.cpu0" "$out/.cpu1"
  digest=$(jq -r '.rules_digest // "none"' "$out/m$k/claims.json")
  was=$(awk -F'\t' 'NR > 1 { print $6; exit }' "$out/members.tsv")
  [ -z "$was" ] || [ "$was" = "$digest" ] ||
    { echo "multiverse: member $k ran under rules digest $digest, the members listed under $was: a changed rule is a new multiverse (use a new OUT)" >&2; exit 2; }
  # the member's report archived with its sha256, and its row generated from it (members.sh)
  r=$(sh "$(dirname "$0")/members.sh" add "$out" "$k" "$coords" "$cpu") && printf '%s\n' "$r" >> "$out/members.tsv" || exit 2
  ran_now=$((ran_now + 1))
done < "$out/members.txt"
# the verdict over the members (the rule of the header; reports/multiverse/multiverse-verdict.sh, which runs the C rule)
sh "$(dirname "$0")/multiverse-verdict.sh" "$id" "$out/members.tsv" "$k" > "$out/multiverse.txt" || exit 2
cat "$out/multiverse.txt"
