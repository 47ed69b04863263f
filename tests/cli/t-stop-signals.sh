#!/bin/sh
# t-stop-signals.sh — SIGTERM, SIGHUP and SIGINT at random moments into the long commands
# (core/interrupt.c, docs/conventions.md#interrupt): each signal is handled as Ctrl-C is,
# so a batch scheduler's SIGTERM at its wall-time limit keeps what was done. Each case
# starts the command with the three signals at their default action (env
# --default-signal: this script may have inherited one ignored), waits for the command's
# own progress (bytes of its output, never a fixed delay: the machine may be busy) up to a
# random point drawn from the printed seed, sends the signal and checks:
#   - exit 130 and "interrupted" on standard error (its own poll, not the fallback);
#   - the output is a valid prefix of the uninterrupted output (byte for byte), or absent
#     where the command had not created it; no temporary or lock file is left;
#   - a file that existed before and that the command was not asked to write is intact;
#   - with --checkpoint, --resume finishes with the bytes of the uninterrupted run.
# Commands: run -o F (with and without --checkpoint; SIGTERM, SIGHUP, SIGINT), ensemble -o F
# over an existing F (no report, F as it was), converge --checkpoint (resumed to the
# uninterrupted bytes), mlmc --checkpoint (a drawn signal after a drawn round; resumed to
# the uninterrupted bytes), props (a drawn signal after a drawn number of groups; the
# report says where it stopped), noise -o F over an existing F (generating white and
# Ornstein-Uhlenbeck increments, and writing: F as it was); t-ensemble-checkpoint.sh stops
# ensembles with a checkpoint, t-stop-reports.sh sends the three signals into verify,
# golden and audit and SIGKILL into run, ensemble, golden --write and audit, and
# t-ctrl-c.sh sends SIGINT into props.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-stop-signals: seed $seed (replay with SLPI_TEST_SEED=$seed)"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-stop-signals: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
me=t-stop-signals
. tests/cli/stopping.sh
# prefix NAME FULL PART: PART is a non-empty prefix of FULL
prefix() {
  n=$(wc -c < "$3" 2>/dev/null || echo 0)
  [ "$n" -gt 0 ] || { bad "$1: no output kept"; return; }
  head -c "$n" "$2" | cmp -s - "$3" || bad "$1: the kept output is not a prefix of the uninterrupted one"
}
# leftovers NAME: no temporary or lock file in $tmp
leftovers() {
  left=$(find "$tmp" -name '.*.slpi-*' | head -3)
  [ -z "$left" ] || bad "$1: left behind: $left"
}

# ---- run -o F without --checkpoint: a valid prefix of F, as Ctrl-C keeps it
run="--preset iso/rigid-body/trajectories --steps 2000000 output_every=1000"
"$slpi" run $run -o "$tmp/full.tsv" -q || bad "run: the uninterrupted run failed"
full=$(wc -c < "$tmp/full.tsv")
echo "precious" > "$tmp/other.txt"
for sig in TERM HUP INT; do
  rm -f "$tmp/part.tsv"
  draw $((full * 4 / 5))
  stop run-$sig $sig "bytes '$tmp/.part.tsv.slpi-*-??????'" $r \
    "$slpi" run $run -o "$tmp/part.tsv" -q
  [ $sent = 1 ] && prefix run-$sig "$tmp/full.tsv" "$tmp/part.tsv"
  grep -q "part.tsv holds the rows written before it" "$tmp/run-$sig.err" || [ $sent = 0 ] ||
    bad "run-$sig: the message does not say what was kept"
  leftovers run-$sig
done

# ---- run with --checkpoint: the checkpoint resumes to the uninterrupted bytes
for sig in TERM HUP; do
  rm -f "$tmp/part.tsv" "$tmp/run.ck"
  draw $((full * 4 / 5))
  stop run-ck-$sig $sig "bytes '$tmp/part.tsv'" $r \
    "$slpi" run $run -o "$tmp/part.tsv" --checkpoint "$tmp/run.ck" --checkpoint-every 1000000 -q
  [ $sent = 1 ] && prefix run-ck-$sig "$tmp/full.tsv" "$tmp/part.tsv"
  "$slpi" run $run -o "$tmp/part.tsv" --resume "$tmp/run.ck" -q 2> "$tmp/resume.err" ||
    bad "run-ck-$sig: --resume failed: $(cat "$tmp/resume.err")"
  cmp -s "$tmp/full.tsv" "$tmp/part.tsv" || bad "run-ck-$sig: the resumed output differs from the uninterrupted run"
  leftovers run-ck-$sig
done

# ---- ensemble -o F without --checkpoint, F existing: no report, F as it was (the stop is
# sent once the progress line shows paths done)
E="--preset iso/rigid-body/trajectories steps=200 --save-every 50 --paths 400000"
for sig in TERM HUP; do
  echo "old report" > "$tmp/ens.tsv"
  stop ens-$sig $sig "bytes '$tmp/ens-$sig.err'" 1 "$slpi" ensemble $E --progress -o "$tmp/ens.tsv"
  [ "$(cat "$tmp/ens.tsv")" = "old report" ] || [ $sent = 0 ] || bad "ens-$sig: the existing report was replaced"
  leftovers ens-$sig
done

# ---- converge --checkpoint: SIGTERM once a checkpoint is written; the resume prints
# the uninterrupted study's bytes
study="--preset iso/rigid-body/weak --kind weak --levels 2..6 --ref 10 --paths 3000 --batches 80 --indep svi"
"$slpi" converge $study --threads 1 > "$tmp/study.txt" 2>/dev/null || bad "converge: the plain study failed"
rm -f "$tmp/conv.ck"
stop converge TERM "bytes '$tmp/conv.ck'" 1 "$slpi" converge $study --threads 1 --checkpoint "$tmp/conv.ck" --checkpoint-every 1
"$slpi" converge $study --threads 1 --resume "$tmp/conv.ck" > "$tmp/resumed.txt" 2>/dev/null || bad "converge: --resume failed"
cmp -s "$tmp/study.txt" "$tmp/resumed.txt" || bad "converge: the resumed study differs from the uninterrupted one"
leftovers converge

# ---- mlmc --checkpoint: a drawn signal once a drawn number of rounds is checkpointed;
# the resume prints the uninterrupted estimate's bytes
est="--preset iso/so3/weak-exact --phi x1 --levels 1..12 --rmse 0.003 --threads 1"
"$slpi" mlmc $est > "$tmp/mlmc.txt" 2>/dev/null || bad "mlmc: the plain estimate failed"
rounds() { sed -n 's/^nlev=[0-9]* rounds=\([0-9]*\).*/\1/p' "$1" 2>/dev/null | tail -1 | grep . || echo 0; }
signal
draw 4
rm -f "$tmp/mlmc.ck"
stop mlmc-$sig $sig "rounds '$tmp/mlmc.ck'" $r "$slpi" mlmc $est --checkpoint "$tmp/mlmc.ck"
"$slpi" mlmc $est --resume "$tmp/mlmc.ck" > "$tmp/mlmc-resumed.txt" 2>/dev/null || bad "mlmc-$sig: --resume failed"
cmp -s "$tmp/mlmc.txt" "$tmp/mlmc-resumed.txt" || bad "mlmc-$sig: the resumed estimate differs from the uninterrupted one"
leftovers mlmc-$sig

# ---- noise -o F over an existing F: at each moment a signal can land, exit 130 with
# "interrupted", F as it was, no temporary left. Generating: the first block takes minutes
# (refine 24, white and Ornstein-Uhlenbeck, whose recursion polls too), so a signal sent
# once the temporary exists lands in it. Writing: into a FIFO whose reader stops after
# 200000 bytes, so that the signal lands while the rows are written (the command cannot
# finish), then drains it (260 MB: seconds of writing, more than the one-second fallback,
# unless the write polls); and into F, at a drawn count of the temporary's bytes. (A
# signal after the last poll, in the rename, finds the file whole: exit 0.)
W="--seed 7 --path 1 --components 3 --h 0.01"
nf() { # nf NAME PROBE AT ARGS...: noise -o $tmp/n.noise (holding "old"), stopped by a drawn signal
  name=$1 probe=$2 at=$3
  shift 3
  echo old > "$tmp/n.noise"
  signal
  stop $name $sig "$probe" $at "$slpi" noise "$@" -o "$tmp/n.noise"
  [ "$(cat "$tmp/n.noise")" = old ] || [ $rc = 0 ] || bad "$name: the existing output was replaced"
  grep -q "nothing written, the output is as it was" "$tmp/$name.err" || [ $sent = 0 ] ||
    bad "$name: the message does not say that nothing was written"
  leftovers $name
}
nf noise-gen "files '$tmp/.n.noise.slpi-*-??????'" 1 $W --steps 4096 --refine 24
nf noise-ou "files '$tmp/.n.noise.slpi-*-??????'" 1 --preset iso/rigid-body/weak noise_tau=0.05 refine=24 steps=64
"$slpi" noise $W --steps 100000 -o "$tmp/full.noise" 2> /dev/null || bad "noise: the uninterrupted write failed"
draw $(($(wc -c < "$tmp/full.noise") * 4 / 5))
nf noise-write "bytes '$tmp/.n.noise.slpi-*-??????'" $r $W --steps 100000
mkfifo "$tmp/n.fifo"
{ head -c 200000 > /dev/null; : > "$tmp/read"; while [ ! -e "$tmp/sent" ]; do sleep 0.02; done; cat > /dev/null; } \
  < "$tmp/n.fifo" &
reader=$!
signal
env --default-signal=INT,TERM,HUP "$slpi" noise $W --steps 2000000 -o "$tmp/n.fifo" 2> "$tmp/noise-fifo.err" &
pid=$!
while kill -0 $pid 2> /dev/null && [ ! -e "$tmp/read" ]; do sleep 0.02; done
kill -s $sig $pid
: > "$tmp/sent"
wait $pid
rc=$?
wait $reader
echo "$me: noise-fifo: SIG$sig in the write, exit $rc"
[ $rc = 130 ] && grep -q "interrupted" "$tmp/noise-fifo.err" ||
  bad "noise-fifo: exit $rc after SIG$sig in the write, not 130 with 'interrupted': $(cat "$tmp/noise-fifo.err")"

# ---- props: a drawn signal once a drawn number of property x system groups is done; the
# report says where it stopped
signal
draw 3
stop props-$sig $sig "count systems '$tmp/props-$sig.err'" $r "$slpi" props --cases 1000 --progress
[ $sent = 0 ] || grep -q "^props: interrupted in [a-z_0-9-]* on [a-z-]*/[a-z-]* after [0-9]* groups" "$tmp/props-$sig.out" ||
  bad "props-$sig: the report does not say where it stopped"

[ "$(cat "$tmp/other.txt")" = precious ] || bad "a file no command was asked to write changed"
[ $fail = 0 ] && echo "t-stop-signals: ok ($(uptime | sed 's/.*load/load/'))"
exit $fail
