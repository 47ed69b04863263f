#!/bin/sh
# t-replication.sh — the three replication reports (reports/archive/replication.sh): the committed
# reports/full/replication/*.md are what the archive generates (--check), and every digit
# in them comes from the archive, none from the script: the script's report program holds
# no digit, and on a copy of the archive with every digit 1..9 moved to the next (9 to 1,
# 0 kept: the JSON stays valid), in the files' text and in their names, the reports are
# the originals with the same digits moved. A hand-typed number (a digit written by the
# template) would stay put and be caught. Then the sections a referee reads against the
# archive, each recomputed here from the archived files: every link resolves to an
# archived file and every archived figure of a claim's checks is shown; every claim's
# provenance lines (claims.json) are the environment rows under its revision, and a run
# without a "loaded" object says so; the multiverse's declared choices are those of its
# members.tsv rows (the rows its verdict is computed from); and where the members' verdicts
# split, every member whose verdict is not the most common one is listed.
# Fault injection: a changed archived number makes --check fail.
command -v jq > /dev/null || { echo "t-replication: SKIP: jq is not installed (as root: apt-get install jq)"; exit 77; }
dir=$(mktemp -d /tmp/slpi-t-replication-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
arch=reports/full
sh reports/archive/replication.sh --check > "$dir/log" 2>&1 || { echo "t-replication: FAIL: the committed reports differ from the archive:"; cat "$dir/log"; fail=1; }
for p in RKMK ISO SVI; do
  [ -s "$arch/replication/$p.md" ] || { echo "t-replication: FAIL: $arch/replication/$p.md missing"; fail=1; }
done
# the report program (the jq text between "jq -r" and its input file) has no digit
prog=$(sed -n '/^  jq -r --arg p/,/^  . "\$arch\/claims.json"/p' reports/archive/replication.sh | sed '1d;$d')
[ -n "$prog" ] || { echo "t-replication: FAIL: the report program was not found in reports/archive/replication.sh"; fail=1; }
if printf '%s\n' "$prog" | grep -n '[0-9]' > "$dir/digits"; then
  echo "t-replication: FAIL: the report program types digits:"; cat "$dir/digits"; fail=1
fi
# every digit from the archive: move them in two copies of the archive (a, b), in the names
# and in the texts the script reads; the other files (figures, tables, checks.tsv) are
# copied as empty files: only their names are read
move() { tr 123456789 234567891; }
(cd "$arch" && find . -type f ! -path './replication/*' ! -path './confirmatory/*' ! -path './screen/*.json' ! -path './verify-*') |
  while read -r r; do
  r=${r#./}; m=$(printf '%s' "$r" | move)
  mkdir -p "$(dirname "$dir/a/$r")" "$(dirname "$dir/b/$m")" || exit 1
  case $r in
    claims.json | *.md | */multiverse.txt | */members.tsv) cp "$arch/$r" "$dir/a/$r" && move < "$arch/$r" > "$dir/b/$m" ;;
    *) : > "$dir/a/$r" && : > "$dir/b/$m" ;;
  esac || exit 1
done || exit 1
sh reports/archive/replication.sh "$dir/a" > "$dir/alog" 2>&1 && sh reports/archive/replication.sh "$dir/b" > "$dir/blog" 2>&1 ||
  { echo "t-replication: FAIL: replication.sh exited non-zero:"; cat "$dir/alog" "$dir/blog"; fail=1; }
for p in RKMK ISO SVI; do
  # as sorted lines: the archived files are listed in their names' order, which the move changes
  move < "$dir/a/replication/$p.md" | LC_ALL=C sort > "$dir/want"
  LC_ALL=C sort "$dir/b/replication/$p.md" > "$dir/got"
  if ! cmp -s "$dir/want" "$dir/got"; then
    echo "t-replication: FAIL: $p.md has digits that do not come from the archive:"
    diff "$dir/want" "$dir/got" | head -6; fail=1
  fi
  n=$(grep -o '[0-9]' "$dir/a/replication/$p.md" | wc -l)
  [ "$n" -gt 0 ] || { echo "t-replication: FAIL: $p.md holds no number at all"; fail=1; }
  echo "t-replication: $p.md: $n digits, all from the archive"
done
# the sections checked against the archive, on the reports the script writes from it ($dir/a)
for p in RKMK ISO SVI; do
  md=$dir/a/replication/$p.md
  # links: each relative link resolves to an archived file (of the archive, not the copy)
  grep -o '](\.\./[^)]*)' "$md" | sed 's/^](\.\.\///; s/)$//' | sort -u | while read -r f; do
    [ -f "$arch/$f" ] || echo "t-replication: FAIL: $p.md links $f, which the archive does not hold"
  done > "$dir/links"
  [ -s "$dir/links" ] && { cat "$dir/links"; fail=1; }
  # figures: every archived figure of the paper's checks is shown
  jq -r --arg p "$p" '.claims[] | select(.paper == $p) | .checks[] | .figure // empty' "$arch/claims.json" | while read -r f; do
    [ -f "$arch/figures/$f.png" ] || continue
    grep -qF "![$f](../figures/$f.png)" "$md" || echo "t-replication: FAIL: $p.md does not show the archived figure $f"
  done > "$dir/figs"
  [ -s "$dir/figs" ] && { head -3 "$dir/figs"; fail=1; }
  # and every archived figure of the paper's claims is shown, those of earlier runs too
  for f in $(jq -r --arg p "$p" '.claims[] | select(.paper == $p) | .id' "$arch/claims.json"); do ls "$arch/figures" | grep "^$f-l"; done |
    while read -r f; do grep -qF "![${f%.png}](../figures/$f)" "$md" || echo "t-replication: FAIL: $p.md does not show the archived figure $f"; done > "$dir/figs"
  [ -s "$dir/figs" ] && { head -3 "$dir/figs"; fail=1; }
  nf=$(grep -c '^  !\[' "$md")
  # environment: each claim's provenance lines under the heading of its revision
  jq -r --arg p "$p" '.provenance as $h | .claims[] | select(.paper == $p) | (.run.provenance // $h) as $t |
    ($t | capture("git_rev=(?<r>[a-f0-9]+)").r) as $r | "\(.id)\t\($r)\t\(.run.loaded != null)\t\($t | split("\n") | map(select(. != "")) | join("\t"))"' \
    "$arch/claims.json" | while IFS=$(printf '\t') read -r id rev loaded rest; do
    sec=$(awk -v h="### Revision \`$rev\`: " -v l="[$id](#" 'index($0, h) == 1 && index($0, l) { on = 1; print; next } on && /^##/ { exit } on' "$md")
    [ -n "$sec" ] || { echo "t-replication: FAIL: $p.md: $id is not under its revision $rev in the environment"; continue; }
    printf '%s\n' "$rest" | tr '\t' '\n' | while IFS= read -r kv; do
      k=${kv%%=*}; v=${kv#*=}
      printf '%s\n' "$sec" | grep -qxF "| \`$k\` | $v |" || echo "t-replication: FAIL: $p.md: $id's environment lacks $kv"
    done
    [ "$loaded" = true ] || printf '%s\n' "$sec" | grep -q '^What was loaded is not recorded' ||
      echo "t-replication: FAIL: $p.md: $id has no loaded object and its environment does not say so"
  done > "$dir/env"
  [ -s "$dir/env" ] && { head -3 "$dir/env"; fail=1; }
  # the multiverse: declared choices from members.tsv, and the members that decide a split
  for id in $(jq -r --arg p "$p" '.claims[] | select(.paper == $p) | .id' "$arch/claims.json"); do
    for k in multiverse multiverse-full; do
      t=$arch/$k/$id/members.tsv
      [ -f "$t" ] || continue
      d=$(awk -F'\t' 'NR > 1 { n = split($2, c, " "); for (i = 1; i <= n; i++) { if (!index(c[i], "=")) continue
            dim = substr(c[i], 1, index(c[i], "=") - 1); v = substr(c[i], index(c[i], "=") + 1)
            if (!(dim in seen)) { seen[dim] = 1; order[++nd] = dim; vals[dim] = v; had[dim, v] = 1 }
            else if (!((dim, v) in had)) { vals[dim] = vals[dim] " " v; had[dim, v] = 1 } } }
          END { for (i = 1; i <= nd; i++) printf "%s%s %s", (i > 1 ? "; " : ""), order[i], vals[order[i]] }' "$t")
      [ -n "$d" ] && d="declaring $d" || d="with no declared choice"
      grep -qF "[members](../$k/$id/members.tsv) $d:" "$md" || echo "t-replication: FAIL: $p.md: $id's $k choices are not its members' ($d)"
      awk -F'\t' 'NR > 1 { row[NR] = $0; v[NR] = $3; if (!($3 in n)) o[++no] = $3; n[$3]++ }
        END { m = o[1]; for (i = 2; i <= no; i++) if (n[o[i]] > n[m]) m = o[i]
              for (r = 2; r <= NR; r++) if (v[r] != m) { split(row[r], f, "\t"); printf "  | %s | %s | %s |\n", f[1], f[2], f[3] } }' "$t" |
        while IFS= read -r want; do
          grep -qF "$want" "$md" || echo "t-replication: FAIL: $p.md: $id's $k member deciding its verdict not shown:$want"
        done
    done
  done > "$dir/mv"
  [ -s "$dir/mv" ] && { head -3 "$dir/mv"; fail=1; }
  echo "t-replication: $p.md: $nf figures, links, environment, declared choices and deciding members checked"
done
# a changed archived number is seen by --check
cp -r "$dir/a" "$dir/c" && mkdir -p "$dir/c/replication" && cp "$arch"/replication/*.md "$dir/c/replication/" &&
  jq '(.claims[] | select(.id == "R3") | .checks[0].evidence) |= gsub("7"; "8")' "$arch/claims.json" > "$dir/c/claims.json"
sh reports/archive/replication.sh --check "$dir/c" > /dev/null 2>&1 && { echo "t-replication: FAIL: --check misses a changed number"; fail=1; }
[ $fail = 0 ] && echo "t-replication: PASS"
exit $fail
