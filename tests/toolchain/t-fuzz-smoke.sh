#!/bin/sh
# t-fuzz-smoke.sh — replays every fuzz corpus (tests/fuzz/corpus/NAME) through its
# harness (tests/fuzz/fuzz-NAME.c built with tests/fuzz/replay.c, no libFuzzer): each
# reader of external input meets its seeds and the cases the fuzzer once found.
set -u
build=${SLPI_BUILD:-build}
fail=0; n=0
for dir in tests/fuzz/corpus/*/; do
  name=$(basename "$dir")
  bin="$build/fuzz/replay-$name"
  n=$((n+1))
  if [ ! -x "$bin" ]; then echo "t-fuzz-smoke: FAIL: $bin not built" >&2; fail=1; continue; fi
  "$bin" "$dir"* > /dev/null || { echo "t-fuzz-smoke: FAIL: $name" >&2; fail=1; }
done
echo "t-fuzz-smoke: $n corpora replayed"
exit $fail
