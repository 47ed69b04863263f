#!/bin/sh
# t-converge-ckpt.sh — checkpoint/resume of `slpi converge` (studies/converge.c; the batch
# checkpoint format "slpi-converge-checkpoint 2" of core/checkpoint.c):
#  1. a checkpointed study (every batch, 2 threads) prints the bytes of a plain one;
#  2. a study killed by SIGKILL mid-way (1 thread, then 2 threads) leaves a checkpoint
#     holding some of its batches, and --resume (with the other thread count, and under
#     mpirun -n 2 when build/mpi/slpi exists) prints the bytes of the uninterrupted study;
#  3. resuming is refused with exit 2 and "file:line:" for: another study parameter and
#     another problem key (naming the first differing one), a torn file, an edited row,
#     a run checkpoint, a missing file; bad --checkpoint-every, an unwritable checkpoint
#     (at once, before any batch) and --checkpoint under two MPI ranks: exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
mpibin="$b/mpi/slpi"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-converge-ckpt: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1

# 150 small batches (~2 s on one core): long enough to be killed mid-way
study="--preset iso/rigid-body/weak --kind weak --levels 2..6 --ref 10 --paths 3000 --batches 150 --indep svi"

OMP_NUM_THREADS=1 "$slpi" converge $study --threads 1 > "$tmp/full.txt" 2>/dev/null || bad "plain study failed"
[ -s "$tmp/full.txt" ] || bad "plain study printed nothing"

OMP_NUM_THREADS=2 "$slpi" converge $study --threads 2 --checkpoint "$tmp/every.ck" --checkpoint-every 1 \
  > "$tmp/every.txt" 2>/dev/null || bad "checkpointed study failed"
cmp -s "$tmp/full.txt" "$tmp/every.txt" || bad "a checkpointed study prints other bytes than a plain one"
grep -q '^done 150$' "$tmp/every.ck" || bad "the last checkpoint of a whole study does not hold its 150 batches"

# wait until the checkpoint FILE holds a completed batch (the first one, written before
# any work, holds none), or the study $pid ended
wait_for() {
  while ! grep -q '^done [1-9]' "$1" 2>/dev/null && kill -0 $pid 2>/dev/null; do sleep 0.05; done
  grep -q '^done [1-9]' "$1" 2>/dev/null
}

for t in 1 2; do
  r=$((3 - t))
  ck="$tmp/kill$t.ck"
  OMP_NUM_THREADS=$t "$slpi" converge $study --threads $t --checkpoint "$ck" --checkpoint-every 1 \
    > "$tmp/killed$t.txt" 2>/dev/null &
  pid=$!
  wait_for "$ck" || bad "threads $t: no checkpoint with a batch appeared"
  sleep 0.3
  kill -s KILL $pid 2>/dev/null
  wait $pid; rc=$?
  [ $rc -eq 0 ] && echo "t-converge-ckpt: note: the $t-thread study finished before SIGKILL"
  [ -s "$tmp/killed$t.txt" ] && [ $rc -ne 0 ] && bad "threads $t: a killed study printed a result"
  done=$(sed -n 's/^done //p' "$ck")
  echo "t-converge-ckpt: threads $t: killed with $done of 150 batches in the checkpoint"
  OMP_NUM_THREADS=$r "$slpi" converge $study --threads $r --resume "$ck" --checkpoint "$ck" \
    > "$tmp/resumed$t.txt" 2> "$tmp/resumed$t.err" || { bad "threads $t: resume failed"; cat "$tmp/resumed$t.err"; }
  cmp -s "$tmp/full.txt" "$tmp/resumed$t.txt" || bad "threads $t: the resumed study ($r threads) differs from the uninterrupted one"
done

mpirun="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp"
if command -v mpirun >/dev/null 2>&1 && [ -x "$mpibin" ]; then
  OMP_NUM_THREADS=1 OMPI_MCA_btl_vader_single_copy_mechanism=none $mpirun -n 2 "$mpibin" converge $study \
    --resume "$tmp/kill1.ck" -o "$tmp/mpi.txt" 2> "$tmp/mpi.err" || { bad "resume under mpirun -n 2 failed"; cat "$tmp/mpi.err"; }
  cmp -s "$tmp/full.txt" "$tmp/mpi.txt" || bad "the study resumed under mpirun -n 2 differs"
  OMPI_MCA_btl_vader_single_copy_mechanism=none $mpirun -n 2 "$mpibin" converge $study \
    --checkpoint "$tmp/mpi.ck" > /dev/null 2> "$tmp/mpi2.err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "one MPI rank" "$tmp/mpi2.err" || { bad "--checkpoint under two ranks: exit $rc"; cat "$tmp/mpi2.err"; }
else
  mpi_skipped="no mpirun or $mpibin: the resume under two MPI ranks was not checked (as root: apt-get install openmpi-bin libopenmpi-dev)"
fi

# refuse CASE PATTERN ARGS...: exit 2 and the message matches PATTERN
refuse() {
  what=$1 pat=$2; shift 2
  OMP_NUM_THREADS=1 "$slpi" converge "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pat" "$tmp/err.txt" || [ -s "$tmp/out.txt" ]; then
    bad "$what: exit $rc, expected 2 and '$pat':"; cat "$tmp/err.txt" >&2
  fi
}
ck="$tmp/every.ck"
refuse "another path count" "every.ck:9: the checkpoint is of another study: it has paths=3000, this study paths=3001" \
  $study --paths 3001 --resume "$ck"
refuse "another level range" "every.ck:7: .*it has kmax=6, this study kmax=5" $study --levels 2..5 --resume "$ck"
refuse "another seed" "every.ck:[0-9]*: .*it has problem.seed=1, this study problem.seed=2" $study seed=2 --resume "$ck"
head -c 5000 "$ck" > "$tmp/torn.ck"
refuse "a torn checkpoint" "torn.ck:[0-9]*: a cut file: section batches holds [0-9]* of its" $study --resume "$tmp/torn.ck"
sed '60s/0x1/0x3/' "$ck" > "$tmp/edited.ck"
refuse "an edited row" "edited.ck:[0-9]*: section batches (lines [0-9-]*) differs from its digest" $study --resume "$tmp/edited.ck"
printf '# slpi-checkpoint 2\narith fast\n' > "$tmp/run.ck"
refuse "a run checkpoint" "run.ck:1: not a checkpoint of format slpi-converge-checkpoint: its first line names slpi-checkpoint" $study --resume "$tmp/run.ck"
refuse "a missing checkpoint" "nothere.ck: cannot open" $study --resume "$tmp/nothere.ck"
refuse "checkpoint-every 0" "--checkpoint-every 0: out of range" $study --checkpoint "$tmp/x.ck" --checkpoint-every 0
refuse "an unwritable checkpoint" "nodir/x.ck: cannot write" $study --checkpoint "$tmp/nodir/x.ck"

[ $fail -eq 0 ] || exit 1
[ -z "${mpi_skipped:-}" ] || { echo "t-converge-ckpt: SKIP: $mpi_skipped; the rest passed"; exit 77; }
echo "t-converge-ckpt: ok (SIGKILL + resume byte-identical; 9 refusals)"
