#!/bin/sh
# replication.sh [--check] [ARCH] — one replication report per paper (RKMK, ISO, SVI),
# generated from the archive ARCH (default reports/full) into ARCH/replication/PAPER.md,
# in the order of a ReScience C replication: the paper and the runs (introduction), how a
# claim is decided (methods), the software environment, how to reproduce, then per claim
# the paper's words, the rule fixed before the run, its multiverse (the choices declared
# by its members' rows, the members that decide a verdict the members split on), its
# verdict, its checks with their commands and seconds, its figures and a conclusion
# (results), and what is not reproduced and why (discussion). Every number in a report is
# read from the archive, as text (never a JSON number, which jq would print in its own
# form, except a check's seconds, printed as a double jq computed, `x + x - x` (exact):
# jq 1.7 prints a number it read in its literal's decimal form, 0.00002046, where jq 1.6
# and any computed number print 2.046e-05): claims.json (each claim's texts, checks' evidence,
# commands, figures and run: its provenance, and its "loaded" object where the run
# recorded one), figures/NAME.png and data/NAME.tsv (linked where archived),
# multiverse/ID/ and multiverse-full/ID/ (multiverse.txt, members.tsv), the "Command:"
# lines of multiverse/PROVENANCE.md and screen/PROVENANCE.md, README.md's "Written by"
# command, and INDEX.md's verdict by the multiverse rule (reports/archive/archive-index.sh);
# the template's own words hold no digit, so no number is typed by hand
# (tests/reports/t-replication.sh checks both). --check: compare with the committed
# reports, exit 1 on a difference. Markdown only: no PDF converter is a dependency of slpi
# (a referee may run pandoc on the files).
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
arch=${1:-reports/full}
command -v jq > /dev/null || { echo "replication: needs jq (make deps installs it)" >&2; exit 2; }
[ -f "$arch/claims.json" ] || { echo "replication: $arch/claims.json missing" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# the multiverse verdict lines, one object {ID: {reduced, full}} for jq
for kind in multiverse multiverse-full; do
  for f in "$arch/$kind"/*/multiverse.txt; do
    [ -f "$f" ] || continue
    d=${f%/multiverse.txt}
    jq -Rn --arg id "${d##*/}" --arg k "$kind" '{id: $id, kind: $k, line: input}' "$f"
  done
done | jq -s 'reduce .[] as $m ({}; .[$m.id][$m.kind] = $m.line)' > "$tmp/mv.json" || exit 2
# each multiverse's rows (members.tsv: the rows its verdict is computed from), as text
for kind in multiverse multiverse-full; do
  for f in "$arch/$kind"/*/members.tsv; do
    [ -f "$f" ] || continue
    d=${f%/members.tsv}
    jq -Rn --arg id "${d##*/}" --arg k "$kind" '[inputs | split("\t")] | .[1:] |
      {id: $id, kind: $k, rows: map({member: .[0], coords: .[1], verdict: .[2], numbers: .[3], cpu: .[4]})}' "$f"
  done
done | jq -s 'reduce .[] as $m ({}; .[$m.id][$m.kind] = $m.rows)' > "$tmp/rows.json" || exit 2
# the archived files, by path (a figure, a table or a multiverse's checks is linked where archived)
(cd "$arch" && find . -type f ! -path './replication/*') | sed 's|^\./||' | LC_ALL=C sort |
  jq -Rn '[inputs | {(.): true}] | add // {}' > "$tmp/files.json" || exit 2
# the commands as run: README.md's "Written by `COMMAND`", the "- Command: `COMMAND`" lines
# of the multiverse's and the screen's PROVENANCE.md under their "## " headings
for f in README.md multiverse/PROVENANCE.md screen/PROVENANCE.md; do
  [ -f "$arch/$f" ] || continue
  awk -v f="$f" '/^## / { h = substr($0, 4) } /^Written by `|^- Command: `/ { c = $0; sub(/^[^`]*`/, "", c)
      if (index(c, "`")) { print f "\t" h "\t" substr(c, 1, index(c, "`") - 1) } }' "$arch/$f"
done | jq -Rn '[inputs | split("\t") | {file: .[0], heading: .[1], command: .[2]}]' > "$tmp/cmds.json" || exit 2
# each claim's verdict by the multiverse rule: the archive index's verdict column
# (reports/archive/archive-index.sh, generated from the same archive)
[ -f "$arch/INDEX.md" ] || { echo "replication: $arch/INDEX.md missing (sh reports/archive/archive-index.sh)" >&2; exit 2; }
awk -F' [|] ' '/^[|] claim [|] expected/ { on = 1; next } on && !/^[|]/ { exit }
  on && !/^[|] ---/ { print substr($1, 3) "\t" $3 }' "$arch/INDEX.md" |
  jq -Rn '[inputs | split("\t") | {(.[0]): .[1]}] | add // {}' > "$tmp/ix.json" || exit 2
bad=0
for paper in RKMK ISO SVI; do
  jq -r --arg p "$paper" --slurpfile mv "$tmp/mv.json" --slurpfile ix "$tmp/ix.json" --slurpfile rw "$tmp/rows.json" \
    --slurpfile fs "$tmp/files.json" --slurpfile cm "$tmp/cmds.json" '
    def cell: tostring | gsub("\\|"; "\\|") | gsub("\n"; " ");
    def mvline($id; $k): (($mv | first)[$id][$k] // null);
    def rows($id; $k): (($rw | first)[$id][$k] // null);
    def cellof($c): (($ix | first)[$c.id] // "**\($c.verdict)**");
    def final($c): cellof($c) | capture("\\*\\*(?<w>[A-Z-]+)\\*\\*").w;
    def rev($t): $t | capture("git_rev=(?<r>[a-f\\d]+)").r;
    def kindname($k): if $k == "multiverse" then "Reduced sizes" else "The paper'"'"'s sizes" end;
    # the declared choices, from the rows the verdict over the members is computed from:
    # each dimension (a "dim=value" coordinate) with its values in the order the rows give
    def declared($rows): reduce ($rows[] | .coords | split(" ")[] | select(test("=")) |
        capture("^(?<d>[^=]+)=(?<v>.*)$")) as $x ({}; if ((.[$x.d] // []) | index([$x.v])) then .
        else .[$x.d] += [$x.v] end) | to_entries | map("\(.key) \(.value | join(" "))") | join("; ");
    # the members that decide a split verdict: every member whose verdict is not the most common one
    def deciding($rows): ([$rows[].verdict] | reduce .[] as $v ({}; .[$v] += [$v]) | to_entries
        | max_by(.value | length) | .key) as $most | [$rows[] | select(.verdict != $most)];
    def conclusion($v): {
        "CONFIRMED": "The claim is reproduced: every decisive check meets the rule fixed before the run, and every control comes out as it demands.",
        "CONDITIONAL": "The claim is reproduced only under the condition the rule names: a decisive check holds with that condition and not without it, or a control it rests on ran outside the audit.",
        "DISCREPANCY": "The claim is not reproduced: a decisive check misses the rule fixed before the run, no condition rescues it, and the control shows that the check can decide.",
        "CRITERION-DEPENDENT": "The claim is neither reproduced nor refuted as stated: it holds under some readings of a choice the paper leaves open and fails under others.",
        "SEED-DEPENDENT": "The claim is neither reproduced nor refuted as stated: whether it holds depends on the noise, members that differ only in their seeds disagree.",
        "SEED-AND-CRITERION-DEPENDENT": "The claim is neither reproduced nor refuted as stated: whether it holds depends both on the noise and on a choice the paper leaves open.",
        "UNABLE": "The claim is not decided: a decisive check could not be computed or decided at these sizes, or a control did not come out as it demands."
      }[$v] // "The verdict is \($v).";
    . as $root
    | def prov($c): $c.run.provenance // $root.provenance;
    def loaded($c): $c.run.loaded // $root.loaded // null;
    [.claims[] | select(.paper == $p)] as $cl
    | rev($root.provenance) as $rev
    | "# [Re] \($cl | first | .paper_reference)",
      "",
      "_Generated by `sh reports/archive/replication.sh` from the archived runs of slpi (reports/full: claims.json, figures/, data/, multiverse/, multiverse-full/, their PROVENANCE.md); every number below is read from them, none is typed by hand._",
      "",
      "## Introduction",
      "",
      "This report replicates the checkable claims of the paper above with slpi, an independent implementation of its integrators. Each claim was decided by a rule written before its run, at the paper'"'"'s sizes (the audit'"'"'s FULL mode), and over a multiverse of the choices the paper leaves open. The archived run: \($root.date), revision `\($rev)`, \($root.machine).",
      "",
      "## Methods",
      "",
      "A claim has decisive checks (a number computed by slpi against a threshold fixed before the run), possibly a condition, and a control: the decisive check on a case where it must come out the other way. Its verdict comes from the outcomes alone (docs/claims.md#verdicts): CONFIRMED, CONDITIONAL, DISCREPANCY, CRITERION-DEPENDENT (the paper leaves a choice open and its readings disagree), SEED-DEPENDENT (the noise decides), SEED-AND-CRITERION-DEPENDENT (both the noise and a choice decide) or UNABLE. The multiverse runs every declared choice (noise seeds, BLAS kernel, libm, fit, levels) and decides over its members by the rule of docs/claims.md#multiverse; its verdict, where one was run, is the claim'"'"'s. Thresholds and windows the paper does not give are our choices, each with its reason.",
      "",
      "## Software environment",
      "",
      "Each archived run recorded its environment in its provenance (claims.json: the library versions, the OpenBLAS kernel, the C library whose libm ran, the compiler and its flags) and, from the runs that record it, in its `loaded` object (the libm and BLAS objects that ran, by path and digest of their bytes, and the kernel that ran). The claims of this paper ran in these environments:",
      "",
      ($cl | reduce .[] as $c ({}; .[(prov($c)) + "\n" + (loaded($c) | tojson)] += [$c]) | to_entries[] | .value as $g | (prov($g | first)) as $t |
        "### Revision `\(rev($t))`: \([$g[] | "[\(.id)](#\(.id | ascii_downcase))"] | join(", "))",
        "",
        "| provenance | as recorded |",
        "| --- | --- |",
        ($t | split("\n")[] | select(. != "") | capture("^(?<k>[^=]*)=?(?<v>.*)$") | "| `\(.k)` | \(.v | cell) |"),
        "",
        (loaded($g | first) as $l | if $l == null
          then "What was loaded is not recorded: these runs predate the `loaded` object, so the libm and the BLAS above are the names the run reported, not objects identified by their bytes."
          else "| loaded | as recorded |", "| --- | --- |", ($l | to_entries[] | "| `\(.key)` | \(.value | cell) |") end),
        ""),
      "## How to reproduce",
      "",
      "From a checkout of the revision a claim names above, built with `make`: the whole archive, every claim at the paper'"'"'s sizes, \([($cm | first)[] | select(.file == "README.md") | "`\(.command)`"] | first // "`slpi audit --full`"); one claim, `build/slpi audit --full --only ID`; each check alone, the command listed under its claim with the seconds the archived run spent on it. A multiverse, `sh reports/multiverse/multiverse.sh build/slpi OUT ID` (with `--full` at the paper'"'"'s sizes), one member a row of OUT/members.tsv with its CPU seconds, resumable; the kernel and libm screen, `sh reports/multiverse/screen.sh build/slpi OUT`. The runs archived were made by these commands (as written in their PROVENANCE.md, with its binaries, loads and CPU):",
      "",
      (($cm | first)[] | select(.file != "README.md") | "- [\(.file)](../\(.file)), \(.heading): `\(.command)`"),
      "",
      "## Results",
      "",
      "| claim | statement | verdict (multiverse rule) | archived run |",
      "| --- | --- | --- | --- |",
      ($cl[] | "| [\(.id)](#\(.id | ascii_downcase)) | \(.statement | cell) | \(cellof(.)) | \(.verdict) |"),
      "",
      ($cl[] | . as $c |
        "<a id=\"\($c.id | ascii_downcase)\"></a>",
        "### \($c.id) — \($c.statement)",
        "",
        "- **The claim.** \($c.quote // "(no quotation: a derived claim)"); the paper reports \($c.paper_magnitude), at \($c.paper_size) (\($c.source)).",
        "- **The rule, fixed before the run.** \($c.rule)" + (if ($c.choices // "") != "" and $c.choices != "-" then " Our choices: \($c.choices)." else "" end),
        "- **The multiverse.** " +
          ([("multiverse", "multiverse-full") as $k | rows($c.id; $k) // empty | "\(kindname($k)), [members](../\($k)/\($c.id)/members.tsv) \(declared(.) | if . == "" then "with no declared choice" else "declaring " + . end): \(mvline($c.id; $k) // "no verdict archived")."]
           | if . != [] then join(" ") else "No multiverse run archived: \($c.multiverse.words // "one member")." end),
        ([("multiverse", "multiverse-full") as $k | rows($c.id; $k) // empty | deciding(.) as $d | select($d != []) |
          "- **The members that decide it** (\(kindname($k) | ascii_downcase), the members whose verdict is not the most common one\(if ($fs | first)["\($k)/\($c.id)/checks.tsv"] != null then "; their checks: [checks.tsv](../\($k)/\($c.id)/checks.tsv)" else "" end)):",
          "",
          "  | member | choices | verdict | decisive numbers | CPU s |",
          "  | --- | --- | --- | --- | --- |",
          ($d[] | "  | \(.member) | \(.coords | cell) | \(.verdict) | \(.numbers | cell) | \(.cpu) |"),
          ""] | .[]),
        "- **The verdict.** \(cellof($c)) (the archived run: \($c.verdict); expected before the run: \($c.expected_full // $c.expected)). \($c.reason)",
        (if ($c.why_text // "") != "" and $c.why_text != "-" then "- **What the numbers say.** \($c.why_text)" else empty end),
        "- **Conclusion.** \(conclusion(final($c))) The rule: \($c.rule | split(". ") | first | rtrimstr("."))" + ".",
        "- **Checks** (archived run, revision `\(rev(prov($c)))`):",
        "",
        "  | role | check | case | outcome | what was measured |",
        "  | --- | --- | --- | --- | --- |",
        ($c.checks[] | "  | \(.role)\(if (.variant // "") != "" then " @" + .variant else "" end) | `\(.check)` | \(.case | cell) | \(.outcome) | \(.evidence | cell) |"),
        "",
        "- **How to reproduce it.** `build/slpi audit --full --only \($c.id)`; each check alone, with the seconds the archived run spent on it:",
        "",
        ($c.checks[] | "  - `\(.command // "not recorded")` (\(if .seconds == null then "not recorded" else .seconds + .seconds - .seconds | tostring end) s)"),
        "",
        ([$c.checks[] | select(.figure != null and ($fs | first)["figures/\(.figure).png"] != null)] | if . == [] then "- **Figures.** None archived for this claim.", "" else
          "- **Figures** (the archived run'"'"'s, of its decisive checks and controls):", "",
          (.[] | "  ![\(.figure)](../figures/\(.figure).png)", "",
            "  *Figure \(.figure).* The \(.role) check `\(.check)` on \(.case | cell): \(.outcome). \(.evidence | cell)" +
            (if ($fs | first)["data/\(.figure).tsv"] != null then " Its data: [\(.figure).tsv](../data/\(.figure).tsv)." else "" end), "") end),
        ([$c.checks[] | .figure // empty] as $shown | [($fs | first) | keys_unsorted[] | select(startswith("figures/\($c.id)-l") and endswith(".png"))
          | ltrimstr("figures/") | rtrimstr(".png") | select(. as $f | $shown | index([$f]) | not)] | if . == [] then empty else
          "- **Figures of earlier runs** (still archived: each of an earlier run of \($c.id), named by the registry line of its check; claims.json holds the run above instead, so their outcomes are not shown):", "",
          (.[] | "  ![\(.)](../figures/\(.).png)", "",
            "  *Figure \(.).* An earlier archived run of \($c.id), the check of its registry line \(ltrimstr("\($c.id)-"))." +
            (if ($fs | first)["data/\(.).tsv"] != null then " Its data: [\(.).tsv](../data/\(.).tsv)." else "" end), "") end),
        ""),
      "## Discussion: what is not reproduced, and why",
      "",
      ([$cl[] | select(final(.) != "CONFIRMED")] |
        if . == [] then "Every claim of this paper is CONFIRMED."
        else (.[] | "- **\(.id)** (\(final(.))): \(if (.why_text // "") != "" and .why_text != "-" then .why_text else .reason end)") end)
  ' "$arch/claims.json" > "$tmp/$paper.md" || exit 2
  if [ $check = 1 ]; then
    cmp -s "$tmp/$paper.md" "$arch/replication/$paper.md" ||
      { echo "replication: $arch/replication/$paper.md differs from the archive (run sh reports/archive/replication.sh)"; bad=1; }
  else
    mkdir -p "$arch/replication" && cp "$tmp/$paper.md" "$arch/replication/$paper.md" || exit 2
  fi
done
exit $bad
