#!/bin/sh
# members.sh — a multiverse's members kept as evidence (docs/claims.md#members-evidence):
# each member's report, its claims.json, archived in OUT/members/K.json.gz (gzip -n) with
# the sha256 of the claims.json in OUT/members/SHA256SUMS, and its row of OUT/members.tsv
# generated from that file, so that the rows can be checked against what the members wrote.
#   members.sh add OUT K COORDS CPU   archive OUT/mK/claims.json as member K (replacing an
#                                     earlier copy) and print its row of members.tsv:
#                                     K, COORDS (with " blas(KERNEL)", the kernel of its
#                                     report's openblas=, when COORDS declares none), its
#                                     verdict, the decisive checks' numbers, CPU (the
#                                     driver's measure: not in the report), its rules digest
#   members.sh check [--legacy FILE] DIR...   check each multiverse folder DIR (members.tsv
#                                     and members/): every archived file's sha256 is its
#                                     SHA256SUMS line and every line's file is there; every
#                                     row of a member with an archived file is the row
#                                     generated from it (CPU taken from the row), and its
#                                     declared seeds, fit, levels, kernel and libm are the
#                                     ones its report ran with (the libm: the label of the
#                                     object that served exp, libm_ran=, which reports
#                                     before 2026-11-28 lack); an archived file has its row. A
#                                     row without an archived file must be one of the
#                                     legacy rows of FILE (runs archived before 2026-11-28,
#                                     whose members' reports were not kept): FILE's line
#                                     "PARENT/ID<TAB>ROWS<TAB>SHA256<TAB>why" names the
#                                     folder by its last two path components and freezes
#                                     the header and first ROWS rows of its members.tsv by
#                                     their sha256; where the folder kept its members'
#                                     checks (checks.tsv), a legacy row's numbers must be
#                                     its claim checks' values and its verdict agree with
#                                     their outcomes (not CONFIRMED with one not met, nor
#                                     DISCREPANCY with all met). One line a folder on
#                                     stdout: how many rows are evidenced, how many legacy.
# Exit 1 when a check fails, 2 on a bad argument.
usage="usage: members.sh add OUT K COORDS CPU | members.sh check [--legacy FILE] DIR..."
command -v jq > /dev/null || { echo "members: needs jq (make deps installs it)" >&2; exit 2; }
sha() { sha256sum | cut -d' ' -f1; }
# row FILE K COORDS CPU: member K's row of members.tsv from its archived report FILE
row() {
  gzip -dc "$1" | jq -r --arg k "$2" --arg c "$3" --arg t "$4" '
    (.provenance // "" | capture("(^|\n)openblas=(?<k>[^\n]*)").k // "unknown") as $ran
    | .rules_digest as $d | .claims[0] | [$k, (if ($c | test("(^| )blas=")) then $c else "\($c) blas(\($ran))" end),
      .verdict, ([.checks[] | select(.role == "claim") | (.value // "none" | tostring)] | join(" ")), $t,
      ($d // "none")] | @tsv'
}
case ${1:-} in
  add)
    [ $# = 5 ] || { echo "$usage" >&2; exit 2; }
    out=$2; k=$3
    [ -f "$out/m$k/claims.json" ] || { echo "members: $out/m$k/claims.json missing" >&2; exit 2; }
    mkdir -p "$out/members" && gzip -n -c "$out/m$k/claims.json" > "$out/members/$k.json.gz.new" || exit 2
    s=$(sha < "$out/m$k/claims.json")
    { grep -v "  $k\.json\$" "$out/members/SHA256SUMS" 2>/dev/null; printf '%s  %s.json\n' "$s" "$k"; } \
      > "$out/members/SHA256SUMS.new" && mv "$out/members/$k.json.gz.new" "$out/members/$k.json.gz" &&
      mv "$out/members/SHA256SUMS.new" "$out/members/SHA256SUMS" || exit 2
    row "$out/members/$k.json.gz" "$k" "$4" "$5"
    ;;
  check)
    shift; legacy=/dev/null
    [ "${1:-}" = --legacy ] && { legacy=${2:?$usage}; shift 2; }
    [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
    bad=0
    for d in "$@"; do
      m=$d/members.tsv; key=$(basename "$(dirname "$d")")/$(basename "$d")
      [ -f "$m" ] || { echo "members: FAIL: $m missing"; bad=1; continue; }
      lrows=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$legacy"); lrows=${lrows:-0}
      lsha=$(awk -F'\t' -v k="$key" '$1 == k { print $3 }' "$legacy")
      if [ "$lrows" -gt 0 ] && [ "$(head -n $((lrows + 1)) "$m" | sha)" != "$lsha" ]; then
        echo "members: FAIL: $key: its $lrows legacy rows (no member's report archived) differ from the rows frozen by sha256 at the migration"
        bad=1
      fi
      # every archived report is its SHA256SUMS line, and has a row
      sums=$d/members/SHA256SUMS
      for f in "$d"/members/*.json.gz; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .json.gz)
        [ "$(gzip -dc "$f" | sha)" = "$(awk -v f="$n.json" '$2 == f { print $1 }' "$sums" 2>/dev/null)" ] ||
          { echo "members: FAIL: $key: member $n's archived report is not the one of its SHA256SUMS line"; bad=1; }
        awk -F'\t' -v k="$n" 'NR > 1 && $1 == k { f = 1 } END { exit !f }' "$m" ||
          { echo "members: FAIL: $key: member $n's report is archived, and members.tsv has no row for it"; bad=1; }
      done
      [ ! -f "$sums" ] || while read -r s f; do
        [ -f "$d/members/$f.gz" ] || { echo "members: FAIL: $key: SHA256SUMS names $f, which is not archived"; bad=1; }
      done < "$sums"
      ev=0; i=0; nchk=0
      while IFS= read -r line; do
        i=$((i + 1)); [ $i = 1 ] && continue
        k=$(printf '%s\n' "$line" | cut -f1); c=$(printf '%s\n' "$line" | cut -f2 | sed 's/ \{0,1\}blas([^)]*)$//')
        f=$d/members/$k.json.gz
        if [ ! -f "$f" ]; then
          [ $((i - 1)) -le "$lrows" ] ||
            { echo "members: FAIL: $key: member $k's row has no archived report and is not a legacy row"; bad=1; }
          # a legacy row where the members' checks were kept (checks.tsv, written from their
          # reports by multiverse-evidence.sh): its numbers are its claim checks' values, and
          # its verdict is not CONFIRMED with a claim check not met, nor DISCREPANCY with all met
          [ -f "$d/checks.tsv" ] || continue
          nchk=$((nchk + 1))
          printf '%s\n' "$line" | awk -F'\t' -v k="$k" -v key="$key" '
            FNR == NR { if (FNR > 1 && $1 == k && $3 == "claim") { n++; nums = nums (n > 1 ? " " : "") $7
                          met += $6 == "met"; notmet += $6 == "not met" } next }
            { if (!n) { print "members: FAIL: " key ": member " k " has no claim checks in checks.tsv"; exit 1 }
              if ($4 != nums) { print "members: FAIL: " key ": member " k "'"'"'s numbers " $4 " are not its checks'"'"' " nums; exit 1 }
              if (($3 == "CONFIRMED" && notmet) || ($3 == "DISCREPANCY" && met == n)) {
                print "members: FAIL: " key ": member " k " is " $3 " with " met " of " n " claim checks met (checks.tsv)"; exit 1 } }' \
            "$d/checks.tsv" - || bad=1
          continue
        fi
        ev=$((ev + 1))
        [ "$(row "$f" "$k" "$c" "$(printf '%s\n' "$line" | cut -f5)")" = "$line" ] ||
          { echo "members: FAIL: $key: member $k's row is not the one its archived report gives: $(row "$f" "$k" "$c" "$(printf '%s\n' "$line" | cut -f5)")"; bad=1; }
        ran=$(gzip -dc "$f" | jq -r '(.provenance // "") as $p | "seeds=\(.seed_offset) fit=\(.fit) levels=\(.levels) blas=\($p |
          capture("(^|\n)openblas=(?<k>[^\n]*)").k // "unknown") libm=\($p | capture("(^|\n)libm_ran=(?<l>[^ \n]*)").l // "unknown")"')
        for kv in $c; do
          case ${kv%%=*} in seeds | fit | levels | blas | libm)
            case " $ran " in *" $kv "*) ;; *) echo "members: FAIL: $key: member $k declares $kv, its report ran with $ran"; bad=1 ;; esac ;;
          esac
        done
      done < "$m"
      echo "members: $key: $ev of $((i - 1)) rows evidenced by their archived reports, $((i - 1 - ev)) legacy (reports not kept; $nchk of them checked against checks.tsv)"
    done
    exit $bad
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
