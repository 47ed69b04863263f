#!/bin/sh
# t-writers.sh — one writer per output (core/output.c, docs/conventions.md#outputs): a
# command that writes a regular file holds it from the moment it opens it, with or without
# --checkpoint, and a second writer of that file is refused with exit 2 ("in use by another
# process") before it writes anything: a fresh run, a checkpointed run, a resume, and
# the reports of noise, converge, ensemble, verify and golden. The holder's output is
# the holder's alone. The hold ends on every exit path: exit 0, 2 (an input error after
# the output was opened), 3 (a numerical failure), 130 (SIGINT and SIGTERM: the run's own stop, docs/conventions.md#interrupt) and 137
# (SIGKILL): after each, the next writer of the file runs (exit 0), and after every exit
# but SIGKILL no lock file (.NAME.slpi-lock) is left behind; the temporary file SIGKILL
# leaves, the next writer removes (nothing else). Rules fixed before the first
# run: exit codes and the message exactly as above; the held file byte for byte the
# holder's own. A resume onto a file that cannot be opened for update (a running program's
# file) is exit 2 naming the file, then the reason.
set -u
slpi=${SLPI_BIN:-./build/slpi}
d=$(mktemp -d)
h=
trap '[ -n "$h" ] && kill -KILL $h 2>/dev/null; rm -rf "$d"' EXIT
export OPENBLAS_NUM_THREADS=1
fail=0; n=0
bad() { echo "t-writers: FAIL: $*" >&2; fail=1; }
cd "$d" || exit 1
PL="--preset iso/rigid-body/trajectories"
P="$PL --steps 40"
LONG="$PL --steps 2000000000 output_every=1000000"   # hours: ended by a signal below

# wait_lock NAME: until .NAME.slpi-lock exists (the holder $h has opened NAME), or $h ended
wait_lock() {
  while [ ! -e ".$1.slpi-lock" ] && kill -0 $h 2>/dev/null; do sleep 0.05; done
  [ -e ".$1.slpi-lock" ] || bad "the holder of $1 never took its lock"
}
# stop SIG: send SIG to the holder $h and wait (at most 30 s, then SIGKILL); rc: its exit
stop() {
  kill -"$1" $h; i=0
  while kill -0 $h 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
  kill -KILL $h 2>/dev/null; wait $h; rc=$?; h=
}
# refused LABEL CMD...: exit 2 naming F as in use, F unchanged
refused() {
  label=$1; shift; n=$((n+1))
  cp F.tsv F.before 2>/dev/null || rm -f F.before
  "$slpi" "$@" > out 2> err; rc=$?
  [ $rc -eq 2 ] && grep -q "F.tsv: in use by another process (locked): not written" err ||
    bad "#$n $label: a second writer of F.tsv: exit $rc, $(head -c 300 err) (want 2, in use)"
  if [ -n "${streamed:-}" ]; then grep -q '^# steps=2000000000$' F.tsv || bad "#$n $label: F.tsv is not the holder's"
  elif [ -e F.before ]; then cmp -s F.tsv F.before || bad "#$n $label: the refused writer changed F.tsv"
  elif [ -e F.tsv ]; then bad "#$n $label: F.tsv appeared"; fi
}
# released LABEL: no lock file left, and a next writer of F.tsv runs
released() {
  n=$((n+1))
  [ -e .F.tsv.slpi-lock ] && [ "$1" != sigkill ] && bad "#$n $1: the lock file was left behind"
  "$slpi" run $P -q -o F.tsv 2> err || bad "#$n $1: the next writer of F.tsv: $(head -c 300 err)"
  [ -e .F.tsv.slpi-lock ] && bad "#$n $1: the next writer left its lock file"
}

# --- a fresh run without --checkpoint holds F.tsv; an earlier checkpointed run left it
"$slpi" run $PL --steps 100 -q -o F.tsv --checkpoint F.ck --checkpoint-every 50 || bad "the checkpointed run"
"$slpi" run $P -q -o G.tsv || bad "a run onto G.tsv"
env --default-signal=INT "$slpi" run $LONG -q -o F.tsv & h=$!
wait_lock F.tsv
refused "fresh run" run $P -q -o F.tsv
refused "checkpointed run" run $P -q -o F.tsv --checkpoint F2.ck
refused "resume" run $PL --steps 200 -q -o F.tsv --resume F.ck
refused "noise" noise --seed 1 --path 0 --components 3 --h 0.01 --steps 5 -o F.tsv
refused "converge" converge --preset iso/rigid-body/strong --levels 2..3 --ref 5 --paths 2 -o F.tsv
refused "converge --json" converge --preset iso/rigid-body/strong --levels 2..3 --ref 5 --paths 2 -o C.txt --json F.tsv
refused "ensemble" ensemble $PL steps=40 --paths 2 -o F.tsv
refused "verify" verify --local G.tsv -o F.tsv
refused "golden" golden --list -o F.tsv
[ -e F2.ck ] && bad "the refused checkpointed run wrote its checkpoint"
kill -0 $h 2>/dev/null || bad "the holder ended early"
stop INT
[ $rc -eq 130 ] || bad "the holder ended by SIGINT: exit $rc (want 130)"
grep -q '^# slpi-trajectory' F.tsv || bad "F.tsv is not the holder's kept prefix"
released sigint

# --- a checkpointed run holds F.tsv (its output published at the first checkpoint) too
rm -f F.ck
env --default-signal=INT "$slpi" run $LONG -q -o F.tsv --checkpoint F.ck --checkpoint-every 1000 & h=$!
wait_lock F.tsv
while [ ! -e F.tsv ] && kill -0 $h 2>/dev/null; do sleep 0.05; done   # published
streamed=1
refused "fresh run, holder checkpointed" run $P -q -o F.tsv
refused "resume, holder checkpointed" run $PL --steps 200 -q -o F.tsv --resume F.ck
streamed=
stop TERM
[ $rc -eq 130 ] || bad "the holder ended by SIGTERM: exit $rc (want 130)"
released sigterm

# --- the other exit paths: 0, 2 after the output was opened, 3, SIGKILL
"$slpi" run $P -q -o F.tsv || bad "exit 0 run"
released exit0
mkdir jd
"$slpi" converge --preset iso/rigid-body/strong --levels 2..3 --ref 5 --paths 2 -o F.tsv --json jd 2> err; rc=$?
[ $rc -eq 2 ] || bad "converge --json DIR: exit $rc (want 2): $(head -c 200 err)"
released exit2
"$slpi" run $PL --steps 500 maxit=2 -q -o F.tsv 2> err; rc=$?
[ $rc -eq 3 ] || bad "maxit=2: exit $rc (want 3): $(head -c 200 err)"
released exit3
env --default-signal=INT "$slpi" run $LONG -q -o F.tsv & h=$!
wait_lock F.tsv
dead=$h
while ! ls .F.tsv.slpi-$dead-?????? > /dev/null 2>&1 && kill -0 $h 2>/dev/null; do sleep 0.05; done
stop KILL
# what only SIGKILL leaves, its temporary file .F.tsv.slpi-PID-XXXXXX, the next writer of
# F.tsv removes (docs/conventions.md#stale); it keeps a live process's, look-alikes and
# another output's (G.tsv's, written by no one here)
left=$(ls .F.tsv.slpi-$dead-?????? 2> /dev/null)
[ -n "$left" ] || bad "SIGKILL left no temporary file .F.tsv.slpi-$dead-XXXXXX"
keep=".F.tsv.slpi-$$-abcdef .F.tsv.slpi-$dead-abcdefg .F.tsv.slpi-$dead-abcde .F.tsv.slpi-0$dead-abcdef
  .F.tsv.slpi-$dead-abc_ef .F.tsv.slpi-$dead-abcdef.x .F.tsv.slpi-XXXXXX .G.tsv.slpi-$dead-abcdef"
for f in $keep; do echo "not slpi's to remove" > $f; done
released sigkill
[ -e "$left" ] && bad "the next writer left the dead writer's temporary file $left"
for f in $keep; do [ -e $f ] || bad "the next writer of F.tsv removed $f"; done
rm -f .F.tsv.slpi-* .G.tsv.slpi-*

# --- a resume onto a file that cannot be opened for update (a running program's file:
# ETXTBSY, root included): exit 2 naming the file first, then the reason; its lock released
"$slpi" run $PL --steps 100 -q -o ck.tsv --checkpoint B.ck --checkpoint-every 50 || bad "the checkpointed run for B"
cp /bin/sleep B.tsv && chmod +x B.tsv
./B.tsv 60 & h=$!
while ! grep -q B.tsv /proc/$h/cmdline 2>/dev/null && kill -0 $h 2>/dev/null; do sleep 0.05; done
n=$((n+1))
"$slpi" run $PL --steps 200 -q -o B.tsv --resume B.ck 2> err; rc=$?
[ $rc -eq 2 ] && grep -q "^slpi run: B.tsv: cannot open for update: Text file busy" err ||
  bad "#$n resume onto a busy file: exit $rc, $(head -c 300 err) (want 2, 'B.tsv: cannot open for update: Text file busy')"
[ -e .B.tsv.slpi-lock ] && bad "#$n the refused resume left its lock file"
stop KILL

# --- two writers started together: one whole run's output, the other refused or later
"$slpi" run $PL --steps 20000 seed=1 -q -o one.tsv && "$slpi" run $PL --steps 20000 seed=2 -q -o two.tsv || exit 1
"$slpi" run $PL --steps 20000 seed=1 -q -o both.tsv 2> erra & a=$!
"$slpi" run $PL --steps 20000 seed=2 -q -o both.tsv 2> errb & b=$!
wait $a; ra=$?; wait $b; rb=$?; n=$((n+1))
case "$ra $rb" in
  "0 0"|"0 2"|"2 0") ;;
  *) bad "#$n concurrent writers: exit $ra and $rb (want 0 and 2, or both 0 one after the other)" ;;
esac
[ "$ra" = 2 ] && ! grep -q 'in use by another process' erra && bad "#$n: the refusal: $(cat erra)"
[ "$rb" = 2 ] && ! grep -q 'in use by another process' errb && bad "#$n: the refusal: $(cat errb)"
cmp -s both.tsv one.tsv || cmp -s both.tsv two.tsv || bad "#$n concurrent writers: the file is neither run's output"
ls -A | grep -q 'slpi-' && bad "files left behind: $(ls -A | grep slpi-)"

echo "t-writers: $n cases"
exit $fail
