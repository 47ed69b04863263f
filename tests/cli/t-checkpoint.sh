#!/bin/sh
# t-checkpoint.sh — checkpoint/resume of `slpi run` (core/checkpoint.c, core/run.c):
#  1. a checkpointed run writes the same bytes as a plain run;
#  2. a run killed by SIGTERM, and one killed by SIGKILL, after a checkpoint leave a
#     valid prefix of the uninterrupted output (whole lines), and --resume completes
#     it byte-identical to the uninterrupted run (fast path, decimal and hex rows);
#  3. the same for the ref path (balls restored exactly), resumed from a cut output, and
#     the resumed run's JSON summary counts (steps done, solver iterations, precision,
#     radius, clipped increments: carried across the checkpoint) are the uninterrupted
#     run's;
#  3a. rows at save_at times: a run resumed from a cut output is byte-identical;
#  3b. ISOMP's warm starts (warm_start=1|2) are carried by the checkpoint: a run resumed
#     from a cut output is byte-identical (hex rows, iterations column included);
#  3c. the solver counters a fast run writes in its rows (stagnated, capped) continue
#     across a resume (runs that stagnate or reach their cap on every step);
#  3d. the complex product the run formed (zgemm or zgemm3m) is recorded, and a resume
#     forms its products with it whatever this machine's cached choice, or is refused;
#  4. resuming is refused (exit 2, message naming the problem) for: an output locked by
#     another process (the output untouched; a fresh run onto it too, at its start and
#     at its rename), a checkpoint edited consistently (its step moved back, every
#     digest recomputed: the kept prefix's last row is not its row), another problem,
#     an altered output, a torn or edited checkpoint, another path, a missing output,
#     no --output, a bad --checkpoint-every.
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
fail=0; n=0
bad() { echo "t-checkpoint: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1

base="--preset iso/rigid-body/trajectories --steps 60000 -q"

# wait until FILE exists or the run $pid ended (no cap in seconds: a busy machine may
# give the run no processor for long), then a little longer so the run is mid-way
wait_for() {
  while [ ! -s "$1" ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
  [ -s "$1" ]
}

# prefix OUT FULL: OUT is a byte prefix of FULL (bytes_prefix), made of whole lines (is_prefix)
bytes_prefix() {
  size=$(wc -c < "$1")
  [ "$size" -gt 0 ] && head -c "$size" "$2" | cmp -s - "$1"
}
is_prefix() {
  bytes_prefix "$1" "$2" && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]
}

for hex in "" "--hex"; do
  "$slpi" run $base $hex -o "$tmp/full.tsv" || bad "plain run failed"
  n=$((n+1))
  "$slpi" run $base $hex -o "$tmp/ck.tsv" --checkpoint "$tmp/ck" --checkpoint-every 2000 \
    || bad "checkpointed run failed"
  cmp -s "$tmp/full.tsv" "$tmp/ck.tsv" || bad "checkpointed run ($hex) differs from the plain run"
  for sig in TERM KILL; do
    n=$((n+1))
    rm -f "$tmp/ck" "$tmp/part.tsv"
    "$slpi" run $base $hex -o "$tmp/part.tsv" --checkpoint "$tmp/ck" --checkpoint-every 2000 &
    pid=$!
    wait_for "$tmp/ck" || bad "no checkpoint appeared"
    sleep 0.2
    kill -s $sig $pid 2>/dev/null
    wait $pid; rc=$?
    if [ $rc -eq 0 ]; then echo "t-checkpoint: note: run ($sig$hex) finished before the signal"; fi
    # SIGTERM is handled (core/output.c), so the row being written is finished: whole
    # lines. SIGKILL can stop a row's one write(2) between two pages (Linux checks for a
    # fatal signal per page), so there the last line may be cut (core/run.c).
    if [ $sig = KILL ]; then
      bytes_prefix "$tmp/part.tsv" "$tmp/full.tsv" || bad "SIG$sig$hex: the killed output is not a prefix"
    else
      is_prefix "$tmp/part.tsv" "$tmp/full.tsv" || bad "SIG$sig$hex: the killed output is not a whole-line prefix"
    fi
    [ -e "$tmp/ck.tmp" ] && echo "t-checkpoint: note: SIG$sig left ck.tmp (never read)"
    "$slpi" run $base $hex -o "$tmp/part.tsv" --resume "$tmp/ck" --checkpoint "$tmp/ck" --checkpoint-every 2000 \
      || bad "SIG$sig$hex: resume failed"
    cmp -s "$tmp/full.tsv" "$tmp/part.tsv" || bad "SIG$sig$hex: resumed output differs from the uninterrupted run"
  done
done

# ref path: checkpoints every 7 steps, output cut inside a later row, resumed
n=$((n+1))
ref="--preset iso/rigid-body/trajectories --steps 40 --ref -q"
"$slpi" run $ref -o "$tmp/rfull.tsv" --json "$tmp/rfull.json" || bad "ref run failed"
"$slpi" run $ref -o "$tmp/rpart.tsv" --checkpoint "$tmp/rck" --checkpoint-every 7 || bad "ref checkpointed run failed"
cmp -s "$tmp/rfull.tsv" "$tmp/rpart.tsv" || bad "ref checkpointed run differs"
grep -q '^step 35$' "$tmp/rck" || bad "ref checkpoint is not at step 35"
size=$(wc -c < "$tmp/rpart.tsv")
head -c $((size - 100)) "$tmp/rfull.tsv" > "$tmp/rpart.tsv"
"$slpi" run $ref -o "$tmp/rpart.tsv" --resume "$tmp/rck" --json "$tmp/rpart.json" || bad "ref resume failed"
cmp -s "$tmp/rfull.tsv" "$tmp/rpart.tsv" || bad "ref resumed output differs"
nosec() { sed '/seconds"/d' "$1"; }   # (wall and CPU) the counts and the diagnostics (names, initial, final, max change)
grep -q '"steps_done": 40,' "$tmp/rfull.json" || bad "ref run's JSON summary: no steps_done 40"
[ "$(nosec "$tmp/rfull.json")" = "$(nosec "$tmp/rpart.json")" ] ||
  bad "ref resumed run's JSON summary differs: $(diff "$tmp/rfull.json" "$tmp/rpart.json" | grep -v seconds | head -6 | tr '\n' ' ')"
grep -q '"name": "H0"' "$tmp/rpart.json" || bad "ref resumed run's JSON summary names no diagnostics"

# save_at: rows at 4 times; checkpoints every 37 steps (the last at 296, after the row of
# step 192), the output cut inside the last row, resumed: the uninterrupted run's bytes
n=$((n+1))
sa="--preset iso/rigid-body/trajectories --steps 300 -q save_at=0.1015625,0.5,0.75,1.171875"
"$slpi" run $sa -o "$tmp/sfull.tsv" || bad "save_at run failed"
[ "$(grep -v '^#' "$tmp/sfull.tsv" | cut -f1 | tr '\n' ' ')" = "step 0 26 128 192 300 " ] ||
  bad "save_at rows: $(grep -v '^#' "$tmp/sfull.tsv" | cut -f1 | tr '\n' ' ')"
"$slpi" run $sa -o "$tmp/spart.tsv" --checkpoint "$tmp/sck" --checkpoint-every 37 || bad "save_at checkpointed run failed"
cmp -s "$tmp/sfull.tsv" "$tmp/spart.tsv" || bad "save_at checkpointed run differs"
head -c $(( $(wc -c < "$tmp/sfull.tsv") - 100 )) "$tmp/sfull.tsv" > "$tmp/spart.tsv"
"$slpi" run $sa -o "$tmp/spart.tsv" --resume "$tmp/sck" || bad "save_at resume failed"
cmp -s "$tmp/sfull.tsv" "$tmp/spart.tsv" || bad "save_at resumed output differs"

# fast path, summary printed: a resumed run prints the uninterrupted run's diagnostics table
# (it used to lose the diagnostics' names on resume, and crash printing them)
n=$((n+1))
fast="--preset iso/rigid-body/trajectories --steps 60"
"$slpi" run $fast -o "$tmp/ffull.tsv" > "$tmp/ffull.txt" || bad "fast run failed"
"$slpi" run $fast -o "$tmp/fpart.tsv" --checkpoint "$tmp/fck" --checkpoint-every 25 > /dev/null || bad "fast checkpointed run failed"
grep -q '^step 50$' "$tmp/fck" || bad "fast checkpoint is not at step 50"
"$slpi" run $fast -o "$tmp/fpart.tsv" --resume "$tmp/fck" > "$tmp/fpart.txt"; rc=$?
[ $rc -eq 0 ] || bad "fast resume with its summary printed: exit $rc"
cmp -s "$tmp/ffull.tsv" "$tmp/fpart.tsv" || bad "fast resumed output differs"
table() { sed -n '/diagnostic/,$p' "$1"; }
[ -n "$(table "$tmp/ffull.txt")" ] && [ "$(table "$tmp/ffull.txt")" = "$(table "$tmp/fpart.txt")" ] ||
  bad "fast resumed run's diagnostics table differs: $(diff "$tmp/ffull.txt" "$tmp/fpart.txt" | head -6 | tr '\n' ' ')"

# warm starts: Euler-Zeitlin N = 8 without noise (each warm step takes an iteration fewer
# than a cold one), checkpoints every 7 steps, the output cut inside a row after step 35
for ws in 1 2; do
  n=$((n+1))
  warm="system=euler-zeitlin scheme=isomp N=8 ic_lmax=4 noise=none h=0.25 steps=40 warm_start=$ws -q --hex"
  "$slpi" run $warm -o "$tmp/wfull.tsv" || bad "warm_start=$ws run failed"
  "$slpi" run $warm -o "$tmp/wpart.tsv" --checkpoint "$tmp/wck" --checkpoint-every 7 || bad "warm_start=$ws checkpointed run failed"
  grep -q '^step 35$' "$tmp/wck" || bad "warm_start=$ws checkpoint is not at step 35"
  size=$(wc -c < "$tmp/wpart.tsv")
  head -c $((size - 100)) "$tmp/wfull.tsv" > "$tmp/wpart.tsv"
  "$slpi" run $warm -o "$tmp/wpart.tsv" --resume "$tmp/wck" || bad "warm_start=$ws resume failed"
  cmp -s "$tmp/wfull.tsv" "$tmp/wpart.tsv" || bad "warm_start=$ws resumed output differs"
done

# the complex product (docs/install.md#products): the two write different last bits, so a
# checkpoint records the one its run formed and a resume forms its products with it, not
# with this machine's cached choice ($mine, measured into a cache folder of its own); a
# resume that SLPI_ZPRODUCT sends to the other product is refused; a run that formed none
# (rigid body) records none
n=$((n+1))
unset SLPI_ZPRODUCT
mine=$(SLPI_CACHE_DIR="$tmp/zc" "$slpi" list --system | sed -n 's/^products: *\(zgemm3*m*\) .*/\1/p')
case $mine in zgemm) other=zgemm3m ;; zgemm3m) other=zgemm ;; *) other=; bad "slpi list --system names no product" ;; esac
zp="system=euler-zeitlin scheme=isomp N=8 ic_lmax=4 noise=none h=0.25 steps=40 -q --hex"
SLPI_ZPRODUCT=$mine "$slpi" run $zp -o "$tmp/zmine.tsv" || bad "the run with $mine failed"
SLPI_ZPRODUCT=$other "$slpi" run $zp -o "$tmp/zfull.tsv" || bad "the run with $other failed"
cmp -s "$tmp/zmine.tsv" "$tmp/zfull.tsv" && bad "zgemm and zgemm3m wrote the same bits: the case below shows nothing"
SLPI_ZPRODUCT=$other "$slpi" run $zp -o "$tmp/zpart.tsv" --checkpoint "$tmp/zck" --checkpoint-every 7 ||
  bad "the checkpointed run with $other failed"
grep -q "^zproduct $other\$" "$tmp/zck" || bad "the checkpoint does not record zproduct $other"
head -c $(( $(wc -c < "$tmp/zfull.tsv") - 100 )) "$tmp/zfull.tsv" > "$tmp/zpart.tsv"
cp "$tmp/zpart.tsv" "$tmp/zcut.tsv"
SLPI_CACHE_DIR="$tmp/zc" "$slpi" run $zp -o "$tmp/zpart.tsv" --resume "$tmp/zck" || bad "the resume with the cached $mine failed"
cmp -s "$tmp/zfull.tsv" "$tmp/zpart.tsv" || bad "a resume formed its products with the cached $mine, not the recorded $other"
cp "$tmp/zcut.tsv" "$tmp/zpart.tsv"
SLPI_ZPRODUCT=$mine "$slpi" run $zp -o "$tmp/zpart.tsv" --resume "$tmp/zck" > "$tmp/zmsg" 2>&1; rc=$?
want="zck: the run formed its complex products with $other, and this process forms them with $mine (set by SLPI_ZPRODUCT)"
[ $rc -eq 2 ] && grep -qF "$want" "$tmp/zmsg" || bad "SLPI_ZPRODUCT=$mine resume: exit $rc, $(head -c 300 "$tmp/zmsg") (want exit 2, $want)"
cmp -s "$tmp/zcut.tsv" "$tmp/zpart.tsv" || bad "a resume refused for its product changed the output"
"$slpi" run --preset iso/rigid-body/trajectories --steps 60 -q -o "$tmp/rb.tsv" --checkpoint "$tmp/rbck" --checkpoint-every 25 ||
  bad "rigid-body checkpointed run failed"
grep -q '^zproduct' "$tmp/rbck" && bad "a rigid-body run recorded a complex product it never formed"

# the solver's counters are carried too: TMK on Euler-Zeitlin N = 8 with tol = 1e-14 of
# the step (tol_scale=step, h = 0.01) stagnates at the rounding level on every step, and
# with tol = 1e-16 and maxit=20 it reaches its cap on every step; the rows' stagnated
# and capped columns (running counts) and the JSON counts of the resumed run are the
# uninterrupted run's (a resume that dropped a count restarted its column at 0)
for c in stagnated:1e-14:60 capped:1e-16:20; do
  n=$((n+1))
  what=${c%%:*}; r=${c#*:}; tol=${r%%:*}; maxit=${r#*:}
  cnt="system=euler-zeitlin scheme=tmk N=8 ic_lmax=4 tol_scale=step tol=$tol maxit=$maxit on_cap=accept h=0.01 steps=40 output_every=1 -q --hex"
  "$slpi" run $cnt -o "$tmp/tfull.tsv" --json "$tmp/tfull.json" || bad "$what run failed"
  grep -q "\"$what\": 40" "$tmp/tfull.json" || bad "the $what run is not $what on its 40 steps: $(grep -o "\"$what\": [0-9]*" "$tmp/tfull.json")"
  rm -f "$tmp/tck"
  "$slpi" run $cnt -o "$tmp/tpart.tsv" --checkpoint "$tmp/tck" --checkpoint-every 7 || bad "$what checkpointed run failed"
  head -c $(( $(wc -c < "$tmp/tfull.tsv") - 100 )) "$tmp/tfull.tsv" > "$tmp/tpart.tsv"
  "$slpi" run $cnt -o "$tmp/tpart.tsv" --resume "$tmp/tck" --json "$tmp/tpart.json" || bad "$what resume failed"
  cmp -s "$tmp/tfull.tsv" "$tmp/tpart.tsv" || bad "$what run: resumed output differs: $(cmp "$tmp/tfull.tsv" "$tmp/tpart.tsv" 2>&1 | head -1)"
  [ "$(grep -o "\"$what\": [0-9]*" "$tmp/tpart.json")" = "\"$what\": 40" ] ||
    bad "$what run: resumed JSON count $(grep -o "\"$what\": [0-9]*" "$tmp/tpart.json") (want 40)"
done

# resume == uninterrupted, generated from the registry (`slpi list`): every applicable
# system x scheme with its default problem and solver settings (warm starts, predictors
# and carries as a user gets them; a model: a rigid body on so3 with a linear and a
# quadratic noise), and every preset (its own settings: Euler-Zeitlin's N = 128 with the
# default warm start, whose corrections are large enough that a carry rounded to a few
# digits changes the last bits). 40 steps, every row written, checkpoints every 7 steps,
# the output cut inside its last row, resumed: byte-identical (hex rows).
resume_same() {   # LABEL ARGS...
  label=$1; shift
  n=$((n+1))
  if ! "$slpi" run "$@" steps=40 output_every=1 -q --hex -o "$tmp/gfull.tsv" 2> "$tmp/gmsg"; then
    bad "$label: run failed: $(head -c 300 "$tmp/gmsg")"; return
  fi
  rm -f "$tmp/gck"
  "$slpi" run "$@" steps=40 output_every=1 -q --hex -o "$tmp/gpart.tsv" --checkpoint "$tmp/gck" \
    --checkpoint-every 7 || { bad "$label: checkpointed run failed"; return; }
  grep -q '^step 35$' "$tmp/gck" || bad "$label: checkpoint is not at step 35"
  size=$(wc -c < "$tmp/gfull.tsv")
  head -c $((size - 20)) "$tmp/gfull.tsv" > "$tmp/gpart.tsv"
  "$slpi" run "$@" steps=40 output_every=1 -q --hex -o "$tmp/gpart.tsv" --resume "$tmp/gck" || bad "$label: resume failed"
  cmp -s "$tmp/gfull.tsv" "$tmp/gpart.tsv" ||
    bad "$label: resumed output differs from the uninterrupted run: $(cmp "$tmp/gfull.tsv" "$tmp/gpart.tsv" 2>&1 | head -1)"
}
"$slpi" list > "$tmp/list"
cols=$(sed -n 's/^ *tmk /tmk /p' "$tmp/list" | head -1)
awk '/^applicability/ { f = 1; getline; next } f && NF == 0 { exit } f' "$tmp/list" > "$tmp/matrix"
pairs=0
while read -r sys cells; do
  i=0
  for cell in $cells; do
    i=$((i+1))
    [ "$cell" = N/A ] && continue
    sch=$(echo $cols | cut -d' ' -f$i)
    pairs=$((pairs+1))
    if [ "$sys" = model ]; then
      resume_same "$sys/$sch" system=model scheme=$sch algebra=so3 H=x1^2/2+x2^2+1.5*x3^2 \
        noise_H1=0.1*x1 noise_H2=0.1*x3^2 x0=1,0.5,0.2
    else
      resume_same "$sys/$sch" system=$sys scheme=$sch
    fi
  done
done < "$tmp/matrix"
presets=0
for pre in $(sed -n '/^presets/,$ s/^  \([a-z0-9/-]*\) .*/\1/p' "$tmp/list"); do
  presets=$((presets+1))
  resume_same "preset $pre" --preset "$pre"
done
[ $pairs -ge 40 ] && [ $presets -ge 40 ] || bad "only $pairs applicable pairs and $presets presets read from slpi list"
echo "t-checkpoint: resume == uninterrupted on $pairs system x scheme pairs (default settings) and $presets presets"

# refusals: expect PATTERN ARGS...: exit 2 and PATTERN in the message
expect() {
  pat=$1; shift; n=$((n+1))
  "$slpi" "$@" >"$tmp/msg" 2>&1; rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pat" "$tmp/msg"; then
    bad "slpi $* -> exit $rc, $(head -c 300 "$tmp/msg") (want exit 2 and /$pat/)"
  fi
}
cp "$tmp/full.tsv" "$tmp/x.tsv"   # last hex run: --hex full output
small="--preset iso/rigid-body/trajectories --steps 100 -q"
"$slpi" run $small -o "$tmp/s.tsv" --checkpoint "$tmp/sck" --checkpoint-every 30 || bad "small run failed"
cp "$tmp/s.tsv" "$tmp/s0.tsv"
expect "checkpoint is of another problem: it has seed=1, this run seed=2" run $small seed=2 -o "$tmp/s.tsv" --resume "$tmp/sck"
expect "written by the fast path" run $small --hex -o "$tmp/s.tsv" --resume "$tmp/sck"
sed 's/^0\t0\t/0\t0.0\t/' "$tmp/s0.tsv" > "$tmp/s.tsv"
expect "are not those the checkpoint" run $small -o "$tmp/s.tsv" --resume "$tmp/sck"
head -c 100 "$tmp/s0.tsv" > "$tmp/s.tsv"
expect "shorter than the" run $small -o "$tmp/s.tsv" --resume "$tmp/sck"
expect "nonexistent.tsv: cannot write" run $small -o "$tmp/nonexistent.tsv" --resume "$tmp/sck"
cp "$tmp/s0.tsv" "$tmp/s.tsv"
head -c 300 "$tmp/sck" > "$tmp/torn"
expect "torn:[0-9]*: a cut file: section .* holds [0-9]* of its" run $small -o "$tmp/s.tsv" --resume "$tmp/torn"
sed 's/^max_iters .*/max_iters 99/' "$tmp/sck" > "$tmp/edited"
expect "edited:2: section counts (lines 3-13) differs from its digest: an edited file" run $small -o "$tmp/s.tsv" --resume "$tmp/edited"
sed 's/^# slpi-checkpoint 2/# slpi-checkpoint 1/' "$tmp/sck" > "$tmp/v1"
expect "v1:1: slpi-checkpoint version 1: this slpi reads version 2 only; start again without resuming" \
  run $small -o "$tmp/s.tsv" --resume "$tmp/v1"
expect "cannot open" run $small -o "$tmp/s.tsv" --resume "$tmp/missing-ck"
expect "need --output" run $small --checkpoint "$tmp/c2"
expect "checkpoint-every 0: out of range \[1," run $small -o "$tmp/s2.tsv" --checkpoint "$tmp/c2" --checkpoint-every 0
expect "checkpoint-every x: not an integer" run $small -o "$tmp/s2.tsv" --checkpoint "$tmp/c2" --checkpoint-every x
expect "not a checkpoint" run $small -o "$tmp/s.tsv" --resume "$tmp/s0.tsv"
# a checkpoint edited consistently (FNV-1a is a checksum: its step moved back to 60, its
# out_bytes and out_digest to the output's prefix through row 60, its end digest
# and the sections' digests recomputed: tests/ckpt-reseal.py) would cut the output back to row 60 and go on from step 90's state: the
# kept prefix's last row must be the checkpoint's row, in its state; the output is kept
/usr/bin/python3 - "$tmp/sck" "$tmp/s0.tsv" "$tmp/forged" <<'PY'
import sys
def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
ck, out, forged = sys.argv[1:]
data = open(out, "rb").read()
end = data.index(b"\n61\t") + 1          # the bytes through row 60
lines = open(ck).read().splitlines()
body = []
for ln in lines[:-1]:
    k = ln.split(" ", 1)[0]
    body.append({"step": "step 60", "out_bytes": "out_bytes %d" % end,
                 "out_digest": "out_digest %016x" % fnv(data[:end])}.get(k, ln))
open(forged, "w").write("\n".join(body) + "\n")
PY
/usr/bin/python3 tests/ckpt-reseal.py "$tmp/forged"
cp "$tmp/s0.tsv" "$tmp/s.tsv"
expect "s.tsv: its first [0-9]* bytes do not end with the row of step 60 in the state the checkpoint" \
  run $small -o "$tmp/s.tsv" --resume "$tmp/forged"
cmp -s "$tmp/s0.tsv" "$tmp/s.tsv" || bad "a forged checkpoint's resume changed the output"
# a resume while another process holds the output's write lock (fcntl, as a live resumer
# holds it) is refused, and the output is left as it was
cp "$tmp/s0.tsv" "$tmp/s.tsv"
/usr/bin/python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "r+"); fcntl.lockf(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(120)' \
  "$tmp/s.tsv" > "$tmp/lockpy" &
lp=$!
while kill -0 $lp 2>/dev/null && ! grep -q locked "$tmp/lockpy"; do sleep 0.1; done
grep -q locked "$tmp/lockpy" || bad "the lock holder did not start"
expect "in use by another process" run $small -o "$tmp/s.tsv" --resume "$tmp/sck"
kill $lp 2>/dev/null; wait $lp 2>/dev/null
cmp -s "$tmp/s0.tsv" "$tmp/s.tsv" || bad "a resume refused for the lock changed the output"
cmp -s "$tmp/s.tsv" "$tmp/s0.tsv" || bad "a refused resume changed the output file"
# a fresh run onto an output another process holds locked is refused as a resume is:
# when it starts, and when the lock is taken while it runs (at the rename); the output is
# left as it was
lock_py='import fcntl, sys, time
f = open(sys.argv[1], "r+"); fcntl.lockf(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(120)'
/usr/bin/python3 -c "$lock_py" "$tmp/s.tsv" > "$tmp/lockpy2" &
lp=$!
while kill -0 $lp 2>/dev/null && ! grep -q locked "$tmp/lockpy2"; do sleep 0.1; done
expect "s.tsv: in use by another process (locked): not written" run $small seed=5 -o "$tmp/s.tsv"
kill $lp 2>/dev/null; wait $lp 2>/dev/null
cmp -s "$tmp/s.tsv" "$tmp/s0.tsv" || bad "a fresh run refused for the lock changed the output"
n=$((n+1))
"$slpi" run --preset iso/rigid-body/trajectories --steps 10000000 output_every=1000000 -q -o "$tmp/s.tsv" 2> "$tmp/late" & rp=$!
sleep 0.3
/usr/bin/python3 -c "$lock_py" "$tmp/s.tsv" > "$tmp/lockpy3" &
lp=$!
while kill -0 $lp 2>/dev/null && ! grep -q locked "$tmp/lockpy3"; do sleep 0.1; done
alive=0; grep -q locked "$tmp/lockpy3" && kill -0 $rp 2>/dev/null && alive=1   # locked while the run ran
wait $rp; rc=$?
kill $lp 2>/dev/null; wait $lp 2>/dev/null
if [ $alive -eq 0 ]; then
  echo "t-checkpoint: note: the run finished before the lock was taken: the rename-time lock case not run"
elif [ $rc -ne 2 ] || ! grep -q "s.tsv: in use by another process (locked): not replaced" "$tmp/late" ||
     ! cmp -s "$tmp/s.tsv" "$tmp/s0.tsv"; then
  bad "a lock taken while a fresh run ran: exit $rc, $(head -c 300 "$tmp/late") (want exit 2, not replaced, the output as it was)"
fi

echo "t-checkpoint: $n cases"
exit $fail
