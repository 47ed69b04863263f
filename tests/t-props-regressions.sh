#!/bin/sh
# t-props-regressions.sh — replay every saved counterexample of the property harness
# (tests/regressions/*.case, written by `slpi props --save tests/regressions`): each
# must pass now that the bug it found is fixed.
cd "$(dirname "$0")/.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
exec "$slpi" props --regressions tests/regressions
