#!/bin/sh
# t-mlmc-ckpt.sh — checkpoint/resume of `slpi mlmc` (studies/mlmc.c, "slpi-mlmc-checkpoint 2" in
# the container of core/container.c):
#  1. a checkpointed estimate (2 threads) prints the bytes of a plain one (1 thread);
#  2. an estimate killed by SIGKILL after its first round leaves a checkpoint, and --resume
#     (2 threads) prints the bytes of the uninterrupted estimate;
#  3. resuming with another rmse is refused (exit 2, naming rmse); so are an edited level
#     (naming the section state), a cut file (naming the section it ends in) and a
#     version-1 checkpoint; --rmse missing: exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-mlmc-ckpt: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
est="--preset iso/so3/weak-exact --phi x1 --levels 1..12 --rmse 0.003"

OMP_NUM_THREADS=1 "$slpi" mlmc $est --threads 1 > "$tmp/full.txt" 2>/dev/null || bad "plain estimate failed"
grep -q '^estimate ' "$tmp/full.txt" || bad "plain estimate printed no estimate"
OMP_NUM_THREADS=2 "$slpi" mlmc $est --threads 2 --checkpoint "$tmp/every.ck" > "$tmp/every.txt" 2>/dev/null \
  || bad "checkpointed estimate failed"
cmp -s "$tmp/full.txt" "$tmp/every.txt" || bad "a checkpointed estimate prints other bytes than a plain one"

OMP_NUM_THREADS=1 "$slpi" mlmc $est --threads 1 --checkpoint "$tmp/kill.ck" > /dev/null 2>&1 &
pid=$!
while ! grep -q '^rounds [1-9]' "$tmp/kill.ck" 2>/dev/null && kill -0 $pid 2>/dev/null; do sleep 0.05; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
grep -q '^rounds [1-9]' "$tmp/kill.ck" || bad "no checkpoint after a round"
OMP_NUM_THREADS=2 "$slpi" mlmc $est --threads 2 --resume "$tmp/kill.ck" > "$tmp/resumed.txt" 2>/dev/null \
  || bad "the resumed estimate failed"
cmp -s "$tmp/full.txt" "$tmp/resumed.txt" || bad "the resumed estimate prints other bytes"

"$slpi" mlmc --preset iso/so3/weak-exact --phi x1 --levels 1..12 --rmse 0.004 --resume "$tmp/every.ck" \
  > /dev/null 2> "$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q 'rmse=' "$tmp/err.txt" || bad "another rmse resumed: exit $rc, $(cat "$tmp/err.txt")"
# refuse NAME PATTERN FILE: --resume FILE exits 2 with a message matching PATTERN
refuse() {
  "$slpi" mlmc $est --resume "$3" > /dev/null 2> "$tmp/err.txt"
  rc=$?
  [ $rc -eq 2 ] && grep -q -- "$2" "$tmp/err.txt" || bad "$1: exit $rc, $(cat "$tmp/err.txt")"
}
sed 's/^level 0 \([0-9]*\) /level 0 1\1 /' "$tmp/every.ck" > "$tmp/edited.ck"
refuse "an edited level" "edited.ck:[0-9]*: section state (lines [0-9-]*) differs from its digest" "$tmp/edited.ck"
head -c 300 "$tmp/every.ck" > "$tmp/cut.ck"
refuse "a cut file" "cut.ck:[0-9]*: a cut file: section estimate holds [0-9]* of its" "$tmp/cut.ck"
printf 'slpi mlmc checkpoint 1\nrmse=0x1p-8\n' > "$tmp/v1.ck"
refuse "a version-1 checkpoint" "v1.ck:1: not a checkpoint: its first line is 'slpi mlmc checkpoint 1'" "$tmp/v1.ck"
"$slpi" mlmc --preset iso/so3/weak-exact > /dev/null 2> "$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q 'rmse' "$tmp/err.txt" || bad "no --rmse: exit $rc, $(cat "$tmp/err.txt")"
[ $fail -eq 0 ] && echo "t-mlmc-ckpt: PASS"
exit $fail
