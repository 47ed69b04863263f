#!/bin/sh
# multiverse.sh SLPI OUT ID [--full] [--claims FILE] — claim ID decided over its declared
# multiverse (docs/claims.md#multiverse): every combination of the values of its
# "% ID | DIMENSION | VALUES | why" lines is a member, one `SLPI audit --only ID` run
# into OUT/mK (K = 1, 2, ...) with
#   seeds=S    --seed-offset S
#   blas=K     OPENBLAS_CORETYPE=K
#   libm=mpfr  LD_PRELOAD of the correctly rounded exp/sin/cos (SLPI_CRMATH, default
#              libslpi-crmath.so beside SLPI; `make multiverse` builds it); glibc: none
#   fit=F      --fit F;  levels=L  --levels L
# A dimension the claim does not declare keeps the environment's choice; the BLAS kernel a
# member ran on is recorded from its report's provenance (openblas=), whether declared or
# found (OPENBLAS_CORETYPE is set only for a declared kernel or when the caller set it). OUT/members.tsv lists the members (coordinates, verdict, the
# decisive checks' numbers); OUT/multiverse.txt the verdict over them by the rule fixed
# before the runs (docs/claims.md#multiverse), computed here from the members alone:
#   the decided members (not UNABLE) all alike: that verdict, or UNABLE when some member
#   is UNABLE; decided members that differ within one choice of the other dimensions (only
#   their seeds differ): SEED-DEPENDENT, with each verdict's share of the members and its
#   95% Wilson interval; decided members that differ otherwise: CRITERION-DEPENDENT.
# A claim without "%" lines has one member. Exit 2 on a bad argument, a missing claim or
# library, or a member whose audit did not write its report; 0 otherwise.
slpi=${1:?usage: multiverse.sh SLPI OUT ID [--full] [--claims FILE]}
out=${2:?usage: multiverse.sh SLPI OUT ID [--full] [--claims FILE]}
id=${3:?usage: multiverse.sh SLPI OUT ID [--full] [--claims FILE]}
shift 3
full=""; reg=reports/claims.txt
while [ $# -gt 0 ]; do
  case $1 in
    --full) full=--full ;;
    --claims) reg=${2:?--claims FILE}; shift ;;
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
printf 'member\tcoordinates\tverdict\tdecisive numbers\n' > "$out/members.tsv"
k=0
while read -r coords; do
  k=$((k + 1))
  args=""; blas=${OPENBLAS_CORETYPE:-}; pre=""
  for kv in $coords; do
    v=${kv#*=}
    case ${kv%%=*} in
      seeds) args="$args --seed-offset $v" ;;
      blas) blas=$v ;;
      libm) [ "$v" = mpfr ] && pre=$crmath ;;
      fit) args="$args --fit $v" ;;
      levels) args="$args --levels $v" ;;
    esac
  done
  [ -z "$pre" ] || [ -f "$pre" ] || { echo "multiverse: $pre missing (make multiverse builds it)" >&2; exit 2; }
  rm -rf "$out/m$k"
  # shellcheck disable=SC2086
  ${blas:+env OPENBLAS_CORETYPE=$blas} env OPENBLAS_NUM_THREADS=1 LD_PRELOAD=$pre \
    "$slpi" audit --only "$id" --claims "$reg" --out "$out/m$k" $full $args -q > "$out/m$k.log" 2>&1
  [ -f "$out/m$k/claims.json" ] || { echo "multiverse: member $k ($coords) wrote no report:" >&2; tail -3 "$out/m$k.log" >&2; exit 2; }
  ran=$(jq -r '.provenance' "$out/m$k/claims.json" | sed -n 's/^openblas=//p')
  case "$coords" in *blas=*) ;; *) coords="$coords blas(${ran:-unknown})" ;; esac
  jq -r --arg k "$k" --arg c "$coords" '.claims[0] | [$k, $c, .verdict,
      ([.checks[] | select(.role == "claim") | (.value // "none" | tostring)] | join(" "))] | @tsv' \
    "$out/m$k/claims.json" >> "$out/members.tsv" || exit 2
done < "$out/members.txt"
# the verdict over the members (the rule of the header); a seed group: the members whose
# coordinates other than seeds= are equal
awk -F'\t' -v id="$id" '
  NR == 1 { next }
  { n++; v = $3; g = $2; gsub(/seeds=[0-9]+ ?/, "", g)
    count[v]++
    if (v != "UNABLE") { nd++; if (nd == 1) first = v; else if (v != first) differ = 1
                         if ((g) in gv && gv[g] != v) seed_differ = 1; gv[g] = v }
    else unable++ }
  function wilson(x, m,   p, z, c, h) { z = 1.96; p = x / m; c = (p + z * z / (2 * m)) / (1 + z * z / m)
    h = z * sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    return sprintf("%.2f [%.2f, %.2f]", p, c - h < 0 ? 0 : c - h, c + h > 1 ? 1 : c + h) }
  END {
    if (!differ) verdict = unable || !nd ? "UNABLE" : first
    else verdict = seed_differ ? "SEED-DEPENDENT" : "CRITERION-DEPENDENT"
    printf "%s %s over %d member%s:", id, verdict, n, n == 1 ? "" : "s"
    split("CONFIRMED CONDITIONAL DISCREPANCY CRITERION-DEPENDENT UNABLE", order, " ")
    for (i = 1; i <= 5; i++)
      if (order[i] in count) printf " %s %d (share %s)", order[i], count[order[i]], wilson(count[order[i]], n)
    printf "\n" }' "$out/members.tsv" > "$out/multiverse.txt" || exit 2
cat "$out/multiverse.txt"
