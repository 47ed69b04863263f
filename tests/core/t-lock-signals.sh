#!/bin/sh
# t-lock-signals.sh — a signal that lands between creating a writer's lock file
# (".NAME.slpi-lock", core/output.c) and naming it pending, or between unlinking it and
# forgetting it, or between creating a temporary output (".NAME.slpi-PID-XXXXXX") and naming
# it pending, leaves no such file behind (docs/conventions.md#outputs). Those windows
# are a few system calls wide: signals sent from outside at random moments hit them only
# by chance (140 SIGTERMs into checkpointing runs never did), so a shim preloaded into
# `slpi` (compiled here from tests/core/sigwindow.c) raises the signal from inside the
# lock file's flock (the "take" window) or unlink (the "release" window), or from inside
# a temporary output's mkstemp (the "temp" window). For each window,
# each of SIGTERM, SIGHUP and SIGINT, and an output alone or with a checkpoint, the rule,
# fixed before the runs: the shim says it raised the signal, the run ends by it (130, the
# run's own stop, for each of the three since SIGTERM and SIGHUP stop a command as Ctrl-C
# does, docs/conventions.md#interrupt; or 0 when it lands after the last row), and no
# ".slpi-" file (a lock or a temporary output) is left in the folder.
# Each run starts with the three signals at their defaults (env --default-signal): a
# signal the caller ignores stays ignored (docs/conventions.md), as under nohup.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
slpi=${SLPI_BIN:-$build/slpi}
if nm "$slpi" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-lock-signals: SKIP: $slpi is built with AddressSanitizer, which a preloaded shim cannot precede"; exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O1 -shared -fPIC -o "$tmp/sigwindow.so" tests/core/sigwindow.c -ldl 2> "$tmp/cc.log" ||
  { echo "t-lock-signals: FAIL: cannot build the shim: $(head -3 "$tmp/cc.log")"; exit 1; }
fail=0 n=0
P="--preset iso/rigid-body/trajectories --steps 20 -q"
for window in take release temp; do
  for sig in 15 1 2; do
    for ck in "" "--checkpoint F.ck --checkpoint-every 5"; do
      n=$((n + 1))
      rm -rf "$tmp/d" && mkdir "$tmp/d"
      (cd "$tmp/d" && exec env --default-signal=INT,HUP,TERM SIGWINDOW=$window SIGWINDOW_SIG=$sig LD_PRELOAD="$tmp/sigwindow.so" \
        "$slpi" run $P -o F.tsv $ck > out 2> err)
      rc=$?
      what="$window window, signal $sig${ck:+, with a checkpoint}"
      left=$(ls -A "$tmp/d" | grep '\.slpi-')
      grep -q "sigwindow: signal $sig raised in the $window window" "$tmp/d/err" ||
        { echo "t-lock-signals: FAIL: $what: the shim raised nothing (exit $rc)"; fail=1; }
      case "$sig:$rc" in
        *:130 | *:0) ;;
        *) echo "t-lock-signals: FAIL: $what: exit $rc: $(tail -1 "$tmp/d/err")"; fail=1 ;;
      esac
      [ -z "$left" ] || { echo "t-lock-signals: FAIL: $what: left behind: $left"; fail=1; }
    done
  done
done
[ $fail -eq 0 ] && echo "t-lock-signals: $n runs, each signalled inside a lock or temporary file's window: no such file left"
exit $fail
