#!/bin/sh
# t-ctrl-c.sh — Ctrl-C on every long command (core/interrupt.c, docs/conventions.md#interrupt):
# each is started with SIGINT at its default (env --default-signal=INT: a background
# job of a script starts with it ignored), sent one SIGINT from this script once it
# works, and must stop by its own poll (exit 130 and "interrupted" on standard error;
# the one-second fallback that ends the process by the signal prints nothing), keeping
# what it did:
#   run       a valid prefix of the uninterrupted output; its checkpoint (written at the
#             last step taken) --resume's to the bytes of the uninterrupted run;
#   converge  its checkpoint holds the batches completed; --resume prints the bytes of
#             the uninterrupted study;
#   verify    (global and --local), golden, props: exit 130, the report so far;
#   audit     no report; the claims finished are cached, and a second run with the same
#             cache starts after them.
# Each SIGINT is sent once the command's own progress shows it works (its output's bytes,
# its progress line's count, its cache's entries, the bytes it has read): never after a
# fixed delay, which a busy machine may spend before the command starts. The latency from
# the signal to the end of the process is printed (not judged: timings are measured, not
# asserted; a command that did not poll would take its full length).
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-ctrl-c: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
now() { date +%s.%N; }

me=t-ctrl-c
. tests/cli/stopping.sh  # the probes bytes, count and files
# readbytes: the bytes the process has read (/proc/PID/io; 0 before any)
readbytes() { sed -n 's/^rchar: //p' "/proc/$pid/io" 2>/dev/null | grep . || echo 0; }
# interrupt NAME PROBE AT CMD...: run CMD (stdout NAME.out, stderr NAME.err), SIGINT once
# `eval PROBE` prints at least AT; sets rc and prints the latency
interrupt() {
  name=$1 probe=$2 at=$3
  shift 3
  env --default-signal=INT "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pid=$!
  while kill -0 $pid 2>/dev/null && [ "$(eval "$probe")" -lt "$at" ]; do sleep 0.02; done
  t0=$(now)
  kill -s INT $pid 2>/dev/null
  wait $pid
  rc=$?
  echo "t-ctrl-c: $name: exit $rc, $(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }') s from SIGINT to exit"
  if [ $rc -ne 130 ]; then
    bad "$name: exit $rc, not 130 (interrupted): $(tail -2 "$tmp/$name.err")"
  elif ! grep -q "interrupted" "$tmp/$name.err" "$tmp/$name.out"; then
    bad "$name: ended by the fallback, not by its own poll (no 'interrupted' message)"
  fi
}

# ---- run: 2e6 fast steps (about 1.5 s on an idle core), a row every 1000 steps
run="--preset iso/rigid-body/trajectories --steps 2000000 output_every=1000"
"$slpi" run $run -o "$tmp/full.tsv" -q || bad "run: the uninterrupted run failed"
interrupt run "bytes '$tmp/part.tsv'" 20000 \
  "$slpi" run $run -o "$tmp/part.tsv" --checkpoint "$tmp/run.ck" --checkpoint-every 1000000 -q
rows=$(grep -vc '^#' "$tmp/part.tsv")
echo "t-ctrl-c: run: $rows lines kept, checkpoint at $(sed -n 's/^step //p' "$tmp/run.ck")"
size=$(wc -c < "$tmp/part.tsv")
head -c "$size" "$tmp/full.tsv" | cmp -s - "$tmp/part.tsv" || bad "run: the interrupted output is not a prefix of the uninterrupted one"
grep -q "continue with --resume" "$tmp/run.err" || bad "run: the message does not say how to continue"
last=$(sed -n 's/.*interrupted before step \([0-9]*\).*/\1/p' "$tmp/run.err")
grep -q "^step ${last:-x}\$" "$tmp/run.ck" || bad "run: the checkpoint is not at the last step taken (${last:-?})"
"$slpi" run $run -o "$tmp/part.tsv" --resume "$tmp/run.ck" -q 2> "$tmp/resume.err" || bad "run: --resume failed: $(cat "$tmp/resume.err")"
cmp -s "$tmp/full.tsv" "$tmp/part.tsv" || bad "run: the resumed output differs from the uninterrupted run"

# ---- converge: 80 batches (about 1 s on two idle cores)
study="--preset iso/rigid-body/weak --kind weak --levels 2..6 --ref 10 --paths 3000 --batches 80 --indep svi"
OMP_NUM_THREADS=2 "$slpi" converge $study --threads 2 > "$tmp/study.txt" 2>/dev/null || bad "converge: the plain study failed"
# (SIGINT once the progress line counts 300 paths: 8 batches of 37.5; a batch's paths are
# counted as its block finishes, so at least one batch is done)
rm -f "$tmp/conv.ck"
interrupt converge "count paths '$tmp/converge.err'" 300 env OMP_NUM_THREADS=2 \
  "$slpi" converge $study --threads 2 --checkpoint "$tmp/conv.ck" --checkpoint-every 1000 --progress
done=$(sed -n 's/^done //p' "$tmp/conv.ck" 2>/dev/null)
echo "t-ctrl-c: converge: $done of 80 batches in the checkpoint"
[ "${done:-0}" -gt 0 ] || bad "converge: the checkpoint holds no batch (checkpoint-every 1000: only the interrupt writes one)"
[ -s "$tmp/converge.out" ] && bad "converge: an interrupted study printed a report"
"$slpi" converge $study --threads 1 --resume "$tmp/conv.ck" > "$tmp/resumed.txt" 2>/dev/null || bad "converge: --resume failed"
cmp -s "$tmp/study.txt" "$tmp/resumed.txt" || bad "converge: the resumed study differs from the uninterrupted one"

# ---- verify (a heavy-top trajectory: the certified walk takes seconds), golden, props
"$slpi" run --preset rkmk/heavy-top/stoch-421-realization --steps 3000 -o "$tmp/ht.tsv" -q || bad "verify: no trajectory"
interrupt verify "count steps '$tmp/verify.err'" 2 "$slpi" verify --global --progress "$tmp/ht.tsv"
interrupt verify-local "count rows '$tmp/verify-local.err'" 2 "$slpi" verify --local --progress "$tmp/ht.tsv"
# verify's reading: a FIFO fed rows without end (steps=10^12), so the only way out is a
# poll in the reading loop, whatever the machine's speed: the validation pass, and the
# local pass over rows --rows skips (the FIFO's second opening, a second after a whole
# file of 400 rows for the first)
rows() { # rows FIRST LAST: the header of ht.tsv with steps=10^12, then rows FIRST..LAST (LAST < 0: no end)
  sed -n '/^#/p' "$tmp/ht.tsv" | sed "s/^# steps=.*/# steps=${3:-1000000000000}/"
  sed -n '/^step/p' "$tmp/ht.tsv" | cut -f1-8
  awk -v a="$1" -v b="$2" -v h="$(sed -n 's/^# h=//p' "$tmp/ht.tsv")" 'BEGIN{for (n = a; b < 0 || n <= b; n++)
    printf "%d\t%.17g\t0.1\t0.2\t0.3\t0.4\t0.5\t0.6\n", n, n * h}'
}
mkfifo "$tmp/rows.fifo"
rows 0 -1 > "$tmp/rows.fifo" &
writer=$!
interrupt verify-read readbytes 2000000 "$slpi" verify --global "$tmp/rows.fifo"
grep -q "rows.fifo: interrupted while reading it, at line [0-9]" "$tmp/verify-read.err" ||
  bad "verify-read: the message does not say where the reading stopped: $(cat "$tmp/verify-read.err")"
kill $writer 2>/dev/null
mkfifo "$tmp/rows2.fifo"   # (another: the first one's writer may not have seen its reader go)
{ rows 0 399 399 > "$tmp/rows2.fifo"; sleep 1; rows 0 -1 > "$tmp/rows2.fifo"; } &
writer=$!   # (the pause: the reader sees the end of the first file before the second opens)
interrupt verify-read-local readbytes 3000000 "$slpi" verify --local --rows 0..1 "$tmp/rows2.fifo"
grep -q "rows2.fifo: interrupted while reading it for the local comparison, at step [0-9]" "$tmp/verify-read-local.err" ||
  bad "verify-read-local: the message does not say where the reading stopped: $(cat "$tmp/verify-read-local.err")"
kill $writer 2>/dev/null   # (a writer still waiting for a reader: a failed case above)
interrupt golden "count cases '$tmp/golden.err'" 2 "$slpi" golden --progress
grep -q "interrupted in case '.*' ([0-9]* of [0-9]* cases checked)" "$tmp/golden.err" || bad "golden: the message does not name the case"
interrupt props "count systems '$tmp/props.err'" 2 "$slpi" props --cases 1000 --progress
grep -q "^props: interrupted in [a-z_0-9-]* on [a-z-]*/[a-z-]* after [0-9]* groups" "$tmp/props.out" ||
  bad "props: the report does not say where it stopped"

# ---- audit: the claims finished are cached, the report is not written
interrupt audit "files '$tmp/cache/*.json'" 1 "$slpi" audit --cache "$tmp/cache" --out "$tmp/audit"
[ -e "$tmp/audit/index.html" ] && bad "audit: an interrupted audit wrote its report"
n1=$(ls "$tmp/cache" | wc -l)
finished=$(sed -n 's/.*(\([0-9]*\) of [0-9]* claims finished.*/\1/p' "$tmp/audit.err")
[ "$n1" = "${finished:-x}" ] || bad "audit: $n1 claims cached, the message says ${finished:-?} finished"
interrupt audit-again "files '$tmp/cache/*.json'" $((n1 + 1)) "$slpi" audit --cache "$tmp/cache" --out "$tmp/audit"
cached=$(grep -c "(cached)" "$tmp/audit-again.out")
[ "$cached" -ge "$n1" ] || bad "audit: a second run reused $cached of the $n1 cached claims"

[ $fail = 0 ] && echo "t-ctrl-c: ok ($(uptime | sed 's/.*load/load/'))"
exit $fail
