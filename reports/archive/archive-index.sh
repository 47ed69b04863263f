#!/bin/sh
# archive-index.sh [--check] [ARCHIVE] — ARCHIVE/INDEX.md (default reports/full): the one
# index of the archived results, one row per claim, generated from the archived numbers
# only (never typed by hand, so no text can drift from them):
#   - original: ARCHIVE/claims.json, the FULL=1 runs (the registry's seeds);
#   - confirmatory: ARCHIVE/confirmatory/claims.json (every seed + 1000);
#   - multiverse: ARCHIVE/multiverse/ID/multiverse.txt (reduced size) and
#     ARCHIVE/multiverse-full/ID/multiverse.txt (the papers' size), the verdict over the
#     members by docs/claims.md#multiverse (reports/multiverse/multiverse.sh); "over K of N": a
#     multiverse run in pieces, K of its N members so far (INCOMPLETE, rule 4); "over D
#     distinct members of N": a dimension whose values gave one outcome (rule 5), listed
#     below the table. Each multiverse.txt is first recomputed from its members.tsv
#     (reports/multiverse/multiverse-verdict.sh; --check: compared).
# Each result: its verdict, the decisive checks' numbers (value, and the 95% interval of a
# slope), the revision and date of the run that made it. Then every revision the archive
# names, for `git merge-base --is-ancestor REV main` (tests/reports/t-archive.sh checks
# them). A second table sets each confirmatory run's decisive numbers beside the
# original's, compared at 4 significant digits; docs/claims.md holds both tables between
# their markers (#archived, #confirmatory), so no figure there is typed by hand. --check: compare with the committed INDEX.md, exit 1 on a difference.
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
arch=${1:-reports/full}
command -v jq >/dev/null || { echo "archive-index: needs jq (make deps installs it)" >&2; exit 2; }
[ -f "$arch/claims.json" ] || { echo "archive-index: $arch/claims.json missing" >&2; exit 2; }
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# every archived verdict over a multiverse (ID/multiverse.txt) is computed from its members
# (ID/members.tsv) by reports/multiverse/multiverse-verdict.sh, over the members the registry's "%"
# lines declare; --check: a verdict that differs is an error, as a changed INDEX.md is
mvbad=0
for m in "$arch"/multiverse/*/members.tsv "$arch"/multiverse-full/*/members.tsv; do
  [ -f "$m" ] || continue
  d=${m%/members.tsv}; id=${d##*/}
  n=$(awk -F' [|] ' -v id="$id" '$1 == "% " id { p = (p ? p : 1) * split($3, v, " ") } END { print p ? p : 1 }' reports/claims.txt)
  line=$(sh reports/multiverse/multiverse-verdict.sh "$id" "$m" "$n") || exit 2
  if [ $check = 1 ]; then
    [ "$line" = "$(cat "$d/multiverse.txt" 2>/dev/null)" ] ||
      { echo "archive-index: $d/multiverse.txt is not its members' verdict (run sh reports/archive/archive-index.sh): $line"; mvbad=1; }
  else
    printf '%s\n' "$line" > "$d/multiverse.txt" || exit 2
  fi
done
# one archived result in words: verdict; numbers; (revision, date)
cell='def rev(p): (p // "" | capture("git_rev=(?<r>[0-9a-f]+)").r) // "?";
  def num: if . == null then "none" else "%%" + tostring + "%%" end;   # %.4g by fmt below
  def nums: [.checks[] | select(.role == "claim" and .outcome != "not run")
             | (.value | num) + (if .numbers.lo != null then " [" + (.numbers.lo | num) + ", " + (.numbers.hi | num) + "]" else "" end)]
            | if length > 8 then .[0:8] + ["..."] else . end | join("; ");
  def cell($hdr): if . == null then "-"
    else (.run // $hdr) as $r
      | if ([.checks[] | select(.role == "claim" and .outcome != "not run")] | length) == 0 then "not run"
        else "**" + .verdict + "**: " + nums + " (" + rev($r.provenance) + ", " + ($r.date // "undated" | .[0:16]) + ")" end end;'
numbers() {   # the %%x%% numbers of jq's output (cell's num) printed %.4g
  awk -F'%%' '{ o = ""; for (i = 1; i <= NF; i++) o = o (i % 2 ? $i : sprintf("%.4g", $i)); print o }'
}
mv_word() {   # $1 folder of multiverse runs, $2 claim: the verdict word over its members, or nothing
  sed -n "1s/^$2 \([A-Z-]*\) over .*/\1/p" "$1/$2/multiverse.txt" 2>/dev/null
}
mv_cell() {   # $1 folder of multiverse runs, $2 claim
  f="$1/$2/multiverse.txt"
  if [ -f "$f" ]; then sed -n -e "1s/^$2 \\([A-Z-]*\\) over \\([0-9]*\\( of [0-9]*\\)\\{0,1\\}\\) members\\{0,1\\}:\\(.*\\)$/**\\1** over \\2:\\4/p" \
                               -e "1s/^$2 \\([A-Z-]*\\) over \\([0-9]* distinct members\\{0,1\\} of [0-9]* ([^)]*)\\):\\(.*\\)$/**\\1** over \\2:\\3/p" "$f" | tr -d '\n'
  else printf -- '-'; fi
}
decided_cell() {   # $1 archive, $2 claim, $3 its original FULL verdict: the verdict that decides it
  # (docs/claims.md#multiverse): over its FULL multiverse when every member has run; else over
  # its reduced one, with the papers' size said to be undecided (rule 4: INCOMPLETE is no
  # verdict; a FULL run without its multiverse is one member); a claim that declares no
  # choice: its one member, the original FULL run
  fw=$(mv_word "$1/multiverse-full" "$2")
  rw=$(mv_word "$1/multiverse" "$2")
  if [ -n "$fw" ] && [ "$fw" != INCOMPLETE ]; then printf '**%s** (FULL multiverse)' "$fw"
  elif [ -n "$rw" ] && [ "$rw" != INCOMPLETE ]; then
    printf '**%s** (reduced multiverse; the papers'"'"' size: %s)' "$rw" \
      "$([ -n "$fw" ] && echo "FULL multiverse INCOMPLETE" || echo "FULL multiverse not run, the FULL runs are single members")"
  elif ! grep -q "^% $2 |" reports/claims.txt; then printf '**%s** (one member: no open choice declared)' "$3"
  else printf 'not decided (multiverse declared, not run)'; fi
}
runs_words() {   # $1 archive: I25's and I26's FULL runs in words, one line a run, from the
  # archived numbers (docs/claims.md and README texts quote these lines, never retyped)
  for f in "$1/claims.json" "$1/confirmatory/claims.json"; do
    [ -f "$f" ] || continue
    case $f in */confirmatory/*) kind="confirmatory FULL run (every seed + 1000)" ;; *) kind="original FULL run" ;; esac
    jq -r --arg kind "$kind" "$cell"'. as $o | .claims[] | select(.id == "I25" or .id == "I26")
      | (.run // {provenance: $o.provenance, date: $o.date}) as $r
      | "- " + .id + ", " + $kind + " (" + rev($r.provenance) + ", " + ($r.date // "undated" | .[0:16]) + "): **"
        + .verdict + "**; "
        + ([.checks[] | select(.role == "claim") | (if .variant != "" then "reading " + .variant + ": " else "" end)
            + "`" + .check + "` = " + (.value | num)
            + (if .numbers.lo != null then ", 95% interval [" + (.numbers.lo | num) + ", " + (.numbers.hi | num) + "]" else "" end)]
           | join("; "))' "$f"
  done | numbers
}
mv_ranges() {   # $1 archive: per multiverse run (reduced, then FULL), each decisive number's
  # range over the members that gave one (names from the original FULL run's claim checks;
  # "none": members without a value), one line a claim (docs/claims.md quotes these lines)
  for kind in multiverse multiverse-full; do
    for m in "$1/$kind"/*/members.tsv; do
      [ -f "$m" ] || continue
      d=${m%/members.tsv}; id=${d##*/}
      names=$(jq -r --arg id "$id" '.claims[] | select(.id == $id)
        | [.checks[] | select(.role == "claim") | (if .variant != "" then .variant + ": " else "" end) + .check] | join("\t")' "$1/claims.json")
      awk -F'\t' -v id="$id" -v kind="$([ $kind = multiverse ] && echo reduced || echo FULL)" -v names="$names" '
        NR == 1 { next }
        { n++; k = split($4, v, " "); if (k > nv) nv = k
          for (i = 1; i <= k; i++)
            if (v[i] == "none") none[i]++
            else { x = v[i] + 0; if (!(i in lo) || x < lo[i]) lo[i] = x; if (!(i in hi) || x > hi[i]) hi[i] = x } }
        END {
          if (!n) exit
          nn = split(names, nm, "\t"); o = ""
          for (i = 1; i <= nv; i++) {
            w = (i <= nn && nm[i] != "") ? "`" nm[i] "`" : "number " i
            r = ""
            if (i in lo) {
              a = sprintf("%.4g", lo[i]); b = sprintf("%.4g", hi[i])
              r = a; if (a != b) r = a " to " b }
            if (none[i]) { if (r != "") r = r ", "; r = r "none on " none[i] }
            if (i > 1) o = o "; "
            o = o w " " r }
          if (!nv) o = "no decisive number"
          s = ""; if (n > 1) s = "s"
          printf("- %s (%s, %d member%s): %s\n", id, kind, n, s, o) }' "$m"
    done
  done
}
conf_table() {   # $1 archive: per confirmatory claim, both runs' verdicts and decisive numbers
  echo "| claim | original: verdict | confirmatory: verdict | decisive numbers, original → confirmatory |"
  echo "| --- | --- | --- | --- |"
  [ -f "$1/confirmatory/claims.json" ] || return 0
  jq -r --slurpfile o "$1/claims.json" '.claims[] | . as $c | ($o[0].claims[] | select(.id == $c.id)) as $k
    | def vals: [.checks[] | select(.role == "claim" and .outcome != "not run") | .value // "none" | tostring] | join(" ");
      [.id, $k.verdict, .verdict, ($k | vals), ($c | vals)] | @tsv' "$1/confirmatory/claims.json" |
  awk -F'\t' '
    function f(x) { return x == "none" ? x : sprintf("%.4g", x) }
    { no = split($4, o, " "); nc = split($5, c, " "); w = ""; moved = 0
      for (i = 1; i <= (no > nc ? no : nc); i++) {
        a = i <= no ? f(o[i]) : "-"; b = i <= nc ? f(c[i]) : "-"
        if (a != b) moved++
        w = w (i > 1 ? "; " : "") (a == b ? a : a " → " b) }
      printf "| %s | %s | %s | %s: %s |\n", $1, $2, $3,
             moved ? moved " of " (no > nc ? no : nc) " moved" : "the same numbers", w }'
}
{
  echo "# reports/full/INDEX.md — the archived results, claim by claim"
  echo
  echo "Generated by \`sh reports/archive/archive-index.sh\` from the archived numbers (claims.json,"
  echo "confirmatory/claims.json, multiverse/ and multiverse-full/): do not edit; README.md says"
  echo "how each archive was made. A cell: the verdict, the decisive checks' values (a slope's"
  echo "95% interval in brackets), the revision and date of its run; a multiverse cell: the"
  echo "verdict over the members, their count and each verdict's share with its 95% interval."
  echo "The verdict column is the one that decides each claim (docs/claims.md#multiverse): over its"
  echo "FULL multiverse when every member has run, else over its reduced multiverse (the papers'"
  echo "size then undecided: INCOMPLETE is no verdict, and a single FULL run is one member), else,"
  echo "for a claim that declares no open choice, its one member's (the original FULL run)."
  echo
  echo "| claim | expected (papers' size) | verdict (multiverse rule) | original FULL | confirmatory FULL (seeds + 1000) | multiverse, reduced | multiverse, FULL |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  conf="$arch/confirmatory/claims.json"
  [ -f "$conf" ] || conf=/dev/null
  jq -r --slurpfile c "$conf" "$cell"'
    ($c[0] // {claims: []}) as $cf
    | . as $o | .claims[] | . as $k
    | [.id, (.expected_full // .expected), .verdict,
       ($k | cell({provenance: $o.provenance, date: $o.date})),
       ([$cf.claims[]? | select(.id == $k.id)] | first | cell({provenance: $cf.provenance, date: $cf.date}))]
    | @tsv' "$arch/claims.json" |
  numbers |
  while IFS="$(printf '\t')" read -r id exp ov orig cf; do
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$id" "$exp" "$(decided_cell "$arch" "$id" "$ov")" "$orig" "$cf" \
      "$(mv_cell "$arch/multiverse" "$id")" \
      "$(mv_cell "$arch/multiverse-full" "$id")"
  done
  echo
  echo "Declared dimensions that do not apply (every value gave the same outcome, so their"
  echo "members are counted once: reports/multiverse/multiverse-verdict.sh, docs/claims.md#multiverse rule 5):"
  echo
  na=$(for f in "$arch"/multiverse/*/multiverse.txt "$arch"/multiverse-full/*/multiverse.txt; do
         [ -f "$f" ] || continue
         kind=${f#"$arch"/}; kind=${kind%%/*}
         sed -n "s/^\([A-Z][0-9]*\) [A-Z-]* over \([0-9]*\) distinct members\{0,1\} of \([0-9]*\) (\([^:]*\): every value.*/- \1 ($kind): \4; \2 distinct of \3 members/p" "$f"
       done)
  echo "${na:-none}"
  echo
  echo "## The confirmatory runs against the original"
  echo
  echo "The claims whose rules were set after their results, run again with every seed + 1000:"
  echo "each decisive number of the original FULL run and of the confirmatory one, compared at"
  echo "4 significant digits (the same, or each one that moved)."
  echo
  conf_table "$arch"
  echo
  echo "## The multiverses' decisive numbers"
  echo
  echo "Each decisive number's range over the members of each multiverse run (the lines"
  echo "docs/claims.md#multiverse-ranges holds):"
  echo
  mv_ranges "$arch"
  echo
  echo "I25's and I26's FULL runs in words (the lines docs/claims.md#confirmatory and README.md quote):"
  echo
  runs_words "$arch"
  echo
  echo "Revisions of these runs (each on main's history: \`git merge-base --is-ancestor REV main\`):"
  echo
  { for f in "$arch/claims.json" "$arch/confirmatory/claims.json"; do
      [ -f "$f" ] && jq -r '.provenance, (.claims[].run.provenance // empty)' "$f"
    done
    cat "$arch"/multiverse*/PROVENANCE.md 2>/dev/null; } |
    grep -o 'git_rev=[0-9a-f]*' | sed 's/git_rev=//' | sort -u | sed 's/^/- /'
} > "$tmp"
# docs/claims.md#archived holds the same table between its markers (for the default
# archive only): the documentation's archived numbers are these, never retyped
doc=docs/claims.md; dtmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$dtmp"' EXIT
if [ "$arch" = reports/full ] && [ -f "$doc" ]; then
  awk -v gen="$tmp" '
    /^<!-- archive index: generated by reports\/archive\/archive-index.sh/ { print
      while ((getline l < gen) > 0) { if (l ~ /^\|/) { print l; t = 1 } else if (t) break }   # the first table only
      skip = 1; next }
    /^<!-- end of archive index -->/ { skip = 0 }
    /^<!-- confirmatory table: generated by reports\/archive\/archive-index.sh/ { print
      while ((cmd | getline l) > 0) print l
      skip = 1; next }
    /^<!-- end of confirmatory table -->/ { skip = 0 }
    /^<!-- FULL runs in words: generated by reports\/archive\/archive-index.sh/ { print
      while ((wcmd | getline l) > 0) print l
      skip = 1; next }
    /^<!-- end of FULL runs in words -->/ { skip = 0 }
    /^<!-- multiverse ranges: generated by reports\/archive\/archive-index.sh/ { print
      while ((rcmd | getline l) > 0) print l
      skip = 1; next }
    /^<!-- end of multiverse ranges -->/ { skip = 0 }
    !skip { print }' cmd="sed -n '/^## The confirmatory runs against the original/,/^Revisions/p' $tmp | grep '^|'" \
    wcmd="sed -n '/^I25.s and I26.s FULL runs in words/,/^Revisions/p' $tmp | grep '^- I2[56], '" \
    rcmd="sed -n '/^## The multiverses. decisive numbers/,/^I25.s and I26.s FULL runs in words/p' $tmp | grep '^- '" "$doc" > "$dtmp" || exit 2
else
  rm -f "$dtmp"; dtmp=""
fi
if [ $check = 1 ]; then
  bad=$mvbad
  cmp -s "$tmp" "$arch/INDEX.md" || { echo "archive-index: $arch/INDEX.md differs from the archived numbers (run sh reports/archive/archive-index.sh):"; diff "$arch/INDEX.md" "$tmp" | head -10; bad=1; }
  [ -z "$dtmp" ] || cmp -s "$dtmp" "$doc" || { echo "archive-index: $doc#archived differs from the archived numbers (run sh reports/archive/archive-index.sh):"; diff "$doc" "$dtmp" | head -10; bad=1; }
  exit $bad
fi
cp "$tmp" "$arch/INDEX.md" && echo "archive-index: $arch/INDEX.md, $(jq '.claims | length' "$arch/claims.json") claims"
[ -z "$dtmp" ] || { cp "$dtmp" "$doc" && echo "archive-index: $doc#archived spliced"; }
