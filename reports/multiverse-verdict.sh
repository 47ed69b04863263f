#!/bin/sh
# multiverse-verdict.sh ID MEMBERS N — the verdict over claim ID's multiverse from its
# members' rows (MEMBERS: the members.tsv of reports/multiverse.sh; N: the members its
# declared choices make), one line on stdout, by the rule fixed before the runs
# (docs/claims.md#multiverse):
#   the decided members (not UNABLE) all alike: that verdict, or UNABLE when some member
#   is UNABLE; decided members that differ within one choice of the other dimensions (only
#   their seeds differ): SEED-DEPENDENT, with each verdict's share of the members and its
#   95% Wilson interval; decided members that differ otherwise: CRITERION-DEPENDENT;
#   some members not run: INCOMPLETE ("over K of N members"), the shares over the K run
#   and the CPU time the others still need at the mean of the K, unless the K already
#   differ within a seed group (SEED-DEPENDENT, whatever the others give).
# Members that cannot differ (docs/claims.md#multiverse, rule 5): a member's outcome is
# its verdict and decisive numbers, compared by their digest (sha256). A declared
# dimension whose values give one outcome in every group of members equal in the other
# dimensions (all N run; no member UNABLE with no number, which tells nothing) does not
# apply: the members it tells apart are one member, counted once, "over D distinct
# members of N (DIMENSIONS: every value gives the same outcome, ...)", the shares and
# intervals over the D (each stands for as many members, so the shares are the same;
# the intervals are those of D draws, not N). Exit 2 on a bad argument.
usage="usage: multiverse-verdict.sh ID MEMBERS N"
id=${1:?$usage}; rows=${2:?$usage}; all=${3:?$usage}
case $all in *[!0-9]* | "") echo "multiverse-verdict: N must be a count, not '$all'" >&2; exit 2 ;; esac
[ -f "$rows" ] || { echo "multiverse-verdict: $rows missing" >&2; exit 2; }
tab=$(printf '\t')
# each member's row and the digest of its outcome (verdict, decisive numbers)
awk 'NR > 1' "$rows" | while IFS= read -r row; do
  d=$(printf '%s\n' "$row" | cut -f3,4 | sha256sum | cut -c1-16)
  printf '%s\t%s\n' "$d" "$row"
done | awk -F"$tab" -v id="$id" -v all="$all" '
  { dg[++n] = $1; $0 = substr($0, length($1) + 2)   # the digest, then the row as written
    v = $3; g = $2; gsub(/seeds=[0-9]+ ?/, "", g); cpu += $5
    has = v != "UNABLE"; nt = split($4, tk, " "); for (i = 1; i <= nt; i++) if (tk[i] != "none") has = 1
    numbered += has; count[v]++; vd[n] = v
    if (v != "UNABLE") { nd++; if (nd == 1) first = v; else if (v != first) differ = 1
                         if ((g) in gv && gv[g] != v) seed_differ = 1; gv[g] = v }
    else unable++
    # the declared coordinates (the kernel a member ran on, "blas(K)", is not one)
    c = $2; gsub(/ ?blas[(][^)]*[)]/, "", c); nk[n] = split(c, kv, " ")
    for (i = 1; i <= nk[n]; i++) { split(kv[i], p, "="); dn[n, i] = p[1]; dvl[n, i] = p[2]
                                   if (!(p[1] in dims)) { dims[p[1]] = ++ndims; dname[ndims] = p[1] } } }
  function wilson(x, m,   p, z, c, h) { z = 1.96; p = x / m; c = (p + z * z / (2 * m)) / (1 + z * z / m)
    h = z * sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    return sprintf("%.2f [%.2f, %.2f]", p, c - h < 0 ? 0 : c - h, c + h > 1 ? 1 : c + h) }
  # the group key of member m without the dimensions in skip (" name " words)
  function key(m, skip,   i, k) { k = ""; for (i = 1; i <= nk[m]; i++) if (index(skip, " " dn[m, i] " ") == 0) k = k " " dn[m, i] "=" dvl[m, i]; return k }
  END {
    if (!differ) verdict = unable || !nd ? "UNABLE" : first
    else verdict = seed_differ ? "SEED-DEPENDENT" : "CRITERION-DEPENDENT"
    if (n < all && !seed_differ) verdict = "INCOMPLETE"
    # the dimensions that do not change the outcome, in their declared order
    skip = " "; same = ""
    if (n == all && numbered == n)
      for (j = 1; j <= ndims; j++) {
        delete gd; delete vals; nv = 0; ok = 1
        for (m = 1; m <= n; m++) {
          for (i = 1; i <= nk[m]; i++) if (dn[m, i] == dname[j] && !(dvl[m, i] in vals)) { vals[dvl[m, i]]; nv++ }
          k = key(m, skip dname[j] " ")
          if ((k in gd) && gd[k] != dg[m]) ok = 0
          gd[k] = dg[m] }
        if (ok && nv > 1) { skip = skip dname[j] " "; same = same (same == "" ? "" : ", ") dname[j] }
      }
    # the members counted: one per group of the dimensions kept
    if (same != "") {
      delete count; m2 = 0; delete seen
      for (m = 1; m <= n; m++) { k = key(m, skip); if (!(k in seen)) { seen[k]; m2++; count[vd[m]]++ } }
      printf "%s %s over %d distinct member%s of %d (%s: every value gives the same outcome, so %s):", id,
             verdict, m2, m2 == 1 ? "" : "s", n, same, index(same, ",") ? "these dimensions do not apply" : "the dimension does not apply"
      shown = m2
    } else if (n < all) { printf "%s %s over %d of %d members:", id, verdict, n, all; shown = n }
    else { printf "%s %s over %d member%s:", id, verdict, n, n == 1 ? "" : "s"; shown = n }
    split("CONFIRMED CONDITIONAL DISCREPANCY CRITERION-DEPENDENT UNABLE", order, " ")
    for (i = 1; i <= 5; i++)
      if (order[i] in count) printf " %s %d (share %s)", order[i], count[order[i]], wilson(count[order[i]], shown)
    if (n < all) printf "; %d not run (about %.2f CPU-hours at the %.0f CPU-s of a member run)", all - n,
                        (all - n) * (n ? cpu / n : 0) / 3600, n ? cpu / n : 0
    printf "\n" }'
