#!/bin/sh
# t-ensemble-checkpoint.sh — `slpi ensemble --checkpoint/--resume` (cli/ensemble-state.c,
# docs/api.md#ensembles): an ensemble of a two-point grid stopped by SIGTERM (or SIGINT)
# at a random point of its progress keeps a checkpoint, and --resume finishes with the
# report of the uninterrupted run, byte for byte (cmp), whatever the threads of either
# run. Three rounds; in one of them the resume is stopped too and resumed again; a fourth
# where only the stop writes the checkpoint of the point in hand. A stop keeps at least
# the paths the checkpoint held before it. The
# point of the stop is drawn from the printed seed (SLPI_TEST_SEED) as a count of paths
# that the checkpoint must hold first: the script polls the checkpoint file, never a
# fixed delay. Also refused (exit 2, naming why): a checkpoint of another ensemble
# (--paths), of another problem (a key), an altered checkpoint, and --checkpoint with
# --merge.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-ensemble-checkpoint: seed $seed (replay with SLPI_TEST_SEED=$seed)"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-ensemble-checkpoint: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
rng=$((seed))
draw() { # draw N: r = the seed's next pseudo-random integer in 1..N
  rng=$((rng * 6364136223846793005 + 1442695040888963407))
  r=$((((rng >> 33) & 2147483647) % $1 + 1))
}
# saved FILE: the paths a checkpoint holds, over its grid points (0: none yet)
saved() { awk '$1 == "point" { n += $4 } END { print n + 0 }' "$1" 2>/dev/null || echo 0; }

paths=$((40000 + seed % 1000))
E="--preset iso/rigid-body/trajectories steps=200 --save-every 50 --paths $paths --grid amp=0.1,0.2"
"$slpi" ensemble $E --threads 2 -o "$tmp/full.tsv" || bad "the uninterrupted run: exit $?"

# stop NAME SIG TARGET CMD...: run CMD, send SIG once the checkpoint holds TARGET paths;
# sets rc and sent
stop() {
  name=$1 sig=$2 target=$3
  shift 3
  env --default-signal=INT,TERM,HUP "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pid=$!
  while kill -0 $pid 2>/dev/null && [ "$(saved "$tmp/run.ck")" -lt "$target" ]; do sleep 0.02; done
  sent=0
  kill -s "$sig" $pid 2>/dev/null && sent=1
  wait $pid
  rc=$?
  # (a signal that lands after the last path is run finds no poll: the run ends with exit 0)
  [ $sent = 1 ] && [ $rc = 0 ] && sent=0 && echo "t-ensemble-checkpoint: $name: finished before the signal took effect"
  kept=$(saved "$tmp/run.ck")
  echo "t-ensemble-checkpoint: $name: SIG$sig once $target paths were saved: exit $rc, $kept saved"
  [ $sent = 1 ] && [ "$kept" -lt "$target" ] && bad "$name: the stop kept $kept paths, fewer than the $target saved before it"
  if [ $sent = 1 ] && [ $rc != 130 ]; then bad "$name: exit $rc after SIG$sig, not 130: $(tail -2 "$tmp/$name.err")"; fi
  if [ $sent = 1 ] && ! grep -q "continue with --resume" "$tmp/$name.err"; then
    bad "$name: the message does not say how to continue: $(tail -1 "$tmp/$name.err")"
  fi
}

for round in 1 2 3; do
  rm -f "$tmp/run.ck" "$tmp/part.tsv"
  draw 3; t1=$r; draw 3; t2=$r; draw $((2 * paths * 9 / 10)); at=$r
  sig=TERM; [ $round = 2 ] && sig=INT
  stop round$round $sig $at "$slpi" ensemble $E --threads $t1 --checkpoint "$tmp/run.ck" --checkpoint-every 1000 \
    -o "$tmp/part.tsv"
  [ $sent = 1 ] && [ -e "$tmp/part.tsv" ] && bad "round $round: an interrupted ensemble wrote its report"
  # the resume stopped too, later: past what the first stop kept (a target it already
  # holds would signal the resumed run before it has caught its signals)
  if [ $round = 3 ] && [ $((2 * paths - kept)) -gt 1 ]; then
    draw $((2 * paths - kept - 1)); at2=$((kept + r))
    stop round3-resume TERM $at2 "$slpi" ensemble $E --threads $t2 --resume "$tmp/run.ck" --checkpoint "$tmp/run.ck" \
      --checkpoint-every 1000 -o "$tmp/part.tsv"
  fi
  "$slpi" ensemble $E --threads $t2 --resume "$tmp/run.ck" -o "$tmp/part.tsv" 2> "$tmp/resume.err" ||
    bad "round $round: --resume: exit $?: $(cat "$tmp/resume.err")"
  cmp -s "$tmp/full.tsv" "$tmp/part.tsv" ||
    bad "round $round: the resumed report (threads $t1, then $t2) differs from the uninterrupted one"
  echo "t-ensemble-checkpoint: round $round: threads $t1 then $t2: the uninterrupted bytes"
done

# only the stop writes the checkpoint of the point in hand (--checkpoint-every above the
# paths: a checkpoint is written when grid point 0 is complete, and the signal follows)
rm -f "$tmp/run.ck" "$tmp/part.tsv"
stop stop-only TERM $paths "$slpi" ensemble $E --checkpoint "$tmp/run.ck" --checkpoint-every 1000000000 -o "$tmp/part.tsv"
[ $sent = 1 ] && ! grep -q "^point 1 " "$tmp/run.ck" && bad "stop-only: the stop wrote no checkpoint of grid point 1"
"$slpi" ensemble $E --resume "$tmp/run.ck" -o "$tmp/part.tsv" 2> "$tmp/resume.err" ||
  bad "stop-only: --resume: exit $?: $(cat "$tmp/resume.err")"
cmp -s "$tmp/full.tsv" "$tmp/part.tsv" || bad "stop-only: the resumed report differs from the uninterrupted one"

# refusals
refused() { # refused NAME PATTERN CMD...
  name=$1 pat=$2
  shift 2
  "$@" -o "$tmp/bad.tsv" > /dev/null 2> "$tmp/err"
  rc=$?
  { [ $rc = 2 ] && grep -q -- "$pat" "$tmp/err" && [ ! -e "$tmp/bad.tsv" ]; } ||
    bad "$name: exit $rc, not 2 with '$pat': $(cat "$tmp/err")"
}
refused "another --paths" "the checkpoint is of another ensemble" \
  "$slpi" ensemble $(echo "$E" | sed "s/--paths $paths/--paths $((paths + 1))/") --resume "$tmp/run.ck"
refused "another problem" "grid point 0 was run on another problem" "$slpi" ensemble $E seed=7 --resume "$tmp/run.ck"
sed '5s/ 0x1/ 0x2/' "$tmp/run.ck" > "$tmp/altered.ck"
refused "an altered checkpoint" "altered.ck:4: section points (lines 5-[0-9]*) differs from its digest" "$slpi" ensemble $E --resume "$tmp/altered.ck"
"$slpi" ensemble $E --paths 64 --state "$tmp/s.st" -o /dev/null 2>/dev/null
refused "--checkpoint with --merge" "--checkpoint: not with --merge" \
  "$slpi" ensemble $E --paths 64 --merge "$tmp/s.st" --checkpoint "$tmp/m.ck"

[ $fail = 0 ] && echo "t-ensemble-checkpoint: ok ($(uptime | sed 's/.*load/load/'))"
exit $fail
