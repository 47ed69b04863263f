#!/bin/sh
# t-progress.sh — progress on standard error (core/progress.c) changes no output: a run
# with --progress writes the same trajectory file and the same summary, byte for byte,
# as one without; --progress draws "what: done/total" lines on stderr and erases them;
# without it, and with stderr not a terminal, stderr stays empty; --quiet silences it;
# `run --ref` shows the work inside a certified step ("in step 0: ... iterations"); a run
# counts done/total of the steps it takes (a resumed run: the steps left after its checkpoint).
# The same for the other long commands: converge, verify (global and local), golden
# (check and --write), props and audit each draw their own progress line with
# --progress, and their reports and output files are the same bytes without it.
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0
note() { echo "t-progress: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
run="run --preset iso/rigid-body/trajectories --steps 3000"
$slpi $run --progress -o "$d/a.tsv" > "$d/a.out" 2> "$d/a.err" || note "run with --progress failed"
$slpi $run -o "$d/b.tsv" > "$d/b.out" 2> "$d/b.err" || note "run without --progress failed"
cmp -s "$d/a.tsv" "$d/b.tsv" || note "trajectory differs with --progress"
# the summary differs only in its timing figure
sed 's/, [0-9.]* s$//' "$d/a.out" > "$d/a.sum"; sed 's/, [0-9.]* s$//' "$d/b.out" > "$d/b.sum"
cmp -s "$d/a.sum" "$d/b.sum" || note "summary differs with --progress"
grep -q 'run (fast path), steps: [0-9]*/3000 (' "$d/a.err" || note "no progress line on stderr with --progress"
[ "$(tail -c 4 "$d/a.err" | od -An -c | tr -d ' ')" = '\r033[K' ] || note "the progress line is not erased at the end"
# the count a user reads: every line of a run's progress says done/total with total the
# steps this run takes (all of them fresh, the steps left after the checkpoint resumed),
# 0 <= done <= total, done never going back, and the percentage of done/total
counts() {   # FILE TOTAL WHAT
  tr '\r' '\n' < "$1" | awk -v total="$2" '
    /^run \(fast path\), steps: / { split($0, a, /steps: /); split(a[2], b, /[\/ (%]+/)
      n++; done = b[1] + 0
      if (b[2] + 0 != total) { print "total " b[2] " in \"" $0 "\""; bad = 1 }
      if (done < 0 || done > total || done < last) { print "done " done " in \"" $0 "\""; bad = 1 }
      if (b[3] + 0 != sprintf("%.0f", 100 * done / total) + 0) { print "percentage in \"" $0 "\""; bad = 1 }
      last = done }
    END { if (!n) print "no progress line"; exit bad || !n }' > "$d/counts" ||
    note "$3: progress does not count to $2: $(head -2 "$d/counts")"
}
counts "$d/a.err" 3000 "fresh run of 3000 steps"
# resumed from the checkpoint at step 2200 (every 1100 steps): 800 steps left
$slpi $run -q -o "$d/k.tsv" --checkpoint "$d/ck" --checkpoint-every 1100 || note "checkpointed run failed"
grep -q '^step 2200$' "$d/ck" || note "the checkpoint is not at step 2200"
$slpi $run --progress -o "$d/k.tsv" --resume "$d/ck" > /dev/null 2> "$d/k.err" || note "resumed run with --progress failed"
counts "$d/k.err" 800 "run resumed at step 2200 of 3000"
cmp -s "$d/a.tsv" "$d/k.tsv" || note "resumed run with --progress: not the uninterrupted trajectory"
[ -s "$d/b.err" ] && note "stderr not empty without --progress (not a terminal): $(head -c 200 "$d/b.err")"
$slpi $run --progress -q -o "$d/c.tsv" > "$d/c.out" 2> "$d/c.err" || note "run with --progress -q failed"
[ -s "$d/c.err" ] && note "--quiet did not silence progress"
cmp -s "$d/a.tsv" "$d/c.tsv" || note "trajectory differs with --quiet"
# to standard output (no -o): the trajectory stream is identical too
$slpi $run --progress -q > "$d/d.tsv" 2>/dev/null && $slpi $run -q > "$d/e.tsv" 2>/dev/null || note "run to stdout failed"
cmp -s "$d/d.tsv" "$d/e.tsv" || note "trajectory on stdout differs with --progress"
# inside a certified step: the line moves with the step's work (slpi_ref_set_watch),
# drawn at once with --progress (the first draw is never delayed): "in step 0: ..."
$slpi run --preset iso/rigid-body/trajectories --steps 3 --ref --progress -o "$d/r.tsv" > /dev/null 2> "$d/r.err" ||
  note "run --ref --progress failed"
tr '\r' '\n' < "$d/r.err" | grep -q "^run (ref path), steps: 0/3 (0%), .*; in step 0: [0-9]* iterations, [0-9]* Jacobian columns at 128 bits" ||
  note "run --ref --progress: no work inside step 0 on the line: $(tr '\r' '\n' < "$d/r.err" | head -3)"
# a certified path's set-up moves its own line before the first step: euler-zeitlin's
# su(N) tables (minutes at N = 256, where `run --ref` was silent until its first step)
# tick this thread's current line (slpi_progress_tick), drawn at once with --progress
$slpi run --preset iso/zeitlin/long N=16 --steps 1 --ref --progress -o "$d/z.tsv" > /dev/null 2> "$d/z.err" ||
  note "run --ref --progress on su(16) failed"
tr '\r' '\n' < "$d/z.err" | awk '/^run \(ref path\), set-up: 0\/1 \(0%\), .*; su\(16\) tables at [0-9]* bits: [0-9]*\/16/ && !s { s = NR }
  /^run \(ref path\), steps: / && !t { t = NR } END { exit !(s && t && s < t) }' ||
  note "run --ref --progress: no su(16) tables on a set-up line before the steps: $(tr '\r' '\n' < "$d/z.err" | head -3)"
# the other long commands: CMD... with --progress and without; stdout (timings taken out:
# lines with "wall", "s elapsed" or a seconds column) and every file in $d/p and $d/n the
# same; stderr with --progress holds WHAT's line
# a report without its timings: "0.42 s wall", a seconds column at the end of a line,
# "in 3 s:", "(0.1 s)", the per-check "  0.1s  " of the audit log
untimed() {
  sed -e 's/[0-9.]* s wall//; s/[0-9][0-9.]*s  / s  /; s/ [0-9.]* s$//; s/in [0-9]* s:/in s:/; s/[0-9.]* s)$/ s)/; s/ [0-9][0-9.]*$//' "$1"
}
same() {
  what=$1; shift
  rm -rf "$d/p" "$d/n"; mkdir -p "$d/p" "$d/n"
  (cd "$d/p" && "$slpi" "$@" --progress > ../p.out 2> ../p.err)
  rp=$?
  (cd "$d/n" && "$slpi" "$@" > ../n.out 2> ../n.err)
  rn=$?
  [ $rp -eq $rn ] || note "$1: exit $rp with --progress, $rn without"
  for o in p n; do untimed "$d/$o.out" > "$d/$o.sum"; done
  cmp -s "$d/p.sum" "$d/n.sum" || note "$1: standard output differs with --progress: $(diff "$d/p.sum" "$d/n.sum" | head -4)"
  (cd "$d/p" && find . -type f | LC_ALL=C sort) > "$d/p.files"
  (cd "$d/n" && find . -type f | LC_ALL=C sort) > "$d/n.files"
  cmp -s "$d/p.files" "$d/n.files" || note "$1: other output files with --progress"
  while read -r f; do
    case $f in *.json|*.html|*.gp|*.svg) continue ;; esac   # carry timings
    untimed "$d/p/$f" > "$d/p.f"; untimed "$d/n/$f" > "$d/n.f"
    cmp -s "$d/p.f" "$d/n.f" || note "$1: $f differs with --progress: $(diff "$d/p.f" "$d/n.f" | head -4)"
  done < "$d/p.files"
  tr '\r' '\n' < "$d/p.err" | grep -q "^$what: [0-9]*/[0-9]* (" || note "$1: no '$what' progress line with --progress"
  grep -q "$what" "$d/n.err" && note "$1: progress on stderr without --progress (not a terminal)"
}
$slpi $run -q -o "$d/t.tsv" 2>/dev/null
cp oracle/golden/rigid-body.isomp.golden "$d/g.golden" 2>/dev/null || cp "$(dirname "$0")/../../oracle/golden/rigid-body.isomp.golden" "$d/g.golden"
same "converge, paths" converge --preset iso/rigid-body/strong --paths 64 --levels 2..4 --ref 6 --boot 10 -o c.txt
same "verify --global, steps" verify "$d/t.tsv" --global -o v.txt
same "verify --local, rows" verify "$d/t.tsv" --local --sample 50 --sample-seed 3 -o v.txt
same "golden, cases" golden "$d/g.golden" -o g.txt
same "props, properties x systems" props --property casimir --system rigid-body --cases 2
same "audit, claims" audit --controls --only X3 --claims "$(pwd)/reports/claims.txt" --out a
echo "t-progress: outputs byte-identical with and without --progress; progress only on stderr"
exit $fail
