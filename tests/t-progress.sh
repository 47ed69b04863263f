#!/bin/sh
# t-progress.sh — progress on standard error (core/progress.c) changes no output: a run
# with --progress writes the same trajectory file and the same summary, byte for byte,
# as one without; --progress draws "what: done/total" lines on stderr and erases them;
# without it, and with stderr not a terminal, stderr stays empty; --quiet silences it.
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
[ -s "$d/b.err" ] && note "stderr not empty without --progress (not a terminal): $(head -c 200 "$d/b.err")"
$slpi $run --progress -q -o "$d/c.tsv" > "$d/c.out" 2> "$d/c.err" || note "run with --progress -q failed"
[ -s "$d/c.err" ] && note "--quiet did not silence progress"
cmp -s "$d/a.tsv" "$d/c.tsv" || note "trajectory differs with --quiet"
# to standard output (no -o): the trajectory stream is identical too
$slpi $run --progress -q > "$d/d.tsv" 2>/dev/null && $slpi $run -q > "$d/e.tsv" 2>/dev/null || note "run to stdout failed"
cmp -s "$d/d.tsv" "$d/e.tsv" || note "trajectory on stdout differs with --progress"
echo "t-progress: outputs byte-identical with and without --progress; progress only on stderr"
exit $fail
