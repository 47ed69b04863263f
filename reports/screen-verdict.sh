#!/bin/sh
# screen-verdict.sh ID FILE — the kernel and libm screen's decision for claim ID from its
# members' checks, FILE (screen.json, written by reports/screen.sh from the members'
# reports: an array of members, each its member number, coordinates, verdict and checks,
# each check's role, case, check, outcome, value, CI ends lo and hi, and bound). The rule, committed before the screen ran
# (docs/claims.md#screen): a choice of kernel or libm CAN DECIDE the claim when
#   1. the members' verdicts differ, or
#   2. a check's outcome differs between members (any role: a control too), or
#   3. for a decisive check (role claim) whose number is judged against a bound (the
#      report's "bound": a threshold x, or a window lo..hi), over its numbers (the value,
#      and the CI's lo and hi where the check has one):
#      a. spread >= margin / 10, spread the largest range of one number over the members,
#         margin the smallest distance of any member's number to any finite edge; or
#      b. margin < 10 * 1e-5 * the largest |number|: the reports' six significant digits
#         cannot show a spread of a tenth of the margin (so the screen cannot rule it out);
#   else it CANNOT DECIDE, with the largest spread/margin ratio over the decisive checks as
#   the evidence. Fewer than 8 members: INCOMPLETE.
# Output, one tab-separated row: ID, members, the verdicts seen, CAN DECIDE / CANNOT DECIDE /
# INCOMPLETE, the largest ratio (- if no decisive number has a bound), and the reason (the
# claim's check that decides, K of its check lines with its case and check, and what
# differs; the line number is not given: the screen's derived registry shifts it).
usage="usage: screen-verdict.sh ID FILE"
id=${1:?$usage}; file=${2:?$usage}
command -v jq >/dev/null || { echo "screen-verdict: needs jq (make deps installs it)" >&2; exit 2; }
[ -f "$file" ] || { echo "screen-verdict: $file missing" >&2; exit 2; }
jq -r --arg id "$id" '
  def nums: [.value, .lo, .hi] | map(select(type == "number"));
  def edges: [.bound.x, .bound.lo, .bound.hi] | map(select(type == "number"));
  def fmt: if . == null then "-" elif . == 0 then "0"
    else (log10 | floor) as $e | (. / pow(10; $e) * 100 | round / 100 | tostring) + "e" + ($e | tostring) end;
  . as $m | length as $n
  | ($m | map(.verdict) | unique) as $verdicts
  | [range(0; $m[0].checks | length) as $i | [$m[] | .checks[$i]] as $c | $c[0] as $c0
     | "check \($i + 1) (\($c0.case // "-") | \($c0.check // "-"))" as $at
     | (if ($c | map(.outcome) | unique | length) > 1 then
          {at: $at, why: "outcomes differ (\($c | map(.outcome) | unique | join(", ")))"}
        elif $c0.role != "claim" or ($c0 | edges | length) == 0 then empty
        elif ($c | map(nums | length) | unique | length) > 1 then
          {at: $at, why: "a number is present in some members only"}
        elif ($c0 | nums | length) == 0 then empty
        else
          ([$c[] | nums as $p | edges as $e | $p[] as $x | $e[] as $y | ($x - $y) | fabs] | min) as $margin
          | ([range(0; $c0 | nums | length) as $j | [$c[] | nums[$j]] | max - min] | max) as $spread
          | ([$c[] | nums[] | fabs] | max) as $big
          | (if $margin > 0 then $spread / $margin elif $spread > 0 then 1e9 else 0 end) as $ratio
          | if $margin < 10 * 1e-5 * $big then
              {at: $at, ratio: $ratio, why: "margin \($margin) under ten units of the six digits reported"}
            elif $ratio >= 0.1 then
              {at: $at, ratio: $ratio, why: "spread \($spread) reaches a tenth of the margin \($margin)"}
            else {at: $at, ratio: $ratio} end
        end)] as $rows
  | ([$rows[] | select(.ratio != null)] | max_by(.ratio)) as $top
  | ([$rows[] | select(.why != null)] | first) as $why
  | [$id, ($n | tostring), ($verdicts | join(" ")),
     (if $n < 8 then "INCOMPLETE" elif ($verdicts | length) > 1 or $why != null then "CAN DECIDE"
      else "CANNOT DECIDE" end),
     ($top.ratio | fmt),
     (if ($verdicts | length) > 1 then "verdicts differ"
      elif $why != null then "\($why.at): \($why.why)"
      elif $top != null then "largest spread/margin at \($top.at)"
      else "no decisive number with a bound; every outcome alike" end)]
  | if $n == 0 then [$id, "0", "-", "INCOMPLETE", "-", "no member has run"] | @tsv else @tsv end' "$file"
