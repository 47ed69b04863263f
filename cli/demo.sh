#!/bin/sh
# demo.sh SLPI OUTDIR — the main job (`make demo`): integrate the stochastic rigid body
# with the stochastic isospectral midpoint method on both paths, print the certified
# results, compare the heavy top's Casimirs under TMK and the direct trapezoidal rule,
# and plot everything with gnuplot into OUTDIR (gnuplot-nox, which `make demo` installs as
# root; without it the plots are skipped, and the script says so).
set -eu
slpi=$1
out=$2
mkdir -p "$out"

echo "== slpi: what is available"
"$slpi" list | sed -n '1,12p'

echo
echo "== 1. Stochastic rigid body (ISO §6.1), IsoMP, fast path, h = 2^-8, T = 50"
"$slpi" run --preset iso/rigid-body/trajectories -o "$out/rigid-body.tsv"

echo
echo "== 2. The same problem, first 64 steps, certified path (Arb balls, 128 bits)"
"$slpi" run --preset iso/rigid-body/trajectories --steps 64 --ref -o "$out/rigid-body-ref.tsv"

echo
echo "== 3. Heavy top (RKMK §5, Figs. 4-5): Casimirs under TMK vs the direct trapezoidal rule, T = 100"
"$slpi" run --preset rkmk/heavy-top/casimirs-421 -o "$out/heavy-top-tmk.tsv"
"$slpi" run --preset rkmk/heavy-top/casimirs-421 --scheme trap-direct -o "$out/heavy-top-trap.tsv"

echo
echo "== 4. Plots"
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "plots skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
  echo "wrote $out/rigid-body.tsv, $out/rigid-body-ref.tsv, $out/heavy-top-tmk.tsv, $out/heavy-top-trap.tsv"
  exit 0
fi
col() { head -n 400 "$1" | grep -v '^#' | head -n 1 | tr '\t' '\n' | grep -n -x "$2" | cut -d: -f1; }
c1=$(col "$out/heavy-top-tmk.tsv" C1_dev)
c1t=$(col "$out/heavy-top-trap.tsv" C1_dev)
gnuplot <<GP
set terminal pngcairo size 900,700
set output "$out/rigid-body.png"
set title "Stochastic rigid body, IsoMP (h = 2^{-8}, T = 50): x(t) stays on the unit sphere"
set view 60, 30
set view equal xyz
set xyplane at -1
set parametric
set isosamples 24, 12
set urange [0:2*pi]; set vrange [-pi/2:pi/2]
set xlabel "x1"; set ylabel "x2"; set zlabel "x3"
splot cos(u)*cos(v), sin(u)*cos(v), sin(v) with lines lc rgb "#dddddd" notitle, \
      "< grep -v '^#' $out/rigid-body.tsv | tail -n +2" using 3:4:5 with lines lc rgb "#8000c0" title "x(t)"
set terminal svg size 900,700
set output "$out/rigid-body.svg"
replot
unset parametric
set terminal pngcairo size 900,500
set output "$out/heavy-top-casimirs.png"
set title "Heavy top, |gamma|^2 - |gamma_0|^2: TMK vs direct trapezoidal rule"
set xlabel "t"; set ylabel "C1(t) - C1(0)"
plot "< grep -v '^#' $out/heavy-top-tmk.tsv | tail -n +2" using 2:$c1 with lines title "TMK", \
     "< grep -v '^#' $out/heavy-top-trap.tsv | tail -n +2" using 2:$c1t with lines title "TRAP-DIRECT"
GP
echo "wrote $out/rigid-body.tsv, $out/rigid-body-ref.tsv, $out/heavy-top-tmk.tsv, $out/heavy-top-trap.tsv"
echo "plots: $out/rigid-body.png (.svg), $out/heavy-top-casimirs.png"
