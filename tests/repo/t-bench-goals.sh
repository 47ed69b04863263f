#!/bin/sh
# t-bench-goals.sh — the speed goals' table (docs/experiments.md#goals) is the one
# bench/goals.py writes from its ledger, docs/bench-goals.txt, and every ledger line's
# verdict is what its numbers say; on fixtures: a log's goal lines and facts become the
# ledger and the table (a goal not measured listed as such), the C and Python benchmarks'
# goal lines are read the same, and a verdict that contradicts its numbers, a changed
# table and a log without goals are refused.
set -u
. "$(dirname "$0")/../oracle/prelude.sh"
g="$py bench/goals.py"
$g --check 2> "$d/err" || note "docs/experiments.md#goals: $(cat "$d/err")"

# a log: one line of each writer (benchutil.h's bench_goal through a C program, goal.py's
# line) among other output
cat > "$d/goal.c" << 'EOF'
#include "bench/benchutil.h"
int main(void)
{
    bench_goal("certified-128", 14.42, 1, 8, 0, "certified / double step, CPU, steady over steps 2..20, N = 128");
    bench_goal("quflow-like-N256-l4", 1.43, 0, 1.5, 1.98, "quflow over slpi");
    return 0;
}
EOF
${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -I. -o "$d/goal" "$d/goal.c" || note "a program of bench_goal does not build"
{
  echo "bench-commit: 0123abcd"
  echo "bench-load start: 1.00 0.50 0.25 1/100 7"
  echo "bench-noise: a benchmark's own line"
  echo "== build/bench/bench-ref-blas"
  "$d/goal"
  echo "some other line: goal <= 3"
  PYTHONPATH=bench $py -c 'import goal; print(goal.line("model-spellings", 1.21, True, 1.3, 1, "worst spelling"))'
  echo "bench-load end: 2.00 1.00 0.50 1/100 7"
} > "$d/bench.log"
printf 'x\n<!-- bench-goals -->\n<!-- /bench-goals -->\ny\n' > "$d/doc.md"
$g --from "$d/bench.log" --ledger "$d/ledger.txt" --doc "$d/doc.md" 2> "$d/err" || note "--from: $(cat "$d/err")"
for want in "| certified-128 | 14.42 | <= 8 | — | **not met** | certified / double step, CPU, steady over steps 2..20, N = 128 |" \
  "| quflow-like-N256-l4 | 1.43 | >= 1.5 | 1.98 | **not met** | quflow over slpi |" \
  "| model-spellings | 1.21 | <= 1.3 | 1 | met | worst spelling |" \
  "- bench-load start: 1.00 0.50 0.25 1/100 7" "- bench-load end: 2.00 1.00 0.50 1/100 7" \
  "Not measured by this run (bench-fast-setup): setup-1024, setup-memory-1024." \
  "quflow-equal-accuracy-N1024-lall." "Not measured by this run (bench/vs-quflow.py (QUFLOW set)): quflow-like-N128-l4,"; do
  grep -qF -- "$want" "$d/doc.md" || note "the fixture's table lacks '$want'"
done
grep -q "some other line\|bench-noise" "$d/ledger.txt" && note "the ledger took a line that is neither a goal nor a fact"
grep -qx "# bench-commit: 0123abcd" "$d/ledger.txt" || note "the ledger lacks the run's commit"
head -1 "$d/doc.md" | grep -qx x && tail -1 "$d/doc.md" | grep -qx y || note "--from wrote outside the markers"
$g --check --ledger "$d/ledger.txt" --doc "$d/doc.md" || note "--check of the table just written"
# a table edited by hand, then written again from the ledger
sed 's/| 14.42 |/| 7.5 |/' "$d/doc.md" > "$d/x" && mv "$d/x" "$d/doc.md"
$g --check --ledger "$d/ledger.txt" --doc "$d/doc.md" 2> /dev/null
[ $? -eq 1 ] || note "--check let an edited table pass"
$g --write --ledger "$d/ledger.txt" --doc "$d/doc.md" && $g --check --ledger "$d/ledger.txt" --doc "$d/doc.md" ||
  note "--write did not restore the table"
# a verdict that is not its numbers'
sed 's/(<= 1.3; bound 1) worst spelling: met/(<= 1.3; bound 1) worst spelling: not met/' "$d/ledger.txt" > "$d/bad.txt"
cmp -s "$d/bad.txt" "$d/ledger.txt" && note "the fixture's verdict was not changed"
$g --check --ledger "$d/bad.txt" --doc "$d/doc.md" 2> "$d/err"
[ $? -eq 1 ] && grep -q "verdict" "$d/err" || note "a verdict against its numbers passed: $(cat "$d/err")"
# a log without goal lines, and a missing marker
echo "nothing" > "$d/empty.log"
$g --from "$d/empty.log" --ledger "$d/l2.txt" --doc "$d/doc.md" 2> /dev/null && note "a log without goals was taken"
[ -e "$d/l2.txt" ] && note "a log without goals wrote a ledger"
echo x > "$d/nomark.md"
$g --check --ledger "$d/ledger.txt" --doc "$d/nomark.md" 2> /dev/null
[ $? -eq 2 ] || note "a document without the markers did not exit 2"
[ $fail -eq 0 ] && echo "t-bench-goals: PASS"
exit $fail
