#!/bin/sh
# t-mutants.sh — the mutation suite stays usable (`make mutants` itself is too slow for
# `make check`): every tests/mutants/*.patch has its header lines, names tests that
# exist and still applies to the tree (tests/mutants/run.sh --check, patch --dry-run),
# so that a change which makes a mutant stale is noticed at once; there are at least 40.
# Negative controls: a patch whose removed line is not in the tree, one without a
# killed-by/equivalent line and one with an unknown `# build:` are each reported.
set -u
command -v patch >/dev/null || { echo "t-mutants: SKIP: patch is not installed (as root: apt-get install patch; make check installs it)"; exit 77; }
fail=0
out=$(sh tests/mutants/run.sh --check 2>&1) || fail=1
echo "$out"
n=$(ls tests/mutants/*.patch | wc -l)
[ "$n" -ge 40 ] || { echo "t-mutants: only $n mutants (need >= 40)"; fail=1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$(ls tests/mutants/*.patch | head -1)
# a stale patch: its first removed line changed so that it matches nothing in the tree
awk '!done && /^-[^-]/ { print "-/* t-mutants: no such line */"; done = 1; next } { print }' "$p" > "$tmp/stale.patch"
# a patch without a killed-by or equivalent line
grep -v '^# killed-by:\|^# equivalent:' "$p" > "$tmp/headless.patch"
# a patch with a build the runner does not know
{ echo "# build: sanitised"; cat "$p"; } > "$tmp/badbuild.patch"
ctl=$(SLPI_MUTANTS_DIR=$tmp sh tests/mutants/run.sh --check 2>&1) && { echo "t-mutants: bad patches were accepted"; fail=1; }
echo "$ctl" | grep -q "stale.patch: STALE" || { echo "t-mutants: the stale control was not reported: $ctl"; fail=1; }
echo "$ctl" | grep -q "headless.patch: needs" || { echo "t-mutants: the headless control was not reported: $ctl"; fail=1; }
echo "$ctl" | grep -q "badbuild.patch: build: 'sanitised'" || { echo "t-mutants: the unknown build was not reported: $ctl"; fail=1; }
[ $fail -eq 0 ] && echo "t-mutants: $n mutants, all usable; controls reported"
exit $fail
