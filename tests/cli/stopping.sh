# stopping.sh — what the tests that stop a command share (sourced by t-stop-signals.sh,
# t-stop-reports.sh and t-ctrl-c.sh): the seed's pseudo-random draws, the probes of a
# command's progress, and `stop`, which runs a command and sends a signal once a probe
# reaches a count. The test sets me (its name), tmp (its folder), seed (for draw), and bad() (a
# failure's message; it sets fail).

rng=$((${seed:-0}))
# draw N: r = the seed's next pseudo-random integer in 1..N (a 64-bit LCG, its high bits)
draw() {
  rng=$((rng * 6364136223846793005 + 1442695040888963407))
  r=$((((rng >> 33) & 2147483647) % $1 + 1))
}
# signal: sig = one of INT, TERM, HUP, drawn
signal() {
  draw 3
  sig=$(echo INT TERM HUP | cut -d' ' -f$r)
}

# probes of a command's progress (0 before any): bytes GLOB, the largest size of the
# files matching GLOB; count WHAT FILE, the last count N of "WHAT: N/" in FILE's progress
# lines; files GLOB, the number of files matching GLOB
bytes() {
  n=0
  for f in $1; do [ -f "$f" ] && s=$(wc -c < "$f") && [ "$s" -gt "$n" ] && n=$s; done
  echo "$n"
}
count() {
  { tr '\r' '\n' < "$2"; } 2>/dev/null | sed -n "s/.*$1: \([0-9]*\)\/.*/\1/p" | tail -1 | grep . || echo 0
}
files() {
  n=0
  for f in $1; do [ -f "$f" ] && n=$((n + 1)); done
  echo "$n"
}

# stop NAME SIG PROBE AT CMD...: run CMD (stdout NAME.out, stderr NAME.err) with the stop
# signals at their default, poll until `eval PROBE` prints at least AT (or CMD ended),
# send SIG (KILL too); sets rc and sent (1 if CMD was stopped by it). A caught signal must
# end CMD by its own poll with exit 130, SIGKILL with 137; a signal that lands after the
# last step finds no poll (exit 0: nothing to check).
stop() {
  name=$1 sig=$2 probe=$3 at=$4
  shift 4
  env --default-signal=INT,TERM,HUP "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pid=$!
  polls=0
  while kill -0 $pid 2>/dev/null && [ "$(eval "$probe")" -lt "$at" ]; do
    sleep 0.02
    polls=$((polls + 1))
  done
  sent=0
  kill -s "$sig" $pid 2>/dev/null && sent=1
  wait $pid
  rc=$?
  echo "$me: $name: SIG$sig at $at ($polls polls), exit $rc"
  [ $sent = 1 ] && [ $rc = 0 ] && sent=0
  if [ $sent = 0 ]; then
    echo "$me: $name: it ended before the signal (nothing to check)"
  elif [ "$sig" = KILL ]; then
    [ $rc = 137 ] || bad "$name: exit $rc after SIGKILL, not 137"
  elif [ $rc -ne 130 ]; then
    bad "$name: exit $rc after SIG$sig, not 130: $(tail -2 "$tmp/$name.err")"
  elif ! grep -q "interrupted" "$tmp/$name.err" "$tmp/$name.out"; then
    bad "$name: ended by the fallback, not by its own poll (no 'interrupted' message)"
  fi
}
