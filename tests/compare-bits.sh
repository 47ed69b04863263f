#!/bin/sh
# compare-bits.sh DIR "RUN_A" "RUN_B" — which outputs of two slpi builds differ in their
# bits (docs/install.md#bits): RUN_A and RUN_B are shell command prefixes that run a
# build's slpi (a path, or a chroot's). Both run the same commands: the canonical noise,
# every preset on the double path (40 steps, %a) and on the certified path (3 steps; the
# N = 128 preset left out); their data rows (not '#': headers name versions) are
# compared. DIR/bits.txt gets one line per output: "identical", or "differ" with the
# count of rows, and for the certified path whether the midpoints alone agree. Exit 1
# when an output's exit code differs between the builds.
dir=$1; run_a=$2; run_b=$3
mkdir -p "$dir/a" "$dir/b"
cmds="noise noise --seed 7 --path 0 --components 3 --h 0.01 --steps 2000"
for p in $(sh -c "$run_a list" | sed -n 's/^  \([a-z0-9-]*\/[a-z0-9/-]*\) .*/\1/p'); do
  n=$(echo "$p" | tr / _)
  cmds="$cmds
fast-$n run --preset $p --steps 40 --hex"
  [ "$p" = iso/zeitlin/long ] || cmds="$cmds
ref-$n run --preset $p --steps 3 --ref"
done
echo "$cmds" > "$dir/commands"
echo "$cmds" | while read -r name args; do
  sh -c "$run_a $args" > "$dir/a/$name" 2>/dev/null; echo "$?" > "$dir/a/$name.rc"
  sh -c "$run_b $args" > "$dir/b/$name" 2>/dev/null; echo "$?" > "$dir/b/$name.rc"
done
# rows that differ; for balls "mid +/- rad", rows whose midpoints differ
rows_differ() {
  grep -v '^#' "$1" > "$dir/rows.a"; grep -v '^#' "$2" > "$dir/rows.b"
  paste "$dir/rows.a" "$dir/rows.b" | awk -F'\t' -v mid="$3" '
  { n = NF / 2; d = 0
    for (i = 1; i <= n; i++) { a = $i; b = $(i + n); if (mid) { sub(/ *\+\/-.*/, "", a); sub(/ *\+\/-.*/, "", b) } if (a != b) d = 1 }
    c += d }
  END { print c + 0 }'; }
{
  echo "# A: $run_a ($(sed -n 's/^# \(arb\|openblas\|compiler\)=/\1 /p' "$dir/a/fast-iso_rigid-body_trajectories" | tr '\n' ';'))"
  echo "# B: $run_b ($(sed -n 's/^# \(arb\|openblas\|compiler\)=/\1 /p' "$dir/b/fast-iso_rigid-body_trajectories" | tr '\n' ';'))"
  echo "# data rows of each output compared; the commands: $dir/commands"
  echo "$cmds" | while read -r name args; do
    a="$dir/a/$name"; b="$dir/b/$name"
    if [ "$(cat "$a.rc")" != "$(cat "$b.rc")" ]; then echo "$name	exit $(cat "$a.rc") vs $(cat "$b.rc")"; continue; fi
    rows=$(grep -vc '^#' "$a")
    d=$(rows_differ "$a" "$b" 0)
    if [ "$d" = 0 ]; then echo "$name	identical	$rows rows"; continue; fi
    case $name in
      ref-*) echo "$name	differ	$d of $rows rows; midpoints differ in $(rows_differ "$a" "$b" 1)" ;;
      *) echo "$name	differ	$d of $rows rows" ;;
    esac
  done
} > "$dir/bits.txt"
! grep -q '	exit ' "$dir/bits.txt"
