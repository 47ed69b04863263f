#!/bin/sh
# t-power-docs.sh — the power tables of docs/power.md (detection by effect, the correct
# ports' false-FAIL table) and of oracle/README.md are the ones tests/port/power_docs.py
# generates from the runs kept in docs/power-runs.tsv, and a changed runs file is noticed
# (one correct run's PASS turned into a FAIL); the diagnosis's table is the one
# tests/port/diagnosis.py generates from docs/diagnosis-runs.tsv, the second round's from
# docs/diagnosis-runs-2.tsv, the third's the one tests/port/diagnosis3.py generates from
# docs/diagnosis-runs-3.tsv (one more run of a correct port is noticed; a group that lacks
# the expected ingredient, or nothing named, is a wrong call), and the tolerance stop's
# check's the one it generates from docs/diagnosis-runs-tol.tsv (a run more is noticed), and
# the fourth round's from docs/diagnosis-runs-4.tsv (a run more noticed; its expectations),
# and the fifth's to eighth's from docs/diagnosis-runs-5.tsv to -8.tsv (the same).
set -u
. "$(dirname "$0")/prelude.sh"
# rounds PREFIX RUNS LINE WHAT: diagnosis3.py's PREFIXcheck finds docs/power.md's table
# the one RUNS gives, and notices one run more (LINE, tab-separated)
rounds() {
  $py tests/port/diagnosis3.py "$1check" "$2" 2> "$d/err" || note "$(cat "$d/err")"
  cp "$2" "$d/more.tsv"
  printf "$3\n" >> "$d/more.tsv"
  $py tests/port/diagnosis3.py "$1check" "$d/more.tsv" 2> /dev/null
  [ $? -eq 1 ] || note "$4 run more went unnoticed"
}
$py tests/port/power_docs.py --check 2> "$d/err" || note "$(cat "$d/err")"
$py tests/port/diagnosis.py --check docs/diagnosis-runs.tsv docs/diagnosis-runs-2.tsv 2> "$d/err" || note "$(cat "$d/err")"
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 && $3 == "none" && !done { $9 = 1; done = 1 } { print }' \
  docs/power-runs.tsv > "$d/runs.tsv"
$py tests/port/power_docs.py --check "$d/runs.tsv" 2> "$d/err"
[ $? -eq 1 ] && grep -q null-table "$d/err" || note "one false FAIL more went unnoticed: $(cat "$d/err")"
# one held-out run's first ingredient changed: the table no longer matches
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 && $9 == "FAIL" && $11 != "" && !done { $11 = "noise 9"; done = 1 } { print }' \
  docs/diagnosis-runs.tsv > "$d/diag.tsv"
$py tests/port/diagnosis.py --check "$d/diag.tsv" 2> /dev/null
[ $? -eq 1 ] || note "a changed diagnosis run went unnoticed"
rounds -- docs/diagnosis-runs-3.tsv 'rb\tfloat\tsingle\tnone\t0\t0.0\t7\t\t2-4\t1\tFAIL\tTrue\tnoise\t\t\t1.0' "a third-round"
rounds --tol- docs/diagnosis-runs-tol.tsv 'svi\tdouble\tmany\ttol\t0\t1.4901161193847656e-08\t94000\t\t3-4\t1\tFAIL\tTrue\tdrift\t\t\t1.0' "a tolerance check's"
rounds --r4- docs/diagnosis-runs-4.tsv 'zeitlin\tfloat\tmany\tnone\t0\t0.0\t95000\t\t2-3\t0\tPASS\tFalse\t\t\t\t1.0' "a fourth-round"
# the fourth round's expectations (docs/power.md#diagnosis-rule-4): su(8)'s sign is noise 1
# on its paths, noise on the third round's; its tol any stop from X_n
bad=$($py -c "import sys; sys.path.insert(0, 'tests/port'); import diagnosis3 as d
for args, want in ((('sign', 1, '2-3', 95003), 'noise 1'), (('sign', 1, '2-3', 91003), 'noise'),
                   (('amp', 4, '2-3', 95003), 'noise'), (('tol', 0, '3-3', 95003), 'solver stop at 2^-30'),
                   (('early', 2, '2-2', 95009), 'solver stop 2'), (('swap', 0, '2-3', 95000), 'noise 1 and 2 swapped')):
    got = d.expected('zeitlin', *args).split('|')
    print('' if want in got and (args[0] == 'tol' or len(got) == 1) else '%r: %r, not %r' % (args, got, want))" 2>&1)
[ -z "$(echo "$bad" | tr -d '\n')" ] || note "diagnosis3.expected: $bad"
# expects ROUND CASES [EXTRA]: diagnosis3.expected(*args), '|'-split, holds want and has n
# entries for each ((args), want, n) of CASES (a Python tuple); EXTRA more Python lines
# printing a complaint or ''
expects() {
  bad=$($py -c "import sys; sys.path.insert(0, 'tests/port'); import diagnosis3 as d
for args, want, n in ($2):
    got = d.expected(*args).split('|')
    print('' if want in got and len(got) == n else '%r: %r, not %r' % (args, got, want))
${3:-}" 2>&1)
  [ -z "$(echo "$bad" | tr -d '\n')" ] || note "diagnosis3.expected ($1): $bad"
}
rounds --r5- docs/diagnosis-runs-5.tsv 'svi\tdouble\tmany\tnone\t0\t0.0\t98000\t\t3-4\t0\tPASS\tFalse\t\t\t\t1.0' "a fifth-round"
# the fifth round's expectations (docs/power.md#diagnosis-rule-5): early m either form of
# stop m on its paths, slpi's alone on the third round's; tol any stop from X_n, plain ones too
expects "fifth round" "(('heavytop', 'early', 1, '1-1', 98002), 'solver stop 1, plain sweeps', 2),
    (('heavytop', 'early', 1, '1-1', 91002), 'solver stop', 1), (('svi', 'early', 2, '2-2', 98002), 'solver stop 2', 2),
    (('svi', 'tol', 0, '3-4', 98009), 'solver stop 3, plain sweeps', 27), (('svi', 'sign', 4, '3-4', 98009), 'noise 1', 1)"
rounds --r6- docs/diagnosis-runs-6.tsv 'rbtmk\tdouble\tmany\tnone\t0\t0.0\t99000\t\t3-5\t0\tPASS\tFalse\t\t\t\t1.0' "a sixth-round"
# the sixth round's expectations (docs/power.md#diagnosis-rule-6): the heavy top's lap is
# not judged (15 coordinates), the rigid body's is drift dH/dx2; early m either form
expects "sixth round" "(('htsvi', 'lap', 4, '10-12', 99001), '', 1), (('rbtmk', 'lap', 4, '3-5', 99001), 'drift dH/dx2', 1),
    (('htsvi', 'early', 2, '2-2', 99003), 'solver stop 2, plain sweeps', 2),
    (('rbtmk', 'swap', 0, '3-5', 99003), 'noise 1 and 2 swapped', 1)"
rounds --r7- docs/diagnosis-runs-7.tsv 'zeitlin2\tdouble\tmany\tnone\t0\t0.0\t93000\t\t5-6\t0\tPASS\tFalse\t\t\t\t1.0' "a seventh-round"
# the seventh round's expectations (docs/power.md#diagnosis-rule-7): early m the stop m for
# ports that re-evaluate (all three), m - 1 for one that keeps its last sweep's quantities;
# tol any stop from X_n, stop 0 included
expects "seventh round" "(('rbsvifix', 'early', 1, '1-1', 93002), 'solver stop 1, plain sweeps', 2),
    (('zeitlin2', 'lap', 4, '5-6', 93002), 'drift', 1), (('htsvipi', 'lap', 4, '11-11', 93002), '', 1),
    (('htsvipi', 'tol', 0, '5-6', 93002), 'solver stop 0, plain sweeps', 28)" "d.R7_LAST['htsvipi'] = True
got = d.expected('htsvipi', 'early', 1, '1-1', 93002)
print('' if got == 'solver stop 0, plain sweeps' else 'last sweep early 1: %r' % got)"
rounds --r8- docs/diagnosis-runs-8.tsv 'zeitlingpu\tdouble\tmany\tnone\t0\t0.0\t92500\t\t8-8\t0\tPASS\tFalse\t\t\t\t1.0' "an eighth-round"
# the eighth round's expectations (docs/power.md#diagnosis-rule-8): ISOMP's own families
# alone; pred m the stop m after the predictor (Psi re-evaluated); tol any stop
expects "eighth round" "(('zeitlingpu', 'pred', 1, '1-1', 92500), 'solver stop 1 after predictor', 1),
    (('zeitlingpu', 'trans', 4, '8-8', 92500), 'Psi Y Psi/4', 1), (('zeitlingpu', 'upd', 4, '8-8', 92500), 'update', 1),
    (('zeitlingpu', 'reord', 4, '8-8', 92500), 'Psi Y Psi/4 reordered', 1),
    (('zeitlingpu', 'tol', 0, '2-2', 92500), 'solver stop 2 after predictor', 31)"
# the third round's calls: a group counts only when it holds the expected ingredient, and
# a FAIL with nothing named (whose JSON lists every ingredient as one group) is wrong
bad=$($py -c "import sys; sys.path.insert(0, 'tests/port'); import diagnosis3 as d
for verdict, named, first, group, want in (
        ('FAIL', 'True', 'noise', '', 'right'), ('FAIL', 'True', 'update', '', 'wrong'),
        ('FAIL', 'True', 'noise', 'noise|update', 'group'), ('FAIL', 'True', 'update', 'update|drift', 'wrong'),
        ('FAIL', 'False', '', 'noise|update', 'wrong'), ('PASS', 'False', '', '', '')):
    got = d.call(dict(stat_verdict=verdict, named=named, first=first, group=group, expected='noise|noise 1'))
    print('' if got == want else '%s first %r group %r: %r, not %r' % (verdict, first, group, got, want))" 2>&1)
[ -z "$(echo "$bad" | tr -d '\n')" ] || note "diagnosis3.call: $bad"
[ $fail -eq 0 ] && echo "t-power-docs: docs/power.md and oracle/README.md carry the tables of docs/power-runs.tsv and docs/diagnosis-runs.tsv"
exit $fail
